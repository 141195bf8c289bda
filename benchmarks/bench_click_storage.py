"""What a tester's input costs in storage, in any game: CPU per input, by how it is stored.

    python -m benchmarks.bench_click_storage [--game vapoosh] [--inputs 400] [--rounds 3]
        [--postgres URL|auto]

Plays games of the load test's study (``benchmarks.loadtest``: computers move at once; for
another game, its default rules and seats) through the one game session
(:mod:`playtest.session`), one tester's input after another: a draw (a roll), or a click
on the first legal target, and then the computer's whole turn, exactly what one rerun of
the play screen asks of the session. Three ways of storing them, interleaved round after
round:

* ``one transaction`` — the database sink as the app uses it: each input's actions,
  events and finish in one transaction (:mod:`playtest.storage.game_writes`);
* ``per call`` — the same sink with its batch hidden: every action and every event is a
  transaction of its own (how the app stored a click before);
* ``no storage`` — a sink that stores nothing: the engine's and the session's own cost.

Printed per way and database: process CPU per input (``time.process_time``, so the
SQLite event writer thread counts too), and wall time per input p50/p95. The storage
cost of an input is a way's CPU minus that of ``no storage``. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.cluster import create_postgres_database, drop_postgres_database
from benchmarks.loadtest import load_study_config
from playtest import services
from playtest.session import GameSession, Next
from playtest.session.store import open_session
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger

WAYS = ("one transaction", "per call", "no storage")


class _PerCallSink(services.DbGameSink):
    """The database sink without its ``batch``: each write is its own transaction."""

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        yield


class _NoStorage(services.DbGameSink):
    """A sink that stores nothing (the engine's and the session's own cost)."""

    def append_action(self, index: int, action: list[Any]) -> bool:
        return True

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        return None

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        return None

    def stored_actions(self) -> int:
        return -1

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        yield


def _open(engine: Any, logger: EventLogger, tester: services.Tester, session: str,
          way: str) -> GameSession:
    opened = open_session(engine, logger, tester, session, new=True)
    kind = {"per call": _PerCallSink, "no storage": _NoStorage}.get(way)
    if kind is not None:
        opened.sink = kind(engine, logger, participant_id=tester.code, session_id=session,
                           game_id=opened.play.game_id)
    return opened


def play_inputs(engine: Any, logger: EventLogger, tester: services.Tester, way: str,
                inputs: int) -> tuple[float, list[float]]:
    """(process CPU seconds, wall ms per input) of ``inputs`` tester inputs."""
    session_id = repo.start_session(engine, tester.code)
    game = _open(engine, logger, tester, session_id, way)
    walls: list[float] = []
    cpu = 0.0
    nonce = 0
    while len(walls) < inputs:
        play = game.play
        if play.over:
            game = _open(engine, logger, tester, session_id, way)
            continue
        nonce += 1
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        if game.next() is Next.TESTER_DRAW:
            game.draw(nonce=f"{session_id}:{nonce}")
        else:
            target = play.state.legal_targets(play.selection)[0]
            game.click(target, nonce=f"{session_id}:{nonce}")
        cpu += time.process_time() - cpu_start
        walls.append((time.perf_counter() - wall_start) * 1000)
    return cpu, walls


def bench(url: str, inputs: int, rounds: int, game: str = "vapoosh") -> Result:
    engine = make_engine(url)
    upgrade(engine)
    logger = EventLogger(engine)
    from playtest.games.registry import game_plugin
    from playtest.study_config import StudyConfig

    config = load_study_config()
    if game != config.game:
        plugin = game_plugin(game)
        config = StudyConfig(game=game, ai_think_ms=0, pre_survey=None, post_survey=None,
                             seats=["human", *plugin.default_seats[1:]])
    study = services.create_study(engine, title="bench", study_id="bench", config=config)
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
    parser.add_argument("--game", default="vapoosh", help="a registered game")
    parser.add_argument("--inputs", type=int, default=400, help="inputs per way and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", default=None, metavar="URL|auto",
                        help="also on PostgreSQL (a server URL, or auto: a throwaway one)")
    args = parser.parse_args(argv)
    print_on_databases(lambda url: bench(url, args.inputs, args.rounds, args.game),
                       f"{args.game}, ", args.postgres)
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
