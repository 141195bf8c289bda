"""The Monitor page on each game's demo study: testers who consented through the app are
in their step now and started in the last hour; one who reaches the thank-you page is
finished and no longer in a step; every number defined."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.games.registry import games
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from tests.app.tester_support import consent_on_page

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _monitor(study_id: str) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "monitor"
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = study_id
    return at.run()


def _metrics(at: AppTest) -> dict[str, int]:
    return {m.label: int(m.value) for m in at.metric}


@pytest.mark.parametrize("game", [plugin.name for plugin in games()])
def test_the_monitor_follows_each_game_s_demo_study(db: Engine, game: str) -> None:
    study = services.create_study(db, title=f"{game} live", study_id=f"live-{game}",
                                  config=demo.game_demo_config(game))
    empty = _monitor(study.study_id)
    assert not empty.exception, empty.exception
    assert _metrics(empty)["In the study now"] == 0
    assert "Nobody is taking part right now." in [m.value for m in empty.markdown]
    codes = []
    for _ in range(2):
        at = consent_on_page(study.study_id, "An adult (18 or over)")
        assert not at.exception, at.exception
        codes.append(str(at.query_params["p"][0] if isinstance(at.query_params["p"], list)
                         else at.query_params["p"]))
    at = _monitor(study.study_id)
    assert _metrics(at) == {"In the study now": 2, "Started in the last hour": 2,
                            "Finished in the last hour": 0}
    assert all(m.help for m in at.metric)
    steps = at.dataframe[0].value  # the steps table comes first
    assert steps["Testers"].sum() == 2
    # One tester reaches the thank-you page.
    session = repo.start_session(db, codes[0])
    EventLogger(db).log(session, codes[0], "page", {"page": "done"}, f"{session}:done")
    at = _monitor(study.study_id)
    assert _metrics(at) == {"In the study now": 1, "Started in the last hour": 2,
                       "Finished in the last hour": 1}
    times = at.dataframe[1].value
    assert len(times) >= 1 and (times["Testers"] >= 1).all()
