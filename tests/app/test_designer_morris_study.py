"""A Bricks & Walls study on the designer's pages: the confusion page and the report
show the game's own sections (points, removal hesitation), never another game's."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.games.morris.catalog import REFUSAL_REASONS
from playtest.storage.exchange import import_jsonl
from tests.analytics.test_morris_analytics import hand_morris_study

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _import_morris_study(db: Engine, folder: Path) -> None:
    data = hand_morris_study()
    lines = [{"record": "study", **data.study}]
    lines += [{"record": "participant", "study_id": "m", "participant_id": pid,
               "created_at": created.isoformat(), "consented_at": created.isoformat()}
              for pid, created in zip(data.participants["participant_id"],
                                      data.participants["created_at"], strict=True)]
    lines += [{"record": "event", "participant_id": row["participant_id"],
               "session_id": row["session_id"], "seq": int(row["seq"]),
               "at": row["at"].isoformat(), "type": row["type"], "props": row["props"],
               "game_id": row["game_id"]} for row in data.events.to_dict("records")]
    path = folder / "morris.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    report = import_jsonl(db, path)
    assert report.added["event"] == len(data.events), report.summary()


def _page(name: str) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = name
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_confusion_page_shows_the_morris_sections(db: Engine, tmp_path: Path) -> None:
    _import_morris_study(db, tmp_path)
    at = _page("confusion")
    headings = [h.value for h in at.subheader]
    assert "Clicks per point" in headings and "Wall and removal hesitation" in headings
    assert "Hardest multiplication facts" not in headings
    frames = [frame.value for frame in at.dataframe]
    points = next(f for f in frames if "Point" in f.columns)
    assert len(points) == 24
    assert points.set_index("Point").loc["d7", "Wrong"] == 1
    hesitation = next(f for f in frames if "Measure" in f.columns)
    assert hesitation.set_index("Measure").loc["removal", "Median (s)"] == 3.0
    # the refusal as the play screen words it, never the engine's key (walled)
    assert points.set_index("Point").loc["g7", "Most frequent refusal"] == \
        "That brick is in a wall: take another one."
    shown = {str(v) for f in frames for column in f.columns
             if f[column].dtype == object for v in f[column]}
    assert not shown & set(REFUSAL_REASONS), shown & set(REFUSAL_REASONS)


def test_the_report_page_speaks_of_the_morris_game(db: Engine, tmp_path: Path) -> None:
    _import_morris_study(db, tmp_path)
    at = _page("report")
    definition = "\n".join(str(c.value) for c in at.caption)
    assert "decision of the tester's" in definition and "roll" not in definition
