"""``python -m engine scenario FILE|-``: rules scenarios of any game (scenario-format.md).

Each scenario object names its game (``"game"``, default ``"vapoosh"`` as the format
says); the reader is that game's ``engine.<game>.scenario`` module, which offers
``parse_scenario(obj, label)`` (raising :class:`engine.core.RulesError` naming the
scenario and field) and ``run_parsed(parsed) -> dict``. Every scenario is parsed
before any is run, so a malformed file prints nothing on standard output: one line on
standard error, exit status 2. A result with an ``error`` key (a game whose format
stops at a forbidden action) makes the exit status 1 once all results are printed.

>>> game_of({"game": "chess"}), game_of({"actions": []}), game_of(42)
('chess', 'vapoosh', 'vapoosh')
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from engine.core import RulesError

#: The game a scenario without a ``game`` key belongs to (scenario-format.md).
DEFAULT_GAME = "vapoosh"
_GAME_NAME = re.compile(r"^[a-z][a-z0-9_]{0,30}$")


def game_of(obj: Any) -> str:
    """The game a scenario object names (non-objects go to the default game's reader,
    which explains what is wrong with them)."""
    if isinstance(obj, Mapping) and "game" in obj:
        return obj["game"]
    return DEFAULT_GAME


def _label(i: int | None, obj: Any) -> str:
    base = "scenario" if i is None else f"scenario[{i}]"
    if isinstance(obj, Mapping):
        for key in ("name", "id"):
            if isinstance(obj.get(key), str):
                return base + f" ({obj[key]!r})"
    return base


def reader(game: Any, label: str) -> ModuleType:
    """The scenario module of ``game``; raises :class:`RulesError` for an unknown game."""
    if isinstance(game, str) and _GAME_NAME.match(game):
        try:
            return importlib.import_module(f"engine.{game}.scenario")
        except ModuleNotFoundError as err:
            if err.name not in (f"engine.{game}", f"engine.{game}.scenario"):
                raise
    raise RulesError(f"{label}: field 'game': unknown game {game!r}")


def run_document(doc: Any) -> tuple[Any, bool]:
    """Results for a document (one object or an array) and whether any has an ``error``.

    Raises :class:`RulesError` naming the scenario and field before running anything
    if any scenario is malformed.
    """
    objs = doc if isinstance(doc, list) else [doc]
    labels = [_label(i if isinstance(doc, list) else None, obj) for i, obj in enumerate(objs)]
    parsed = []
    for obj, label in zip(objs, labels, strict=True):
        module = reader(game_of(obj), label)
        parsed.append((module, module.parse_scenario(obj, label)))
    results = [module.run_parsed(p) for module, p in parsed]
    failed = any("error" in r for r in results)
    return (results if isinstance(doc, list) else results[0]), failed


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m engine scenario FILE|-``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m engine scenario",
        description="Check rules scenarios (scenario-format.md); prints one result per scenario.",
    )
    parser.add_argument("file", help="scenario JSON file, or - for standard input")
    args = parser.parse_args(argv)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        print(f"{name}: cannot read the file: {err}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        print(f"{name}: not valid JSON: {err}", file=sys.stderr)
        return 2
    try:
        results, failed = run_document(doc)
    except RulesError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    if isinstance(results, list):
        # one result per line: readable, and diffable line by line
        out = "[\n" + ",\n".join(json.dumps(r) for r in results) + "\n]"
    else:
        out = json.dumps(results)
    try:
        print(out)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: the reader left, nothing to report
        sys.stderr.close()
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
