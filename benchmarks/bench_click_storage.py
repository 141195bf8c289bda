"""What a tester's roll or click costs in storage: CPU per input, by how it is stored.

    python -m benchmarks.bench_click_storage [--inputs 400] [--rounds 3] [--postgres URL|auto]

Plays Vapoosh! games of the load test's study (``benchmarks.loadtest``: computers move
at once) through the real controller (:func:`playtest.games.vapoosh.session.open_game`),
one tester's input after another: a roll, or a click on the first highlighted tile, and
then the computer's whole turn, exactly what one rerun of the play screen asks of the
controller. Three ways of storing them, interleaved round after round:

* ``one transaction`` — the database sink as the app uses it: each input's actions,
  events and finish in one transaction (:mod:`playtest.storage.game_writes`);
* ``per call`` — the same sink with its batch hidden: every action and every event is a
  transaction of its own (how the app stored a click before);
* ``no storage`` — a sink that stores nothing: the engine's and the controller's own cost.

Printed per way and database: process CPU per input (``time.process_time``, so the
SQLite event writer thread counts too), and wall time per input p50/p95. The storage
cost of an input is a way's CPU minus that of ``no storage``. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.cluster import create_postgres_database, drop_postgres_database
from benchmarks.loadtest import load_study_config
from playtest import services
from playtest.games.vapoosh.controller import PlayController
from playtest.games.vapoosh.session import open_game
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger

WAYS = ("one transaction", "per call", "no storage")


class _PerCallSink:
    """The database sink without its ``batch``: each write is its own transaction."""

    def __init__(self, sink: services.DbGameSink) -> None:
        self._sink = sink

    def append_action(self, index: int, action: list[Any]) -> bool:
        return self._sink.append_action(index, action)

    def stored_actions(self) -> int:
        return self._sink.stored_actions()

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        self._sink.log(type_, props, client_event_id)

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        self._sink.finish(winner, reason, turns)


class _NoStorage:
    def append_action(self, index: int, action: list[Any]) -> bool:
        return True

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        return None

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        return None


def _open(engine: Any, logger: EventLogger, tester: services.Tester, session: str,
          way: str) -> PlayController:
    ctrl = open_game(engine, logger, tester, session, new=True)
    if way == "per call":
        ctrl.sink = _PerCallSink(ctrl.sink)  # type: ignore[arg-type]
    elif way == "no storage":
        ctrl.sink = _NoStorage()
    return ctrl


def play_inputs(engine: Any, logger: EventLogger, tester: services.Tester, way: str,
                inputs: int) -> tuple[float, list[float]]:
    """(process CPU seconds, wall ms per input) of ``inputs`` tester inputs."""
    session = repo.start_session(engine, tester.code)
    ctrl = _open(engine, logger, tester, session, way)
    ctrl.play_computers()
    walls: list[float] = []
    cpu = 0.0
    nonce = 0
    while len(walls) < inputs:
        if ctrl.is_over:
            ctrl = _open(engine, logger, tester, session, way)
            ctrl.play_computers()
            continue
        nonce += 1
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        if ctrl.state.phase == "roll":
            ctrl.roll(client_event_id=f"{session}:{nonce}")
        else:
            tile = ctrl.legal_tiles()[0]
            ctrl.click(*tile, brown=ctrl.brown_choice() == "forced",
                       client_event_id=f"{session}:{nonce}")
        ctrl.play_computers()
        cpu += time.process_time() - cpu_start
        walls.append((time.perf_counter() - wall_start) * 1000)
    return cpu, walls


def bench(url: str, inputs: int, rounds: int) -> dict[str, dict[str, float]]:
    engine = make_engine(url)
    upgrade(engine)
    logger = EventLogger(engine)
    study = services.create_study(engine, title="bench", study_id="bench",
                                  config=load_study_config())
    tester = services.load_tester(engine, services.consent(engine, study, {"child": False})
                                  .participant_id)
    assert tester is not None
    result = measure_ways(lambda way, n: play_inputs(engine, logger, tester, way, n),
                          inputs, rounds)
    engine.dispose()
    return result


Played = Callable[[str, int], tuple[float, list[float]]]
Result = dict[str, dict[str, float]]


def measure_ways(play: Played, inputs: int, rounds: int) -> Result:
    """CPU per input and wall p50/p95 of each of :data:`WAYS`: ``play(way, n)`` plays
    ``n`` inputs stored that way and returns (CPU s, wall ms per input); 20 inputs first
    warm caches and the pool, then the ways take turns ``rounds`` times."""
    play("one transaction", 20)
    cpu: dict[str, float] = dict.fromkeys(WAYS, 0.0)
    walls: dict[str, list[float]] = {way: [] for way in WAYS}
    for _ in range(rounds):
        for way in WAYS:
            spent, times = play(way, inputs)
            cpu[way] += spent
            walls[way] += times
    result = {}
    for way in WAYS:
        ordered = sorted(walls[way])
        result[way] = {
            "cpu_ms": cpu[way] * 1000 / len(ordered),
            "p50_ms": statistics.median(ordered),
            "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
        }
    return result


def _lines(name: str, result: dict[str, dict[str, float]]) -> list[str]:
    base = result["no storage"]["cpu_ms"]
    lines = [f"{name}:"]
    for way in WAYS:
        r = result[way]
        extra = "" if way == "no storage" else f", storage {r['cpu_ms'] - base:.3f} ms"
        lines.append(f"  {way:<16} CPU {r['cpu_ms']:.3f} ms per input{extra}; "
                     f"wall p50 {r['p50_ms']:.3f} ms, p95 {r['p95_ms']:.3f} ms")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_click_storage",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=400, help="inputs per way and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", default=None, metavar="URL|auto",
                        help="also on PostgreSQL (a server URL, or auto: a throwaway one)")
    args = parser.parse_args(argv)
    print_on_databases(lambda url: bench(url, args.inputs, args.rounds), "", args.postgres)
    return 0


def print_on_databases(bench_on: Callable[[str], Result], label: str,
                       postgres: str | None) -> None:
    """Print ``bench_on(url)`` on a fresh SQLite file, then on PostgreSQL when
    ``postgres`` names a server URL (or is ``auto``: a throwaway server)."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        print("\n".join(_lines(f"{label}SQLite (WAL file)", bench_on(url))))
    if postgres is None:
        return
    server: Any = None
    server_url = postgres
    if server_url == "auto":
        from tests.pg_server import PostgresServer

        server = PostgresServer()
        server.start()
        server_url = server.url
    database = create_postgres_database(server_url)
    try:
        print("\n".join(_lines(f"{label}PostgreSQL", bench_on(database))))
    finally:
        drop_postgres_database(server_url, database)
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
