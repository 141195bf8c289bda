""""Did it work?" on the designer's pages and in the plan (issue 26, item 3), for each
game's demo study (AppTest on a real SQLite file): the demo study's top rule confusion's
follow-up is started as version 2 (as the Confusion page's button starts it), simulated
testers play version 2, and then

- the "Did it work?" page of version 2 lists both versions with their testers and links,
  says what changed since version 1 (the follow-up experiment added), gives the targeted
  point's change from version 1 to each of version 2's arms with its always-valid
  interval and one of the defined verdicts, and draws the trajectory chart;
- the plan (the Design plan page and ``playtest report``'s plan) starts with the same:
  its ``family`` record and the Markdown's "What changed since version 1";
- a study without follow-ups says how to start one instead of an empty chart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics.did_it_work import Verdict
from analytics.report import report_markdown
from playtest import demo, follow_ups, page_results, services
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from tests.app.designer_support import demo_databases, designer_page, use_copy
from tests.app.test_confusion_follow_up import _study_id, _texts, _top_rule_point

GAMES = sorted(game_names())


@pytest.fixture(scope="module")
def families(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str, str]]:
    """Per game: a database whose demo study (10 testers) has a version 2 following up
    its top rule confusion, played by 8 simulated testers; the point and version 2's id."""
    made = {}
    for game, database in demo_databases(tmp_path_factory, GAMES, testers=10, seed=3).items():
        study_id = _study_id(game)
        point = _top_rule_point(database, study_id)
        engine = make_engine(f"sqlite:///{database}")
        try:
            started = follow_ups.start_proposed(engine, study_id, point)
            demo.generate(engine, 8, seed=4, study=started.study, workers=1)
        finally:
            engine.dispose()
        made[game] = (database, point, started.study.study_id)
    return made


@pytest.mark.parametrize("game", GAMES)
def test_the_follow_up_s_page_and_plan_say_whether_the_fix_worked(
    families: dict[str, tuple[Path, str, str]], game: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database, point, follow_up = families[game]
    use_copy(database, tmp_path, monkeypatch)
    first = _study_id(game)
    key = follow_ups.follow_up_key(point)

    at = designer_page("family", follow_up)
    shown = _texts(at) + "\n".join(str(t.value) for t in at.text)
    assert f"Version 2 of family {first}" in shown.replace("\\", "")
    assert "What changed since version 1" in shown
    assert f"Experiment {key} added" in shown
    versions = at.dataframe[0].value
    assert list(versions["Version"]) == [1, 2]
    assert list(versions["Study"]) == [first, follow_up]
    assert versions["Testers"].tolist()[1] == 8
    # the point's change from version 1 to each arm of version 2, with a defined verdict
    sentences = [line for line in shown.splitlines() if line.startswith("- v2 · ")]
    assert len(sentences) == 2, shown[-1500:]
    assert all("always-valid 95 % interval" in s or "no interval yet" in s for s in sentences)
    verdicts = {v.value for v in Verdict}
    assert all(s.rsplit(": ", 1)[-1] in verdicts for s in sentences), sentences
    assert len(at.get("plotly_chart")) == 1
    assert all(v.definition in shown for v in Verdict)  # each verdict defined on the page

    plan_page = designer_page("report", follow_up)
    assert "Version 2 of study family" in _texts(plan_page)

    engine = make_engine(f"sqlite:///{tmp_path / 'playtest.sqlite'}")
    try:
        report = page_results.plan(engine, follow_up).report
    finally:
        engine.dispose()
    family = report["family"]
    assert (family["family"], family["version"]) == (first, 2)
    (followed,) = family["did_it_work"]
    assert followed["point"] == point
    assert [c["after"] for c in followed["changes"]] == [
        f"v2 · {follow_ups.CONTROL}", f"v2 · {follow_ups.CHALLENGER}"]
    markdown = report_markdown(report)
    assert markdown.index("What changed since version 1") < markdown.index("## Confusion")


def test_a_study_without_follow_ups_says_how_to_start_one(
    families: dict[str, tuple[Path, str, str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database, _, _ = families[GAMES[0]]
    use_copy(database, tmp_path, monkeypatch)
    engine = make_engine(f"sqlite:///{tmp_path / 'playtest.sqlite'}")
    try:
        services.create_study(engine, title="Alone", study_id="alone",
                              config=services.study_config(repo.get_study(  # type: ignore[arg-type]
                                  engine, _study_id(GAMES[0]))).model_copy(
                                  update={"experiments": []}))
    finally:
        engine.dispose()
    at = designer_page("family", "alone")
    assert "This study has no follow-up yet" in "\n".join(str(i.value) for i in at.info)
    assert at.get("plotly_chart") == []
