"""What the designer's pages say, checked in AppTest on real SQLite files: the checks the
browser tests made by reading the page (they moved here; what only a browser shows stays
in tests/browser/test_designer_seen.py).

- Vapoosh!'s demo study as ``playtest up`` leaves it (results kept by
  ``study_snapshot.refresh``): the Confusion page draws its five charts from the kept
  results (the 12×12 boards were once taken for empty), the Questionnaires page pairs
  expectation with experience, the Experiments page's forest plot says what is too small
  to act on, and every table names its columns for people.
- A study with no experiment says so on the Experiments page.
- A Dokusen course with an A/B test of one stage: per-stage table and chart, the
  refusal reasons, the plan's ranked points and the experiment.
- A planted Bricks & Walls study: its points board and hesitation, the engine's refusal
  reasons ranked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import import_jsonl
from playtest.study_config import StudyConfig, parse_study_config
from playtest.study_snapshot import refresh
from tests.app.designer_support import designer_page, use_copy

COURSE = ["S1", "S2", "S3", "S4", "S5", "S6", "S7"]


def _planted_morris_lines() -> list[dict[str, Any]]:
    """A planted Bricks & Walls study (30 testers) as exchange-format lines."""
    from tests.analytics.morris_planted import planted_morris_study

    data = planted_morris_study(30, seed=3)
    lines: list[dict[str, Any]] = [{"record": "study", **data.study}]
    lines += [{"record": "participant", "study_id": data.study["study_id"],
               "participant_id": pid, "created_at": at.isoformat(),
               "consented_at": at.isoformat()}
              for pid, at in zip(data.participants["participant_id"],
                                 data.participants["created_at"], strict=True)]
    lines += [{"record": "event", **{k: row[k] for k in ("participant_id", "session_id",
                                                         "type", "props", "game_id")},
               "seq": int(row["seq"]), "at": row["at"].isoformat()}
              for row in data.events.to_dict("records")]
    return lines


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file: Vapoosh!'s demo study with 12 testers and its results kept (as
    ``playtest up`` leaves it), an empty study, a Dokusen course with an experiment (30
    testers) and a planted Bricks & Walls study (30)."""
    folder = tmp_path_factory.mktemp("contents")
    path = folder / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    study = demo.ensure_demo_study(engine)
    demo.generate(engine, 12, seed=3, workers=1)
    refresh(engine, study.study_id)
    services.create_study(engine, title="Nobody yet", study_id="empty", config=StudyConfig())
    config = parse_study_config({
        "game": "dokusen", "rules": {"stages": COURSE}, "games_per_tester": 6,
        "experiments": [{"key": "s4_limit", "target": "rules", "variants": {
            "A": {"stages": COURSE},
            "B": {"stages": COURSE, "changes": {"S4": {"maxRounds": 3}}}}}]})
    course = services.create_study(engine, title="Dokusen stages", config=config,
                                   study_id="dk")
    demo.generate(engine, 30, seed=3, study=course, workers=1)
    planted = folder / "morris.jsonl"
    planted.write_text("\n".join(json.dumps(line) for line in _planted_morris_lines()) + "\n",
                       encoding="utf-8")
    import_jsonl(engine, planted)
    engine.dispose()
    return path


@pytest.fixture
def page(filled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``page(name, study)``: the designer's page of that study on a copy of ``filled``."""
    use_copy(filled, tmp_path, monkeypatch)
    return designer_page


def _charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _chart_titles(at: AppTest) -> list[str]:
    return [str((c["layout"].get("title") or {}).get("text")) for c in _charts(at)]


def _column_labels(at: AppTest, column: str) -> list[str]:
    """The headers a person reads on the page's table that has ``column`` (the column
    configuration's label where it gives one, else the column's name)."""
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        labels = [str(config.get(str(c), {}).get("label", c)) for c in frame.value.columns]
        if column in frame.value.columns or column in labels:
            return labels
    raise AssertionError(f"no table with a column {column!r}")


def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.markdown, *at.caption, *at.info,
                                            *at.subheader])


def test_kept_confusion_results_still_draw_the_boards_and_the_facts(page: Any) -> None:
    """Was tests/browser/test_demo_studies_as_up_leaves_them.py (kept heatmaps) and
    test_vapoosh_confusion_seen.py (the page's sections)."""
    at = page("confusion", demo.DEMO_STUDY_ID)
    assert "Hardest multiplication facts" in [h.value for h in at.subheader]
    assert "Clicks per point" not in _texts(at)
    titles = _chart_titles(at)
    assert titles == ["Wrong clicks by class", "Rule wrong clicks by reason",
                      "Wrong clicks per tile", "Median hesitation when the tile is the answer",
                      "Hardest multiplication facts"]
    for title in titles[2:4]:
        assert f"No data yet: {title}" not in _texts(at)
    boards = [c for c in _charts(at) if c["data"][0].get("type") == "heatmap"]
    assert len(boards) == 2 and all(board["data"][0].get("z") for board in boards)


def test_the_questionnaires_page_pairs_expectation_with_experience(page: Any) -> None:
    """Was tests/browser/test_designer_pages_seen.py::test_overview_questionnaires_and_balance
    and test_demo_studies_as_up_leaves_them.py (the scores' interval defined)."""
    at = page("questionnaires", demo.DEMO_STUDY_ID)
    assert "Expectation (pre) against experience (post)" in [h.value for h in at.subheader]
    captions = " ".join(str(c.value) for c in at.caption)
    assert "One pair per tester who answered both" in captions
    assert "mean score with its 95 % confidence interval" in captions


def test_score_quiz_and_funnel_tables_name_their_columns_for_people(page: Any) -> None:
    """Column keys (``ci_low``, ``drop_off_rate``, ``share_correct``) were shown as they
    are. Was tests/browser/test_demo_studies_as_up_leaves_them.py."""
    funnel = _column_labels(page("overview", demo.DEMO_STUDY_ID), "Step")
    assert {"Drop-off share", "Median time"} <= set(funnel), funnel
    at = page("questionnaires", demo.DEMO_STUDY_ID)
    scores = _column_labels(at, "Instrument")
    assert {"Mean", "95 % low", "95 % high", "Std. dev."} <= set(scores), scores
    quiz = _column_labels(at, "Quiz question")
    assert "Share correct" in quiz, quiz
    pairs = _column_labels(at, "Measure")
    for headers in (funnel, scores, quiz, pairs):
        assert not [h for h in headers if "_" in h], headers


def test_the_forest_plot_says_what_is_too_small_to_act_on(page: Any) -> None:
    """Was tests/browser/test_demo_studies_as_up_leaves_them.py (the browser keeps the
    check that its text stays inside the chart on a phone)."""
    at = page("experiments", demo.DEMO_STUDY_ID)
    charts = _charts(at)
    assert len(charts) == 2
    for chart in charts:
        assert "too small to act on" in chart["layout"]["xaxis"]["title"]["text"]


def test_a_study_without_experiments_says_so(page: Any) -> None:
    """Was tests/browser/test_designer_pages_seen.py::test_an_empty_study_says_no_data_yet
    (its other pages: tests/app/test_designer_empty_and_filled_pages.py)."""
    at = page("experiments", "empty")
    assert "This study has no experiments. Add them on the Studies page." in [
        str(i.value) for i in at.info]
    assert _charts(at) == []


def test_a_dokusen_course_shows_its_stages_and_refusal_reasons(page: Any) -> None:
    """Was tests/browser/test_dokusen_designer_pages.py."""
    at = page("confusion", "dk")
    frames = [f.value for f in at.dataframe]
    stages = next(f for f in frames if "First-attempt win rate (95 %)" in f.columns)
    assert list(stages["Stage"])[:3] == ["S1", "S2", "S3"]  # testers got past stage 1
    assert any("Refused because the tester" in f.columns and len(f) for f in frames)
    assert "Per stage: win rate, rounds, fresh flips" in [h.value for h in at.subheader]
    captions = " ".join(str(c.value) for c in at.caption)
    assert "First-attempt win rate: among testers whose first game" in captions
    assert "Fresh flip: a tester's placement" in captions
    assert _chart_titles(at) == ["Refused clicks by reason", "Per stage, with 95 % intervals"]
    plan = page("report", "dk")
    assert "Ranked confusion points" in [h.value for h in plan.subheader]
    assert "Per stage: win rate, rounds, fresh flips" in [h.value for h in plan.subheader]
    experiments = page("experiments", "dk")
    assert [h.value for h in experiments.subheader] == ["s4_limit · rules"]


def test_a_planted_bricks_and_walls_study_ranks_the_engine_s_reasons(page: Any) -> None:
    """Was tests/browser/test_morris_analytics_seen.py (its sections on hand-made data:
    tests/app/test_designer_morris_study.py)."""
    at = page("confusion", "planted-morris")
    headings = [h.value for h in at.subheader]
    assert "Clicks per point" in headings and "Wall and removal hesitation" in headings
    assert "Hardest multiplication facts" not in headings
    assert len(_charts(at)) == 3  # refused clicks by reason, points, hesitation
    ranked = at.dataframe[0].value
    assert "Rule not understood: occupied" in set(ranked["Confusion point"])
