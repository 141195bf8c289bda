"""The ``playtest`` command line: a registry of subcommands.

Commands live next to what they drive, in modules named ``commands``: this file finds
``playtest.commands`` and every ``playtest.<package>.commands`` and imports them; each
registers its subcommands with :func:`command`. Adding a command therefore never
touches this file::

    # playtest/app/commands.py
    from playtest.cli import arg, command

    @command("up", help="start the app", args=[arg("--port", type=int, default=8501)])
    def up(args) -> int:
        ...
        return 0

Nested names (``command("designer", "set-password", ...)``) make groups; a group's own
help comes from :func:`group`. Errors that users can fix raise :class:`CommandError` or a
``playtest.storage.errors.StorageError``: ``main`` prints one line and exits with 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Runner = Callable[[argparse.Namespace], int | None]
EXIT_USAGE = 2


class CommandError(Exception):
    """A failure the user can fix; printed as one line, exit status 2."""


@dataclass(frozen=True)
class Arg:
    """One ``add_argument`` call: flags and keyword options."""

    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def arg(*flags: str, **options: Any) -> Arg:
    """Describe an argument: ``arg("--study", required=True, help="study id")``."""
    return Arg(flags, options)


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]
    help: str
    args: tuple[Arg, ...]
    run: Runner


_COMMANDS: dict[tuple[str, ...], Command] = {}
_GROUPS: dict[tuple[str, ...], str] = {}


def command(*path: str, help: str, args: Sequence[Arg] = ()) -> Callable[[Runner], Runner]:
    """Register ``playtest <path…>``; the decorated function gets the parsed namespace."""
    if not path:
        raise ValueError("a command needs a name")

    def register(run: Runner) -> Runner:
        if path in _COMMANDS:
            raise ValueError(f"playtest {' '.join(path)} is registered twice")
        _COMMANDS[path] = Command(tuple(path), help, tuple(args), run)
        return run

    return register


def group(*path: str, help: str) -> None:
    """Give a command group (``db``, ``participant`` …) its help line."""
    _GROUPS[tuple(path)] = help


def registered() -> dict[tuple[str, ...], Command]:
    return dict(_COMMANDS)


def load_command_modules() -> None:
    """Import ``playtest.commands`` and every ``playtest.<package>.commands``."""
    import playtest

    names = ["playtest.commands"]
    for module in pkgutil.iter_modules(playtest.__path__):
        if module.ispkg:
            names.append(f"playtest.{module.name}.commands")
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def build_parser() -> argparse.ArgumentParser:
    listing = "\n".join(
        f"  playtest {' '.join(path):<28} {entry.help}" for path, entry in sorted(_COMMANDS.items())
    )
    parser = argparse.ArgumentParser(
        prog="playtest",
        description="Playtest lab: run studies, store and exchange playtest data.",
        epilog="all commands:\n" + listing,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    root = parser.add_subparsers(dest="command", metavar="COMMAND")
    parsers: dict[tuple[str, ...], Any] = {(): root}
    for path in sorted(_COMMANDS):
        for depth in range(1, len(path)):
            prefix = path[:depth]
            if prefix not in parsers:
                holder = parsers[prefix[:-1]]
                group_help = _GROUPS.get(prefix, f"{' '.join(prefix)} commands")
                group_parser = holder.add_parser(
                    prefix[-1], help=group_help, description=group_help
                )
                parsers[prefix] = group_parser.add_subparsers(
                    dest="_".join(("sub",) + prefix), metavar="COMMAND", required=True
                )
        entry = _COMMANDS[path]
        sub = parsers[path[:-1]].add_parser(path[-1], help=entry.help, description=entry.help)
        for argument in entry.args:
            sub.add_argument(*argument.flags, **argument.options)
        sub.set_defaults(_run=entry.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``playtest`` console script."""
    from playtest.storage.errors import ImportRejected, StorageError

    load_command_modules()
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        status = run(args)
    except ImportRejected as exc:
        # One problem: its one line says it all (the summary repeats it with the verdict).
        for line, message in exc.problems[:50] if len(exc.problems) > 1 else ():
            print(f"{exc.path}:{line}: {message}", file=sys.stderr)
        if len(exc.problems) > 50:
            print(f"… {len(exc.problems) - 50} more problems", file=sys.stderr)
        print(f"playtest: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (CommandError, StorageError, OSError) as exc:
        print(f"playtest: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("playtest: interrupted", file=sys.stderr)
        return 130
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    # Run the importable module's main: command modules register with ``playtest.cli``,
    # not with this ``__main__`` copy of it.
    from playtest.cli import main as _main

    sys.exit(_main())
