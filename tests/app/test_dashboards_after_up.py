"""Every game's dashboard is complete right after ``playtest up`` and after a demo or an
import, and the numbers agree (issue 23, items 5 and 6).

``playtest up`` runs for real (its demo of every game's study, the snapshots and page
results it leaves), only the server it would start is not. Then, for every demo study:

- every designer page renders its game's analyses: no chart the study's events fill says
  "No data yet", no section of the plan is empty that the events fill, and the kept
  confusion page equals what the events give; the same once the pages are computed from
  the snapshot (no kept result: e.g. after an upgrade) and after a ``playtest demo``;
- "completed" is one number: the Studies page, the Overview's funnel, the plan and
  ``playtest report`` agree, also with testers imported without the thank-you page;
- no answer to a question that asks for problems is listed under what works, and the
  advice names each game's refusal reasons and the questions by their text.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from sqlalchemy.engine import Engine

from analytics import confusion
from analytics.game_analytics import for_study
from analytics.metrics import completed_participants
from playtest import demo, page_results, study_snapshot
from playtest.app_pages.empty import NO_DATA, figure_is_empty, figure_title
from playtest.cli import main as cli_main
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from playtest.storage.exchange import export_jsonl
from playtest.study_data import load_bundle
from playtest.study_snapshot import PAGES_FOLDER, snapshot_folder, study_folder, with_game
from playtest.survey_items import annotate
from tests.app.designer_support import designer_page

TESTERS = 12
PAGES = ("overview", "confusion", "questionnaires", "experiments", "report")


class _Started(Exception):
    """What the patched ``os.execvp`` raises: ``playtest up`` would start the app here."""


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder where ``playtest up --testers 12`` ran (as a designer would start it)."""
    folder = tmp_path_factory.mktemp("lab")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.setenv("DATABASE_URL", f"sqlite:///{folder / 'playtest.sqlite'}")
        patch.delenv("PLAYTEST_CACHE_DIR", raising=False)
        # (serving sets uvicorn's FORWARDED_ALLOW_IPS before its exec: undone after)
        patch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")

        def started(*args: Any) -> None:
            raise _Started(args)

        patch.setattr(os, "execvp", started)
        with pytest.raises(_Started):
            cli_main(["up", "--testers", str(TESTERS)])
        yield folder


@pytest.fixture
def engine(lab: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    monkeypatch.chdir(lab)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{lab / 'playtest.sqlite'}")
    made = make_engine(f"sqlite:///{lab / 'playtest.sqlite'}")
    yield made
    made.dispose()


def _study_ids(engine: Engine) -> dict[str, str]:
    """Each game's demo study (the one ``playtest up`` filled)."""
    found = {study.game: study.study_id for study in repo.list_studies(engine)}
    assert set(found) == set(game_names()) and demo.DEMO_STUDY_ID in found.values()
    return found


def _direct(engine: Engine, study_id: str) -> Any:
    """The study read and derived from its events (no snapshot, no kept result)."""
    bundle = load_bundle(engine, study_id)
    annotate(with_game(bundle.data))
    return bundle


def _shown(at: Any) -> list[str]:
    return [str(e.value) for e in [*at.markdown, *at.info, *at.caption, *at.warning,
                                   *at.text]]


def _check_pages(engine: Engine, game: str, study_id: str) -> None:
    """Every designer page of the study shows its game's analyses."""
    direct = _direct(engine, study_id)
    data = direct.data
    plugin = for_study(data)
    assert plugin.name == game
    filled_charts = {figure_title(figure) for figure in
                     (chart.build(data) for chart in plugin.charts)
                     if not figure_is_empty(figure)}
    assert filled_charts, "the demo fills some chart of the game"
    report = page_results.plan(engine, study_id).report
    for page in PAGES:
        at = designer_page(page, study_id)
        shown = _shown(at)
        assert not any("no tester has taken part" in text for text in shown), page
        empty = [text for text in shown if text.startswith(f"{NO_DATA}:")]
        for title in filled_charts:
            assert not any(title in text for text in empty), (page, title, empty)
        if page == "report":
            for section in plugin.sections:
                if section.rows(data, 10, 5):
                    assert report.get(section.key), section.key
                    assert (section.empty or "No data yet.") not in shown, section.key
    page_results.wait_for_updates()  # a page computed now keeps its result in a thread
    kept = page_results.load_head(engine, study_id).result("confusion")
    assert kept is not None
    for section in plugin.sections:
        if section.frame is not None:
            expected = section.frame(data)
            assert len(kept["frames"][section.key]) == len(expected), section.key
    assert [p.id for p in kept["points"]] == [p.id for p in confusion.confusion_points(data)]


@pytest.mark.parametrize("game", game_names())
def test_every_page_has_its_game_s_analyses_right_after_up(engine: Engine, game: str) -> None:
    _check_pages(engine, game, _study_ids(engine)[game])


@pytest.mark.parametrize("game", game_names())
def test_pages_computed_from_the_snapshot_have_them_too(engine: Engine, game: str) -> None:
    """No kept page result (an upgrade's new code, a new state): the pages compute from
    the snapshot, whose tables hold everything the game's analyses read."""
    study_id = _study_ids(engine)[game]
    root = snapshot_folder(engine)
    assert root is not None
    shutil.rmtree(study_folder(root, study_id) / PAGES_FOLDER, ignore_errors=True)
    st.cache_resource.clear()  # a new server process: nothing of the study in memory
    study_snapshot.forget()
    _check_pages(engine, game, study_id)


@pytest.mark.parametrize("game", game_names())
def test_after_a_demo_the_pages_have_them_too(engine: Engine, game: str) -> None:
    study_id = _study_ids(engine)[game]
    assert cli_main(["demo", "--testers", "2", "--seed", "9", "--study", study_id]) == 0
    _check_pages(engine, game, study_id)


def _quitters(engine: Engine, study_id: str, folder: Path) -> Path:
    """Two testers copied from one who finished, without the thank-you (nor the survey
    after) page, as an exchange file: an import stores their stage as done."""
    export = folder / f"{study_id}.jsonl"
    export_jsonl(engine, study_id, export)
    records = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    done = next(r["participant_id"] for r in records if r["record"] == "event"
                and r["type"] == "page" and r["props"].get("page") == "done")
    lines = [r for r in records if r["record"] in ("study", "survey")]
    for number in (1, 2):
        copy = f"quit-{number}-{study_id}"
        seq = 0
        for record in records:
            if record.get("participant_id") != done or record["record"] in ("response",):
                continue
            if record["record"] == "event":
                if record["type"] == "page" and record["props"].get("page") in (
                        "post_survey", "done"):
                    continue
                seq += 1
                record = {**record, "seq": seq, "session_id": f"{copy}-s",
                          "game_id": record.get("game_id") and f"{copy}-{record['game_id']}"}
                if isinstance(record["props"].get("game_id"), str):
                    record["props"] = {**record["props"],
                                       "game_id": f"{copy}-{record['props']['game_id']}"}
            record = {**record, "participant_id": copy}
            record.pop("completion_code", None)
            lines.append(record)
    path = folder / f"quitters-{study_id}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("game", game_names())
def test_completed_is_one_number_everywhere(engine: Engine, game: str, lab: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    study_id = _study_ids(engine)[game]
    assert cli_main(["import", str(_quitters(engine, study_id, lab))]) == 0
    data = _direct(engine, study_id).data
    completed = len(completed_participants(data))
    quitters = {pid for pid in data.participants["participant_id"] if pid.startswith("quit-")}
    assert len(quitters) == 2 and not quitters & completed_participants(data)
    # the plan, as `playtest report` writes it and says it
    capsys.readouterr()
    out = lab / f"plan-{game}.md"
    assert cli_main(["report", "--study", study_id, "--out", str(out), "--force"]) == 0
    assert f"{completed} completed" in capsys.readouterr().out
    assert page_results.plan(engine, study_id).report["completed"] == completed
    # the Overview's funnel: testers who reached the thank-you page
    at = designer_page("overview", study_id)
    funnel = at.dataframe[0].value
    assert int(funnel.loc[funnel["step"] == "Done", "reached"].iloc[0]) == completed
    # the Studies page: its metric for this study
    at = designer_page("studies", study_id)
    studies = [s.study_id for s in repo.list_studies(engine)]
    values = [m.value for m in at.metric if m.label == "Completed"]
    assert int(values[studies.index(study_id)]) == completed


@pytest.mark.parametrize("game", game_names())
def test_problem_answers_are_never_praise_and_advice_is_the_game_s(engine: Engine,
                                                                    game: str) -> None:
    study_id = _study_ids(engine)[game]
    report = page_results.plan(engine, study_id).report
    data = _direct(engine, study_id).data
    polarity = data.study.get("text_polarity") or {}
    labels = data.study.get("text_labels") or {}
    assert not [row for row in report["what_works"] if polarity.get(row["item"]) == "problem"]
    for point in report["confusion_points"]:
        if point["id"].startswith("rule:"):
            assert point["action"] != confusion.GENERIC_RULE_ACTION, point["id"]
        if point["id"].startswith("survey:"):
            item = point["id"].split(":", 1)[1]
            assert item not in point["label"] and labels[item] in point["label"]
            assert item not in point["action"]
