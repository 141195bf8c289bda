"""Dokusen's hooks for the simulated testers of ``playtest demo`` (:mod:`playtest.demo_play`):

- ``slip_targets``: the squares a person might click by mistake: every square of the
  stage's grid (void squares, squares already taken), which the engine refuses with its
  reason;
- ``computer_level``: a computer colour plays its stage's level (inactive colours never
  place), as in the play step;
- ``game_rules``: each game plays the stage the tester has reached in the study's course
  (the first not yet won), as the play step chooses it;
- ``demo_settings``: the demo study plays four games per tester, so its testers get past
  the first stages and the per-stage table has rows beyond S1; and it A/B tests a stage
  parameter (:data:`STAGE_EXPERIMENT`, a ``rules`` experiment whose variants are two
  courses): S1's orange only grows, or also places a tile every round.

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

#: The course every stage of which is the built-in one (the study's default rules).
STAGES = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")
#: Variant ``orange_plays``'s First Light: its orange places a tile every round (at
#: random, like S5's First Rival) instead of only growing.
ORANGE_PLAYS_S1 = [{"id": 1, "kind": "active", "ai": "random"}]

#: The demo study's stage-parameter A/B test: the whole course either way, S1's orange
#: changed in one arm. Planted truth (by the rules themselves: the testers play the same
#: way): an orange that plays makes S1 much harder, so testers lose it more and retry it,
#: and the share of games a tester wins falls (simulated: about 82 % against 59 %; with
#: 10 testers per arm the estimate points the right way about 93 times in 100). The
#: Experiments page's primary metric, games won, should show it.
STAGE_EXPERIMENT: dict[str, Any] = {
    "key": "s1_orange", "target": "rules", "primary_metric": "wins_vs_computer",
    "variants": {
        "orange_grows": {"stages": list(STAGES)},
        "orange_plays": {"stages": list(STAGES),
                         "changes": {"S1": {"players": ORANGE_PLAYS_S1}}},
    },
}


def demo_settings() -> dict[str, Any]:
    """What Dokusen's demo study sets beyond the game's defaults.

    >>> settings = demo_settings()
    >>> settings["games_per_tester"], [e["key"] for e in settings["experiments"]]
    (4, ['s1_orange'])
    """
    return {"games_per_tester": 4, "experiments": [dict(STAGE_EXPERIMENT)]}


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
