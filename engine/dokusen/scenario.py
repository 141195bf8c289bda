"""Dokusen scenarios for ``python -m engine scenario``: rules-other-games.md section 4.3
with ``"game": "dokusen"`` (scenario-format.md, "The other games of the seeds").

A scenario::

    {"game": "dokusen", "id": "D13", "description": "...",
     "initial": {"board": ["1.."],
                 "players": [{"id": 0, "type": "user"},
                             {"id": 1, "type": "active", "ai": "greedy"}],
                 "round": 1,
                 "meteors": [{"round": 3, "at": [0, 1], "radius": 1}]},
     "actions": [{"player": 0, "at": [0, 1]},
                 {"player": 1, "ai": "greedy"}],
     "expected": {...}}

- ``initial.board``: rows of equal length, row 0 first: ``#`` void, ``.`` black, ``0``-``9``
  the owner (player 0 is the user). Any position is taken, reachable in play or not.
- ``initial.players`` (optional): ``type`` is ``"user"`` (id 0), ``"inactive"`` or
  ``"active"``; an active player's ``ai`` is its level (``random``, ``greedy``,
  ``lookahead``) or ``"scripted"`` (the scenario's actions place for it). A digit of the
  board that is not listed is an inactive player.
- ``initial.round`` (optional, 1): the round being played, the user to place first.
  The stage ends at the latest after round 4 × the number of squares (section 3.4).
- ``initial.meteors`` (optional): ``{round, at, radius}`` (radius 1 by default): a meteor
  strikes after that round's growth.
- Actions, in the round's order (the user, then the active players by id):
  ``{player, at: [r, c]}`` places for ``player``; ``{player, ai: "greedy"}`` places where
  the engine's greedy AI of section 3.6 chooses for ``player`` (``"lookahead"``, the 2-ply
  level, is accepted too, beyond section 4). An action by a player who is not to place
  is refused (``not_your_turn``, or ``game_over``).
- ``id`` and ``description`` are free text; ``expected`` and ``expectIllegal`` are what
  the file claims, and the engine ignores them.

The result, observed after the last action, holds every key of section 4.3's
``expected``: ``afterEachRound`` (the board after growth and meteors, one entry per
round the scenario completed), ``gameOver``, ``result`` (``"win"``, ``"loss"`` or
``null`` while the stage runs), ``counts`` (``{owner: squares}``, owner ids as strings,
without black and without owners that hold no square) and ``events``, in order and
nothing else: ``"illegal"`` for a refused action and ``{"aiChoice": [r, c]}`` for the
square an ``ai`` action chose. Beside them: ``id`` when the scenario has one, ``board``
and ``round`` now, ``toMove`` (the player to place, ``null`` at the end), ``reason`` (how
the stage ended: ``"full"`` or ``"max_rounds"``, or ``null``) and ``refused`` (per
action: ``null`` or the code of the rule that refused it). A refused action leaves the
state as it was and the scenario goes on.

>>> r = run_scenario({"game": "dokusen",
...     "initial": {"board": ["1.."], "players": [{"id": 1, "type": "active", "ai": "greedy"}]},
...     "actions": [{"player": 0, "at": [0, 1]}, {"player": 0, "at": [0, 2]},
...                 {"player": 1, "ai": "greedy"}]})
>>> r["events"], r["afterEachRound"], r["counts"], r["result"]
(['illegal', {'aiChoice': [0, 1]}], [['111']], {'1': 3}, 'loss')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import TERMINAL, IllegalActionError, RulesError
from engine.dokusen.ai import choose
from engine.dokusen.stage import AI_LEVELS, Stage, StagePlayer
from engine.dokusen.state import DokusenState, colour_name
from engine.scenario import Parsed, ScenarioError, Section4, is_int, is_pair

INITIAL_FIELDS = ("board", "players", "round", "meteors")
ACTION_FIELDS = ("player", "at", "ai")
#: An active player's ``ai`` in ``initial.players``: a level, or placed by the actions.
PLAYER_LEVELS = (*AI_LEVELS, "scripted")
#: The levels an ``ai`` action may ask for (section 4.3: greedy; lookahead beyond it).
ACTION_LEVELS = ("greedy", "lookahead")

__all__ = ["Scenario", "ScenarioError", "Step", "parse_scenario", "run_parsed"]


@dataclass(frozen=True)
class Step:
    """One scenario action: a placement by ``player`` at ``at``, or where the ``ai``
    level chooses."""

    player: int
    at: tuple[int, int] | None
    ai: str | None = None


class Scenario(Parsed[DokusenState, Step]):
    """A parsed, validated Dokusen scenario."""


def _players(opened: Section4, raw: Any) -> list[StagePlayer]:
    """Section 4.3's ``players`` as the stage's computer colours (the user is not one)."""
    if not isinstance(raw, list):
        raise opened.fail("initial.players", "must be a list of {id, type[, ai]}")
    seen: set[int] = set()
    out = []
    for k, p in enumerate(raw):
        where = f"initial.players[{k}]"
        if not isinstance(p, Mapping):
            raise opened.fail(where, "must be an object {id, type[, ai]}")
        opened.check_keys(p, where, ("id", "type", "ai"))
        pid, kind, ai = p.get("id"), p.get("type"), p.get("ai")
        if not is_int(pid) or not 0 <= pid <= 9:
            raise opened.fail(f"{where}.id", f"must be a whole number 0-9, got {pid!r}")
        if pid in seen:
            raise opened.fail(f"{where}.id", f"player {pid} is listed twice")
        seen.add(pid)
        if (kind == "user") != (pid == 0):
            raise opened.fail(f"{where}.type", "the user is player 0, and player 0 the user")
        if kind not in ("user", "inactive", "active"):
            raise opened.fail(
                f"{where}.type", f"must be 'user', 'inactive' or 'active', got {kind!r}"
            )
        if kind == "active" and ai not in PLAYER_LEVELS:
            raise opened.fail(
                f"{where}.ai", f"must be one of {', '.join(PLAYER_LEVELS)}, got {ai!r}"
            )
        if kind != "active" and ai is not None:
            raise opened.fail(f"{where}.ai", f"only an active player has one ({kind} here)")
        if kind != "user":
            out.append(StagePlayer(pid, kind, ai))
    return out


def _start(opened: Section4) -> DokusenState:
    initial = opened.initial
    if "board" not in initial:
        raise opened.fail("initial.board", "missing (rows such as ['1..', '...'])")
    players = _players(opened, initial.get("players", []))
    meteors = initial.get("meteors", [])
    if not isinstance(meteors, list):
        raise opened.fail("initial.meteors", "must be a list of {round, at[, radius]}")
    rnd = initial.get("round", 1)
    if not is_int(rnd) or rnd < 1:
        raise opened.fail("initial.round", f"must be a whole number ≥ 1, got {rnd!r}")
    # the stage checks the board and meteors; a scripted player is given a level there,
    # then its own back (the scenario never asks a player's level: an ai action names it)
    obj = {
        "board": initial["board"],
        "players": [
            {**p.to_obj(), "ai": "greedy"} if p.ai == "scripted" else p.to_obj() for p in players
        ],
        "meteors": meteors,
    }
    try:
        stage = replace(Stage.from_obj(obj), players=tuple(sorted(players, key=lambda p: p.id)))
    except RulesError as err:
        raise opened.fail(f"initial.{str(err).split(':')[0]}", str(err)) from None
    return DokusenState.from_json({"stage": stage, "board": list(stage.board), "round": rnd})


def _parse_step(opened: Section4, k: int, raw: Mapping[str, Any], start: DokusenState) -> Step:
    where = f"actions[{k}]"
    colours = start.game.num_players
    player = raw.get("player")
    if not is_int(player) or not 0 <= player < colours:
        raise opened.fail(
            f"{where}.player", f"must be a player 0-{colours - 1} of this board, got {player!r}"
        )
    at, ai = raw.get("at"), raw.get("ai")
    if (at is None) == (ai is None):
        raise opened.fail(
            where,
            "needs 'at' [r, c] or 'ai' (a level)" if ai is None else "give 'at' or 'ai', not both",
        )
    if ai is not None:
        if ai not in ACTION_LEVELS:
            raise opened.fail(
                f"{where}.ai", f"must be one of {', '.join(ACTION_LEVELS)}, got {ai!r}"
            )
        return Step(player, None, ai)
    grid = start.game.grid
    if not is_pair(at):
        raise opened.fail(f"{where}.at", f"must be [row, col] (whole numbers), got {at!r}")
    if not grid.on_board(at[0], at[1]):
        raise opened.fail(f"{where}.at", f"{at} is off the {grid.rows}×{grid.cols} board")
    return Step(player, (at[0], at[1]))


def parse_scenario(obj: Any, label: str = "scenario") -> Scenario:
    """Validate one scenario object; raises :class:`ScenarioError` naming the field.

    >>> parse_scenario({"game": "dokusen", "initial": {"board": ["1.."]},
    ...                 "actions": [{"player": 0}]}, "scenario[3]")
    Traceback (most recent call last):
    ...
    engine.scenario.ScenarioError: scenario[3]: field 'actions[0]': needs 'at' [r, c] or 'ai' (a level)
    """
    opened = Section4.open(obj, label, "dokusen", INITIAL_FIELDS, ACTION_FIELDS)
    start = _start(opened)
    steps = tuple(_parse_step(opened, k, raw, start) for k, raw in enumerate(opened.actions))
    return Scenario(opened.id, start, steps)


def _action(state: DokusenState, step: Step) -> int:
    """The action id ``step`` asks for; :class:`IllegalActionError` when it is not the
    player's turn."""
    cur = state.current_player()
    if cur == TERMINAL:
        raise IllegalActionError("game_over", "The stage is over: no more moves.")
    if cur != step.player:  # no chance node: section 4.3's meteors are listed, not drawn
        raise IllegalActionError(
            "not_your_turn",
            f"{colour_name(step.player).capitalize()} cannot place: it is "
            f"{colour_name(cur)}'s turn.",
        )
    if step.ai is not None:
        if not state.legal_actions():  # only in a synthetic position: every square is its own
            raise IllegalActionError(
                "no_square", f"{colour_name(cur).capitalize()} owns every square: none to take."
            )
        return choose(state, step.ai).action
    assert step.at is not None
    return state.game.index(*step.at)


def contract_counts(state: DokusenState) -> dict[str, int]:
    """Section 4.3's ``counts``: squares by owner id, only the owners that hold some.

    >>> from engine.dokusen import DokusenGame
    >>> contract_counts(DokusenGame({"board": ["1..", "3.#"]}).new_initial_state())
    {'1': 1, '3': 1}
    """
    return {k: n for k, n in state.counts().items() if k.isdigit() and n > 0}


def run_parsed(scenario: Scenario) -> dict[str, Any]:
    """Play a parsed scenario; refused actions show as ``illegal`` and the scenario goes on."""
    state = scenario.start.clone()
    events: list[Any] = []
    refused: list[str | None] = []
    rounds: list[list[str]] = []
    for step in scenario.steps:
        try:
            action = _action(state, step)
            done = state.apply_action(action)
        except IllegalActionError as err:
            events.append("illegal")
            refused.append(err.reason)
            continue
        if step.ai is not None:
            events.append({"aiChoice": list(state.game.grid.coord(action))})
        refused.append(None)
        if any(e.kind == "grow" for e in done):
            rounds.append(state.board_rows())
    out = state.outcome
    cur = state.current_player()
    result: dict[str, Any] = {} if scenario.id is None else {"id": scenario.id}
    result.update(
        {
            "afterEachRound": rounds,
            "gameOver": state.is_terminal(),
            "result": None if out is None else out.result,
            "counts": contract_counts(state),
            "events": events,
            "board": state.board_rows(),
            "round": state.round,
            "toMove": None if cur == TERMINAL else cur,
            "reason": None if out is None else out.reason,
            "refused": refused,
        }
    )
    return result


def run_scenario(obj: Any) -> dict[str, Any]:
    """Parse and play one scenario object (raises :class:`ScenarioError` if malformed)."""
    return run_parsed(parse_scenario(obj))
