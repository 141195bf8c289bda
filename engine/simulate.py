"""Self-play simulation of any game with computer players: balance numbers for designers.

    python -m engine simulate --rules house --seats hard,medium,easy --games 10000 --seed 1
    python -m engine simulate --rules '{"base": "standard", "surround": "group"}' \\
        --seats easy,easy --games 2000 --json
    python -m engine simulate --game GAME --seats easy,medium --rotate --games 200

``--game`` names the game (default: the engine's first game, the one whose scenarios need
not name it); ``--rules`` is a preset name or a JSON rules object (default: the rules the
game's levels are registered with); ``--seats`` one computer level per seat (default: the
game's easiest level in as few seats as it takes). The simulator is
:mod:`engine.balance`; a game's own numbers come from its hooks
(``engine/<game>/balance.py``). A game whose rules stand for several parts (a course of
stages) gets one report per part.

Every game gets its own seed derived from ``--seed`` and the game's number, and results
are gathered in game order, so the report is identical whatever the number of workers.

>>> report = simulate(None, ["easy", "easy"], games=20, seed=1, workers=1)
>>> report.games, report.decided + report.draws
(20, 20)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from engine import balance
from engine.balance import (
    GameResult,
    Interval,
    LengthStats,
    RuleRate,
    SimulationError,
    SimulationReport,
    derive_seed,
    wilson,
)
from engine.core import EngineError

__all__ = [
    "GameResult",
    "Interval",
    "LengthStats",
    "RuleRate",
    "SimulationError",
    "SimulationReport",
    "derive_seed",
    "main",
    "parse_rules",
    "play_game",
    "simulate",
    "wilson",
]

#: The length summary (kept under its old name for its callers).
_length_stats = balance.length_stats


def simulate(
    rules: Any,
    seats: Sequence[str],
    games: int,
    seed: int,
    workers: int = 2,
    rotate: bool = False,
    *,
    game: str | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games of ``game`` (None: the engine's first game) with
    computer ``seats`` and sum them up (:func:`engine.balance.simulate`).

    ``rotate`` shifts the seats by one each game, so every level plays every position
    equally often (a fair strength comparison); seat statistics are then by position.
    Raises :class:`SimulationError` (or RulesError) on bad parameters.
    """
    name = game if game is not None else balance.default_game()
    return balance.simulate(name, rules, list(seats), games, seed, workers, rotate)


def play_game(rules: Any, levels: Sequence[str], seed: int, *, game: str | None = None
              ) -> GameResult:
    """One game of ``game`` (None: the engine's first game) with ``levels`` in the seats.

    >>> r = play_game("classic", ["medium", "easy"], seed=5)
    >>> r == play_game("classic", ["medium", "easy"], seed=5)
    True
    """
    name = game if game is not None else balance.default_game()
    return balance.play_game(name, rules, levels, seed)


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def parse_rules(text: str) -> Any:
    """A preset name or a JSON rules object, as given on the command line (the game
    checks it when the simulation starts).

    >>> parse_rules(' {"base": "standard"} '), parse_rules("house")
    ({'base': 'standard'}, 'house')
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as err:
            raise SimulationError(
                f"rules: not valid JSON ({err.msg} at column {err.colno})"
            ) from None
    return stripped


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m engine simulate",
        description="Self-play games between computer players and report balance numbers.",
    )
    p.add_argument("--game", default=None,
                   help="the game (default: the engine's first game)")
    p.add_argument("--rules", default=None,
                   help="preset name or JSON rules object (default: the game's)")
    p.add_argument("--seats", default=None,
                   help="comma-separated computer levels, one per seat "
                        "(default: the game's easiest level)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (results do not depend on it)")
    p.add_argument("--rotate", action="store_true", help="rotate the seats every game")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def default_seats(game: str) -> list[str]:
    """The game's easiest level in as few seats as a run takes (two unless it says)."""
    from engine.players import PlayerError, levels

    try:
        easiest = levels(game)[0]
    except PlayerError as err:
        raise SimulationError(f"game: {err}") from None
    allowed = balance.balance_hooks(game).seat_range
    return [easiest] * (allowed[0] if allowed is not None else 2)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        game = args.game if args.game is not None else balance.default_game()
        rules = parse_rules(args.rules) if args.rules is not None else None
        seats = ([s.strip() for s in args.seats.split(",") if s.strip()]
                 if args.seats is not None else default_seats(game))
        parts = balance.simulate_parts(game, rules, seats, args.games, args.seed,
                                       args.workers, args.rotate)
    except EngineError as err:
        print(f"{parser.prog}: {err}", file=sys.stderr)
        return 2
    if len(parts) == 1 and not parts[0][0]:
        report = parts[0][1]
        print(json.dumps(report.to_dict(), indent=2) if args.json else report.to_text())
        return 0
    if args.json:
        print(json.dumps({"game": game, "parts": [
            {"part": label, **report.to_dict()} for label, report in parts]}, indent=2))
    else:
        print("\n\n".join(f"== {label} ==\n{report.to_text()}" for label, report in parts))
    return 0
