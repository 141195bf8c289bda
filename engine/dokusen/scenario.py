"""Dokusen scenarios for ``python -m engine scenario`` (scenario-format.md, ``"game": "dokusen"``).

A scenario::

    {"game": "dokusen", "id": "D14", "description": "...",
     "stage": "S4",
     "board": [".....", "..."],
     "seed": 0,
     "actions": [{"player": 0, "at": [0, 2]},
                 {"player": 1, "ai": "greedy"},
                 {"type": "meteor", "at": [3, 4]}],
     "expected": {...}, "expectIllegal": [false, false, false]}

- ``stage``: a built-in stage id (``"S1"``..``"S8"``) or a stage object
  (:mod:`engine.dokusen.stage`); ``board`` (optional) replaces the starting owners on the
  stage's mask (same void cells).
- ``actions``: a placement ``{"player": p, "at": [r, c]}`` (``"type": "place"`` may be
  given), a computer placement ``{"player": p, "ai": "random" | "greedy" | "lookahead"}``
  (random draws with ``random.Random(seed)``, ``seed`` 0 by default), or a meteor
  impact at a chance node ``{"type": "meteor", "at": [r, c]}``.
- ``id``, ``description``, ``expected`` and ``expectIllegal`` are for people and test
  runners; the engine ignores them.

The result, observed after the last action: ``afterEachRound`` (the board's rows after
every round completed during the scenario: after growth and meteors), ``gameOver``,
``result`` (``"win"``, ``"loss"`` or ``null`` while the stage runs), ``counts``
(``{"0": …, "1": …, "black": …, "total": …}``), ``events`` (in order: ``place``,
``grow`` (one per round), ``meteor``, ``win``/``loss``, and ``illegal`` for a refused
action) and, beyond the format, ``board``, ``round``, ``toMove`` (the colour to place,
``"meteor"`` while a draw is due, ``null`` at the end), ``reason`` (``"full"`` /
``"max_rounds"``) and ``refused`` (per action: the refusal code or ``null``). A refused
action leaves the state as it was and the scenario goes on (exit status 0).

>>> r = run_scenario({"game": "dokusen", "stage": "S4",
...                   "actions": [{"player": 0, "at": [0, 2]}, {"player": 0, "at": [0, 1]}]})
>>> r["events"], r["afterEachRound"][0][2], r["refused"]
(['place', 'grow', 'illegal'], '11111', [None, 'own_square'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from engine.core import CHANCE, TERMINAL, IllegalActionError, RulesError
from engine.dokusen.ai import choose
from engine.dokusen.stage import AI_LEVELS
from engine.dokusen.state import DokusenGame, DokusenState, Place, Strike, colour_name

KNOWN_FIELDS = (
    "game",
    "id",
    "name",
    "description",
    "stage",
    "board",
    "seed",
    "actions",
    "expected",
    "expectIllegal",
)
_ACTION_FIELDS = ("type", "player", "at", "ai", "expectIllegal")


class ScenarioError(RulesError):
    """A malformed Dokusen scenario; the message names the scenario and the field."""


@dataclass(frozen=True)
class Step:
    """One scenario action: a placement by ``player`` (at ``at``, or chosen by ``ai``),
    or a meteor (``player is None``) at ``at``."""

    player: int | None
    at: tuple[int, int] | None
    ai: str | None = None


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated Dokusen scenario."""

    start: DokusenState
    steps: tuple[Step, ...]
    seed: int = 0


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field.

    >>> parse_scenario({"game": "dokusen", "stage": "S1", "actions": [{"player": 0}]}, "scenario[3]")
    Traceback (most recent call last):
    ...
    engine.dokusen.scenario.ScenarioError: scenario[3]: field 'actions[0]': needs 'at' [r, c] or 'ai' (a level)
    """
    if isinstance(obj, Mapping) and isinstance(obj.get("id"), str) and "(" not in label:
        label = f"{label} ({obj['id'][:40]!r})"

    def fail(field: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{label}: field {field!r}: {msg}")

    if not isinstance(obj, Mapping):
        raise ScenarioError(f"{label}: must be a JSON object")
    for key in obj:
        if key not in KNOWN_FIELDS:
            raise fail(str(key)[:40], f"unknown field (known: {', '.join(KNOWN_FIELDS)})")
    if obj.get("game") != "dokusen":
        raise fail("game", f"must be 'dokusen', got {obj.get('game')!r}")
    if "stage" not in obj:
        raise fail("stage", "missing (a stage id such as 'S4' or a stage object)")
    try:
        game = DokusenGame(obj["stage"])
    except RulesError as err:
        text = str(err)
        field = "stage" if text.startswith("stage") else f"stage.{text.split(':')[0]}"
        raise fail(field, text) from None
    if "board" in obj:
        try:
            start = game.state_from_position(obj["board"])
        except RulesError as err:
            raise fail(str(err).split(":")[0], str(err)) from None
    else:
        start = game.new_initial_state()
    seed = obj.get("seed", 0)
    if not _is_int(seed):
        raise fail("seed", f"must be a whole number, got {seed!r}")
    raw_actions = obj.get("actions")
    if not isinstance(raw_actions, list):
        raise fail("actions", "missing, or not a list")
    steps = []
    grid = game.grid
    for k, raw in enumerate(raw_actions):
        where = f"actions[{k}]"
        if not isinstance(raw, Mapping):
            raise fail(
                where, "must be an object {player, at} or {player, ai} or {type: 'meteor', at}"
            )
        for key in raw:
            if key not in _ACTION_FIELDS:
                raise fail(
                    f"{where}.{str(key)[:40]}",
                    f"unknown field (known: {', '.join(_ACTION_FIELDS)})",
                )
        kind = raw.get("type", "place")
        if kind not in ("place", "meteor"):
            raise fail(f"{where}.type", f"must be 'place' or 'meteor', got {kind!r}")
        at = raw.get("at")
        if at is not None and (
            not isinstance(at, list) or len(at) != 2 or not all(_is_int(v) for v in at)
        ):
            raise fail(f"{where}.at", f"must be [row, col] (whole numbers), got {at!r}")
        if at is not None and not grid.on_board(at[0], at[1]):
            raise fail(f"{where}.at", f"{at} is off the {grid.rows}×{grid.cols} board")
        pos = None if at is None else (at[0], at[1])
        if kind == "meteor":
            if pos is None:
                raise fail(f"{where}.at", "a meteor needs 'at' [r, c]")
            if "player" in raw or "ai" in raw:
                raise fail(where, "a meteor has no 'player' or 'ai'")
            steps.append(Step(None, pos))
            continue
        player = raw.get("player")
        if not _is_int(player) or not 0 <= player < game.num_players:
            raise fail(
                f"{where}.player",
                f"must be a player 0-{game.num_players - 1} of this stage, got {player!r}",
            )
        ai = raw.get("ai")
        if ai is not None and ai not in AI_LEVELS:
            raise fail(f"{where}.ai", f"must be one of {', '.join(AI_LEVELS)}, got {ai!r}")
        if (ai is None) == (pos is None):
            raise fail(
                where,
                "needs 'at' [r, c] or 'ai' (a level)"
                if ai is None
                else "give 'at' or 'ai', not both",
            )
        steps.append(Step(player, pos, ai))
    return Scenario(start, tuple(steps), seed)


def _apply(state: DokusenState, step: Step, rng: random.Random) -> None:
    cur = state.current_player()
    if step.player is None:
        assert step.at is not None
        state.apply(Strike(*step.at))
        return
    if cur == TERMINAL:
        raise IllegalActionError("game_over", "The stage is over: no more moves.")
    if cur != step.player:
        who = "a meteor is due" if cur == CHANCE else f"it is {colour_name(cur)}'s turn"
        raise IllegalActionError(
            "not_your_turn", f"{colour_name(step.player).capitalize()} cannot place: {who}."
        )
    if step.ai is not None:
        state.apply_action(choose(state, step.ai, rng).action)
    else:
        assert step.at is not None
        state.apply(Place(*step.at))


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions show as ``illegal`` and the scenario goes on."""
    state = scenario.start.clone()
    rng = random.Random(scenario.seed)
    events: list[str] = []
    refused: list[str | None] = []
    rounds: list[list[str]] = []
    for step in scenario.steps:
        before = len(state.history)
        try:
            _apply(state, step, rng)
        except IllegalActionError as err:
            events.append("illegal")
            refused.append(err.reason)
            continue
        refused.append(None)
        done = state.last_events if len(state.history) > before else []
        events.extend(e.kind for e in done)
        round_over = any(e.kind in ("grow", "meteor") for e in done)
        if round_over and (state.current_player() == 0 or state.is_terminal()):
            rounds.append(state.board_rows())
    out = state.outcome
    cur = state.current_player()
    return {
        "afterEachRound": rounds,
        "gameOver": state.is_terminal(),
        "result": None if out is None else out.result,
        "counts": state.counts(),
        "events": events,
        "board": state.board_rows(),
        "round": state.round,
        "toMove": None if cur == TERMINAL else "meteor" if cur == CHANCE else cur,
        "reason": None if out is None else out.reason,
        "refused": refused,
    }


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
