"""Tic-tac-toe on the engine core (:mod:`engine.core`): the fifth game's rules, pure.

Squares are named ``a1``…``c3`` (column a–c, row 1 at the bottom); an action is the
square's index ``3·row + column`` and its JSON form ``["place", "b2"]``. X (seat 1)
plays first; three in a row along a line wins, a full board is a draw. A click on a
taken square is refused (``taken``), as is any click once the game is over
(``game_over``).

>>> game = TicTacToeGame()
>>> state = game.new_initial_state()
>>> for square in ("a1", "b1", "a2", "b2"):
...     _ = state.apply_action(game.encode(square))
>>> state.click("a1").refusal.reason
'taken'
>>> [e.kind for e in state.apply_action(game.encode("a3"))]
['place', 'win']
>>> state.returns(), state.is_terminal()
([1.0, -1.0], True)
>>> game.state_from_json(state.to_json()).to_text() == state.to_text()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine import core
from engine.core import TERMINAL, ClickResult, Event, IllegalActionError, RulesError
from engine.players import PlainHeuristics, register_levels, standard_levels

NAME: Final = "tictactoe"
PRESETS: Final = ("standard",)
SQUARES: Final = tuple(f"{c}{r}" for r in (1, 2, 3) for c in "abc")
LINES: Final = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                (0, 4, 8), (2, 4, 6))
MARKS: Final = ("X", "O")
#: Why the rules refuse a click.
REFUSALS: Final = ("taken", "game_over", "no_square")
#: Positions one Hard decision may create (the whole game tree is about 550,000).
HARD_BUDGET: Final = 3000


def tile(square: int) -> tuple[int, int]:
    """A square's (column, row), 0-based, row 0 at the bottom.

    >>> tile(SQUARES.index("c2"))
    (2, 1)
    """
    return square % 3, square // 3


class TicTacToeState(core.StateLog["TicTacToeGame"]):
    """A position: the nine squares (``None`` or a seat); the game and the log are
    :class:`engine.core.StateLog`'s."""

    def __init__(self, game: TicTacToeGame) -> None:
        self._begin_log(game)
        self._cells: list[int | None] = [None] * 9

    @property
    def cells(self) -> tuple[int | None, ...]:
        return tuple(self._cells)

    @property
    def phase(self) -> str:
        return "over" if self.is_terminal() else "place"

    def line(self) -> tuple[int, ...] | None:
        """The squares of a completed line (None: none)."""
        cells = self._cells
        return next((line for line in LINES if cells[line[0]] is not None
                     and cells[line[0]] == cells[line[1]] == cells[line[2]]), None)

    def winner(self) -> int | None:
        """The 0-based seat with a line (None: nobody yet, or a draw)."""
        line = self.line()
        return None if line is None else self._cells[line[0]]

    def is_terminal(self) -> bool:
        return self.line() is not None or None not in self._cells

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return sum(c is not None for c in self._cells) % 2

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i, c in enumerate(self._cells) if c is None]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply_action(self, action: int) -> list[Event]:
        if self.is_terminal():
            raise IllegalActionError("game_over", "The game is over.")
        if not 0 <= action < 9:
            raise IllegalActionError("no_square", f"No square {action}.")
        if self._cells[action] is not None:
            raise IllegalActionError("taken", f"{SQUARES[action]} is taken.")
        seat = self.current_player()
        self._cells[action] = seat
        events = [Event("place", seat + 1, (tile(action),), {"square": SQUARES[action]})]
        line = self.line()
        if line is not None:
            events.append(Event("win", seat + 1, tuple(tile(i) for i in line),
                                {"reason": "line"}))
        elif self.is_terminal():
            events.append(Event("draw", None, (), {"reason": "full"}))
        return self._logged(action, events)

    def clone(self) -> TicTacToeState:
        copy = self._clone_log()
        copy._cells = list(self._cells)
        return copy

    def returns(self) -> list[float]:
        winner = self.winner()
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def to_json(self) -> dict[str, Any]:
        board = "".join("." if c is None else MARKS[c] for c in self._cells)
        return self._snapshot({"board": board})

    def legal_targets(self, selection: Sequence[str] = ()) -> list[str]:
        return [SQUARES[a] for a in self.legal_actions()]

    def click(self, target: str, selection: Sequence[str] = ()) -> ClickResult:
        fields = {"square": target}
        if self.is_terminal():
            return ClickResult.refused("game_over", "The game is over.", fields)
        if target not in SQUARES:
            return ClickResult.refused("no_square", "Click a square.", fields)
        square = SQUARES.index(target)
        if self._cells[square] is not None:
            return ClickResult.refused("taken", "That square is taken.", fields)
        return ClickResult(square, None, (), fields)

    def to_text(self) -> str:
        """Rows from the top, ``.`` for an empty square.

        >>> state = TicTacToeGame().new_initial_state()
        >>> _ = state.apply_action(SQUARES.index("a3"))
        >>> print(state.to_text())
        X..
        ...
        ...
        """
        marks = ["." if c is None else MARKS[c] for c in self._cells]
        return "\n".join("".join(marks[3 * r: 3 * r + 3]) for r in (2, 1, 0))


class TicTacToeGame(core.GameBase[TicTacToeState, str, str]):
    """The game: one rule set (``"standard"``), two seats. An action's value object is
    its square's name; seats, equality, ``start_state`` and the JSON forms of actions are
    :class:`engine.core.GameBase`'s.

    >>> game = TicTacToeGame()
    >>> game.rules_obj(), game.num_players, game.action_to_json(game.encode("b2"))
    ('standard', 2, ['place', 'b2'])
    >>> game.action_from_json(["place", "c3"])
    8
    """

    name = NAME
    _rules = "standard"
    _players = 2
    state_type = TicTacToeState

    def __init__(self, rules: Any = "standard", players: int = 2) -> None:
        if rules != "standard":
            raise RulesError(f"rules: unknown preset {str(rules)[:40]!r} (known: standard)")
        if players != 2:
            raise RulesError(f"players: tic-tac-toe has 2 seats, not {players!r}")

    @staticmethod
    def parse_action(obj: Any) -> str:
        if not isinstance(obj, Sequence) or len(obj) != 2 or obj[0] != "place":
            raise RulesError(f"action: expected ['place', square], got {obj!r}")
        return str(obj[1])

    def encode(self, square: str, /) -> int:
        if square not in SQUARES:
            raise RulesError(f"action: no square {str(square)[:10]!r}")
        return SQUARES.index(square)

    def decode(self, action: int, /) -> str:
        return SQUARES[action]

    def rules_obj(self) -> str:
        return self._rules  # the rules are a plain name, not a value object

    def action_to_json(self, action: int) -> list[Any]:
        return ["place", self.decode(action)]

    def state_from_json(self, obj: Mapping[str, Any]) -> TicTacToeState:
        state = TicTacToeState(self)
        with core.SnapshotReader() as at:
            at.field = "board"
            cells = [None if c == "." else MARKS.index(c) for c in str(obj["board"])]
            if len(cells) != 9:
                raise RulesError("board: 9 squares")
            state._cells = cells
            state._history, state._last_events, state._start = state._read_log(obj, at)
        return state


#: The computer levels, easiest first: a random square, the best square one move ahead,
#: and a search (the generic players on the returns alone).
LEVELS: Final = standard_levels(PlainHeuristics(), HARD_BUDGET)

# Known to the engine by name in any process, as engine/<game>/ is (engine.configured):
# replays, a balance simulation's worker processes, the engine's command line.
core.register_game(NAME, TicTacToeGame)
register_levels(NAME, LEVELS, "standard")
