"""Two tabs of one tester against a real server, over Streamlit's websocket protocol.

Tab A rolls and places; tab B, still showing the board before A's placement, clicks the
other rolled tile. Before the fix B's click was stored as ``ok`` (282 correct clicks for
141 placements in the race test); now every ``ok`` click is a placement of the record and
B's clicks are stored as ``stale``.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path
from typing import Any

import websockets
from async_run import run_async
from sqlalchemy import select

from benchmarks import loadtest
from benchmarks.devserver import start_streamlit
from playtest.storage import repository as repo
from playtest.storage.models import EventRow

EVENTS = EventRow.__table__  # type: ignore[attr-defined]
ROUNDS = 8


def _ws(url: str) -> Any:
    return websockets.connect(url.replace("http://", "ws://", 1) + "/_stcore/stream",
                              subprotocols=[websockets.Subprotocol("streamlit")],
                              max_size=None, open_timeout=loadtest.RERUN_TIMEOUT_S)


def _click(run: loadtest.RunResult, index: int) -> list[Any]:
    assert run.board is not None and run.board_id is not None
    value = {"target": f"{index % 12 + 1},{index // 12 + 1}", "nonce": str(uuid.uuid4()),
             "ms": 900, "via": "mouse", "token": run.board["token"]}
    return [loadtest._trigger(run.board_id, "click", value)]


async def _race(url: str) -> tuple[str, int]:
    """Returns the tester's code and how many clicks tab B sent on a stale board."""
    rng = random.Random(3)
    stale_clicks = 0
    async with _ws(url) as ws_a:
        tab_a = loadtest.StreamlitSession(ws_a, f"study={loadtest.STUDY_ID}")
        run_a = await loadtest._consent(tab_a, await tab_a.rerun())
        code = tab_a.query_string.split("p=", 1)[1]
        for _ in range(ROUNDS):
            assert run_a.board is not None and run_a.board_id is not None
            if run_a.board.get("phase") == "over":
                break
            if run_a.board["phase"] == "roll":
                run_a = await tab_a.rerun([loadtest._trigger(
                    run_a.board_id, "draw", {"nonce": str(uuid.uuid4()), "ms": 500,
                                             "via": "mouse", "token": run_a.board["token"]})])
                continue
            # Tab B opens now: it shows the same place phase as tab A.
            async with _ws(url) as ws_b:
                tab_b = loadtest.StreamlitSession(ws_b, f"p={code}")
                run_b = await tab_b.rerun()
                assert run_b.board is not None and run_b.board["phase"] == "place"
                options = list(run_a.board["hl"])
                first = loadtest._pick_tile(run_a.board, set(), rng)
                run_a = await tab_a.rerun(_click(run_a, first))
                other = [i for i in options if i != first] or options
                await tab_b.rerun(_click(run_b, other[0]))
                stale_clicks += 1
    return code, stale_clicks


def test_a_stale_tabs_click_over_the_protocol_is_stale(tmp_path: Path) -> None:
    url, engine = loadtest.prepare_database(tmp_path / "race.sqlite")
    server = start_streamlit(loadtest.APP, {"DATABASE_URL": url}, tmp_path)
    try:
        code, sent_stale = run_async(asyncio.wait_for(_race(server.url), 180))
    finally:
        server.stop()
    with engine.connect() as conn:
        clicks = [r[0] for r in conn.execute(
            select(EVENTS.c.props).where(EVENTS.c.participant_id == code)
            .where(EVENTS.c.type == "click").order_by(EVENTS.c.event_id))]
    human_placements = sum(1 for record in repo.list_games(engine, code)
                           for n, a in enumerate(record.actions)
                           if a[0] in ("place", "brown") and _seat_of(record, n) == 1)
    ok = [c for c in clicks if c["ok"]]
    stale = [c for c in clicks if c.get("stale")]
    print(f"\nstale tab: {len(clicks)} clicks stored, {len(ok)} ok, {len(stale)} stale, "
          f"{human_placements} placements by the tester; {sent_stale} sent from tab B")
    assert sent_stale >= 2
    assert len(ok) == human_placements
    # Every click B sent on its stale board is stored as stale: right or wrong on that
    # board, it is neither a right answer nor a mistake of the tester's.
    assert len(stale) == sent_stale
    assert all(c["ok"] is False and "wrong_kind" not in c for c in stale)


def _seat_of(record: Any, index: int) -> int:
    """The seat that made action ``index`` of a record (replayed)."""
    from engine.vapoosh import Rules, VapooshGame, action_from_json

    state = VapooshGame(Rules.from_obj(record.rules),
                        players=len(record.seats)).new_initial_state()
    for action in record.actions[:index]:
        state.apply(action_from_json(action))
    return int(state.to_move)
