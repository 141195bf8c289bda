"""A tester deleted while their tab is open (issue 25 item 6), in every game.

Before: the tab's next click on the board raised ``NotFound`` in the board's callback,
which ran before any page could catch it: Streamlit's error box, and the deleted code in
the server's output. Now the next click, whichever board and whichever way (a callback,
a play fragment, a whole page), gets the calm page "This link no longer works", this
browser forgets the tester (its cookie), and the server's output holds nothing of them.
A real server, the tester's websocket, and each board's own event.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from faults_support import make_study
from served_app import Shown, pressed, serve, visit
from sqlalchemy import select
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.loadtest import _trigger
from playtest.app_pages import trouble
from playtest.games.registry import game_names, game_plugin
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import ParticipantRow
from playtest.storage.privacy import delete_participant

PARTICIPANTS = ParticipantRow.__table__  # type: ignore[attr-defined]


def _stamp(token: str) -> dict[str, Any]:
    return {"nonce": uuid.uuid4().hex, "ms": 40, "via": "mouse", "token": token}


def board_event(game: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A well-formed first input on ``game``'s board shell (its kind and fields): the
    draw its tester's button makes (a roll of the dice), else a click on a target the
    rules take at the start."""
    plugin = game_plugin(game)
    stamp = _stamp(str(data.get("token", "")))
    state = plugin.make_game(plugin.default_rules, len(plugin.default_seats)
                             ).new_initial_state()
    if plugin.chance_by is not None and plugin.chance_by(state) is not None:
        return "draw", stamp
    return "click", {"target": state.legal_targets()[0], **stamp}


def _consent(page: Shown) -> list[WidgetState]:
    return [WidgetState(id=page.widget("consent_agree"), bool_value=True),
            pressed(page.widget("FormSubmitter:consent"))]


@pytest.mark.parametrize("game", game_names())
def test_a_deleted_testers_next_click_gets_the_calm_page(tmp_path: Path, game: str) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    url = f"sqlite:///{folder / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    study = make_study(engine, audience="adults", pre_survey=None, game=game)
    served = serve(folder, {"DATABASE_URL": url})
    deleted: list[str] = []

    def delete_then_click(page: Shown) -> list[WidgetState]:
        assert page.boards, page.text()
        with engine.connect() as conn:
            (code,) = conn.execute(select(PARTICIPANTS.c.participant_id)).scalars()
        delete_participant(engine, code)  # the designer deletes them meanwhile
        deleted.append(code)
        board_id, data = next(iter(page.boards.items()))
        event, payload = board_event(game, data)
        return [_trigger(board_id, event, payload)]

    try:
        pages = visit(served.url, f"study={study.study_id}", [_consent, delete_then_click])
    finally:
        served.stop()
        engine.dispose()
    gone = pages[-1]
    assert trouble.GONE_TITLE in gone.text() and not gone.exceptions, gone.text()
    assert not gone.boards and not gone.widgets  # nothing left to click or to store
    assert f"playtest_tester_{study.study_id}=; Max-Age=0" in gone.text()  # cookie gone
    output = served.output()
    assert deleted and deleted[0] not in output and "Uncaught" not in output, output[-2000:]
