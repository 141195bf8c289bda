"""The ``playtest`` command line, on Click: a registry of subcommands.

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

:func:`arg` takes the familiar ``add_argument`` vocabulary (``type``, ``default``,
``required``, ``choices``, ``dest``, ``action="store_true"``/``"append"``, ``help``) and
:func:`build_cli` turns each registration into a :class:`click.Command` (options,
arguments, help, type checks and usage errors are Click's); the decorated function gets
the parsed values as attributes of one namespace. Nested names (``command("designer",
"set-password", ...)``) make :class:`click.Group` s; a group's own help comes from
:func:`group`. ``playtest`` and ``python -m playtest`` run :func:`main`.

Exit statuses: 0 done; 2 for a usage error (one line: ``playtest: error: …``), a
:class:`CommandError` or a ``playtest.storage.errors.StorageError`` (one line) and for
no command at all (the help is printed); 130 when interrupted.

>>> main(["--version-of-nothing"])
2
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click

Runner = Callable[[argparse.Namespace], int | None]
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


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


def load_command_modules() -> None:
    """Import ``playtest.commands``, ``playtest.data_commands`` (the storage commands) and
    every ``playtest.<package>.commands``."""
    import playtest

    names = ["playtest.commands", "playtest.data_commands"]
    for module in pkgutil.iter_modules(playtest.__path__):
        if module.ispkg:
            names.append(f"playtest.{module.name}.commands")
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def _click_param(argument: Arg) -> tuple[click.Parameter, str | None]:
    """One registered :class:`Arg` as a Click option or argument (and an argument's help)."""
    options = dict(argument.options)
    help_text = options.pop("help", None)
    action = options.pop("action", None)
    dest = options.pop("dest", None)
    choices = options.pop("choices", None)
    if choices is not None:
        options["type"] = click.Choice(list(choices))
    if not argument.flags[0].startswith("-"):  # positional
        return click.Argument([dest or argument.flags[0]], **options), help_text
    declarations = [*argument.flags, *([dest] if dest else [])]
    if action == "store_true":
        options.update(is_flag=True, default=False)
    elif action == "append":
        options.update(multiple=True)
    elif action is not None:
        raise ValueError(f"unsupported action {action!r} for {argument.flags}")
    return click.Option(declarations, help=help_text, **options), None


def _click_command(entry: Command) -> click.Command:
    params: list[click.Parameter] = []
    argument_help: list[str] = []
    for argument in entry.args:
        param, help_text = _click_param(argument)
        params.append(param)
        if help_text:
            argument_help.append(f"{argument.flags[0].upper()}: {help_text}")
    run = entry.run

    def callback(**values: Any) -> int:
        return int(run(argparse.Namespace(**values)) or 0)

    text = "\n\n".join([entry.help, *argument_help])
    # A value that starts with "-" is still a value: a tester's code may (``-EiXu…``),
    # and a designer pastes it as it is (an unknown option is not an error but an argument).
    positional = any(not argument.flags[0].startswith("-") for argument in entry.args)
    settings = {"ignore_unknown_options": True} if positional else {}
    return click.Command(entry.path[-1], callback=callback, params=params, help=text,
                         short_help=entry.help, context_settings=settings)


def build_cli() -> click.Group:
    """The ``playtest`` group with every registered command (after :func:`load_command_modules`)."""
    listing = "\n".join(
        f"  playtest {' '.join(path):<28} {entry.help}" for path, entry in sorted(_COMMANDS.items())
    )
    root = click.Group(
        "playtest",
        help="Playtest lab: run studies, store and exchange playtest data.",
        epilog="\b\nall commands:\n" + listing,  # \b: Click keeps these lines as they are
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    groups: dict[tuple[str, ...], click.Group] = {(): root}
    for path in sorted(_COMMANDS):
        for depth in range(1, len(path)):
            prefix = path[:depth]
            if prefix not in groups:
                group_help = _GROUPS.get(prefix, f"{' '.join(prefix)} commands")
                groups[prefix] = click.Group(prefix[-1], help=group_help)
                groups[prefix[:-1]].add_command(groups[prefix])
        groups[path[:-1]].add_command(_click_command(_COMMANDS[path]))
    return root


def _usage_line(err: click.UsageError) -> str:
    where = err.ctx.command_path if err.ctx is not None else "playtest"
    return f"playtest: error: {err.format_message()} (see {where} --help)"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``playtest`` console script and of ``python -m playtest``."""
    from playtest import server_log

    # No tester data in what a command logs or prints of an error (playtest.server_log),
    # and files it creates (databases, exports, the dashboard's cache) its owner's only.
    server_log.install()
    umask = os.umask(0o077)
    try:
        return _run(argv)
    finally:
        os.umask(umask)


def _run(argv: Sequence[str] | None) -> int:
    from playtest.storage.errors import ImportRejected, StorageError

    load_command_modules()
    cli = build_cli()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        status = cli.main(args, prog_name="playtest", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as err:
        # a bare ``playtest`` or ``playtest db``: the help, and the usage status
        print(err.ctx.get_help() if err.ctx is not None else err.format_message())
        return EXIT_USAGE
    except click.UsageError as err:
        print(_usage_line(err), file=sys.stderr)
        return EXIT_USAGE
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
    except (KeyboardInterrupt, click.Abort):
        print("playtest: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    # Run the importable module's main: command modules register with ``playtest.cli``,
    # not with this ``__main__`` copy of it.
    from playtest.cli import main as _main

    sys.exit(_main())
