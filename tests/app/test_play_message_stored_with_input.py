"""The message the board shows after a roll or a click is stored with the input it
answers (issue 12: in the transaction of the computers' instant reply, not a commit of
its own when the board is drawn): over Streamlit's own websocket protocol, after every
rerun the board's message is the session's last stored event, once, after the
computer's moves, and a message experiment's exposure is recorded when it is shown;
a roll the database refuses stores nothing, neither the roll nor its message.
"""

from __future__ import annotations

import random
import sqlite3
import uuid
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from sqlalchemy import Engine, select

from benchmarks import loadtest
from benchmarks.cluster import WORDING_EXPERIMENT
from benchmarks.devserver import start_streamlit
from playtest.storage.models import EventRow, ExposureRow, GameActionRow

events = EventRow.__table__  # type: ignore[attr-defined]
exposures = ExposureRow.__table__  # type: ignore[attr-defined]
game_actions = GameActionRow.__table__  # type: ignore[attr-defined]


def _input(run: loadtest.RunResult, rng: random.Random) -> Any:
    board = run.board
    assert board is not None and run.board_id is not None
    stamp = {"nonce": str(uuid.uuid4()), "ms": 900, "via": "mouse", "token": board["token"]}
    if board["phase"] == "roll":
        return loadtest._trigger(run.board_id, "draw", stamp)
    index = loadtest._pick_tile(board, set(), rng)
    return loadtest._trigger(run.board_id, "click",
                             {**stamp, "target": f"{index % 12 + 1},{index // 12 + 1}"})


async def _play(url: str, engine: Engine, inputs: int,
                seed: int) -> tuple[str, list[tuple[str, list[Any]]]]:
    """A new tester's code and each input's rerun: the board's message and the
    session's events then stored. Fewer than ``inputs`` when the game ends before (four
    sixes win on the spot, the tester's roll or the computer's: the dice are real)."""
    rng = random.Random(seed)
    seen: list[tuple[str, list[Any]]] = []
    async with loadtest._connect(url) as ws:
        tab = loadtest.StreamlitSession(ws, f"study={loadtest.STUDY_ID}")
        run = await loadtest._consent(tab, await tab.rerun())
        code = parse_qs(tab.query_string)["p"][0]
        for _ in range(inputs):
            assert run.board is not None
            if run.board["phase"] == "over":
                break
            run = await tab.rerun([_input(run, rng)], source=run.board_id)
            assert run.board is not None and not run.exceptions
            with engine.connect() as conn:
                stored = list(conn.execute(
                    select(events.c.seq, events.c.type, events.c.props, events.c.client_event_id)
                    .where(events.c.participant_id == code).order_by(events.c.seq)))
            seen.append((run.board["message"], stored))
    return code, seen


def test_each_inputs_message_is_stored_with_it_once_after_the_computers_moves(
    tmp_path: Path,
) -> None:
    url, engine = loadtest._prepare(f"sqlite:///{tmp_path / 'play.sqlite'}",
                                    [WORDING_EXPERIMENT])
    server = start_streamlit(loadtest.APP, {"DATABASE_URL": url}, tmp_path)
    try:
        # (16 inputs: about eight turns, so that extra goes cannot leave the computer
        # without three replies)
        for seed in (3, 4, 5):  # another tester when four sixes end a game early
            code, seen = loadtest.run_coroutine(_play(server.url, engine, 16, seed))
            if len(seen) == 16:
                break
    finally:
        server.stop()
    computer_moves = 0
    stored_before = 0
    for message, stored in seen:
        assert message, "every roll and click of this study answers with a message"
        last = stored[-1]
        # The message shown is the last thing stored, before its rerun finished ...
        assert last.type == "message" and last.props["text"] == message
        computer_moves += "ai_move" in [e.type for e in stored[stored_before:]]
        stored_before = len(stored)
    # ... after the computer's reply where there was one (this study's computer moves
    # at once after the tester's click), and each message once.
    assert computer_moves >= 3
    final = seen[-1][1]
    ids = Counter(e.client_event_id for e in final if e.type == "message")
    assert len(ids) == len(seen) and set(ids.values()) == {1}
    assert [e.seq for e in final] == list(range(1, len(final) + 1))
    shown = [e.props for e in final if e.type == "message" and e.props["key"] == "computer_moved"]
    with engine.connect() as conn:
        exposed = list(conn.execute(select(exposures.c.experiment, exposures.c.context)
                                    .where(exposures.c.participant_id == code)))
    assert shown and len(exposed) == len(shown)
    assert {row.experiment for row in exposed} == {WORDING_EXPERIMENT.key}
    assert all(row.context["message"] == "computer_moved" for row in exposed)


async def _roll_while_locked(url: str, database: Path) -> tuple[loadtest.RunResult, ...]:
    rng = random.Random(4)
    async with loadtest._connect(url) as ws:
        tab = loadtest.StreamlitSession(ws, f"study={loadtest.STUDY_ID}")
        first = await loadtest._consent(tab, await tab.rerun())
        holder = sqlite3.connect(str(database), isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")  # another writer holds the file past the timeout
            refused = await tab.rerun([_input(first, rng)], source=first.board_id)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        again = await tab.rerun([_input(refused, rng)], source=refused.board_id)
    return first, refused, again


def test_a_roll_refused_by_the_database_stores_nothing_of_it_and_is_stored_once_after(
    tmp_path: Path,
) -> None:
    database = tmp_path / "play.sqlite"
    url, engine = loadtest._prepare(f"sqlite:///{database}")
    server = start_streamlit(loadtest.APP, {"DATABASE_URL": url}, tmp_path)
    try:
        first, refused, again = loadtest.run_coroutine(_roll_while_locked(server.url, database))
    finally:
        server.stop()
    assert first.board is not None and first.board["phase"] == "roll"
    # The roll, and the message that answered it, were one transaction: neither is
    # stored, and the board the page shows again is the one before the roll.
    assert refused.board is not None and not refused.exceptions
    assert refused.board["phase"] == "roll" and refused.board["dice"] is None
    assert again.board is not None and again.board["phase"] == "place"
    with engine.connect() as conn:
        stored = [(row.type, row.props) for row in conn.execute(
            select(events.c.type, events.c.props).order_by(events.c.seq))]
        actions = list(conn.execute(select(game_actions.c.idx, game_actions.c.action)))
    rolls = [props for kind, props in stored if kind == "roll"]
    messages = [props for kind, props in stored if kind == "message"]
    assert len(actions) == 1 and actions[0].action[0] == "roll"
    assert len(rolls) == 1 and rolls[0]["dice"] == actions[0].action[1] == again.board["dice"]
    assert [m["text"] for m in messages] == [again.board["message"]]
    assert [kind for kind, _ in stored][-2:] == ["roll", "message"]
