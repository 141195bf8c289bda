"""Command line of the engine: ``python -m engine {scenario,simulate,bench} ...``.

Each sub-command lives in its own module and is imported only when used, so a
missing or broken optional part never stops the others.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

COMMANDS: dict[str, tuple[str, str]] = {
    "scenario": ("engine.scenario", "check rules scenarios (scenario-format.md)"),
    "simulate": ("engine.simulate", "simulate many computer-played games"),
    # The benchmarks live in the top-level ``benchmarks/`` package of a source checkout
    # (not shipped in the wheel); this name only forwards to it.
    "bench": ("benchmarks.bench_engine", "measure engine speed (source checkout only)"),
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
    if module_name.startswith("benchmarks."):
        # In a source checkout, benchmarks/ sits next to this package: found from any folder.
        checkout = Path(__file__).resolve().parents[1]
        if (checkout / "benchmarks" / "__init__.py").is_file() and str(checkout) not in sys.path:
            sys.path.append(str(checkout))
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is None or not module_name.startswith(err.name):
            raise
        print(
            f"python -m engine {command}: not available ({module_name} is missing;"
            " run it from a source checkout)",
            file=sys.stderr,
        )
        return 2
    entry: Callable[[list[str]], int | None] = module.main
    status = entry(rest)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
