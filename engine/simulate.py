"""Self-play simulation of Vapoosh! with computer players: balance numbers for designers.

    python -m engine simulate --rules house --seats hard,medium,easy --games 10000 --seed 1
    python -m engine simulate --rules '{"base": "standard", "surround": "group"}' \\
        --seats easy,easy --games 2000 --json

Every game gets its own seed derived from ``--seed`` and the game's number, and results
are gathered in game order, so the report is identical whatever the number of workers.

>>> from engine.vapoosh import Rules
>>> report = simulate(Rules.preset("standard"), ["easy", "easy"], games=20, seed=1, workers=1)
>>> report.games, report.decided + report.draws
(20, 20)
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, NoReturn

import numpy as np

from engine.core import EngineError
from engine.players import Player, make_player
from engine.players import levels as game_levels
from engine.vapoosh import Rules, VapooshGame, deal_preplaced
from engine.vapoosh.playout import RULE_EVENTS, random_playout

#: The computer levels of Vapoosh!, easiest first.
LEVELS: tuple[str, ...] = game_levels("vapoosh")

#: Event kinds of scenario-format.md, counted per game.
EVENT_KINDS: tuple[str, ...] = ("roll", "place", *RULE_EVENTS, "win", "draw")
#: Counted by the simulator itself: a rolled option that was empty but suicide for the roller.
SUICIDE_OPTION = "suicide_option"
COUNTED: tuple[str, ...] = (*EVENT_KINDS, SUICIDE_OPTION)


class SimulationError(EngineError):
    """Bad simulation parameters (seats, games, workers); the message names the field."""


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (same in every process and Python run).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    True
    """
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Interval:
    """A proportion with its 95% Wilson score interval.

    >>> i = wilson(60, 100)
    >>> (i.share, round(i.low, 3), round(i.high, 3))
    (0.6, 0.502, 0.691)
    """

    successes: int
    trials: int
    share: float
    low: float
    high: float


def wilson(successes: int, trials: int) -> Interval:
    """95% Wilson score interval for ``successes`` out of ``trials`` (0..1 when trials is 0):
    statsmodels' ``proportion_confint(method="wilson")``."""
    if trials == 0:
        return Interval(0, 0, 0.0, 0.0, 1.0)
    # imported here: the engine's play loop never needs statsmodels (slow to import)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, trials, alpha=0.05, method="wilson")
    return Interval(successes, trials, successes / trials, max(0.0, float(low)),
                    min(1.0, float(high)))


@dataclass(frozen=True)
class GameResult:
    """One simulated game: winning seat (None for a draw), rolls, end reason, rule counts."""

    winner: int | None
    turns: int
    reason: str
    levels: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class LengthStats:
    """Game length in rolls: summary and a histogram of (from, to_exclusive, games)."""

    mean: float
    median: float
    p10: float
    p25: float
    p75: float
    p90: float
    p99: float
    minimum: int
    maximum: int
    histogram: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class RuleRate:
    """How often a rule fired: mean times per game, and share of games where it fired."""

    per_game: float
    games_share: float


@dataclass(frozen=True)
class SimulationReport:
    """What ``simulate`` measured. ``to_dict()`` is JSON-ready; ``to_text()`` is a table."""

    rules: dict[str, Any]
    seats: tuple[str, ...]
    rotate: bool
    games: int
    seed: int
    decided: int
    draws: int
    first_seat: Interval
    first_seat_fair: float
    seat_wins: tuple[Interval, ...]
    level_wins: dict[str, Interval]
    end_reasons: dict[str, int]
    length: LengthStats
    rules_fired: dict[str, RuleRate]

    @property
    def first_seat_advantage(self) -> float:
        """Seat 1's win share among decided games minus the fair share 1/players."""
        return self.first_seat.share - self.first_seat_fair

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["seats"] = list(self.seats)
        out["first_seat_advantage"] = self.first_seat_advantage
        out["seat_wins"] = [asdict(i) for i in self.seat_wins]
        out["length"]["histogram"] = [list(b) for b in self.length.histogram]
        return out

    def to_text(self) -> str:
        lines = [
            f"Vapoosh! simulation: rules {_rules_label(self.rules)}, seats "
            f"{','.join(self.seats)}{' (rotated each game)' if self.rotate else ''}, "
            f"{self.games} games, seed {self.seed}",
            f"decided {self.decided}, draws {self.draws} ({_pct(self.draws, self.games)})",
            "",
            "first-seat advantage (seat 1's win share among decided games minus fair share):",
            f"  seat 1 wins {_interval_text(self.first_seat)}, fair {self.first_seat_fair:.1%},"
            f" advantage {self.first_seat_advantage:+.1%}",
            *(
                ["  (the seats hold different levels: use --rotate to measure the seat alone)"]
                if len(set(self.seats)) > 1 and not self.rotate
                else []
            ),
            "",
            f"{'seat':<6}{'level':<10}{'wins':>8}{'share':>9}  95% interval",
        ]
        for s, (level, i) in enumerate(zip(self.seats, self.seat_wins, strict=True), start=1):
            lvl = "(rotated)" if self.rotate else level
            lines.append(
                f"{s:<6}{lvl:<10}{i.successes:>8}{i.share:>9.1%}  [{i.low:.1%}, {i.high:.1%}]"
            )
        if len(self.level_wins) > 1 or self.rotate:
            lines += ["", f"{'level':<10}{'wins':>8}{'share':>9}  95% interval (of decided games)"]
            for level, i in self.level_wins.items():
                lines.append(
                    f"{level:<10}{i.successes:>8}{i.share:>9.1%}  [{i.low:.1%}, {i.high:.1%}]"
                )
        ln = self.length
        lines += [
            "",
            f"game length in rolls: mean {ln.mean:.1f}, median {ln.median:g}, p10 {ln.p10:g}, "
            f"p25 {ln.p25:g}, p75 {ln.p75:g}, p90 {ln.p90:g}, p99 {ln.p99:g}, "
            f"min {ln.minimum}, max {ln.maximum}",
        ]
        peak = max((b[2] for b in ln.histogram), default=1) or 1
        for lo, hi, n in ln.histogram:
            bar = "#" * round(40 * n / peak)
            lines.append(f"  {lo:>4}-{hi - 1:<4}{n:>7}  {bar}")
        lines += ["", "end reasons: " + ", ".join(f"{k} {v}" for k, v in self.end_reasons.items())]
        lines += ["", f"{'rule fired':<18}{'per game':>10}{'games':>9}"]
        for kind, rate in self.rules_fired.items():
            lines.append(f"{kind:<18}{rate.per_game:>10.2f}{rate.games_share:>9.1%}")
        return "\n".join(lines)


def _rules_label(rules: dict[str, Any]) -> str:
    try:
        name = Rules.from_obj(rules).name
    except EngineError:
        name = "custom"
    return name if name != "custom" else json.dumps(rules, sort_keys=True)


def _pct(n: int, d: int) -> str:
    return f"{n / d:.1%}" if d else "-"


def _interval_text(i: Interval) -> str:
    return f"{i.successes}/{i.trials} = {i.share:.1%} [{i.low:.1%}, {i.high:.1%}]"


def _levels_for(seats: Sequence[str], game: int, rotate: bool) -> tuple[str, ...]:
    n = len(seats)
    shift = game % n if rotate else 0
    return tuple(seats[(s + shift) % n] for s in range(n))


def play_game(rules: Rules, levels: Sequence[str], seed: int) -> GameResult:
    """Play one game to the end: seat s is a computer of ``levels[s-1]``; dice from ``seed``.

    >>> r = play_game(Rules.preset("classic"), ["medium", "easy"], seed=5)
    >>> r == play_game(Rules.preset("classic"), ["medium", "easy"], seed=5)
    True
    """
    n = len(levels)
    if all(level == "easy" for level in levels):
        return _random_game(rules, tuple(levels), seed)
    dice = random.Random(derive_seed(seed, "dice"))
    players: list[Player] = [
        make_player(level, seed=derive_seed(seed, "seat", s), game="vapoosh")
        for s, level in enumerate(levels)
    ]
    state = _game(rules, n).new_initial_state()
    counts = dict.fromkeys(COUNTED, 0)
    if state.phase == "setup":
        state.apply(deal_preplaced(rules, n, derive_seed(seed, "deal")))
    randrange = dice.randrange
    count_suicide = rules.suicide
    while state.phase != "over":
        if state.phase == "roll":
            # Roll ids are the 1296 ordered dice (engine.vapoosh.actions), all equally likely.
            events = state.apply_action(randrange(1296))
            if count_suicide:
                counts[SUICIDE_OPTION] += _suicide_options(state, events)
        else:
            events = state.apply(players[state.to_move - 1].choose(state).action)
        for event in events:
            counts[event.kind] = counts.get(event.kind, 0) + 1
    outcome = state.outcome
    return GameResult(
        winner=state.winner,
        turns=state.turns,
        reason=outcome.reason if outcome is not None else "unknown",
        levels=tuple(levels),
        counts=tuple((k, counts[k]) for k in COUNTED),
    )


@functools.lru_cache(maxsize=16)
def _game(rules: Rules, players: int) -> VapooshGame:
    # Games are immutable; building one with preplaced counters lists its deals (~20 ms).
    return VapooshGame(rules, players=players)


def _random_game(rules: Rules, levels: tuple[str, ...], seed: int) -> GameResult:
    """Easy against easy: the rules' fast random playout (same rules, uniform random moves).

    It reports the rule events except ``place`` and no suicide counts, and not whether a
    pattern win was a line or a square (reason ``"pattern"``).
    """
    game = _game(rules, len(levels))
    winner, turns, rule_counts = random_playout(game, random.Random(derive_seed(seed, "playout")))
    if winner is None:
        reason = "max_turns"
    elif rule_counts.get("vapoosh"):
        reason = "vapoosh"
    else:
        reason = "pattern"
    counts = {
        "roll": turns,
        **rule_counts,
        "win": int(winner is not None),
        "draw": int(winner is None),
    }
    return GameResult(
        winner, turns, reason, levels, tuple((k, counts[k]) for k in COUNTED if k in counts)
    )


def _suicide_options(state: Any, events: list[Any]) -> int:
    """How many rolled options were empty but suicide for the roller (after a roll)."""
    found = 0
    for event in events:
        if event.kind == "reroll":
            found += 1  # a re-roll means one option own, the other suicide
        elif event.kind == "miss_turn":
            found += str(event.data.get("why", "")).split("/").count("suicide")
    if state.phase == "place":
        found += sum(1 for c, r in state.options if state.rule_reason(c, r) == "suicide")
    return found


def _run_chunk(args: tuple[Rules, tuple[str, ...], int, bool, int, int]) -> list[GameResult]:
    rules, seats, seed, rotate, start, stop = args
    return [
        play_game(rules, _levels_for(seats, g, rotate), derive_seed(seed, "game", g))
        for g in range(start, stop)
    ]


def simulate(
    rules: Rules | str | dict[str, Any],
    seats: list[str],
    games: int,
    seed: int,
    workers: int = 2,
    rotate: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games with computer ``seats`` (2-4 levels) and sum them up.

    ``rotate`` shifts the seats by one each game, so every level plays every position
    equally often (a fair strength comparison); seat statistics are then by position.
    Raises :class:`SimulationError` (or RulesError) on bad parameters.
    """
    rules = Rules.from_obj(rules)  # also takes a preset name or a rules object
    seats_t = _check(seats, games, workers)
    chunks = _chunks(games, workers)
    jobs = [(rules, seats_t, seed, rotate, a, b) for a, b in chunks]
    if workers == 1 or len(jobs) == 1:
        parts = [_run_chunk(j) for j in jobs]
    else:
        # fork starts fastest, but forking a process that runs threads (a Streamlit
        # server) can deadlock; then use forkserver.
        method = "fork" if threading.active_count() == 1 else "forkserver"
        context = multiprocessing.get_context(method)
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            parts = list(pool.map(_run_chunk, jobs))
    results = [r for part in parts for r in part]
    return summarise(rules, seats_t, rotate, seed, results)


def _check(seats: Sequence[str], games: int, workers: int) -> tuple[str, ...]:
    if not 2 <= len(seats) <= 4:
        raise SimulationError(f"seats: need 2 to 4 computer levels, got {len(seats)}")
    for level in seats:
        if level not in LEVELS:
            raise SimulationError(f"seats: unknown level {level!r} (choose {', '.join(LEVELS)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games: must be a whole number of at least 1, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise SimulationError(f"workers: must be a whole number from 1 to 64, got {workers!r}")
    return tuple(seats)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    # Several chunks per worker even out slow games. Each game's seed depends only on its
    # number and results are put back in game order, so chunking never changes the report.
    count = min(games, workers * 4 if workers > 1 else 1)
    edges = [games * k // count for k in range(count + 1)]
    return [(edges[k], edges[k + 1]) for k in range(count) if edges[k] < edges[k + 1]]


def summarise(
    rules: Rules, seats: tuple[str, ...], rotate: bool, seed: int, results: list[GameResult]
) -> SimulationReport:
    """Turn per-game results (in game order) into a report."""
    n = len(seats)
    games = len(results)
    decided = [r for r in results if r.winner is not None]
    seat_counts = [sum(1 for r in decided if r.winner == s) for s in range(1, n + 1)]
    level_counts: dict[str, int] = {level: 0 for level in dict.fromkeys(seats)}
    for r in decided:
        assert r.winner is not None
        level_counts[r.levels[r.winner - 1]] += 1
    lengths = sorted(r.turns for r in results)
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    per_game = [dict(r.counts) for r in results]
    fired = {}
    for kind in COUNTED:
        if any(kind in c for c in per_game):
            values = [c.get(kind, 0) for c in per_game]
            fired[kind] = RuleRate(sum(values) / games, sum(1 for v in values if v) / games)
    return SimulationReport(
        rules=rules.to_obj(),
        seats=seats,
        rotate=rotate,
        games=games,
        seed=seed,
        decided=len(decided),
        draws=games - len(decided),
        first_seat=wilson(seat_counts[0], len(decided)),
        first_seat_fair=1 / n,
        seat_wins=tuple(wilson(c, len(decided)) for c in seat_counts),
        level_wins={lv: wilson(c, len(decided)) for lv, c in level_counts.items()},
        end_reasons=dict(sorted(reasons.items())),
        length=_length_stats(lengths),
        rules_fired=fired,
    )


def _length_stats(lengths: list[int]) -> LengthStats:
    width = max(1, math.ceil((lengths[-1] + 1) / 20 / 5) * 5) if lengths else 5
    bins: dict[int, int] = {}
    for t in lengths:
        bins[t // width] = bins.get(t // width, 0) + 1
    histogram = tuple(
        (b * width, (b + 1) * width, bins.get(b, 0))
        for b in range(min(bins, default=0), max(bins, default=-1) + 1)
    )
    # numpy's default (linear) quantiles; 0 for no games
    median, p10, p25, p75, p90, p99 = (
        np.quantile(lengths, [0.5, 0.10, 0.25, 0.75, 0.90, 0.99]).tolist()
        if lengths else [0.0] * 6)
    return LengthStats(
        mean=statistics.fmean(lengths) if lengths else 0.0,
        median=median,
        p10=p10,
        p25=p25,
        p75=p75,
        p90=p90,
        p99=p99,
        minimum=lengths[0] if lengths else 0,
        maximum=lengths[-1] if lengths else 0,
        histogram=histogram,
    )


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def parse_rules(text: str) -> Rules:
    """A preset name or a JSON rules object, as given on the command line."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise SimulationError(
                f"rules: not valid JSON ({err.msg} at column {err.colno})"
            ) from None
        return Rules.from_obj(obj)
    return Rules.from_obj(stripped)


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m engine simulate",
        description="Self-play Vapoosh! games between computer players and report balance numbers.",
    )
    p.add_argument("--rules", default="standard", help="preset name or JSON rules object")
    p.add_argument(
        "--seats", default="easy,easy", help=f"2-4 comma-separated levels ({', '.join(LEVELS)})"
    )
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (results do not depend on it)")
    p.add_argument("--rotate", action="store_true", help="rotate the seats every game")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rules)
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
        report = simulate(rules, seats, args.games, args.seed, args.workers, args.rotate)
    except EngineError as err:
        print(f"{parser.prog}: {err}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.to_text())
    return 0
