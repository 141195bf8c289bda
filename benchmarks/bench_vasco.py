"""Vasco engine speed and computer-player strength; prints numbers, asserts nothing.

    python -m benchmarks.bench_vasco playouts --games 20     # random games: CPU ms per move
    python -m benchmarks.bench_vasco strength --games 10     # medium vs easy, both seats

(The levels' table with intervals: ``python -m engine bench --strength --game vasco``.)

CPU time (``time.process_time``) is reported, so other processes on the machine
do not inflate the numbers.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from engine.players import make_player
from engine.vasco import VascoGame


def playouts(games: int, seed: int) -> None:
    moves = autos = 0
    ends: Counter[str] = Counter()
    start = time.process_time()
    for g in range(games):
        rng = random.Random(seed + g)
        s = VascoGame().new_initial_state()
        while not s.is_terminal():
            events = s.apply_action(rng.choice(s.legal_actions()))
            moves += 1
            autos += sum(e.kind == "auto" for e in events)
        assert s.outcome is not None
        ends[f"{s.outcome.reason}:{'draw' if s.winner is None else 'OX'[s.winner - 1]}"] += 1
    cpu = time.process_time() - start
    print(
        f"games {games}, moves {moves} ({moves / games:.1f} per game), "
        f"forced tiles {autos} ({autos / moves:.2f} per move)"
    )
    print(f"CPU {cpu:.2f} s: {1000 * cpu / moves:.1f} ms per move (legal moves + apply)")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))


def strength(games: int, seed: int) -> None:
    levels = {"random": "easy", "greedy": "medium"}
    print("O (first) vs X       O wins  X wins  draws  loop endings  CPU s")
    for o_name, x_name in (
        ("greedy", "random"),
        ("random", "greedy"),
        ("greedy", "greedy"),
        ("random", "random"),
    ):
        tally: Counter[str] = Counter()
        loops = 0
        start = time.process_time()
        for g in range(games):
            players = (make_player(levels[o_name], seed + 2 * g, game="vasco"),
                       make_player(levels[x_name], seed + 2 * g + 1, game="vasco"))
            s = VascoGame().new_initial_state()
            while not s.is_terminal():
                s.apply_action(players[s.current_player()].decide(s).action)
            assert s.outcome is not None
            tally["draw" if s.winner is None else "OX"[s.winner - 1]] += 1
            loops += s.outcome.reason in ("loop", "both_loops")
        print(
            f"{o_name:>6} vs {x_name:<8} {tally['O']:>8} {tally['X']:>7} {tally['draw']:>6} "
            f"{loops:>13} {time.process_time() - start:>6.1f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_vasco")
    parser.add_argument("what", choices=("playouts", "strength"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    (playouts if args.what == "playouts" else strength)(args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
