"""Command line of the engine: ``python -m engine {scenario,simulate,bench} ...``.

Each sub-command lives in its own module and is imported only when used, so a
missing or broken optional part never stops the others.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "scenario": ("engine.vapoosh.scenario", "check rules scenarios (scenario-format.md)"),
    "simulate": ("engine.simulate", "simulate many computer-played games"),
    "bench": ("engine.bench", "measure engine speed"),
}


def _usage() -> str:
    lines = ["usage: python -m engine COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<9} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to ``<module>.main(rest_of_argv)``; returns its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(
            f"python -m engine: unknown command {command!r} (choose {', '.join(COMMANDS)})",
            file=sys.stderr,
        )
        return 2
    module_name = COMMANDS[command][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise
        print(
            f"python -m engine {command}: not available ({module_name} is missing)", file=sys.stderr
        )
        return 2
    entry: Callable[[list[str]], int | None] = module.main
    status = entry(rest)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
