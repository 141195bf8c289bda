"""Rules scenarios: ``python -m engine scenario FILE|-`` (scenario-format.md).

A scenario is a position, dice and clicks; the result says what the engine
made of them. Structural problems (bad JSON, unknown field, a die of 7) are a
*malformed file*: one line on standard error naming the scenario and field,
exit status 2, nothing on standard output. An action the rules forbid is a
*result* ``{"error": ..., "action_index": i}``; the command still prints every
result and then exits with status 1.

Beyond scenario-format.md this reader accepts ``name`` and ``description``
(free text, ignored), ``["deal", [[seat, c, r], ...]]`` actions and ``seed``:
with preplaced rules (``house``) and no ``board`` the counters are dealt by
``deal_preplaced(rules, players, seed)`` (seed 0 by default) unless the first
action is an explicit deal.

>>> run_scenario({"rules": "standard", "actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]})["events"]
['roll', 'place', 'extra_turn']
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalActionError, RulesError
from engine.vapoosh.actions import Action, Deal, action_from_json
from engine.vapoosh.rules import Rules
from engine.vapoosh.state import VapooshGame, VapooshState, deal_preplaced

#: This reader reads scenarios that name no ``game`` (scenario-format.md: absent means
#: this game), and its ``main`` is ``python -m engine scenario`` (:mod:`engine.scenario`).
READS_UNNAMED = True

KNOWN_FIELDS = (
    "game",
    "rules",
    "players",
    "board",
    "to_move",
    "skips",
    "actions",
    "seed",
    "name",
    "description",
)


class ScenarioError(RulesError):
    """A malformed scenario; the message names the scenario and the field."""


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated scenario (positions checked, actions parsed)."""

    game: VapooshGame
    start: VapooshState
    actions: tuple[Action, ...]


def _label(i: int | None, obj: Any) -> str:
    base = "scenario" if i is None else f"scenario[{i}]"
    if isinstance(obj, Mapping) and isinstance(obj.get("name"), str):
        base += f" ({obj['name']!r})"
    return base


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field."""

    def fail(msg: str) -> ScenarioError:
        return ScenarioError(f"{label}: {msg}")

    if not isinstance(obj, Mapping):
        raise fail("must be a JSON object")
    for key in obj:
        if key not in KNOWN_FIELDS:
            raise fail(f"field {key!r}: unknown field (known: {', '.join(KNOWN_FIELDS)})")
    if obj.get("game", "vapoosh") != "vapoosh":
        raise fail(f"field 'game': unknown game {obj.get('game')!r} (only 'vapoosh')")
    if "actions" not in obj:
        raise fail("field 'actions': missing")
    raw_actions = obj["actions"]
    if not isinstance(raw_actions, list):
        raise fail("field 'actions': must be a list")
    actions: list[Action] = []
    for k, raw in enumerate(raw_actions):
        try:
            actions.append(action_from_json(raw))
        except RulesError as err:
            raise fail(f"field 'actions[{k}]': {err}") from None
    try:
        game = VapooshGame(Rules.from_obj(obj.get("rules", "standard")), obj.get("players", 2))
    except RulesError as err:
        raise fail(f"field {str(err).split(':')[0].split('.')[0]!r}: {err}") from None
    seed = obj.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise fail(f"field 'seed': must be a whole number, got {seed!r}")
    board = obj.get("board")
    to_move = obj.get("to_move", 1)
    skips = obj.get("skips") or {}
    if not isinstance(skips, Mapping):
        raise fail("field 'skips': must be an object {seat: turns owed}")
    try:
        if board is None and game.rules.preplaced > 0:
            if actions and isinstance(actions[0], Deal):
                if "to_move" in obj or "skips" in obj:
                    raise fail(
                        "field 'to_move'/'skips': cannot be set when the scenario deals its own "
                        "counters (seat 1 starts after a deal)"
                    )
                return Scenario(game, game.new_initial_state(), tuple(actions))
            dealt = game.new_initial_state()
            dealt.apply(deal_preplaced(game.rules, game.num_players, seed))
            board = dealt.board_rows()
        elif actions and isinstance(actions[0], Deal):
            raise fail("field 'actions[0]': a deal needs preplaced rules and no 'board'")
        start = game.state_from_position(board, to_move, skips)
    except ScenarioError:
        raise
    except RulesError as err:
        raise fail(f"field {str(err).split(':')[0]!r}: {err}") from None
    return Scenario(game, start, tuple(actions))


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; returns the result object of scenario-format.md."""
    state = scenario.start.clone()
    kinds: list[str] = []
    for k, action in enumerate(scenario.actions):
        try:
            events = state.apply(action)
        except IllegalActionError as err:
            return {"error": str(err), "action_index": k}
        kinds.extend(e.kind for e in events)
    return {
        "board": state.board_rows(),
        "to_move": state.to_move,
        "phase": state.phase,
        "winner": state.winner,
        "events": kinds,
    }


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))


def _reader(obj: Any) -> Any:
    """The scenario module of the scenario's ``game``: ``engine.<game>.scenario``.

    Each has ``parse_scenario(obj, label)`` (raising :class:`RulesError` naming the
    field) and ``run_parsed(parsed) -> dict``; Vapoosh! (the default) is this module,
    and so is an unknown game, whose ``parse_scenario`` names the field.
    """
    game = obj.get("game", "vapoosh") if isinstance(obj, Mapping) else "vapoosh"
    if game == "vapoosh" or not isinstance(game, str) or not game.isidentifier():
        return sys.modules[__name__]
    try:
        return importlib.import_module(f"engine.{game}.scenario")
    except ModuleNotFoundError:
        return sys.modules[__name__]


def run_document(doc: Any) -> tuple[Any, bool]:
    """Results for a scenario document (one object or an array) and whether any failed.

    Raises :class:`RulesError` (naming scenario and field) before running
    anything if any scenario is malformed.
    """
    if isinstance(doc, list):
        readers = [_reader(obj) for obj in doc]
        parsed = [readers[i].parse_scenario(obj, _label(i, obj)) for i, obj in enumerate(doc)]
        results = [readers[i].run_parsed(p) for i, p in enumerate(parsed)]
        return results, any("error" in r for r in results)
    reader = _reader(doc)
    result = reader.run_parsed(reader.parse_scenario(doc, _label(None, doc)))
    return result, "error" in result


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
        text = "[\n" + ",\n".join(json.dumps(r) for r in results) + "\n]"
    else:
        text = json.dumps(results)
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: the reader left, nothing to report
        sys.stderr.close()
        return 1 if failed else 0
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
