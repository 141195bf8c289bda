"""Every game's engine speed and its computer's answer times; prints numbers, asserts nothing.

    python -m benchmarks.bench_engines                     # self-play table + answer times
    python -m benchmarks.bench_engines --compare main      # the same games on REF's engine too,
                                                           # interleaved in the same run
    python -m benchmarks.bench_engines --instructions 3    # + valgrind instruction counts of a
                                                           # fixed seeded workload (3 games each)
    python -m benchmarks.bench_engines --only morris,vasco --no-latency --rounds 5

Random self-play, one core, through the engine core's own API: ``make_game``, then until
the end ``apply_action(sample_chance(state, rng))`` at a chance node, else
``apply_action(rng.choice(state.legal_actions()))``. Each row says games and plies (actions
applied) per CPU second of the process that played them, the median over ``--rounds``
slices of ``--seconds`` CPU seconds each. Every slice starts from the same seed, so two
engines with the same rules play the very same games; with ``--compare REF`` the engine of
git revision REF (its ``engine/`` folder, unpacked with ``git archive`` into a temporary
folder) plays its slice right after this tree's, in alternating order, so both see the
same machine load.

Rows: each game under its rules (Dokusen on stage S8, the hardest built-in stage, with
meteors drawn as chance), Vapoosh's own fast playout (``engine.vapoosh.playout``, the
same rules without states or events), and OpenSpiel's ``nine_mens_morris`` through its
Python API (the same loop; Bricks & Walls is Nine Men's Morris with walls), the peer the
Bricks & Walls row is measured against. OpenSpiel is an optional benchmark dependency,
outside the product's: ``pip install -e '.[bench]'``; without it the row says so.

Answer times: for every game and computer level, the CPU milliseconds of one
``make_player(level, seed, game=...).decide(state)`` over the same seeded positions
(random self-play, a seat to move with a choice), p50 and p95; targets: the level a
study's computer seat gets by default under 50 ms at p95, the strongest under 300 ms.

``--instructions N`` runs each engine's self-play of N seeded games under
``valgrind --tool=callgrind`` and prints the instructions counted (a measure the
machine's load does not change).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Subject:
    """One row: a game under its rules, played by ``kind`` (``core``: the engine core's
    API; ``playout``: Vapoosh's fast playout; ``openspiel``: OpenSpiel's Python API)."""

    label: str
    kind: str
    game: str
    rules: Any
    players: int


SUBJECTS: tuple[Subject, ...] = (
    Subject("vapoosh", "core", "vapoosh", "standard", 2),
    Subject("vapoosh playout", "playout", "vapoosh", "standard", 2),
    Subject("morris", "core", "morris", "standard", 2),
    Subject("vasco", "core", "vasco", "standard", 2),
    Subject("dokusen S8", "core", "dokusen", "S8", 1),
    Subject("openspiel nmm", "openspiel", "nine_mens_morris", None, 2),
)
#: The level a computer seat gets by default (the plug-ins' default seats; Dokusen's
#: computer colours play the stage's levels, mostly greedy).
DEFAULT_LEVEL = {"vapoosh": "easy", "morris": "easy", "vasco": "medium", "dokusen": "greedy"}
#: The rules the answer times are measured under (the levels' own, except Dokusen: S8).
LATENCY_RULES: dict[str, Any] = {"dokusen": "S8"}


# ----- the self-play worker: runs in a child process against either engine -------------


def _core_game(subject: Subject) -> Callable[[random.Random], int]:
    """One random game through the engine core; returns the plies applied."""
    from engine.core import CHANCE, make_game, sample_chance

    game = make_game(subject.game, subject.rules, subject.players)

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        plies = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(choice(state.legal_actions()))
            plies += 1
        return plies

    return play


def _playout_game(subject: Subject) -> Callable[[random.Random], int]:
    """One game of Vapoosh's fast playout; plies are its rolls (its own count)."""
    from engine.vapoosh import VapooshGame
    from engine.vapoosh.playout import random_playout

    game = VapooshGame(subject.rules, players=subject.players)
    return lambda rng: random_playout(game, rng)[1]


def _openspiel_game(subject: Subject) -> Callable[[random.Random], int]:
    import pyspiel

    game = pyspiel.load_game(subject.game)

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        plies = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            plies += 1
        return plies

    return play


MAKERS = {"core": _core_game, "playout": _playout_game, "openspiel": _openspiel_game}


def selfplay(subject: Subject, seconds: float, games: int, seed: int) -> dict[str, float]:
    """Random games from ``seed`` on until ``seconds`` of CPU time (or ``games`` games, if
    given) are spent: games, plies and the CPU seconds they took."""
    play = MAKERS[subject.kind](subject)
    rng = random.Random(seed)
    played = plies = 0
    step = 1  # games between two looks at the clock (a look costs a system call)
    start = time.process_time()
    spent = 0.0
    while games > 0:  # games < 0: only the set-up (what an instruction count subtracts)
        plies += play(rng)
        played += 1
        if played >= games:
            break
    while games == 0:
        for _ in range(step):
            plies += play(rng)
        played += step
        spent = time.process_time() - start
        if spent >= seconds:
            break
        step = max(1, int(played * 0.002 / spent)) if spent > 0 else 2 * step  # ~2 ms apart
    if games:
        spent = time.process_time() - start
    return {"games": played, "plies": plies, "cpu": spent}


def _worker(argv: Sequence[str]) -> int:
    """``--worker LABEL SECONDS GAMES SEED``: one slice, printed as JSON."""
    label, seconds, games, seed = argv
    subject = next(s for s in SUBJECTS if s.label == label)
    try:
        out: dict[str, Any] = selfplay(subject, float(seconds), int(games), int(seed))
    except ImportError as err:
        out = {"missing": str(err)}
    print(json.dumps(out))
    return 0


# ----- the driver ---------------------------------------------------------------------


def unpack(ref: str) -> Path:
    """REF's ``engine/`` folder in a new temporary folder (``git archive``)."""
    where = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "engine"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def run_slice(
    tree: Path, subject: Subject, seconds: float, games: int, seed: int, wrap: Sequence[str] = ()
) -> tuple[dict[str, Any], str]:
    """One slice in a child process whose ``engine`` package is ``tree``'s."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [*wrap, sys.executable, str(Path(__file__)), "--worker", subject.label,
           str(seconds), str(games), str(seed)]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"missing": (done.stderr.strip().splitlines() or ["failed"])[-1]}, done.stderr
    return json.loads(lines[-1]), done.stderr


def measure(
    subjects: Sequence[Subject], trees: dict[str, Path], rounds: int, seconds: float, seed: int
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per subject and tree: median games/s and plies/s over ``rounds`` interleaved slices."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for subject in subjects:
        names = ["this"] if subject.kind == "openspiel" else list(trees)
        rates: dict[str, list[tuple[float, float, float]]] = {n: [] for n in names}
        missing: dict[str, str] = {}
        for k in range(rounds):
            for name in names if k % 2 == 0 else names[::-1]:
                got, _ = run_slice(trees[name], subject, seconds, 0, seed)
                if "missing" in got:
                    missing[name] = got["missing"]
                    continue
                rates[name].append(
                    (got["games"] / got["cpu"], got["plies"] / got["cpu"], got["plies"] / got["games"])
                )
        out[subject.label] = {}
        for name in names:
            if not rates[name]:
                out[subject.label][name] = {"missing": missing.get(name, "no result")}
                continue
            out[subject.label][name] = {
                "games_per_s": statistics.median(r[0] for r in rates[name]),
                "plies_per_s": statistics.median(r[1] for r in rates[name]),
                "plies_per_game": statistics.median(r[2] for r in rates[name]),
                "slices": len(rates[name]),
            }
    return out


def instructions(
    subjects: Sequence[Subject], trees: dict[str, Path], games: int, seed: int
) -> dict[str, dict[str, int | str]]:
    """Instructions (callgrind's ``Collected``) of ``games`` seeded games, per subject and tree:
    a run of the games less a run of the set-up alone (start-up, imports, the first state)."""
    if shutil.which("valgrind") is None:
        return {s.label: {"this": "valgrind is not installed"} for s in subjects}
    out: dict[str, dict[str, int | str]] = {}
    for subject in subjects:
        names = ["this"] if subject.kind == "openspiel" else list(trees)
        out[subject.label] = {}
        for name in names:
            counted: list[int] = []
            for n in (games, -1):
                with tempfile.TemporaryDirectory() as tmp:
                    wrap = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out"]
                    got, err = run_slice(trees[name], subject, 0, n, seed, wrap)
                found = re.search(r"Collected : (\d+)", err)
                if not found or "missing" in got:
                    out[subject.label][name] = str(got.get("missing", "no count"))
                    break
                counted.append(int(found.group(1)))
            else:
                out[subject.label][name] = counted[0] - counted[1]
    return out


# ----- answer times -------------------------------------------------------------------


def positions(game_name: str, rules: Any, count: int, seed: int) -> list[Any]:
    """``count`` seeded positions of random self-play where a seat is to move with a choice
    (each game stopped after a random number of plies)."""
    from engine.core import CHANCE, make_game, sample_chance

    game = make_game(game_name, rules, 1 if game_name == "dokusen" else 2)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        stop = rng.randrange(0, 60)
        plies = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if plies >= stop and len(legal) > 1:
                out.append(state)
                break
            state.apply_action(rng.choice(legal))
            plies += 1
    return out


def answer_times(game_name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Per level of ``game_name``: ms per decision over the seeded positions, p50/p95/max."""
    from engine.players import default_rules, levels, make_player

    rules = LATENCY_RULES.get(game_name, default_rules(game_name))
    records = [s.record() for s in positions(game_name, rules, count, seed)]
    names = levels(game_name)
    rows = []
    for level in names:
        times = []
        for k, record in enumerate(records):
            state = record.replay()  # afresh: nothing an earlier level found is kept
            player = make_player(level, seed + k, game=game_name)
            start = time.process_time()
            player.decide(state)
            times.append(1000 * (time.process_time() - start))
        times.sort()
        target = 300.0 if level == names[-1] else 50.0 if level == DEFAULT_LEVEL[game_name] else None
        rows.append({
            "game": game_name, "level": level, "positions": len(times),
            "p50_ms": _pct(times, 0.5), "p95_ms": _pct(times, 0.95), "max_ms": times[-1],
            "target_ms": target,
            "role": "strongest" if level == names[-1] else
                    ("default" if level == DEFAULT_LEVEL[game_name] else ""),
        })
    return rows


def _pct(values: Sequence[float], q: float) -> float:
    pos = (len(values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


# ----- text ---------------------------------------------------------------------------


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def speed_text(result: dict[str, Any]) -> str:
    speed = result["speed"]
    trees = result["trees"]
    head = f"{'engine':<17}" + "".join(f"{t + ' games/s':>18}{'plies/s':>11}" for t in trees)
    if len(trees) == 2:
        head += f"{'speed-up':>10}"
    lines = [
        f"random self-play, 1 core, CPU time; median of {result['rounds']} slices of "
        f"{result['seconds']} s; load average before {result['load_before']}, "
        f"after {result['load_after']}",
        head + f"{'plies/game':>12}",
    ]
    for label, by_tree in speed.items():
        row = f"{label:<17}"
        for t in trees:
            r = by_tree.get(t)
            if r is None:
                row += f"{'':>18}{'':>11}"
            elif "missing" in r:
                row += f"  not measured: {r['missing']}"
            else:
                row += f"{r['games_per_s']:>18.1f}{r['plies_per_s']:>11.0f}"
        rs = [by_tree.get(t) for t in trees]
        if len(trees) == 2 and all(r and "missing" not in r for r in rs):
            row += f"{rs[0]['plies_per_s'] / rs[1]['plies_per_s']:>9.2f}x"
        first = next((r for r in rs if r and "missing" not in r), None)
        if first:
            row += f"{first['plies_per_game']:>12.1f}"
        lines.append(row)
    ours, peer = speed.get("morris", {}).get("this"), speed.get("openspiel nmm", {}).get("this")
    if ours and peer and "missing" not in ours and "missing" not in peer:
        lines.append(
            f"Bricks & Walls / OpenSpiel nine_mens_morris plies/s (same run): "
            f"{ours['plies_per_s'] / peer['plies_per_s']:.2f}x (target >= 0.2x)"
        )
    return "\n".join(lines)


def instructions_text(result: dict[str, Any]) -> str:
    counts = result["instructions"]
    trees = result["trees"]
    lines = [f"instructions (valgrind callgrind) of {result['instruction_games']} seeded games"]
    for label, by_tree in counts.items():
        parts = []
        for t in trees:
            v = by_tree.get(t)
            if v is not None:
                parts.append(f"{t} {v:,}" if isinstance(v, int) else f"{t} {v}")
        vals = [by_tree.get(t) for t in trees]
        if len(trees) == 2 and all(isinstance(v, int) for v in vals):
            parts.append(f"ratio {vals[1] / vals[0]:.2f}x")
        lines.append(f"  {label:<17}" + ", ".join(parts))
    return "\n".join(lines)


def latency_text(rows: Sequence[dict[str, Any]]) -> str:
    lines = [f"{'game':<9}{'level':<11}{'positions':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
             f"  target"]
    for r in rows:
        target = ""
        if r["target_ms"] is not None:
            ok = "met" if r["p95_ms"] < r["target_ms"] else "MISSED"
            target = f"{r['role']}: p95 < {r['target_ms']:.0f} ms, {ok}"
        lines.append(f"{r['game']:<9}{r['level']:<11}{r['positions']:>10}{r['p50_ms']:>9.2f}"
                     f"{r['p95_ms']:>9.2f}{r['max_ms']:>9.2f}  {target}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_engines",
                                description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--compare", default="", metavar="REF",
                   help="also measure the engine of git revision REF, interleaved")
    p.add_argument("--rounds", type=int, default=3, help="slices per engine and row")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per slice")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default="", help="rows whose label starts with these (comma-separated)")
    p.add_argument("--instructions", type=int, default=0, metavar="N",
                   help="also count instructions of N seeded games per row (valgrind)")
    p.add_argument("--positions", type=int, default=30, help="positions per game for answer times")
    p.add_argument("--no-latency", action="store_true", help="skip the answer times")
    p.add_argument("--json", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        return _worker(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.rounds < 1 or args.seconds <= 0 or args.positions < 1 or args.instructions < 0:
        parser.error("--rounds, --seconds and --positions must be positive")
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    subjects = [s for s in SUBJECTS if not wanted or any(s.label.startswith(w) for w in wanted)]
    trees = {"this": ROOT}
    if args.compare:
        try:
            trees[args.compare] = unpack(args.compare)
        except subprocess.CalledProcessError as err:
            parser.exit(2, f"{parser.prog}: error: --compare: git archive {args.compare} failed "
                           f"({err.stderr.decode().strip().splitlines()[-1:]})\n")
    result: dict[str, Any] = {"trees": list(trees), "rounds": args.rounds,
                              "seconds": args.seconds, "load_before": _load()}
    try:
        result["speed"] = measure(subjects, trees, args.rounds, args.seconds, args.seed)
        result["load_after"] = _load()
        if args.instructions:
            result["instruction_games"] = args.instructions
            result["instructions"] = instructions(subjects, trees, args.instructions, args.seed)
    finally:
        for name, tree in trees.items():
            if name != "this":
                shutil.rmtree(tree, ignore_errors=True)
    if not args.no_latency:
        games = list(dict.fromkeys(s.game for s in subjects if s.kind == "core"))
        result["latency"] = [row for g in games
                             for row in answer_times(g, args.positions, args.seed)]
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(speed_text(result))
    if "instructions" in result:
        print(instructions_text(result))
    if "latency" in result:
        print(f"computer answer times (CPU ms per decision; load {_load()})")
        print(latency_text(result["latency"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
