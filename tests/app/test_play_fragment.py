"""The play screen's board is an ``st.fragment``: over Streamlit's own websocket protocol
(the load test's client, which sends a widget's fragment id as the browser does), a roll
reruns the board alone, and a roll made on a board another tab has played past reruns
the whole app, which resumes the game from the database.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from sqlalchemy import func, select

from benchmarks import loadtest
from benchmarks.devserver import start_streamlit
from playtest.storage.models import GameActionRow

actions = GameActionRow.__table__  # type: ignore[attr-defined]


def _roll(board: dict[str, Any]) -> dict[str, Any]:
    return {"nonce": str(uuid.uuid4()), "ms": 900, "via": "mouse", "token": board["token"]}


async def _two_tabs(url: str) -> tuple[loadtest.RunResult, ...]:
    async with loadtest._connect(url) as ws_a:
        tab_a = loadtest.StreamlitSession(ws_a, f"study={loadtest.STUDY_ID}")
        first_a = await loadtest._consent(tab_a, await tab_a.rerun())
        code = parse_qs(tab_a.query_string)["p"][0]
        async with loadtest._connect(url) as ws_b:
            tab_b = loadtest.StreamlitSession(ws_b, f"p={code}")  # the same link, a 2nd tab
            first_b = await tab_b.rerun()
            assert first_a.board is not None and first_a.board_id is not None
            assert first_b.board is not None and first_b.board_id is not None
            rolled_a = await tab_a.rerun(
                [loadtest._trigger(first_a.board_id, "draw", _roll(first_a.board))],
                source=first_a.board_id)
            rolled_b = await tab_b.rerun(  # on tab B's board, which is now out of date
                [loadtest._trigger(first_b.board_id, "draw", _roll(first_b.board))],
                source=first_b.board_id)
    return first_a, first_b, rolled_a, rolled_b


def test_a_roll_reruns_the_board_alone_and_an_outdated_tab_reloads_the_page(
    tmp_path: Path,
) -> None:
    url, engine = loadtest.prepare_database(tmp_path / "play.sqlite")
    server = start_streamlit(loadtest.APP, {"DATABASE_URL": url}, tmp_path)
    try:
        first_a, first_b, rolled_a, rolled_b = loadtest.run_coroutine(_two_tabs(server.url))
    finally:
        server.stop()
    assert first_a.board is not None and first_b.board is not None
    assert first_a.board["phase"] == first_b.board["phase"] == "roll"
    assert not first_a.fragment_run and not first_b.fragment_run  # page loads: full runs
    # The roll reran the board's fragment only: the board moved on to placing.
    assert rolled_a.fragment_run and not rolled_a.exceptions
    assert rolled_a.board is not None and rolled_a.board["phase"] == "place"
    # Tab B's roll came too late: nothing of it is stored, and the app ran as a whole,
    # showing the game as tab A left it (its roll, its dice), read from the database.
    assert not rolled_b.fragment_run and not rolled_b.exceptions
    assert rolled_b.board is not None
    for field in ("phase", "owners", "dice", "hl"):
        assert rolled_b.board.get(field) == rolled_a.board.get(field), field
    with engine.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(actions)).scalar_one()
    engine.dispose()
    assert stored == 1  # tab A's roll, once
