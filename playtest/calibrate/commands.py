"""``playtest calibrate`` and ``python -m playtest.calibrate`` (:mod:`playtest.calibrate`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from playtest.cli import CommandError, arg, command

ARGS = [
    arg("--game", action="append", help="a registered game (repeat for several; "
                                        "default: every game)"),
    arg("--seeds", type=int, default=10, help="planted and null studies each (default 10)"),
    arg("--testers", type=int, default=40, help="testers per study (default 40)"),
    arg("--seed", type=int, default=1, help="first seed (default 1)"),
    arg("--verbose", action="store_true", help="one line per study as it is read"),
]


@command("calibrate", help="check the insights on simulated studies with planted truths "
                           "(prints the table; exit 1 if a target is missed)", args=ARGS)
def calibrate(args: argparse.Namespace) -> int:
    from analytics.calibrate_games import table
    from playtest.calibrate import CalibrationUnavailableError, calibrate_game
    from playtest.games.registry import UnknownGameError, game_names, game_plugin

    if args.seeds < 1 or args.testers < 2:
        raise CommandError("--seeds must be at least 1 and --testers at least 2")
    names = list(args.game or game_names())
    for name in names:
        try:
            game_plugin(name)
        except UnknownGameError:
            raise CommandError(f"unknown game {name!r} (known: {', '.join(game_names())})"
                               ) from None
    missed = False
    for name in names:
        started = time.perf_counter()
        try:
            results = calibrate_game(name, args.seeds, args.testers, args.seed,
                                     progress=print if args.verbose else None)
        except CalibrationUnavailableError as err:
            raise CommandError(str(err)) from None
        title = (f"{game_plugin(name).title} ({name}): {args.seeds} planted and "
                 f"{args.seeds} null studies of {args.testers} testers, seed {args.seed} "
                 f"({time.perf_counter() - started:.0f} s)")
        print(table(title, results), flush=True)
        missed |= any(result.passed is False for result in results)
    return 1 if missed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m playtest.calibrate``: the ``playtest calibrate`` command."""
    from playtest.cli import main as cli_main

    return cli_main(["calibrate", *(sys.argv[1:] if argv is None else argv)])
