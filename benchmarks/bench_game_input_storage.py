"""What a tester's input costs in storage in the games played through the shared play step
(``playtest/games/play_step.py``): CPU per input, by how it is stored.

    python -m benchmarks.bench_game_input_storage [--game morris] [--inputs 300]
        [--rounds 3] [--postgres URL|auto]

The companion of :mod:`benchmarks.bench_click_storage` (Vapoosh!'s controller) for a game
whose page glue is its ``play.py`` (Bricks & Walls by default; any registered game played
through ``play_step``). A tester (seat 1) against the easy computer: each input is what
the game's ``on_click`` does with a click the engine accepts (the ``click`` event, the
action with the engine's events, the computer's answer, the end), the tester's action
drawn from the legal ones by a seeded generator. Three ways, interleaved round by round:

* ``one transaction`` — as the app stores it: the input inside
  :func:`playtest.games.play_step.one_input`;
* ``per call`` — the same functions without it: every action and every event a
  transaction of its own (how these games stored an input before);
* ``no storage`` — a sink that stores nothing: the engine's and the play step's own cost.

Printed per way and database: process CPU per input (``time.process_time``: the SQLite
event writer thread counts too) and wall time p50/p95. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import random
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

import streamlit as st

from benchmarks.bench_click_storage import measure_ways, print_on_databases
from playtest import runtime, services
from playtest.app_pages import common
from playtest.games import play_step
from playtest.games.registry import game_plugin
from playtest.settings import DATABASE_URL_ENV
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger
from playtest.study_config import StudyConfig


class _NoStorage:
    """A game sink that stores nothing (the ``no storage`` way's baseline)."""

    def __init__(self, game_id: str, participant_id: str) -> None:
        self.game_id, self.participant_id = game_id, participant_id

    def append_action(self, index: int, action: list[Any]) -> bool:
        return True

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        return None

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        return None


@contextlib.contextmanager
def _stored(way: str, tester: services.Tester, play: Any, key: str) -> Iterator[None]:
    if way == "one transaction":
        with play_step.one_input(tester, play, session_key=key):
            yield
    elif way == "per call":
        yield
    else:
        token = play_step._INPUT_SINK.set(_NoStorage(play.game_id, tester.code))  # type: ignore[arg-type]
        try:
            yield
        finally:
            play_step._INPUT_SINK.reset(token)


def play_inputs(module: Any, tester: services.Tester, way: str, inputs: int,
                rng: random.Random) -> tuple[float, list[float]]:
    """(process CPU seconds, wall ms per input) of ``inputs`` tester inputs."""
    key = module.SESSION_KEY
    walls: list[float] = []
    cpu = 0.0
    play: Any = None
    while len(walls) < inputs:
        if play is None or play.state.is_terminal():
            st.session_state.pop(key, None)
            play = module._new_game(tester)
            st.session_state[key] = play
            with _stored(way, tester, play, key):
                module._computer_moves(tester, play)
            continue
        action = rng.choice(play.state.legal_actions())
        seat = play.state.current_player() + 1
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        with _stored(way, tester, play, key):
            click = {"seat": seat, "ok": True, "ms": 500}
            module._sink(tester, play.game_id).log("click", click)
            module._apply(tester, play, action)
            module._computer_moves(tester, play)
            module._finish_if_over(tester, play)
        cpu += time.process_time() - cpu_start
        walls.append((time.perf_counter() - wall_start) * 1000)
    return cpu, walls


def bench(url: str, game: str, inputs: int, rounds: int) -> dict[str, dict[str, float]]:
    engine = make_engine(url)
    upgrade(engine)
    runtime._engines[url] = engine
    runtime._loggers[url] = EventLogger(engine)
    import os

    os.environ[DATABASE_URL_ENV] = url
    plugin = game_plugin(game)
    seats = ["human", "ai:easy"] if len(plugin.default_seats) >= 2 else list(plugin.default_seats)
    config = StudyConfig(game=game, rules=plugin.default_rules, seats=seats,
                         ai_think_ms=0)
    study = services.create_study(engine, title="bench", study_id="bench", config=config)
    tester = services.load_tester(engine, services.consent(engine, study, {"child": False})
                                  .participant_id)
    assert tester is not None
    st.session_state[common.SESSION_KEY] = {tester.code: repo.start_session(engine, tester.code)}
    module = importlib.import_module(f"playtest.games.{game}.play")
    rng = random.Random(1)
    result = measure_ways(lambda way, n: play_inputs(module, tester, way, n, rng),
                          inputs, rounds)
    engine.dispose()
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_game_input_storage",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="morris", help="a game played through play_step")
    parser.add_argument("--inputs", type=int, default=300, help="inputs per way and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", default=None, metavar="URL|auto",
                        help="also on PostgreSQL (a server URL, or auto: a throwaway one)")
    args = parser.parse_args(argv)
    # Outside ``streamlit run`` every st.session_state access warns: not the app's cost.
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("streamlit"):
            logging.getLogger(name).setLevel(logging.ERROR)
    print_on_databases(lambda url: bench(url, args.game, args.inputs, args.rounds),
                       f"{args.game}, ", args.postgres)
    return 0


if __name__ == "__main__":
    sys.exit(main())
