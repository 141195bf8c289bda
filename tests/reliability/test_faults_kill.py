"""``kill -9`` of the server while testers play, then a restart (issue 11, reliability).

Real ``streamlit run`` processes on one SQLite file; testers speak Streamlit's websocket
protocol (``benchmarks.loadtest``). An action is *acknowledged* when its rerun finished (the
app stores an action before it draws the answer). After the kill the testers come back
with their resume links on a new server and play on. Checked: every acknowledged roll and
click is stored exactly once, an unacknowledged one at most once, no session's ``seq`` has
a gap, and every resumed board is the replay of its stored record. The figures are printed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import websockets
from async_run import run_async
from sqlalchemy import Engine, select

from benchmarks import loadtest
from benchmarks.devserver import StreamlitServer, start_streamlit
from engine.vapoosh import Rules, VapooshGame, action_from_json
from playtest.games.vapoosh.view import board_view
from playtest.storage import repository as repo
from playtest.storage.models import EventRow, SessionRow

EVENTS = EventRow.__table__  # type: ignore[attr-defined]
SESSIONS = SessionRow.__table__  # type: ignore[attr-defined]
TESTERS = 4
KILL_AFTER = 30  # acknowledged actions, all testers together
TURNS_AFTER = 4


@dataclass
class SimTester:
    number: int
    code: str = ""
    acked: list[str] = field(default_factory=list)  # nonces of acknowledged actions
    unacked: list[str] = field(default_factory=list)  # sent, no answer (the server died)
    resumed_owners: str | None = None
    expected_owners: str | None = None
    errors: list[str] = field(default_factory=list)


def _ws(url: str) -> Any:
    return websockets.connect(url.replace("http://", "ws://", 1) + "/_stcore/stream",
                              subprotocols=[websockets.Subprotocol("streamlit")],
                              max_size=None, open_timeout=loadtest.RERUN_TIMEOUT_S)


async def _act(session: loadtest.StreamlitSession, run: loadtest.RunResult, tester: SimTester,
               rng: random.Random, tried: dict[str, set[int]]) -> loadtest.RunResult:
    """One roll or click (or "Play another game"), tracked as acknowledged or not."""
    board, board_id = run.board, run.board_id
    if board is None or board_id is None or board.get("phase") == "over":
        more = run.widgets.get("play_more")
        if more is None:
            raise loadtest.LoadTestError("game over without 'Play another game'")
        return await session.rerun([loadtest.WidgetState(id=more, trigger_value=True)])
    nonce = str(uuid.uuid4())
    common = {"nonce": nonce, "ms": rng.randint(300, 3000), "via": "mouse",
              "token": board["token"]}
    if board["phase"] == "place":
        index = loadtest._pick_tile(board, tried.setdefault(board["token"], set()), rng)
        trigger = loadtest._trigger(board_id, "click", {
            "target": f"{index % 12 + 1},{index // 12 + 1}", **common})
    else:
        trigger = loadtest._trigger(board_id, "draw", common)
    tester.unacked.append(nonce)
    answer = await session.rerun([trigger])
    tester.unacked.remove(nonce)
    tester.acked.append(nonce)
    if answer.exceptions:
        tester.errors.append(answer.exceptions[0])
    return answer


async def _before_kill(url: str, study_id: str, tester: SimTester, total: list[int],
                       enough: asyncio.Event, everyone: list[SimTester]) -> None:
    """Consent, then play until the server dies; ``enough`` is set once every tester has
    consented and all together have ``KILL_AFTER`` actions acknowledged."""
    rng = random.Random(tester.number)
    tried: dict[str, set[int]] = {}
    try:
        async with _ws(url) as ws:
            session = loadtest.StreamlitSession(ws, f"study={study_id}")
            run = await loadtest._consent(session, await session.rerun())
            tester.code = parse_qs(session.query_string)["p"][0]
            while True:  # until the server dies under us
                before = len(tester.acked)
                run = await _act(session, run, tester, rng, tried)
                total[0] += len(tester.acked) - before
                if total[0] >= KILL_AFTER and all(t.code for t in everyone):
                    enough.set()
    except (OSError, TimeoutError, websockets.WebSocketException):
        return  # the kill


async def _after_restart(url: str, engine: Engine, tester: SimTester) -> None:
    rng = random.Random(100 + tester.number)
    tried: dict[str, set[int]] = {}
    async with _ws(url) as ws:
        session = loadtest.StreamlitSession(ws, f"p={tester.code}")
        run = await session.rerun()
        record = repo.latest_unfinished_game(engine, tester.code)
        if record is not None and run.board is not None:
            state = VapooshGame(Rules.from_obj(record.rules),
                                players=len(record.seats)).new_initial_state()
            for action in record.actions:
                state.apply(action_from_json(action))
            tester.resumed_owners = run.board["owners"]
            tester.expected_owners = board_view(state.board_rows()).to_data()["owners"]
        for _ in range(TURNS_AFTER * 2):
            run = await _act(session, run, tester, rng, tried)


def _start(folder: Path, url: str) -> StreamlitServer:
    folder.mkdir(parents=True, exist_ok=True)
    return start_streamlit(loadtest.APP, {"DATABASE_URL": url}, folder)


def test_kill_9_during_play_loses_and_doubles_nothing(tmp_path: Path) -> None:
    url, engine = loadtest.prepare_database(tmp_path / "kill.sqlite")
    testers = [SimTester(n) for n in range(TESTERS)]
    server = _start(tmp_path / "first", url)
    try:
        async def first_run() -> None:
            total, enough = [0], asyncio.Event()
            tasks = [asyncio.create_task(_before_kill(server.url, loadtest.STUDY_ID, t, total,
                                                      enough, testers)) for t in testers]
            await asyncio.wait_for(enough.wait(), 120)
            os.kill(server.proc.pid, signal.SIGKILL)  # mid-flight: some actions unanswered
            await asyncio.wait_for(asyncio.gather(*tasks), 60)

        run_async(first_run())
        server.proc.wait(timeout=30)
    finally:
        server.stop()
    acked_before = sum(len(t.acked) for t in testers)
    in_flight = sum(len(t.unacked) for t in testers)
    assert all(t.code for t in testers) and acked_before >= KILL_AFTER

    again = _start(tmp_path / "second", url)
    try:
        async def second_run() -> None:
            await asyncio.wait_for(asyncio.gather(
                *(_after_restart(again.url, engine, t) for t in testers)), 180)

        run_async(second_run())
    finally:
        again.stop()

    with engine.connect() as conn:
        stored = Counter(r[0] for r in conn.execute(
            select(EVENTS.c.client_event_id).where(EVENTS.c.client_event_id.is_not(None))))
        seqs: dict[str, list[int]] = {}
        for session_id, seq in conn.execute(select(EVENTS.c.session_id, EVENTS.c.seq)):
            seqs.setdefault(session_id, []).append(int(seq))
        last = dict(conn.execute(select(SESSIONS.c.session_id, SESSIONS.c.last_seq)).all())
    acked = [n for t in testers for n in t.acked]
    unacked = [n for t in testers for n in t.unacked]
    lost = [n for n in acked if stored[n] == 0]
    doubled = [n for n in acked + unacked if stored[n] > 1]
    gaps = [s for s, numbers in seqs.items()
            if sorted(numbers) != list(range(1, len(numbers) + 1)) or last[s] != len(numbers)]
    resumed = [t for t in testers if t.resumed_owners is not None]
    print(f"\nkill -9: {acked_before} actions acknowledged before the kill, {in_flight} in "
          f"flight, {len(acked)} acknowledged in all; lost {len(lost)}, doubled "
          f"{len(doubled)}, in-flight stored {sum(1 for n in unacked if stored[n])}; "
          f"sessions {len(seqs)}, with gaps {len(gaps)}; boards resumed {len(resumed)}")
    assert not [e for t in testers for e in t.errors]
    assert lost == [] and doubled == [] and gaps == []
    assert resumed, "at least one game was resumed mid-play"
    for tester in resumed:
        assert tester.resumed_owners == tester.expected_owners, tester.code
