"""``python -m engine scenario FILE|-``: check rules scenarios (scenario-format.md).

A scenario names its game (``"game"``); one that names none is read as the format says
("absent means" the first game). Each game's reader is ``engine/<game>/scenario.py``;
the one that reads scenarios naming no game says so (``READS_UNNAMED = True``), and its
command line (``main``) runs a whole document, handing each scenario to its game's
reader. Nothing here names a game: the readers are found in the engine's game packages.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType

import engine


@functools.cache
def readers() -> dict[str, ModuleType]:
    """Every game package's scenario reader, by game (``engine/<game>/scenario.py``).

    >>> all(module.__name__ == f"engine.{game}.scenario" for game, module in readers().items())
    True
    """
    found: dict[str, ModuleType] = {}
    for package in pkgutil.iter_modules(engine.__path__):
        if not package.ispkg:
            continue
        try:
            found[package.name] = importlib.import_module(f"engine.{package.name}.scenario")
        except ModuleNotFoundError as err:
            if err.name != f"engine.{package.name}.scenario":
                raise
    return found


def unnamed_reader() -> ModuleType:
    """The reader of scenarios that name no game (its ``READS_UNNAMED``).

    >>> hasattr(unnamed_reader(), "main")
    True
    """
    chosen = [m for m in readers().values() if getattr(m, "READS_UNNAMED", False)]
    if len(chosen) != 1:
        raise LookupError(f"exactly one scenario reader must read scenarios naming no game "
                          f"(found {len(chosen)})")
    return chosen[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m engine scenario``; returns the exit status."""
    status = unnamed_reader().main(argv)
    return int(status or 0)
