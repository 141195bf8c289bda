"""Speed and strength numbers for the engine and its computer players.

    python -m engine bench                       # playouts/s, simulate time, decision times
    python -m benchmarks.bench_engine            # the same (engine bench forwards here)
    python -m engine bench --strength            # every game's levels against each other
    python -m engine bench --strength --game vapoosh --games 4000 --search-games 1000

It prints numbers and asserts nothing: targets are judged by people reading them.

- random self-play: whole random games per second on one core
  (:func:`engine.vapoosh.playout.random_playout`);
- simulate: wall time of ``simulate()`` for easy-vs-easy games on ``--workers`` cores;
- decision time per level: mean, p50, p95 and max over a fixed seeded set of positions
  (phase "place" with at least two legal moves, reached by seeded random play);
- ``--strength``: for every game with computer levels (``engine/<game>/players.py``), each
  level against the one below it and against the lowest (random), seats swapped every
  game and luck shared by each pair of games (:mod:`engine.players.arena`): wins among
  decided games with a 95% Wilson interval, draws, and the number of games. Rows with a
  search player play ``--search-games`` games (it is ~50x slower), the others ``--games``;
  the defaults take about two minutes on one core. The same ``--seed`` prints the same
  table.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import pkgutil
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from statsmodels.stats.proportion import proportion_confint

from engine.core import EngineError, make_game, sample_chance
from engine.players import SearchPlayer, default_rules, level_factory, levels, make_player
from engine.players.arena import MAX_ACTIONS, MatchResult, derive_seed, play_match
from engine.simulate import OneLineParser, SimulationError, parse_rules, simulate
from engine.vapoosh import Rules, VapooshGame, deal_preplaced
from engine.vapoosh.playout import random_playout

#: The computer levels of Vapoosh!, easiest first.
LEVELS: tuple[str, ...] = levels("vapoosh")


def playout_speed(rules: Rules, players: int, games: int, seed: int) -> dict[str, float]:
    """Random self-play on this core: games/s, rolls/s and mean rolls per game."""
    game = VapooshGame(rules, players=players)
    rng = random.Random(seed)
    rolls = 0
    start = time.perf_counter()
    for _ in range(games):
        rolls += random_playout(game, rng)[1]
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "rolls_per_second": rolls / elapsed,
        "mean_rolls": rolls / games,
    }


def decision_positions(rules: Rules, players: int, count: int, seed: int) -> list[Any]:
    """``count`` seeded positions in phase "place" with at least two legal moves.

    >>> ps = decision_positions(Rules.preset("standard"), 2, 3, seed=1)
    >>> len(ps), all(p.phase == "place" and len(p.targets()) > 1 for p in ps)
    (3, True)
    """
    rng = random.Random(seed)
    game = VapooshGame(rules, players=players)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        if state.phase == "setup":
            state.apply(deal_preplaced(rules, players, rng.randrange(1 << 30)))
        stop_after = rng.randrange(0, 40)
        placed = 0
        while state.phase != "over":
            if state.phase == "roll":
                state.apply_action(rng.randrange(1296))
                continue
            targets = state.targets()
            if placed >= stop_after and len(targets) > 1:
                out.append(state)
                break
            state.apply(rng.choice(targets))
            placed += 1
    return out


def decision_times(positions: Sequence[Any], level: str, seed: int = 1) -> dict[str, float]:
    """Milliseconds per ``choose()`` over ``positions``: mean, p50, p95, max."""
    player = make_player(level, seed=seed, game="vapoosh")
    times = []
    for state in positions:
        start = time.perf_counter()
        player.choose(state)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "positions": len(times),
        "mean_ms": statistics.fmean(times),
        "p50_ms": _pct(times, 0.50),
        "p95_ms": _pct(times, 0.95),
        "max_ms": times[-1],
    }


def _pct(values: Sequence[float], q: float) -> float:
    pos = (len(values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def choice_and_agreement(
    game: str, upper: str, lower: str, positions: int, seed: int, rules: Any = None
) -> dict[str, Any]:
    """How much room a game leaves for skill: over the positions where a seat moves in
    games of ``lower`` against itself, the share with more than one legal action, and
    among those the share where ``upper`` picks the same action as ``lower`` (each with a
    95% Wilson interval). Where a stronger level mostly agrees with a weaker one, or there
    is rarely a choice, it cannot win much more often."""
    rules = default_rules(game) if rules is None else rules
    make_lower, make_upper = level_factory(game, lower), level_factory(game, upper)
    chance = random.Random(derive_seed(seed, game, "agreement"))
    seen = choices = same = 0
    g = 0
    while choices < positions:
        players = [make_lower(derive_seed(seed, game, "agreement", g, s)) for s in (0, 1)]
        judge = make_upper(derive_seed(seed, game, "agreement", g, "upper"))
        state = make_game(game, rules, 2).new_initial_state()
        actions = 0
        while not state.is_terminal() and choices < positions and actions < MAX_ACTIONS:
            seat = state.current_player()
            if seat < 0:
                state.apply_action(sample_chance(state, chance))
                actions += 1
                continue
            seen += 1
            decision = players[seat].decide(state)
            if len(state.legal_actions()) > 1:
                choices += 1
                same += judge.decide(state).action == decision.action
            state.apply_action(decision.action)
            actions += 1
        g += 1
    out: dict[str, Any] = {
        "game": game, "upper": upper, "lower": lower, "positions": seen, "choices": choices,
        "same": same,
    }
    for key, k, n in (("choice", choices, seen), ("agree", same, choices)):
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        out[key] = {"share": k / n, "low": float(low), "high": float(high)}
    return out


def games_with_levels() -> list[str]:
    """Every game package of the engine that has computer levels (``players.py``)."""
    import engine

    return sorted(
        m.name
        for m in pkgutil.iter_modules(engine.__path__)
        if m.ispkg and importlib.util.find_spec(f"engine.{m.name}.players") is not None
    )


def strength_pairs(game: str) -> list[tuple[str, str]]:
    """Each level against the one below it, then each level above the second against the
    lowest (random) one."""
    names = levels(game)
    pairs = [(names[k], names[k - 1]) for k in range(1, len(names))]
    pairs += [(names[k], names[0]) for k in range(2, len(names))]
    return pairs


def strength(
    game: str,
    pairs: Sequence[tuple[str, str]],
    games: int,
    search_games: int,
    seed: int,
    rules: Any = None,
) -> list[dict[str, Any]]:
    """Play every (stronger, weaker) pair of ``game``; one row per pair. A game whose
    ``players`` module has ``strength_rows`` (a one-player game: no level-against-level
    match) gives its own rows in the same shape."""
    own = getattr(importlib.import_module(f"engine.{game}.players"), "strength_rows", None)
    if own is not None:
        rows: list[dict[str, Any]] = own(games, search_games, seed)
        return rows
    rules = default_rules(game) if rules is None else rules
    out = []
    for strong, weak in pairs:
        first, second = level_factory(game, strong), level_factory(game, weak)
        searching = any(isinstance(f(0), SearchPlayer) for f in (first, second))
        start = time.perf_counter()
        result: MatchResult = play_match(
            game, rules, (strong, first), (weak, second), search_games if searching else games,
            seed,
        )
        row = result.to_dict()
        row["seconds"] = time.perf_counter() - start
        out.append(row)
    return out


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m engine bench",
        description="Measure engine speed, decision times and player strength (prints numbers).",
    )
    p.add_argument("--rules", default="standard", help="preset name or JSON rules object")
    p.add_argument("--players", type=int, default=2, help="seats for playouts and positions")
    p.add_argument("--playouts", type=int, default=2000, help="random games for games/s")
    p.add_argument("--sim-games", type=int, default=10000, help="easy games for simulate timing")
    p.add_argument("--positions", type=int, default=40, help="positions for decision times")
    p.add_argument("--levels", default=",".join(LEVELS), help="levels to time")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strength", action="store_true", help="measure strength instead of speed")
    p.add_argument("--games", type=int, default=500, help="games per pair for --strength")
    p.add_argument(
        "--search-games", type=int, default=30,
        help="games per pair with a search player for --strength",
    )
    p.add_argument(
        "--agreement", type=int, default=100,
        help="--strength: positions with a choice on which the top two levels are compared",
    )
    p.add_argument("--game", default="", help="--strength: only these games (comma-separated)")
    p.add_argument(
        "--pairs", default="", help="--strength: strong:weak,... levels (default: every step)"
    )
    p.add_argument("--json", action="store_true")
    return p


def _check_args(args: argparse.Namespace) -> None:
    for name in (
        "players", "playouts", "sim_games", "positions", "workers", "games", "search_games",
        "agreement",
    ):
        value = getattr(args, name)
        low = 2 if name == "players" else (0 if name in ("sim_games", "playouts", "agreement") else 1)
        high = 4 if name == "players" else 10**9
        if not low <= value <= high:
            flag = "--" + name.replace("_", "-")
            raise SimulationError(f"{flag}: must be from {low} to {high}, got {value}")


def _levels(text: str) -> list[str]:
    levels = [lv.strip() for lv in text.split(",") if lv.strip()]
    for lv in levels:
        if lv not in LEVELS:
            raise SimulationError(f"--levels: unknown level {lv!r} (choose {', '.join(LEVELS)})")
    return levels


def _pairs(text: str, known: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for item in text.split(","):
        parts = item.strip().split(":")
        if len(parts) != 2 or not all(p in known for p in parts):
            raise SimulationError(f"--pairs: {item.strip()!r} is not strong:weak with known levels")
        out.append((parts[0], parts[1]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _check_args(args)
        rules = Rules.from_obj(parse_rules(args.rules))
        timed = _levels(args.levels)
        games = _games(args.game)
        pairs = {g: _pairs(args.pairs, levels(g)) if args.pairs else strength_pairs(g) for g in games}
    except EngineError as err:
        print(f"{parser.prog}: {err}", file=sys.stderr)
        return 2
    result: dict[str, Any] = {"rules": rules.to_obj(), "players": args.players}
    if args.strength:
        result = {"seed": args.seed, "strength": []}
        result["agreement"] = []
        for g in games:
            game_rules = rules if g == "vapoosh" and args.rules != "standard" else None
            result["strength"] += strength(
                g, pairs[g], args.games, args.search_games, args.seed, game_rules
            )
            solo = hasattr(importlib.import_module(f"engine.{g}.players"), "strength_rows")
            if args.agreement and not solo:
                top = levels(g)
                result["agreement"].append(
                    choice_and_agreement(g, top[-1], top[-2], args.agreement, args.seed, game_rules)
                )
    else:
        if args.playouts:
            result["random_playouts"] = playout_speed(rules, args.players, args.playouts, args.seed)
        if args.sim_games:
            start = time.perf_counter()
            simulate(rules, ["easy"] * args.players, args.sim_games, args.seed, args.workers)
            result["simulate"] = {
                "games": args.sim_games,
                "workers": args.workers,
                "seconds": time.perf_counter() - start,
            }
        positions = decision_positions(rules, args.players, args.positions, args.seed)
        result["decisions"] = {lv: decision_times(positions, lv, args.seed) for lv in timed}
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0


def _games(text: str) -> list[str]:
    known = games_with_levels()
    chosen = [g.strip() for g in text.split(",") if g.strip()] or known
    for g in chosen:
        if g not in known:
            raise SimulationError(f"--game: {g!r} has no computer levels (choose {', '.join(known)})")
    return chosen


def _text(result: dict[str, Any]) -> str:
    if "strength" in result:
        return _strength_text(result)
    lines = [f"rules {Rules.from_obj(result['rules']).name}, {result['players']} players"]
    if "random_playouts" in result:
        r = result["random_playouts"]
        lines.append(
            f"random self-play (1 core): {r['games_per_second']:.0f} games/s, "
            f"{r['rolls_per_second']:.0f} rolls/s, {r['mean_rolls']:.1f} rolls/game "
            f"({r['games']} games in {r['seconds']:.2f} s)"
        )
    if "simulate" in result:
        r = result["simulate"]
        lines.append(
            f"simulate {r['games']} easy games on {r['workers']} workers: {r['seconds']:.2f} s"
        )
    if "decisions" in result:
        lines.append(
            f"{'level':<8}{'positions':>10}{'mean ms':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
        )
        for lv, d in result["decisions"].items():
            lines.append(
                f"{lv:<8}{d['positions']:>10}{d['mean_ms']:>10.2f}{d['p50_ms']:>9.2f}"
                f"{d['p95_ms']:>9.2f}{d['max_ms']:>9.2f}"
            )
    return "\n".join(lines)


def _strength_text(result: dict[str, Any]) -> str:
    """The win-rate table: one row per pair, grouped by game."""
    lines = [
        f"strength (seed {result['seed']}): the first level's wins among decided games, "
        "95% Wilson interval; seats swapped every game",
        f"{'game':<9}{'level vs level':<20}{'games':>6}{'wins':>6}{'losses':>7}{'draws':>6}"
        f"{'win rate':>10}  {'95% interval':<16}{'seconds':>8}",
    ]
    for row in result["strength"]:
        verdict = "beats" if row["low"] > 0.5 else ("loses" if row["high"] < 0.5 else "unclear")
        verdict = row.get("verdict", verdict)
        interval = f"[{row['low']:.1%}, {row['high']:.1%}]"
        lines.append(
            f"{row['game']:<9}{row['pair']:<20}{row['games']:>6}{row['wins']:>6}"
            f"{row['losses']:>7}{row['draws']:>6}{row['share']:>10.1%}  {interval:<16}"
            f"{row['seconds']:>8.0f}  {verdict}"
        )
    for note in dict.fromkeys(row["note"] for row in result["strength"] if row.get("note")):
        lines.append(note)
    for a in result.get("agreement", []):
        c, s = a["choice"], a["agree"]
        lines.append(
            f"{a['game']}: {c['share']:.0%} [{c['low']:.0%}, {c['high']:.0%}] of {a['positions']} "
            f"turns offer a choice; there {a['upper']} picks what {a['lower']} picks "
            f"{s['share']:.0%} [{s['low']:.0%}, {s['high']:.0%}] of {a['choices']} times"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
