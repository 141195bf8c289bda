"""Speed of the Bricks & Walls engine and board data, printed as numbers:

    .venv/bin/python benchmarks/morris_bench.py [--games 200] [--seed 1]

Random playouts (games and actions per second, game lengths), legal-move generation,
click judging, one-ply greedy decisions and the board's data for the browser.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.morris import POINTS, MorrisGame, MorrisState
from engine.morris.heuristics import greedy_action
from playtest.games.morris.view import board_data


def playouts(n: int, seed: int) -> tuple[list[MorrisState], list[int], float]:
    rng = random.Random(seed)
    states: list[MorrisState] = []
    lengths: list[int] = []
    t0 = time.perf_counter()
    for _ in range(n):
        s = MorrisGame().new_initial_state()
        k = 0
        while not s.is_terminal():
            acts = s.legal_actions()
            if k % 7 == 3 and len(states) < 2000:
                states.append(s.clone())
            s.apply_action(rng.choice(acts))
            k += 1
        lengths.append(k)
    return states, lengths, time.perf_counter() - t0


def per_call(
    fn: Callable[[MorrisState], object], items: list[MorrisState], repeat: int = 1
) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for s in items:
            fn(s)
    return (time.perf_counter() - t0) / (len(items) * repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states, lengths, secs = playouts(args.games, args.seed)
    actions = sum(lengths)
    print(
        f"random playouts: {args.games} games in {secs:.2f} s = {args.games / secs:.0f} games/s, "
        f"{actions / secs:.0f} actions/s"
    )
    print(
        f"game length (actions): mean {statistics.mean(lengths):.0f}, "
        f"median {statistics.median(lengths):.0f}, max {max(lengths)}"
    )
    sample = states[:500]
    print(
        f"legal_actions: {per_call(lambda s: s.legal_actions(), sample, 5) * 1e6:.1f} µs per call "
        f"({len(sample)} positions from the playouts)"
    )
    rng = random.Random(args.seed)
    clicks = [(s, rng.choice(POINTS)) for s in sample]
    t0 = time.perf_counter()
    for s, p in clicks:
        s.click(p)
    print(f"click judging: {(time.perf_counter() - t0) / len(clicks) * 1e6:.1f} µs per click")
    print(
        f"greedy decision: {per_call(lambda s: greedy_action(s, rng), sample[:200]) * 1e3:.2f} ms"
    )
    print(
        f"board data for the browser: {per_call(lambda s: board_data(s), sample[:200]) * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
