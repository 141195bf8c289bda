"""Vapoosh!'s computer levels and the knowledge they share.

The levels the app shows, easiest first:

- ``easy``: :class:`~engine.players.RandomPlayer` (a random legal move);
- ``medium``: :class:`MediumPlayer`, Vapoosh's own rule of thumb (win, block, capture);
- ``hard``: :class:`~engine.players.GreedyPlayer` on the evaluation of
  :mod:`engine.vapoosh.evaluation` (one ply);
- ``expert``: :class:`~engine.players.SearchPlayer` on the same evaluation: expectimax
  over the next roll (grouped into 74 kinds of roll) and the reply to it, within a budget
  of :data:`EXPERT_BUDGET` positions per decision.

``choose(state)`` returns the move as a :class:`~engine.vapoosh.Place` or
:class:`~engine.vapoosh.Brown` with a one-line reason; players decide only when a seat
is to place (phase ``place``).

>>> from engine.players import levels, make_player
>>> levels("vapoosh")
('easy', 'medium', 'hard', 'expert')
>>> make_player("expert", seed=3, game="vapoosh")
SearchPlayer(seed=3, budget=3000)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.core import State
from engine.players import (
    Decision,
    GreedyPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
    register_levels,
)
from engine.players.base import after, capitalised
from engine.vapoosh import geometry as geo
from engine.vapoosh.actions import DICE, Brown, Place, decode, encode
from engine.vapoosh.evaluation import Boards, FloatArray, Weights, features, scores
from engine.vapoosh.tactics import bitboards, board_of, tile_text, winning_tiles

Move = Place | Brown

#: Positions one Expert decision may create (see SearchPlayer): enough for the next roll
#: and the reply to it from any position, never for a second roll (74 x more).
EXPERT_BUDGET = 3000
#: Value of a won game (a lost one is minus this). Positions still in play are valued
#: 2*P(win) - 1 from the evaluation's log-odds, so both live on the same scale.
WIN_VALUE = 1.0

_ROLL_ID = {dice: k for k, dice in enumerate(DICE)}
#: The 1296 rolls grouped by what they offer: (a roll id of the kind, its probability).
ROLL_KINDS: tuple[tuple[int, float], ...] = tuple(
    (_ROLL_ID[c.dice], c.probability) for c in geo.CHANCE_CLASSES
)
_MASK_BYTES = (geo.CELLS + 7) // 8
_ROW_TABLE = str.maketrans(
    {".": "\x00", "1": "\x01", "2": "\x02", "3": "\x03", "4": "\x04", "B": "\x05"}
)


def tile_of(action: Move) -> int:
    """Flat tile index of a Place or Brown."""
    return geo.index(action.c, action.r)


def describe(state: Any, action: Move, board: list[int] | None = None) -> str:
    """The move in words: "places at (6,7)", "captures seat 2's counter at (6,7)", ...

    ``board`` (from :func:`engine.vapoosh.tactics.board_of`) saves reading it again.
    """
    owner = board[tile_of(action)] if board is not None else state.owner(action.c, action.r)
    where = f"({action.c},{action.r})"
    if isinstance(action, Brown):
        if owner == 0:
            return f"puts a brown counter on empty {where}"
        if owner == state.to_move:
            return f"puts a brown counter on its own {where}"
        return f"puts a brown counter on seat {owner}'s counter at {where}"
    if owner == 0:
        return f"places at {where}"
    return f"captures seat {owner}'s counter at {where}"
def boards_of(states: Sequence[Any]) -> Boards:
    """Boards of many states as one (n, 144) int8 array."""
    bits = [bitboards(s) for s in states]
    if states and all(b is not None for b in bits):
        players = states[0].players
        raw = b"".join(
            m.to_bytes(_MASK_BYTES, "little") for b in bits if b is not None for m in (*b[0], b[1])
        )
        planes = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        planes = planes.reshape(len(states), players + 1, _MASK_BYTES * 8)[:, :, : geo.CELLS]
        codes = np.array([*range(1, players + 1), geo.BROWN], dtype=np.int8)
        return np.asarray(np.einsum("npc,p->nc", planes.astype(np.int8), codes), dtype=np.int8)
    text = "".join("".join(s.board_rows()) for s in states).translate(_ROW_TABLE)
    return np.frombuffer(text.encode("latin-1"), dtype=np.int8).reshape(len(states), geo.CELLS)


def leaf_values(states: Sequence[Any], weights: Weights) -> tuple[FloatArray, Any]:
    """Values of ``states`` for every seat, in -1..1: an array (n, players).

    Finished games are worth +WIN_VALUE to the winner and -WIN_VALUE to the others
    (0 to everyone on a draw); others ``tanh(score / 2)`` = 2*P(win) - 1 from the
    evaluation's log-odds. Returns the values and the features (None if all ended).
    """
    n = len(states)
    if n == 0:
        return np.zeros((0, 0)), None
    first = states[0]
    players = first.players
    rules = first.rules
    values = np.zeros((n, players))
    live = [k for k, s in enumerate(states) if s.phase != "over"]
    feats = None
    if live:
        feats = features(
            boards_of([states[k] for k in live]),
            players,
            rules.capture == "any",
            rules.suicide,
            weights.window,
            weights.latent,
        )
        movers = [states[k].to_move for k in live]
        for seat in range(1, players + 1):
            values[live, seat - 1] = np.tanh(scores(feats, seat, movers, weights) / 2)
    for k, s in enumerate(states):
        if s.phase == "over":
            if s.winner is None:
                values[k, :] = 0.0
            else:
                values[k, :] = -WIN_VALUE
                values[k, s.winner - 1] = WIN_VALUE
    return values, feats


def threat_notes(state: Any, board: list[int], action: Move) -> list[str]:
    """Why a move matters tactically: blocks and new winning tiles, in words."""
    seat = state.to_move
    rules = state.rules
    capture_any = rules.capture == "any"
    notes = []
    i = tile_of(action)
    for other in range(1, state.players + 1):
        if other != seat:
            pattern = winning_tiles(board, other, capture_any, rules.suicide).get(i)
            if pattern:
                notes.append(f"blocks seat {other}'s {pattern} at {tile_text(i)}")
                break
    before = winning_tiles(board, seat, capture_any, rules.suicide)
    child_board = board_of(after(state, encode(action)))
    now = winning_tiles(child_board, seat, capture_any, rules.suicide)
    new = sorted(set(now) - set(before))
    if new:
        notes.append("threatens a win at " + ", ".join(tile_text(t) for t in new[:3]))
    return notes


class VapooshHeuristics:
    """What the generic players need to know about Vapoosh! (engine.players.Heuristics)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def values(self, states: Sequence[Any]) -> list[list[float]]:
        values: list[list[float]] = leaf_values(states, self.weights)[0].tolist()
        return values

    def describe(self, state: Any, action: int) -> str:
        return describe(state, decode(action))  # type: ignore[arg-type]

    def notes(self, state: Any, action: int) -> list[str]:
        return threat_notes(state, board_of(state), decode(action))  # type: ignore[arg-type]

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        if state.phase == "roll":
            return list(ROLL_KINDS)
        return list(state.chance_outcomes())

    def action_object(self, state: Any, action: int) -> Any:
        return decode(action)


HEURISTICS = VapooshHeuristics()


class MediumPlayer(Player):
    """Win, else block an opponent's immediate win, else capture, else an empty tile.

    Brown counters (Vapooh) come last unless they block or no normal move is allowed;
    among equal choices the seed decides.
    """

    level = "medium"

    def __init__(self, seed: int = 1, rng: random.Random | None = None) -> None:
        super().__init__(seed, HEURISTICS, rng)

    def _decide(self, state: State, legal: list[int]) -> Decision:
        decision = self._pick(state, [decode(a) for a in legal])  # type: ignore[misc]
        return Decision(encode(decision.action), decision.reason)

    def _pick(self, state: Any, targets: list[Move]) -> Decision:
        seat = state.to_move
        board = board_of(state)
        for action in targets:
            if isinstance(action, Place) and after(state, encode(action)).winner == seat:
                return Decision(action, f"Wins: {describe(state, action, board)}")
        rules = state.rules
        capture_any = rules.capture == "any"
        threats: dict[int, tuple[int, str]] = {}
        for other in range(1, state.players + 1):
            if other != seat:
                for i, pattern in winning_tiles(board, other, capture_any, rules.suicide).items():
                    threats.setdefault(i, (other, pattern))
        blocks = [a for a in targets if tile_of(a) in threats]
        if blocks:
            places = [a for a in blocks if isinstance(a, Place)]
            action = self._rng.choice(places or blocks)
            other, pattern = threats[tile_of(action)]
            return Decision(
                action,
                f"Blocks seat {other}'s {pattern} at {tile_text(tile_of(action))}: "
                f"{describe(state, action, board)}",
            )
        mine = [a for a in targets if isinstance(a, Place)]
        captures = [a for a in mine if board[tile_of(a)] not in (0, seat)]
        if captures:
            action = self._rng.choice(captures)
            return Decision(action, capitalised(describe(state, action, board)))
        if mine:
            action = self._rng.choice(mine)
            return Decision(action, f"No win, block or capture: {describe(state, action, board)}")
        browns = [a for a in targets if isinstance(a, Brown)]
        on_opponent = [a for a in browns if board[tile_of(a)] not in (0, seat)]
        on_empty = [a for a in browns if board[tile_of(a)] == 0]
        action = self._rng.choice(on_opponent or on_empty or browns)
        return Decision(action, f"Brown counter only: {describe(state, action, board)}")


def easy(seed: int) -> Player:
    return RandomPlayer(seed, HEURISTICS)


def hard(seed: int, weights: Weights | None = None) -> Player:
    return GreedyPlayer(seed, VapooshHeuristics(weights) if weights else HEURISTICS)


def expert(seed: int, budget: int = EXPERT_BUDGET) -> Player:
    return SearchPlayer(seed, HEURISTICS, budget=budget)


#: The levels the app shows, easiest first.
LEVELS: dict[str, Any] = {"easy": easy, "medium": MediumPlayer, "hard": hard, "expert": expert}
register_levels("vapoosh", LEVELS, rules="standard")
