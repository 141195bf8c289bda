"""The Easy and Medium computer players (the seed's difficulty descriptions)."""

from __future__ import annotations

from typing import Any

from engine.players.base import Decision, Move, Player, after, capitalised, describe, tile_of
from engine.players.tactics import board_of, tile_text, winning_tiles
from engine.vapoosh import Brown, Place


class EasyPlayer(Player):
    """Uniform random legal move.

    >>> from engine.vapoosh import Roll, Rules, VapooshGame
    >>> s = VapooshGame(Rules.preset("standard"), players=2).new_initial_state()
    >>> _ = s.apply(Roll((1, 2, 3, 4)))
    >>> EasyPlayer(seed=1).choose(s).action in s.targets()
    True
    """

    level = "easy"

    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        action = self._rng.choice(targets)
        return Decision(action, f"Random pick: {describe(state, action)}")


class MediumPlayer(Player):
    """Win, else block an opponent's immediate win, else capture, else an empty tile.

    Brown counters (Vapooh) come last unless they block or no normal move is allowed;
    among equal choices the seed decides.
    """

    level = "medium"

    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        seat = state.to_move
        board = board_of(state)
        for action in targets:
            if isinstance(action, Place) and after(state, action).winner == seat:
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
