"""Dokusen engine speed: random playouts per second and computer decision times, per stage.

    .venv/bin/python benchmarks/bench_dokusen.py [--games N]

Prints one line per stage: games played to the end with random placements (chance drawn
by the driver), games per second, mean rounds, and the median time of one greedy and one
lookahead decision in the opening positions. With ``--users N`` it also plays N games
per stage and user level (random, greedy, lookahead; the computer colours at their stage
levels) and prints how many the user won: how hard each proposed stage is for a
computer tester. Numbers, not thresholds: nothing fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.core import CHANCE, sample_chance
from engine.dokusen import DokusenGame, builtin_stages
from engine.dokusen.ai import computer_action, greedy_action, lookahead_action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--users", type=int, default=0, help="games per stage and user level")
    args = parser.parse_args()
    print(f"{'stage':<6}{'squares':>8}{'games/s':>10}{'rounds':>8}{'greedy ms':>11}{'lookahead ms':>14}")
    for stage in builtin_stages():
        game = DokusenGame(stage)
        rng = random.Random(1)
        rounds = []
        t0 = time.perf_counter()
        for _ in range(args.games):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.current_player() == CHANCE:
                    s.apply_action(sample_chance(s, rng))
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
            rounds.append(s.round)
        rate = args.games / (time.perf_counter() - t0)
        timings: dict[str, list[float]] = {"greedy": [], "lookahead": []}
        s = game.new_initial_state()
        for _ in range(10):
            if s.is_terminal():
                break
            if s.current_player() == CHANCE:
                s.apply_action(sample_chance(s, rng))
                continue
            for name, fn in (("greedy", greedy_action), ("lookahead", lookahead_action)):
                t = time.perf_counter()
                fn(s)
                timings[name].append(1000 * (time.perf_counter() - t))
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        print(
            f"{stage.id:<6}{game.grid.total:>8}{rate:>10.0f}{statistics.mean(rounds):>8.1f}"
            f"{statistics.median(timings['greedy']):>11.2f}{statistics.median(timings['lookahead']):>14.1f}"
        )

    if args.users:
        print(f"\nuser wins out of {args.users} games (seeds 0..{args.users - 1})")
        print(f"{'stage':<6}{'random':>8}{'greedy':>8}{'lookahead':>11}")
        for stage in builtin_stages():
            wins = []
            for level in ("random", "greedy", "lookahead"):
                won = 0
                for seed in range(args.users):
                    s = DokusenGame(stage).new_initial_state()
                    rng = random.Random(seed)
                    while not s.is_terminal():
                        s.apply_action(computer_action(s, rng, user_level=level))
                    won += s.outcome is not None and s.outcome.won
                wins.append(won)
            print(f"{stage.id:<6}{wins[0]:>8}{wins[1]:>8}{wins[2]:>11}")


if __name__ == "__main__":
    main()
