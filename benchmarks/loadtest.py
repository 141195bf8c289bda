"""Load benchmark: many simulated testers playing at once over Streamlit's own protocol.

    python -m benchmarks.loadtest --testers 50 --turns 10 [--think-ms 500:1500] [--seed 1]
                                [--time-limit 600] [--keep DIR] [--quickack]
                                [--processes N|N,M] [--proxy] [--postgres URL|auto]
                                [--kill-one] [--rolling-restart] [--profile FILE]

Starts the real app (``streamlit run playtest/app.py``, the project's
``.streamlit/config.toml`` applies) on a scratch SQLite file holding one load study (no
surveys, adults only, highlighted options, computer moves at once). Then every simulated
tester connects AT ONCE to ``ws://127.0.0.1:<port>/_stcore/stream`` and speaks what the
browser speaks: ``BackMsg.rerun_script`` with the URL's query string, the current page and
widget states, answered by ``ForwardMsg`` deltas up to ``script_finished``. Each tester
opens ``/?study=CODE``, ticks the consent box and submits the form, then for ``--turns``
turns rolls and clicks a highlighted tile, both sent as the board component's trigger
(a ``json_trigger_value`` on the ``<component id>__events`` widget, exactly the payload
the board's JavaScript passes to ``setTriggerValue``). A widget drawn inside an
``st.fragment`` (the play screen's board is one) is sent with that fragment's id, which
the client reads from the element's delta as the browser's WidgetStateManager does, so
the server reruns the fragment alone, as it does for a browser; the report counts those
fragment runs. A finished game is followed by "Play another game".

Measured per roll and click: the round trip from sending the BackMsg to the
``script_finished`` of that rerun (think time is not counted). Printed: median, p95,
throughput, errors; then the database is checked: every click a client sent is stored
exactly once as a ``click`` event (by its nonce, the event's ``client_event_id``), no
other clicks exist, and every session's ``seq`` runs 1..n without gaps.

Past one process (``--processes 3``, issue 12): that many app processes on one PostgreSQL
database behind Debian's nginx with ``deploy/nginx/playtest.conf`` (:mod:`benchmarks.cluster`).
``--kill-one`` sends ``kill -9`` to one of them once a third of the clicks are
acknowledged; its testers open their own link again (as a browser reconnects), nginx
sends them to a live process, the board they are shown is checked against the replay of
the game's stored record, and they play on. An action is *acknowledged* when its rerun
finished; the database check then asks: every acknowledged roll and click stored once,
an unacknowledged one at most once. ``--rolling-restart`` does what the README's rolling
update does instead: from a third of the clicks, each process in turn gets SIGTERM and is
started again on its port, and the next one only once it answers ``/_stcore/health``;
testers play on past their turns until they have an answer from after the restart; the
report gives the round trips while the restart went on and before/after it.
``--processes 1,3`` runs both and prints throughput
and round-trip percentiles side by side.

``--quickack`` is a diagnosis: Streamlit 1.67 binds its listening socket itself with
``proto=0``, so asyncio does not set TCP_NODELAY on accepted sockets (uvicorn issue #3149
describes the same mechanism); Nagle then holds the rest of a rerun's messages until the
client ACKs the first one, which a Linux client delays ~40 ms. Clients that ACK at once
show what the server itself costs; real browsers do not do that.

"server CPU ... per rerun" is the server process's user + system CPU time (from
``/proc/<pid>/stat``) over the play phase divided by the reruns measured; it includes
Streamlit's own work and the event writer thread, and moves less with a busy machine
than the round trips do. To see where it goes, sample the server while a run plays:
``py-spy record --pid <streamlit pid> --gil --format raw -o spy.txt --duration 25``
(``pip install py-spy``; the pid is the ``streamlit run`` child of this command).
``--profile FILE`` (one process) runs every play-phase rerun, its widget callbacks
included, under cProfile with a CPU clock instead (:mod:`benchmarks.profiled_app`);
``python -m benchmarks.profiled_app FILE`` prints the top entries. What Streamlit itself
costs per rerun (a bare script, the board component alone, the play screen's widgets) is
printed by ``python -m benchmarks.rerun_floor`` with the same testers and think time.

Exit status: 0 when the storage check passes, there were no errors and the targets
(median <= 50 ms, p95 <= 250 ms) hold; 1 otherwise; 2 for bad arguments.

All traffic goes to 127.0.0.1; every wait has a timeout, each tester sends a bounded
number of messages and the whole run has a time limit (``--time-limit``).

>>> parse_think("500:1500"), parse_think("0")
((500, 1500), (0, 0))
>>> percentile([1.0, 2.0, 3.0, 4.0], 50)
2.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar
from urllib.parse import parse_qs

import numpy as np
import websockets
from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.components.v2.bidi_component.constants import EVENT_DELIM
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.runtime.state.session_state import STREAMLIT_INTERNAL_KEY_PREFIX

from benchmarks.cluster import (
    CONNECTION_HEADER,
    WORDING_EXPERIMENT,
    AssignmentCheck,
    Cluster,
    Moves,
    check_assignments,
    create_postgres_database,
    drop_postgres_database,
    moves_of,
)
from benchmarks.devserver import StreamlitServer, start_streamlit
from engine.vapoosh import Rules, VapooshGame, action_from_json
from playtest import resume_state, services
from playtest.games.vapoosh.view import board_view
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow, SessionRow
from playtest.study_config import Experiment, StudyConfig

APP: Final = "playtest/app.py"
STUDY_ID: Final = "loadtest"
TARGET_MEDIAN_MS: Final = 50.0
TARGET_P95_MS: Final = 250.0
# How long a client waits for the server's next message before calling it stuck: on the
# two-core CI machine, with the other tests' processes beside it, a first rerun (its
# imports, the study's data) once took over 30 s, so 30 s failed a server that was fine.
RERUN_TIMEOUT_S: Final = 90.0
START_LINE_TIMEOUT_S: Final = 180.0
# Per turn a tester sends a roll and a click, plus a few extra reruns (a blocked roll, a
# new game); anything beyond this many messages per turn is a stuck client.
MESSAGES_PER_TURN: Final = 6
# A tester whose connection drops opens their link again (a browser reconnecting); more
# drops than this in one run is not a process that was killed but an app that is down.
MAX_RECONNECTS: Final = 3
_FINISHED_OK: Final = (ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
                       ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
_FINISHED_BAD: Final = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR

events_table = EventRow.__table__  # type: ignore[attr-defined]
sessions_table = SessionRow.__table__  # type: ignore[attr-defined]


class LoadTestError(RuntimeError):
    """A simulated tester could not go on (the app answered something unexpected)."""


class UsageError(ValueError):
    """A command-line value that cannot work; printed as one line, exit status 2."""


# -- pure helpers -----------------------------------------------------------------------


def parse_think(text: str) -> tuple[int, int]:
    """``"MIN:MAX"`` or ``"MS"`` milliseconds of think time between a tester's actions."""
    parts = text.split(":")
    try:
        low, high = (int(parts[0]), int(parts[-1])) if len(parts) <= 2 else (-1, -1)
    except ValueError:
        low, high = -1, -1
    if not 0 <= low <= high <= 60_000:
        raise UsageError(f"--think-ms {text!r}: use MS or MIN:MAX with 0 <= MIN <= MAX <= 60000")
    return low, high


T = TypeVar("T")


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, also from a thread whose event loop is marked running
    (Playwright's sync API leaves one on the main thread of a test process, and
    ``asyncio.run`` refuses to start inside it): then in a worker thread, which gets a
    fresh loop of its own.

    >>> async def answer() -> int:
    ...     return 42
    >>> run_coroutine(answer())
    42
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def percentile(values: Sequence[float], pct: float) -> float:
    """numpy's (linear) percentile of non-empty ``values``."""
    if not values:
        raise ValueError("percentile of no values")
    return float(np.percentile(values, pct))


def trigger_widget_id(component_id: str) -> str:
    """The widget id a Components-v2 element's triggers arrive on (all events share it)."""
    return f"{STREAMLIT_INTERNAL_KEY_PREFIX}_{component_id}{EVENT_DELIM}events"


def user_key(widget_id: str) -> str:
    """The user key of a keyed widget id ``$$ID-<hash>-<key>`` ('' for other ids)."""
    if not widget_id.startswith("$$ID-"):
        return ""
    _prefix, _hash, key = widget_id.split("-", 2)
    return key


# -- one websocket session --------------------------------------------------------------


@dataclass
class RunResult:
    """What the app drew in one completed script run (after any st.rerun chain)."""

    ms: float
    bytes: int  # websocket bytes received for this rerun
    widgets: dict[str, str]  # user key -> widget id
    board_id: str | None
    board: dict[str, Any] | None
    exceptions: list[str]
    # The run that ended it was a fragment's own (only an st.fragment redrawn), not the app's
    fragment_run: bool = False


class StreamlitSession:
    """One browser tab's websocket session, without the browser.

    Keeps what a browser keeps between reruns: the query string (the server rewrites it
    with ``page_info_changed``), the current page's script hash (``navigation``), the
    cacheable messages it was sent (reported back so the server may send a reference),
    and the fragment each element was drawn in (the ``fragment_id`` of its delta). A
    widget drawn inside an ``st.fragment`` sends its rerun with that fragment's id, as
    the browser's WidgetStateManager does (``rerun_script.fragment_id``), and the server
    then reruns that fragment alone: the elements outside it stay as they were.
    """

    def __init__(self, ws: Any, query_string: str, *, quickack: bool = False) -> None:
        self.ws = ws
        self.query_string = query_string
        sock = ws.transport.get_extra_info("socket") if quickack else None
        self._quickack_socket = sock if hasattr(socket, "TCP_QUICKACK") else None
        self.page_hash = ""
        self._cache: dict[str, ForwardMsg] = {}
        self.fragment_of: dict[str, str] = {}  # element id -> fragment it was drawn in
        self._shown = RunResult(0.0, 0, {}, None, None, [])  # what the tab shows now

    async def rerun(self, states: Sequence[WidgetState] = (), *,
                    source: str | None = None) -> RunResult:
        """Send a rerun (with `states`, caused by the element `source`: its fragment's
        rerun when it was drawn in one) and collect what the app draws up to its end."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query_string
        rerun.page_script_hash = self.page_hash
        rerun.widget_states.widgets.extend(states)
        rerun.cached_message_hashes.extend(self._cache)
        if source is not None:
            rerun.fragment_id = self.fragment_of.get(source, "")
        started = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        result = RunResult(0.0, 0, {}, None, None, [])
        received = 0
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), RERUN_TIMEOUT_S)
            received += len(raw)
            if self._quickack_socket is not None:  # Linux turns quick ACKs off again itself
                self._quickack_socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
            fm = ForwardMsg()
            fm.ParseFromString(raw)
            if fm.WhichOneof("type") == "ref_hash":
                cached = self._cache.get(fm.ref_hash)
                if cached is None:
                    raise LoadTestError(f"server referred to an unknown message {fm.ref_hash}")
                fm = cached
            elif fm.metadata.cacheable and fm.hash:
                self._cache[fm.hash] = fm
            kind = fm.WhichOneof("type")
            if kind == "new_session":
                # A new script run (also after st.rerun): a full run draws everything
                # anew; a fragment run redraws its fragments, the rest stays on screen.
                result = self._run_start(list(fm.metadata.run.fragment_ids))
            elif kind == "page_info_changed":
                self.query_string = fm.page_info_changed.query_string
            elif kind == "navigation":
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                ident = _collect(fm.delta.new_element, result)
                if ident:
                    self.fragment_of[ident] = fm.delta.fragment_id
            elif kind == "script_finished":
                if fm.script_finished in _FINISHED_OK:
                    result.ms = (time.perf_counter() - started) * 1000
                    result.bytes = received
                    result.fragment_run = bool(fm.metadata.run.fragment_ids)
                    self._shown = result
                    return result
                if fm.script_finished == _FINISHED_BAD:
                    raise LoadTestError("the app failed to compile")


    def _run_start(self, fragment_ids: list[str]) -> RunResult:
        """The result a run starts from: nothing for a full run; for a fragment run, what
        is on screen less the elements of the fragments it redraws."""
        if not fragment_ids:
            return RunResult(0.0, 0, {}, None, None, [])
        redrawn = set(fragment_ids)
        shown = self._shown
        board_kept = shown.board_id is not None and \
            self.fragment_of.get(shown.board_id, "") not in redrawn
        return RunResult(
            0.0, 0,
            {k: i for k, i in shown.widgets.items() if self.fragment_of.get(i, "") not in redrawn},
            shown.board_id if board_kept else None, shown.board if board_kept else None, [])


def _collect(element: Any, result: RunResult) -> str:
    """Note what `element` is in `result`; its element id ('' for one without)."""
    kind = element.WhichOneof("type")
    if kind == "exception":
        result.exceptions.append(f"{element.exception.type}: {element.exception.message}")
        return ""
    if kind == "bidi_component":
        proto = element.bidi_component
        result.board_id = proto.id
        data = json.loads(proto.json) if proto.json else None
        result.board = shown_board(data)
        return str(proto.id)
    if kind is None:
        return ""
    ident = getattr(getattr(element, kind), "id", "")
    if isinstance(ident, str) and ident:
        result.widgets[user_key(ident) or ident] = ident
        return ident
    return ""


# -- one simulated tester ---------------------------------------------------------------


@dataclass
class SimulatedTester:
    """What one simulated tester did and measured."""

    number: int
    participant_id: str = ""
    connect_ms: float | None = None
    timings: list[tuple[str, float]] = field(default_factory=list)  # (roll|click, ms)
    answered_at: list[float] = field(default_factory=list)  # time.monotonic() of each timing
    bytes_received: list[int] = field(default_factory=list)  # per measured rerun
    fragment_runs: int = 0  # measured reruns that ended as a fragment's own run
    clicks: list[str] = field(default_factory=list)  # nonces of acknowledged clicks
    rolls: list[str] = field(default_factory=list)  # nonces of acknowledged rolls
    # Sent, and the connection was lost before the answer (a killed process): the app
    # may or may not have stored it, never twice.
    unacked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    reconnects: int = 0
    resumes: list[ResumeCheck] = field(default_factory=list)
    game_id: str = ""  # the game of the last board shown
    hops: int = 0  # reconnections of the tester's own (see simulate_tester's hop_after)
    # Each connection's name, in order (sent as CONNECTION_HEADER; nginx logs who served it).
    connections: list[str] = field(default_factory=list)


def shown_board(data: Any) -> dict[str, Any] | None:
    """What the board shell shows: the game's view with the shell's token, interactivity,
    message and sound setting (the component's data ``{"board": {..., "view": {...}}}``).

    >>> shown_board({"board": {"token": "g:1", "interactive": True, "muted": False,
    ...     "message": {"text": "Hi"}, "view": {"phase": "roll"}}})["message"]
    'Hi'
    """
    shell = data.get("board") if isinstance(data, dict) else None
    if not isinstance(shell, dict) or not isinstance(shell.get("view"), dict):
        return None
    message = shell.get("message") or {}
    return {**shell["view"], "token": shell.get("token"), "interactive": shell.get("interactive"),
            "message": message.get("text", ""), "muted": shell.get("muted")}


def _trigger(board_id: str, kind: str, value: dict[str, Any]) -> WidgetState:
    """The board shell's ``input`` trigger carrying one input of ``kind`` (click, draw,
    mute) with ``value``'s fields, as shell.js sends it."""
    payload = json.dumps([{"event": "input", "value": {"inputs": [{"kind": kind, **value}]}}],
                         separators=(",", ":"))
    return WidgetState(id=trigger_widget_id(board_id), json_trigger_value=payload)


class StartLine:
    """Holds each tester after consent until every tester has consented (or failed), so
    the play phase starts at once and is measured apart from the cold first page loads.
    `on_start` runs once, when the last tester arrives.
    """

    def __init__(self, testers: int, on_start: Callable[[], None]) -> None:
        self._left = testers
        self._on_start = on_start
        self._go = asyncio.Event()

    def arrive(self) -> None:
        self._left -= 1
        if self._left == 0:
            self._on_start()
            self._go.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self._go.wait(), START_LINE_TIMEOUT_S)


# After their turns, does a tester play on? (the time.monotonic() of their last answer)
PlayOn = Callable[[float], bool]
# (tester code, the game they were in when the connection dropped, the first run after)
ResumeChecker = Callable[[str, str, "RunResult"], Awaitable["ResumeCheck | None"]]
_CONNECTION_LOST = (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake)


class _Hop(Exception):
    """The tester closes their connection and opens their link again (a planned move)."""


def _connect(url: str, name: str = "") -> Any:
    ws_url = url.replace("http://", "ws://", 1) + "/_stcore/stream"
    return websockets.connect(ws_url, subprotocols=[websockets.Subprotocol("streamlit")],
                              max_size=None, open_timeout=RERUN_TIMEOUT_S,
                              additional_headers={CONNECTION_HEADER: name} if name else None)


async def simulate_tester(
    url: str, study_id: str, turns: int, think_ms: tuple[int, int], rng: random.Random,
    number: int, start: StartLine, quickack: bool = False,
    resume: ResumeChecker | None = None, on_click: Callable[[], None] | None = None,
    hop_after: Sequence[int] = (), mute: bool = False, max_reconnects: int = MAX_RECONNECTS,
    play_on: PlayOn | None = None,
) -> SimulatedTester:
    """Consent, wait at the start line, then play `turns` turns (a roll and a click
    each); never raises: what went wrong is in the result's `errors`.

    With `resume`, a lost connection (its app process killed) is not the end: the tester
    opens their own link (``?p=CODE``) again, as a browser reconnects, lands on whichever
    process the proxy picks, `resume` checks the board it is shown, and play goes on.
    `hop_after` (with `resume`): after that many acknowledged clicks the tester closes the
    connection and does the same (a reload, a phone that changed networks), so testers of
    processes that live on move too. `mute`: the tester turns the sound off before playing
    (a setting every later board must keep, whichever process draws it). `play_on`: after
    `turns` turns the tester plays on while it is true of their last answer's time.
    """
    out = SimulatedTester(number)
    arrived = False

    def clicked() -> None:
        if on_click is not None:
            on_click()
        if resume is not None and len(out.clicks) in hop_after:
            raise _Hop

    try:
        while True:
            query = f"p={out.participant_id}" if out.participant_id else f"study={study_id}"
            try:
                # unique in nginx's log, also when runs of several studies share it
                name = f"{study_id}/{number}.{len(out.connections)}"
                async with _connect(url, name) as ws:
                    out.connections.append(name)
                    session = StreamlitSession(ws, query, quickack=quickack)
                    started = time.perf_counter()
                    run = await session.rerun()
                    if not out.participant_id:
                        run = await _consent(session, run)
                        out.connect_ms = (time.perf_counter() - started) * 1000
                        out.participant_id = parse_qs(session.query_string).get("p", [""])[0]
                        arrived = True
                        start.arrive()
                        await start.wait()
                        if mute and run.board_id is not None:
                            run = await session.rerun([_trigger(
                                run.board_id, "mute", {"value": True, "nonce": str(uuid.uuid4())})])
                    elif resume is not None:
                        check = await resume(out.participant_id, out.game_id, run)
                        if check is not None:
                            out.resumes.append(check)
                    await _play(session, run, turns, think_ms, rng, out, clicked, play_on)
                    return out
            except _Hop:
                out.hops += 1
            except _CONNECTION_LOST:
                if resume is None or not arrived or out.reconnects >= max_reconnects:
                    raise
                out.reconnects += 1
    except (LoadTestError, OSError, TimeoutError, websockets.WebSocketException) as err:
        out.errors.append(f"tester {number}: {type(err).__name__}: {err}")
    finally:
        if not arrived:
            start.arrive()
    return out


async def _consent(session: StreamlitSession, run: RunResult) -> RunResult:
    agree = run.widgets.get("consent_agree")
    submit = next((i for k, i in run.widgets.items() if k.startswith("FormSubmitter:consent")),
                  None)
    if agree is None or submit is None:
        raise LoadTestError(f"no consent form on the first page {run.exceptions}")
    states = [WidgetState(id=agree, bool_value=True), WidgetState(id=submit, trigger_value=True)]
    who = run.widgets.get("consent_who")
    if who is not None:  # a "mixed" study asks; index 0 is the adult answer
        states.append(WidgetState(id=who, int_value=0))
    run = await session.rerun(states, source=submit)
    if "p=" not in session.query_string or run.board is None:
        raise LoadTestError(f"consent did not lead to the board {run.exceptions}")
    return run


async def _play(session: StreamlitSession, run: RunResult, turns: int,
                think_ms: tuple[int, int], rng: random.Random, out: SimulatedTester,
                on_click: Callable[[], None] | None = None,
                play_on: PlayOn | None = None) -> None:
    budget = turns * MESSAGES_PER_TURN + 10
    tried: dict[str, set[int]] = {}  # view token -> tiles already clicked on that view
    while len(out.clicks) < turns or (
            play_on is not None and play_on(out.answered_at[-1] if out.answered_at else 0.0)):
        budget -= 1
        if budget < 0:
            raise LoadTestError(f"no progress after {turns * MESSAGES_PER_TURN + 10} reruns")
        if run.exceptions:
            out.errors.append(f"tester {out.number}: app exception {run.exceptions[0]}")
        board, board_id = run.board, run.board_id
        if board_id is not None:
            out.game_id = game_id_of(board_id)
        if think_ms[1]:
            await asyncio.sleep(rng.uniform(*think_ms) / 1000)
        if board is None or board_id is None or board.get("phase") == "over":
            more = run.widgets.get("play_more")
            if more is None:
                raise LoadTestError("the game is over and there is no 'Play another game'")
            run = await session.rerun([WidgetState(id=more, trigger_value=True)], source=more)
            out.games += 1
            continue
        if not board.get("interactive"):
            raise LoadTestError(f"the board takes no input (phase {board.get('phase')})")
        nonce = str(uuid.uuid4())
        common = {"nonce": nonce, "ms": rng.randint(300, 3000), "via": "mouse",
                  "token": board["token"]}
        if board["phase"] == "place":
            index = _pick_tile(board, tried.setdefault(board["token"], set()), rng)
            value = {"target": f"{index % 12 + 1},{index // 12 + 1}", **common}
            out.unacked.append(nonce)
            run = await session.rerun([_trigger(board_id, "click", value)], source=board_id)
            out.unacked.remove(nonce)
            out.clicks.append(nonce)
            if len(out.clicks) > turns:  # a turn played on (play_on): its reruns on top
                budget += MESSAGES_PER_TURN
            out.timings.append(("click", run.ms))
            out.answered_at.append(time.monotonic())
            out.bytes_received.append(run.bytes)
            out.fragment_runs += run.fragment_run
            if on_click is not None:
                on_click()
        else:
            out.unacked.append(nonce)
            run = await session.rerun([_trigger(board_id, "draw", common)], source=board_id)
            out.unacked.remove(nonce)
            out.rolls.append(nonce)
            out.timings.append(("roll", run.ms))
            out.answered_at.append(time.monotonic())
            out.bytes_received.append(run.bytes)
            out.fragment_runs += run.fragment_run


def _pick_tile(board: dict[str, Any], tried: set[int], rng: random.Random) -> int:
    """A highlighted tile a tester would pick: empty ones first (the rules' order), then
    another player's counter; never one already clicked on this view. The highlight marks
    both rolled tiles, even one that is already the tester's own.

    >>> board = {"hl": [3, 40], "owners": "...1" + "." * 140, "to_move": 1}
    >>> _pick_tile(board, set(), random.Random(1))
    40
    """
    owners: str = board["owners"]
    mine = str(board.get("to_move"))
    options = [i for i in board["hl"] if i not in tried]
    empty = [i for i in options if owners[i] == "."]
    others = [i for i in options if owners[i] not in (".", mine, "B")]
    choice = rng.choice(empty or others or options or [-1])
    if choice < 0:
        raise LoadTestError("place phase without a highlighted tile left to click")
    tried.add(choice)
    return choice


@dataclass(frozen=True)
class PlayPhase:
    """The testers' results and the cost of the play phase (after every consent)."""

    results: tuple[SimulatedTester, ...]
    wall_s: float
    server_cpu_s: float | None
    client_cpu_s: float


async def run_testers(url: str, study_id: str, testers: int, turns: int,
                      think_ms: tuple[int, int], seed: int, time_limit_s: float,
                      server_cpu: Callable[[], float | None] = lambda: None,
                      quickack: bool = False, resume: ResumeChecker | None = None,
                      on_clicks: Callable[[int], None] | None = None,
                      hop_after: Sequence[int] = (),
                      max_reconnects: int = MAX_RECONNECTS,
                      play_on: PlayOn | None = None) -> PlayPhase:
    """All testers at once; a tester still running at the time limit is cancelled.
    `server_cpu` reads the server's CPU seconds so far (for the play phase's share);
    `on_clicks` hears the number of clicks acknowledged so far, after each one; `resume`
    makes testers reconnect after a lost connection (see :func:`simulate_tester`)."""
    mark: dict[str, float | None] = {}
    clicks = [0]

    def on_start() -> None:
        mark.update(wall=time.perf_counter(), client=time.process_time(), server=server_cpu())

    def on_click() -> None:
        clicks[0] += 1
        if on_clicks is not None:
            on_clicks(clicks[0])

    start = StartLine(testers, on_start)
    tasks = [asyncio.create_task(simulate_tester(url, study_id, turns, think_ms,
                                                 random.Random(seed * 1000 + n), n, start,
                                                 quickack, resume, on_click, hop_after,
                                                 mute=bool(hop_after) and n % 2 == 1,
                                                 max_reconnects=max_reconnects,
                                                 play_on=play_on))
             for n in range(testers)]
    done, pending = await asyncio.wait(tasks, timeout=time_limit_s)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=RERUN_TIMEOUT_S)
    ended, client_end, server_end = time.perf_counter(), time.process_time(), server_cpu()
    results = [t.result() for t in tasks if t in done]
    results += [SimulatedTester(n, errors=[f"tester {n}: stopped at the {time_limit_s:.0f} s limit"])
                for n, t in enumerate(tasks) if t in pending]
    wall0, client0, server0 = mark.get("wall"), mark.get("client"), mark.get("server")
    return PlayPhase(
        results=tuple(results),
        wall_s=ended - (wall0 if wall0 is not None else ended),
        server_cpu_s=None if server0 is None or server_end is None else server_end - server0,
        client_cpu_s=client_end - (client0 if client0 is not None else client_end),
    )


# -- the database check -----------------------------------------------------------------


@dataclass(frozen=True)
class StorageCheck:
    """Acknowledged rolls and clicks against the events stored, and every session's seq.

    An action is *acknowledged* when its rerun finished (the app stores an action before
    it draws the answer); one whose connection was lost first (a killed process) is
    *unacknowledged*: stored at most once, or not at all.
    """

    clicks_sent: int  # acknowledged clicks
    clicks_stored: int
    missing: int  # acknowledged, not stored as an event of that tester
    duplicated: int  # a nonce stored more than once
    unexpected: int  # stored clicks no client sent
    sessions: int
    sessions_with_gaps: int
    wrong_clicks: int = 0  # stored clicks the rules judged wrong (information only)
    rolls_sent: int = 0  # acknowledged rolls
    unacknowledged: int = 0
    unacknowledged_stored: int = 0

    @property
    def ok(self) -> bool:
        return self.missing == self.duplicated == self.unexpected == self.sessions_with_gaps == 0


def check_storage(engine: Engine, study_id: str, results: Sequence[SimulatedTester]) -> StorageCheck:
    """Compare what the clients sent with the study's stored events."""
    participant_ids = {r.participant_id for r in results if r.participant_id}
    with engine.connect() as conn:
        stored_rows = conn.execute(
            select(events_table.c.client_event_id, events_table.c.participant_id,
                   events_table.c.type, events_table.c.props)
            .where(events_table.c.study_id == study_id,
                   events_table.c.type.in_(("click", "roll")),
                   events_table.c.client_event_id.is_not(None))
        ).all()
        seqs = conn.execute(
            select(events_table.c.session_id, events_table.c.seq)
            .where(events_table.c.study_id == study_id)
        ).all()
        last: dict[str, int] = {
            row.session_id: int(row.last_seq) for row in conn.execute(
                select(sessions_table.c.session_id, sessions_table.c.last_seq)
                .where(sessions_table.c.participant_id.in_(participant_ids))
            )
        }
    clicks = [row for row in stored_rows if row.type == "click"]
    stored = Counter((row.client_event_id, row.participant_id) for row in stored_rows)
    acked = {(nonce, r.participant_id) for r in results for nonce in (*r.clicks, *r.rolls)}
    unacked = {(nonce, r.participant_id) for r in results for nonce in r.unacked}
    per_session: dict[str, list[int]] = {session_id: [] for session_id in last}
    for session_id, seq in seqs:
        per_session.setdefault(session_id, []).append(int(seq))
    # A session's numbers must be exactly 1..n, and n is the counter its row holds.
    gaps = [session_id for session_id, numbers in per_session.items()
            if sorted(numbers) != list(range(1, len(numbers) + 1))
            or last.get(session_id) != len(numbers)]
    return StorageCheck(
        clicks_sent=sum(len(r.clicks) for r in results),
        clicks_stored=len(clicks),
        missing=sum(1 for key in acked if key not in stored),
        duplicated=sum(1 for n in stored.values() if n > 1),
        unexpected=sum(1 for row in clicks
                       if (row.client_event_id, row.participant_id) not in acked | unacked),
        sessions=len(per_session),
        sessions_with_gaps=len(gaps),
        wrong_clicks=sum(1 for row in clicks if _props(row.props).get("ok") is False),
        rolls_sent=sum(len(r.rolls) for r in results),
        unacknowledged=len(unacked),
        unacknowledged_stored=sum(1 for key in unacked if key in stored),
    )


# -- a resumed board against the replay of its stored record ----------------------------


@dataclass(frozen=True)
class ResumeCheck:
    """The board a reconnected tester was shown, and the replay of the game's record as
    stored at that moment: owners of the 144 tiles, phase, player to move, turn. And
    whether it is the game they were playing (or that game is over: an unacknowledged
    click may have won it, and the next game starts)."""

    participant_id: str
    game_id: str
    shown: tuple[str, str, int | None, int]
    replayed: tuple[str, str, int | None, int]
    previous_game_id: str = ""
    previous_finished: bool = False
    # The message on the resumed board, and the last one stored for the game.
    message_shown: str = ""
    message_stored: str = ""
    # The board's sound setting, and the tester's last stored one (False: never set).
    muted_shown: bool = False
    muted_stored: bool = False

    @property
    def equal(self) -> bool:
        return self.shown == self.replayed

    @property
    def message_kept(self) -> bool:
        return self.message_shown == self.message_stored

    @property
    def setting_kept(self) -> bool:
        return self.muted_shown == self.muted_stored

    @property
    def continued(self) -> bool:
        return self.game_id == self.previous_game_id or self.previous_finished

    @property
    def ok(self) -> bool:
        return self.equal and self.continued and self.message_kept and self.setting_kept


def game_id_of(board_id: str) -> str:
    """The game a drawn board belongs to: its widget key is ``board-<game id>``.

    >>> game_id_of("$$ID-0a1b2c-board-g-123")
    'g-123'
    """
    key = user_key(board_id)
    return key.removeprefix("board-") if key.startswith("board-") else ""


def replayed_board(engine: Engine, game_id: str) -> tuple[str, str, int | None, int] | None:
    """What the board of ``game_id`` shows, computed only from its stored record."""
    record = repo.load_game(engine, game_id)
    if record is None:
        return None
    state = VapooshGame(Rules.from_obj(record.rules), players=len(record.seats)).new_initial_state()
    for action in record.actions:
        state.apply(action_from_json(action))
    owners = board_view(state.board_rows()).to_data()["owners"]
    phase = state.phase if state.phase in ("roll", "place", "over") else "roll"
    to_move = None if state.phase == "over" else int(state.to_move)
    return owners, phase, to_move, int(state.turns)


def replay_checker(engine: Engine) -> ResumeChecker:
    """A `resume` for :func:`simulate_tester`: compares the board shown on reconnecting
    with :func:`replayed_board` (read in a thread: the other testers play on meanwhile;
    the checked tester waits, so its record cannot move)."""

    def previous_finished(game_id: str) -> bool:
        record = repo.load_game(engine, game_id) if game_id else None
        return record is not None and record.finished

    def stored_message(participant_id: str, game_id: str) -> str:
        stored = resume_state.last_message(engine, participant_id, game_id)
        return stored.text if stored is not None else ""

    def stored_mute(participant_id: str) -> bool:
        return resume_state.last_settings(engine, participant_id).get("mute") is True

    async def check(participant_id: str, previous: str, run: RunResult) -> ResumeCheck | None:
        board, board_id = run.board, run.board_id
        if board is None or board_id is None:
            return None
        game_id = game_id_of(board_id)
        replayed = await asyncio.to_thread(replayed_board, engine, game_id)
        finished = await asyncio.to_thread(previous_finished, previous)
        message = await asyncio.to_thread(stored_message, participant_id, game_id)
        muted = await asyncio.to_thread(stored_mute, participant_id)
        shown = (str(board.get("owners")), str(board.get("phase")), board.get("to_move"),
                 int(board.get("turn") or 0))
        return ResumeCheck(participant_id, game_id, shown,
                           replayed if replayed is not None else ("", "", None, -1),
                           previous, finished, str(board.get("message") or ""), message,
                           board.get("muted") is True, muted)

    return check


def _props(raw: Any) -> dict[str, Any]:
    value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    return value if isinstance(value, dict) else {}


# -- the whole benchmark ----------------------------------------------------------------


def load_study_config(experiments: Sequence[Experiment] = ()) -> StudyConfig:
    """Straight to the board: no surveys, no child question, computer moves at once."""
    return StudyConfig(pre_survey=None, post_survey=None, ai_think_ms=0, audience="adults",
                       highlight_options=True, experiments=list(experiments))


@dataclass(frozen=True)
class Deployment:
    """Where the app runs for one benchmark run.

    >>> Deployment().describe()
    '1 app process, SQLite'
    >>> Deployment(processes=3, postgres="postgresql://x/y", kill_after_clicks=90).describe()
    '3 app processes behind nginx (deploy/nginx/playtest.conf), PostgreSQL, kill -9 of one after 90 clicks'
    >>> Deployment(processes=3, postgres="x", hop_after_clicks=(2, 4), experiment=True).describe()
    '3 app processes behind nginx (deploy/nginx/playtest.conf), PostgreSQL, every tester reconnects after clicks 2, 4, a wording experiment'
    """

    processes: int = 1
    proxy: bool = False  # behind deploy/'s nginx (always when processes > 1)
    postgres: str | None = None  # a PostgreSQL server URL (a fresh database on it), else SQLite
    kill_after_clicks: int | None = None  # kill -9 one process once this many are acknowledged
    # Behind the proxy: every tester also reconnects after these numbers of their clicks.
    hop_after_clicks: tuple[int, ...] = ()
    # The study has cluster.WORDING_EXPERIMENT, checked against what every process showed.
    experiment: bool = False
    # A rolling update: once this many clicks are acknowledged, every app process is
    # restarted in turn (SIGTERM, started again, healthy before the next one), as the
    # README's "Update the app" does with systemctl restart.
    rolling_restart_after_clicks: int | None = None

    @property
    def behind_proxy(self) -> bool:
        return self.proxy or self.processes > 1

    def describe(self) -> str:
        text = f"{self.processes} app process{'es' if self.processes != 1 else ''}"
        if self.behind_proxy:
            text += " behind nginx (deploy/nginx/playtest.conf)"
        text += ", PostgreSQL" if self.postgres else ", SQLite"
        if self.kill_after_clicks is not None:
            text += f", kill -9 of one after {self.kill_after_clicks} clicks"
        if self.hop_after_clicks:
            text += (", every tester reconnects after clicks "
                     + ", ".join(map(str, self.hop_after_clicks)))
        if self.rolling_restart_after_clicks is not None:
            text += (", every process restarted in turn from click "
                     f"{self.rolling_restart_after_clicks}")
        if self.experiment:
            text += ", a wording experiment"
        return text


@dataclass(frozen=True)
class Report:
    """The measured numbers of one benchmark run."""

    testers: int
    turns: int
    play: PlayPhase
    storage: StorageCheck
    load_avg: float | None = None  # the machine's 1-minute load average before the run
    quickack: bool = False  # the clients ACKed at once (a diagnosis, not what browsers do)
    deployment: Deployment = field(default_factory=lambda: Deployment())
    killed_after_clicks: int | None = None  # when one process got kill -9 (None: never)
    upstreams: dict[str, str] = field(default_factory=dict)  # connection -> app process
    assignments: AssignmentCheck | None = None  # with deployment.experiment
    restarts: RollingRestart | None = None  # with deployment.rolling_restart_after_clicks

    @property
    def moves(self) -> Moves:
        return moves_of([r.connections for r in self.results], self.upstreams)

    @property
    def results(self) -> tuple[SimulatedTester, ...]:
        return self.play.results

    @property
    def resumes(self) -> list[ResumeCheck]:
        return [check for r in self.results for check in r.resumes]

    @property
    def reconnected(self) -> int:
        """Testers whose connection was lost and who carried on through a new one."""
        return sum(1 for r in self.results if r.reconnects)

    def round_trips_between(self, start: float, end: float,
                            inside: bool = True) -> list[float]:
        """Round trips answered between the ``time.monotonic()`` marks ``start`` and
        ``end`` (or outside them)."""
        return [ms for r in self.results for ms, at in zip((ms for _k, ms in r.timings),
                                                           r.answered_at, strict=True)
                if (start <= at <= end) == inside]

    @property
    def restart_ok(self) -> bool:
        """No rolling restart asked for, or every process was restarted and came back."""
        if self.deployment.rolling_restart_after_clicks is None:
            return True
        return (self.restarts is not None and self.restarts.error == ""
                and len(self.restarts.processes) == self.deployment.processes)

    @property
    def kill_ok(self) -> bool:
        """No kill asked for, or it happened, its testers reconnected and every resumed
        board is the replay of its stored record."""
        if self.deployment.kill_after_clicks is None:
            return True
        return (self.killed_after_clicks is not None and self.reconnected > 0
                and bool(self.resumes) and all(c.ok for c in self.resumes))

    @property
    def state_ok(self) -> bool:
        """Every resumed board (after a kill or a planned reconnection) is the tester's
        game with its message, and the experiment (if any) kept each tester's variant."""
        return (all(c.ok for c in self.resumes)
                and (self.assignments is None or self.assignments.ok))

    def percentile_ms(self, pct: float) -> float:
        return percentile(self.round_trips, pct) if self.round_trips else math.nan

    @property
    def reruns_per_s(self) -> float:
        return len(self.round_trips) / max(self.play.wall_s, 1e-9)

    @property
    def round_trips(self) -> list[float]:
        return [ms for r in self.results for _kind, ms in r.timings]

    @property
    def errors(self) -> list[str]:
        return [e for r in self.results for e in r.errors]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.round_trips) if self.round_trips else math.nan

    @property
    def p95_ms(self) -> float:
        return percentile(self.round_trips, 95) if self.round_trips else math.nan

    @property
    def ok(self) -> bool:
        return (self.storage.ok and not self.errors and bool(self.round_trips) and self.kill_ok
                and self.state_ok and self.restart_ok
                and self.median_ms <= TARGET_MEDIAN_MS and self.p95_ms <= TARGET_P95_MS)

    def lines(self) -> list[str]:
        trips = self.round_trips
        connects = [r.connect_ms for r in self.results if r.connect_ms is not None]
        by_kind = Counter(kind for r in self.results for kind, _ms in r.timings)
        sizes = [b for r in self.results for b in r.bytes_received] or [0]
        s = self.storage
        verdict = {True: "ok", False: "MISSED"}
        lines = [
            f"load test: {self.testers} testers x {self.turns} turns over Streamlit's websocket "
            f"protocol (real server, {APP}; {self.deployment.describe()})"
            + (", clients with TCP_QUICKACK (diagnosis: browsers do not do this)"
               if self.quickack else ""),
            f"reruns measured: {len(trips)} ({by_kind['roll']} rolls, {by_kind['click']} "
            f"clicks; {sum(r.fragment_runs for r in self.results)} of them the play screen's "
            f"fragment alone), games started after a finished one: "
            f"{sum(r.games for r in self.results)}, median bytes per rerun: "
            f"{statistics.median(sizes):.0f}",
        ]
        if trips:
            lines += [
                f"round trip BackMsg -> script_finished: median {self.median_ms:.1f} ms "
                f"[{verdict[self.median_ms <= TARGET_MEDIAN_MS]}, target <= "
                f"{TARGET_MEDIAN_MS:.0f}], p95 {self.p95_ms:.1f} ms "
                f"[{verdict[self.p95_ms <= TARGET_P95_MS]}, target <= {TARGET_P95_MS:.0f}], "
                f"max {max(trips):.1f} ms",
            ]
        if connects:
            lines.append(f"first page + consent (all testers at once, cold server): median "
                         f"{statistics.median(connects):.0f} ms, max {max(connects):.0f} ms")
        play = self.play
        per_rerun = ("?" if play.server_cpu_s is None or not trips
                     else f"{1000 * play.server_cpu_s / len(trips):.1f} ms")
        lines += [
            f"play phase: {len(trips) / max(play.wall_s, 1e-9):.1f} reruns/s over "
            f"{play.wall_s:.1f} s (think time included); server CPU "
            f"{_share(play.server_cpu_s, play.wall_s)}, {per_rerun} per rerun; load client "
            f"{_share(play.client_cpu_s, play.wall_s)}",
            f"machine: {os.cpu_count()} cores shared with other processes, load average "
            f"{'?' if self.load_avg is None else f'{self.load_avg:.2f}'} before the run",
            f"errors: {len(self.errors)}",
            *(f"  {e}" for e in self.errors[:10]),
            f"database: {s.clicks_sent} clicks and {s.rolls_sent} rolls acknowledged, "
            f"{s.clicks_stored} clicks stored, {s.missing} acknowledged missing, "
            f"{s.duplicated} duplicated, {s.unexpected} unexpected; {s.unacknowledged} "
            f"unacknowledged ({s.unacknowledged_stored} of them stored); {s.sessions} "
            f"sessions, {s.sessions_with_gaps} with seq gaps [{verdict[s.ok]}]; "
            f"{s.wrong_clicks} clicks judged wrong by the rules",
        ]
        if self.deployment.kill_after_clicks is not None:
            lines.append(
                "kill -9: " + ("never happened" if self.killed_after_clicks is None else
                               f"one app process after {self.killed_after_clicks} clicks")
                + f"; {self.reconnected} testers reconnected through the proxy "
                f"[{verdict[self.kill_ok]}]")
        if self.deployment.rolling_restart_after_clicks is not None:
            lines += self._restart_lines(verdict)
        if (self.deployment.hop_after_clicks or self.deployment.kill_after_clicks is not None
                or self.deployment.rolling_restart_after_clicks is not None):
            resumes = self.resumes
            lines += [
                f"reconnections: {sum(r.reconnects for r in self.results)} after a lost "
                "connection, "
                f"{sum(r.hops for r in self.results)} planned; {len(resumes)} boards resumed: "
                f"{sum(1 for c in resumes if c.continued)} in the game the tester was playing "
                f"(or the next, theirs being over), {sum(1 for c in resumes if c.equal)} "
                f"equal to the replay of its stored record, "
                f"{sum(1 for c in resumes if c.message_kept)} with its last stored message, "
                f"{sum(1 for c in resumes if c.setting_kept)} with the tester's sound setting "
                f"({sum(1 for c in resumes if c.muted_stored)} muted) "
                f"[{verdict[all(c.ok for c in resumes)]}]",
                self.moves.line()]
        if self.assignments is not None:
            lines.append(self.assignments.line())
        lines.append(f"result: {'PASS' if self.ok else 'FAIL'}")
        return lines

    def _restart_lines(self, verdict: dict[bool, str]) -> list[str]:
        restarts = self.restarts
        if restarts is None or not restarts.processes:
            return [f"rolling restart: never happened "
                    f"{restarts.error if restarts else ''} [{verdict[False]}]"]
        start, end = restarts.processes[0][0], restarts.processes[-1][1]
        each = ", ".join(f"{b - a:.1f}" for a, b in restarts.processes)
        lines = [f"rolling restart: {len(restarts.processes)} processes restarted one at a "
                 f"time from click {self.deployment.rolling_restart_after_clicks} over "
                 f"{end - start:.1f} s (each down until healthy again: {each} s)"
                 + (f"; {restarts.error}" if restarts.error else "")
                 + f" [{verdict[self.restart_ok]}]"]
        for name, trips in (("during the restart", self.round_trips_between(start, end)),
                            ("before and after", self.round_trips_between(start, end, False))):
            lines.append(f"  round trips {name}: {len(trips)} reruns"
                         + (f", median {statistics.median(trips):.1f} ms, p95 "
                            f"{percentile(trips, 95):.1f} ms, max {max(trips):.1f} ms"
                            if trips else ""))
        return lines


@dataclass
class RollingRestart:
    """When each app process was down (``time.monotonic()``: from SIGTERM to healthy
    again), in the order restarted; ``error`` if one did not come back."""

    processes: list[tuple[float, float]] = field(default_factory=list)
    error: str = ""


def _share(cpu_s: float | None, wall_s: float) -> str:
    if cpu_s is None:
        return "?"
    return f"{cpu_s:.1f} s ({100 * cpu_s / max(wall_s, 1e-9):.0f}% of a core)"


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process `pid` from /proc (None where there is none)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prepare_database(path: Path) -> tuple[str, Engine]:
    """A migrated SQLite file at `path` with the load study; returns (url, engine)."""
    return _prepare(f"sqlite:///{path}")


def _prepare(url: str, experiments: Sequence[Experiment] = ()) -> tuple[str, Engine]:
    engine = make_engine(url)
    upgrade(engine)
    services.create_study(engine, title="Load test", config=load_study_config(experiments),
                          study_id=STUDY_ID)
    return url, engine


class ServerCpu:
    """CPU seconds of the app processes so far; a killed process keeps what it had used
    (read just before the kill)."""

    def __init__(self, pids: Sequence[int]) -> None:
        self.pids = list(pids)
        self.frozen: dict[int, float] = {}

    def freeze(self, pid: int) -> None:
        self.frozen[pid] = process_cpu_seconds(pid) or 0.0

    def total(self) -> float | None:
        values = [self.frozen.get(pid, process_cpu_seconds(pid)) for pid in self.pids]
        return None if any(v is None for v in values) else sum(v or 0.0 for v in values)


@dataclass(frozen=True)
class RunningCluster:
    """App processes already running behind nginx on a migrated database (a test module's,
    shared by several runs): a run adds its own study ``study_id`` to the database, plays
    it on these processes and leaves them running (its rolling restart or kill included)."""

    cluster: Cluster
    database_url: str
    study_id: str


def run_benchmark(testers: int, turns: int, *, think_ms: tuple[int, int] = (500, 1500),
                  seed: int = 1, time_limit_s: float = 600.0, work_dir: Path | None = None,
                  server_log: list[str] | None = None, quickack: bool = False,
                  deployment: Deployment | None = None, profile: Path | None = None,
                  on: RunningCluster | None = None) -> Report:
    """Start the app on a scratch database, run the testers, check the database.

    `deployment` says how (default: one process on a SQLite file, as a classroom runs
    it). Behind the proxy (``deploy/``'s nginx, :mod:`benchmarks.cluster`), testers whose
    connection drops reconnect and their resumed board is checked against its replay.
    `work_dir` keeps the database (SQLite) and the server logs (default: a temporary
    folder, removed afterwards). The servers' last log lines go to `server_log`. `on`:
    play on a cluster already running (`deployment` then describes it) instead.
    """
    from benchmarks import cluster, profiled_app

    setup = deployment or Deployment()
    study_id = on.study_id if on is not None else STUDY_ID
    with tempfile.TemporaryDirectory(prefix="playtest-load-") as tmp:
        folder = work_dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        experiments = [WORDING_EXPERIMENT] if setup.experiment else []
        if on is not None:
            url, engine = on.database_url, make_engine(on.database_url)
            services.create_study(engine, title="Load test",
                                  config=load_study_config(experiments), study_id=study_id)
        elif setup.postgres:
            url, engine = _prepare(create_postgres_database(setup.postgres), experiments)
        else:
            db_path = folder / "loadtest.sqlite"
            for old in folder.glob("loadtest.sqlite*"):
                old.unlink()
            url, engine = _prepare(f"sqlite:///{db_path}", experiments)
        env = {"DATABASE_URL": url}
        script = APP
        if profile is not None:
            env[profiled_app.OUT_ENV] = str(profile.resolve())
            env[profiled_app.SKIP_ENV] = str(4 * testers)  # first pages and consents
            script = profiled_app.__file__
        running: cluster.Cluster | StreamlitServer
        if on is not None:
            running = on.cluster
            pids = [app.proc.pid for app in running.apps]
        elif setup.behind_proxy:
            running = cluster.start_cluster(setup.processes, env, folder)
            pids = [app.proc.pid for app in running.apps]
        else:
            running = start_streamlit(script, env, folder)
            pids = [running.proc.pid]
        cpu = ServerCpu(pids)
        killed: list[int] = []
        upstreams: dict[str, str] = {}

        restarts = RollingRestart()
        restarter: list[threading.Thread] = []

        def restart_each(cluster_: cluster.Cluster) -> None:
            try:
                for index in range(len(cluster_.apps)):
                    began = time.monotonic()
                    cpu.freeze(cluster_.apps[index].proc.pid)
                    new = cluster_.restart(index)
                    cpu.pids.append(new.proc.pid)
                    restarts.processes.append((began, time.monotonic()))
            except (cluster.ClusterError, OSError) as err:
                restarts.error = f"{type(err).__name__}: {err}"

        def restarted_before(last_answer: float) -> bool:
            """Under a rolling restart, a tester plays on after their turns until one of
            their answers came after the last process was healthy again (however long the
            restart takes on a busy machine), or the restart failed."""
            done = restarts.processes
            return not restarts.error and (len(done) < setup.processes
                                           or last_answer <= done[-1][1])

        def on_clicks(total: int) -> None:
            if (isinstance(running, cluster.Cluster) and setup.kill_after_clicks is not None
                    and total >= setup.kill_after_clicks and not killed):
                cpu.freeze(running.apps[0].proc.pid)
                running.kill(0)
                killed.append(total)
            if (isinstance(running, cluster.Cluster) and not restarter
                    and setup.rolling_restart_after_clicks is not None
                    and total >= setup.rolling_restart_after_clicks):
                # In a thread: a restart takes seconds, the testers play on meanwhile.
                restarter.append(threading.Thread(target=restart_each, args=(running,),
                                                  name="rolling-restart", daemon=True))
                restarter[0].start()

        try:
            load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
            play = run_coroutine(run_testers(
                running.url, study_id, testers, turns, think_ms, seed, time_limit_s,
                server_cpu=cpu.total, quickack=quickack,
                resume=replay_checker(engine) if setup.behind_proxy else None,
                on_clicks=on_clicks, hop_after=setup.hop_after_clicks,
                # A rolling restart may cut a tester once per process (they can land on
                # the next one to restart each time), as a browser, who retries for good.
                max_reconnects=MAX_RECONNECTS + (setup.processes if
                                                 setup.rolling_restart_after_clicks else 0),
                play_on=(restarted_before if setup.rolling_restart_after_clicks is not None
                         and setup.behind_proxy else None)))
        finally:
            for thread in restarter:
                thread.join(timeout=cluster.START_TIMEOUT_S * (setup.processes + 1))
            if server_log is not None:
                apps = running.apps if isinstance(running, cluster.Cluster) else [running]
                server_log.extend(app.log_tail() for app in apps)
            if on is None:
                running.stop()
            if isinstance(running, cluster.Cluster):
                upstreams = running.nginx.upstreams()
        storage = check_storage(engine, study_id, play.results)
        assignments = (check_assignments(engine, [r.participant_id for r in play.results
                                                  if r.participant_id])
                       if setup.experiment else None)
        engine.dispose()
        if setup.postgres and work_dir is None and on is None:
            drop_postgres_database(setup.postgres, url)
    return Report(testers, turns, play, storage, load_avg, quickack, setup,
                  killed[0] if killed else None, upstreams, assignments,
                  restarts if restarter else None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.loadtest",
        description="Simulated testers playing at once against the real app over "
                    "Streamlit's websocket protocol; prints round trips and checks storage.")
    parser.add_argument("--testers", type=int, default=50, help="simultaneous testers (1-200)")
    parser.add_argument("--turns", type=int, default=10, help="turns per tester (1-500)")
    parser.add_argument("--think-ms", default="500:1500",
                        help="think time between actions, MS or MIN:MAX (default 500:1500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of tile and think choices")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds before unfinished testers are stopped (default 600)")
    parser.add_argument("--quickack", action="store_true",
                        help="diagnosis: clients ACK every packet at once (TCP_QUICKACK), which "
                             "hides the server's Nagle + delayed-ACK stall; browsers do not")
    parser.add_argument("--keep", type=Path, default=None,
                        help="folder to keep the SQLite file and server log in")
    parser.add_argument("--processes", default="1",
                        help="app processes, or a list to compare (e.g. 1,3): more than one "
                             "(or a list) runs behind deploy/'s nginx on PostgreSQL")
    parser.add_argument("--proxy", action="store_true",
                        help="behind deploy/'s nginx even with one process")
    parser.add_argument("--postgres", default=None, metavar="URL|auto",
                        help="a PostgreSQL server URL whose user may CREATE DATABASE, or "
                             "'auto' to start a throwaway one (tests/pg_server.py); default "
                             "SQLite for one process, 'auto' for more")
    parser.add_argument("--kill-one", action="store_true",
                        help="kill -9 one app process when a third of the clicks are "
                             "acknowledged; its testers reconnect through nginx, every "
                             "tester also reconnects after a third and two thirds of their "
                             "turns, and the study has a wording experiment (all checked)")
    parser.add_argument("--rolling-restart", action="store_true",
                        help="once a third of the clicks are acknowledged, restart every app "
                             "process in turn (SIGTERM, start again, healthy before the "
                             "next), as the README's rolling update does; prints the round "
                             "trips during the restart and before/after")
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE",
                        help="diagnosis (one process, no proxy): profile every rerun with "
                             "cProfile into FILE; read it with python -m benchmarks.profiled_app "
                             "FILE (round trips are slower while profiling)")
    return parser


def parse_processes(text: str) -> list[int]:
    """``"3"`` or ``"1,3"``: the process counts to run.

    >>> parse_processes("1,3")
    [1, 3]
    """
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= n <= 16 for n in counts):
        raise UsageError(f"--processes {text!r}: use N or N,M,... with 1 <= N <= 16")
    return counts


def hop_points(turns: int) -> tuple[int, ...]:
    """After which clicks every tester reconnects with ``--kill-one``: a third and two
    thirds of their turns (none that would end their run).

    >>> hop_points(6), hop_points(10), hop_points(2)
    ((2, 4), (3, 6), (1,))
    """
    return tuple(sorted({n for n in (turns // 3, 2 * turns // 3) if 0 < n < turns}))


def comparison_lines(reports: Sequence[Report]) -> list[str]:
    """One line per run: the figures to compare between process counts."""
    width = max(len(report.deployment.describe()) for report in reports)
    lines = ["", "comparison (same testers, turns, think time and seed):",
             f"{'deployment':<{width}} {'reruns/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
             f"{'p99 ms':>7} {'CPU/rerun':>9}"]
    for report in reports:
        cpu = report.play.server_cpu_s
        per = "?" if cpu is None or not report.round_trips else \
            f"{1000 * cpu / len(report.round_trips):.1f} ms"
        lines.append(f"{report.deployment.describe():<{width}} {report.reruns_per_s:>8.1f} "
                     f"{report.median_ms:>7.1f} {report.p95_ms:>7.1f} "
                     f"{report.percentile_ms(99):>7.1f} {per:>9}")
    return lines


def _postgres_server(choice: str | None, needed: bool) -> tuple[str | None, Any]:
    """(server URL, a server this command started or None)."""
    if choice is None and not needed:
        return None, None
    if choice not in (None, "auto"):
        return choice, None
    try:
        from tests.pg_server import PostgresServer  # a checkout's throwaway server
    except ImportError as err:
        raise UsageError(f"--postgres auto needs the project checkout's tests/pg_server.py "
                         f"({err}); pass a server URL instead") from err
    server = PostgresServer()
    server.start()
    return server.url, server


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    parser.__class__ = _Parser
    try:
        args = parser.parse_args(argv)
        think = parse_think(args.think_ms)
        counts = parse_processes(args.processes)
        if not 1 <= args.testers <= 200:
            raise UsageError(f"--testers {args.testers}: use 1 to 200")
        if not 1 <= args.turns <= 500:
            raise UsageError(f"--turns {args.turns}: use 1 to 500")
        if not 1 <= args.time_limit <= 3600:
            raise UsageError(f"--time-limit {args.time_limit}: use 1 to 3600 seconds")
        if args.profile is not None and (len(counts) > 1 or max(counts) > 1 or args.proxy):
            raise UsageError("--profile runs one process without the proxy")
        if args.kill_one and max(counts) < 2:
            raise UsageError("--kill-one needs --processes 2 or more")
        if args.rolling_restart and min(counts) < 2:
            raise UsageError("--rolling-restart needs --processes 2 or more")
        many = max(counts) > 1 or args.proxy
        postgres, started = _postgres_server(args.postgres, needed=many)
    except UsageError as err:
        print(f"loadtest: {err}", file=sys.stderr)
        return 2
    except RuntimeError as err:  # the throwaway PostgreSQL did not start
        print(f"loadtest: {err}", file=sys.stderr)
        return 1
    reports: list[Report] = []
    try:
        for count in counts:
            log: list[str] = []
            # Compared runs all go through nginx: only the number of processes differs.
            kill = args.kill_one and count > 1
            setup = Deployment(
                processes=count, proxy=many, postgres=postgres,
                kill_after_clicks=max(1, args.testers * args.turns // 3) if kill else None,
                hop_after_clicks=hop_points(args.turns) if kill else (), experiment=kill,
                rolling_restart_after_clicks=(max(1, args.testers * args.turns // 3)
                                              if args.rolling_restart else None))
            try:
                report = run_benchmark(args.testers, args.turns, think_ms=think, seed=args.seed,
                                       time_limit_s=args.time_limit, work_dir=args.keep,
                                       server_log=log, quickack=args.quickack,
                                       deployment=setup, profile=args.profile)
            except RuntimeError as err:  # a server did not start: its log says why
                print(f"loadtest: {err}", file=sys.stderr)
                return 1
            if len(counts) > 1:
                print()
            print("\n".join(report.lines()))
            if report.errors and log:
                print("server log (last lines):\n" + "\n".join(log))
            reports.append(report)
    finally:
        if started is not None:
            started.stop()
    if len(reports) > 1:
        print("\n".join(comparison_lines(reports)))
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
