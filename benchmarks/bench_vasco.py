"""Vasco engine speed and computer-player strength; prints numbers, asserts nothing.

    python -m benchmarks.bench_vasco playouts --games 20     # random games: CPU ms per move
    python -m benchmarks.bench_vasco strength --games 10     # medium vs easy, both seats
    python -m benchmarks.bench_vasco depth --games 6         # how far hard looks
    python -m benchmarks.bench_vasco seats --games 4         # who wins by seat

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


def depth(games: int, seed: int) -> None:
    """How far Hard looks: its decisions against Medium by depth reached (the search
    budget buys two plies only while legal moves x replies fit), and how often Medium's
    move there differs from Hard's."""
    looked: Counter[int] = Counter()
    differs: Counter[int] = Counter()
    legal_at: dict[int, list[int]] = {1: [], 2: []}
    start = time.process_time()
    for g in range(games):
        hard = make_player("hard", seed + g, game="vasco")
        medium = make_player("medium", seed + g, game="vasco")
        s = VascoGame().new_initial_state()
        hard_seat = g % 2
        while not s.is_terminal():
            if s.current_player() != hard_seat:
                s.apply_action(medium.decide(s).action)
                continue
            decision = hard.decide(s)
            n = len(s.legal_actions())
            d = 2 if "looked 2 steps" in decision.reason else 1
            looked[d] += 1
            legal_at.setdefault(d, []).append(n)
            differs[d] += make_player("medium", seed + g, game="vasco").decide(
                s).action != decision.action
            s.apply_action(decision.action)
    total = sum(looked.values())
    print(f"hard's decisions in {games} games against medium: {total} "
          f"(CPU {time.process_time() - start:.0f} s)")
    for d in sorted(looked):
        ns = sorted(legal_at[d])
        print(f"  looked {d} plies: {looked[d]} ({looked[d] / total:.0%}), legal moves "
              f"{ns[0]}-{ns[-1]} (median {ns[len(ns) // 2]}), differs from medium "
              f"{differs[d]} times")


def seats(games: int, seed: int) -> None:
    """Who wins by seat when levels meet, each as Red (first) and as Blue: when the first
    seat wins whatever the levels, a win rate with seats swapped sits at 50 %."""
    print("Red (first) vs Blue      Red wins  Blue wins  draws  loop endings  CPU s")
    pairs = [("medium", "medium"), ("hard", "medium"), ("medium", "hard"), ("easy", "medium"),
             ("medium", "easy")]
    for red, blue in pairs:
        tally: Counter[str] = Counter()
        loops = 0
        start = time.process_time()
        for g in range(games):
            players = (make_player(red, seed + 2 * g, game="vasco"),
                       make_player(blue, seed + 2 * g + 1, game="vasco"))
            s = VascoGame().new_initial_state()
            while not s.is_terminal():
                s.apply_action(players[s.current_player()].decide(s).action)
            assert s.outcome is not None
            tally["draw" if s.winner is None else "RB"[s.winner - 1]] += 1
            loops += s.outcome.reason in ("loop", "both_loops")
        print(f"{red:>6} vs {blue:<8} {tally['R']:>16} {tally['B']:>10} {tally['draw']:>6} "
              f"{loops:>13} {time.process_time() - start:>6.0f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_vasco")
    parser.add_argument("what", choices=("playouts", "strength", "depth", "seats"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    {"playouts": playouts, "strength": strength, "depth": depth, "seats": seats}[args.what](
        args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
