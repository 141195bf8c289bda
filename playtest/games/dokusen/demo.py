"""Dokusen's hooks for the simulated testers of ``playtest demo`` (:mod:`playtest.demo_play`):

- ``slip_targets``: the squares a person might click by mistake: every square of the
  stage's grid (void squares, squares already taken), which the engine refuses with its
  reason;
- ``computer_level``: a computer colour plays its stage's level (inactive colours never
  place), as in the play step;
- ``game_rules``: each game plays the stage the tester has reached in the study's course
  (the first not yet won), as the play step chooses it;
- ``demo_settings``: the demo study plays four games per tester, so its testers get past
  the first stages and the per-stage table has rows beyond S1.

>>> from engine.dokusen.state import DokusenGame
>>> targets = slip_targets(DokusenGame("S3").new_initial_state(), ())
>>> len(targets), targets[0]
(49, '0,0')
>>> computer_level(DokusenGame("S8").new_initial_state(), 2)
'random'
>>> game_rules("all", [("S1", 1, "full"), ("S2", None, "full")])
'S2'
>>> game_rules({"stages": ["S1", "S7"], "changes": {"S7": {"maxRounds": 9}}}, [("S1", 1, "full")])["maxRounds"]
9
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dokusen.course import Course
from engine.dokusen.progress import Progress


def demo_settings() -> dict[str, Any]:
    """What Dokusen's demo study sets beyond the game's defaults.

    >>> demo_settings()
    {'games_per_tester': 4}
    """
    return {"games_per_tester": 4}


def slip_targets(state: Any, selection: Sequence[str]) -> list[str]:
    """Every square of the grid, ``"r,c"``."""
    rows = state.board_rows()
    return [f"{r},{c}" for r in range(len(rows)) for c in range(len(rows[r]))]


def computer_level(state: Any, mover: int) -> str:
    """The stage's level of computer colour ``mover`` (greedy when it names none)."""
    entry = state.stage.player(mover)
    return entry.ai if entry is not None and entry.ai is not None else "greedy"


def game_rules(rules: Any, played: Sequence[tuple[Any, int | None, str]]) -> Any:
    """The stage of the tester's next game: the first of the course not yet won."""
    course = Course.from_rules(rules)
    results = [(r, ("win" if winner == 1 else "loss") + f":{reason}")
               for r, winner, reason in played if reason != "unfinished"]
    stage = Progress.from_records(results).current(course.order)
    return course.record_rules(stage)
