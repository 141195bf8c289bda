"""Vasco engine speed and computer-player strength; prints numbers, asserts nothing.

    python -m benchmarks.bench_vasco playouts --games 20     # random games: CPU ms per move
    python -m benchmarks.bench_vasco strength --games 10     # medium vs easy, both seats
    python -m benchmarks.bench_vasco depth --games 6         # how far hard looks
    python -m benchmarks.bench_vasco seats --games 4         # who wins by seat
    python -m benchmarks.bench_vasco targets --games 12      # legal targets: ms per call,
                                                             # exhaustive (before) vs fast

(The levels' table with intervals: ``python -m engine bench --strength --game vasco``.)

CPU time (``time.process_time``) is reported, so other processes on the machine
do not inflate the numbers.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

from engine.players import make_player
from engine.vasco import VascoGame, VascoState
from engine.vasco.board import blocked_cells, has_legal_move, is_connected
from engine.vasco.geometry import cell_name

# "before": the plain engine the fast paths are tested against (tests/engine/plain)
from tests.engine.plain.vasco_board import legal_moves_exhaustive


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


def _positions(games: int, seed: int) -> list[VascoState]:
    """Every position of ``games`` games of the medium level against medium or easy (the
    demo's and the app's opponents: short games, loops close early) and of as many games
    of random play (longer: the board fills up)."""
    out = []
    for g in range(2 * games):
        kinds = (("medium", "easy" if g % 2 else "medium") if g < games else ("easy", "easy"))
        movers = (make_player(kinds[0], seed + g, game="vasco"),
                  make_player(kinds[1], seed + 100 + g, game="vasco"))
        s = VascoGame().new_initial_state()
        while not s.is_terminal():
            out.append(s.clone())
            s.apply_action(movers[s.current_player()].decide(s).action)
    return out


def targets(games: int, seed: int) -> None:
    """CPU ms per call of what a click and a judged move need on a position whose legal
    moves are not known yet: the cells a tile may go on (``legal_targets()``), then the
    tiles of the cell clicked, every legal move (a computer player's turn), and whether
    the side to move can move at all (asked after every move). Before:
    the plain engine's ``legal_moves_exhaustive`` (tests/engine/plain: ``play`` on every
    candidate, as the state found every legal move for any of these before the fast path); after: the state's fast path."""
    states = _positions(games, seed)
    contexts = [(s.tiles, s.tiles_remaining, blocked_cells(s.tiles), is_connected(s.tiles))
                for s in states]
    chosen = list(range(len(states)))

    def per_call(run: Callable[[int], object], repeat: int = 3) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            for i in chosen:
                run(i)
            best = min(best, time.process_time() - start)
        return 1000 * best / len(chosen)

    def before_targets(i: int) -> object:
        tiles, left, blocked, connected = contexts[i]
        moves = legal_moves_exhaustive(tiles, left, blocked=blocked, connected=connected)
        return [cell_name(c) for c in sorted({cell for cell, _ in moves})]

    def after_targets(i: int) -> object:
        return states[i].clone().legal_targets()  # a clone of a new state: nothing cached

    def after_turn(i: int) -> object:
        state = states[i].clone()
        cells = state.legal_targets()
        return state.legal_targets(cells[:1])  # the tiles of the cell clicked

    def after_all(i: int) -> object:
        return states[i].clone().legal_actions()

    def before_any(i: int) -> object:
        tiles, left, blocked, connected = contexts[i]
        return bool(legal_moves_exhaustive(tiles, left, blocked=blocked, connected=connected))

    def after_any(i: int) -> object:
        tiles, left, blocked, connected = contexts[i]
        return has_legal_move(tiles, left, blocked=blocked, connected=connected)

    print(f"{len(states)} positions of {2 * games} games ({games} with the medium level, "
          f"{games} random); CPU ms per call, best of 3")
    print("tiles on the board  positions  call                            before (exhaustive)"
          "  after (fast)  speed-up")
    for low, high in ((0, 10), (11, 30), (31, 10_000)):
        chosen[:] = [i for i, s in enumerate(states) if low <= len(s.tiles) <= high]
        if not chosen:
            continue
        span = f"{low}-{high}" if high < 10_000 else f"{low}+"
        for name, before, after in (("legal_targets() on a new state", before_targets,
                                     after_targets),
                                    ("a click: cells, one cell's tiles", before_targets,
                                     after_turn),
                                    ("every legal move (a computer)", before_targets,
                                     after_all),
                                    ("can the side to move move?", before_any, after_any)):
            b, a = per_call(before), per_call(after)
            print(f"{span:<19} {len(chosen):>9}  {name:<31} {b:>19.2f} {a:>13.2f} "
                  f"{b / a:>8.1f}x")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_vasco")
    parser.add_argument("what", choices=("playouts", "strength", "depth", "seats", "targets"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    commands = {"playouts": playouts, "strength": strength, "depth": depth, "seats": seats,
                "targets": targets}
    commands[args.what](args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
