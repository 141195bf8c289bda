"""Vasco's hooks for the simulated testers of ``playtest demo`` (:mod:`playtest.demo_play`):

- ``slip_targets``: the cells a person might click by mistake. Besides the cells where a
  tile may go, the board shows the empty cells around the group; a tester unsure of the
  rules clicks those too (a cell no tile fits, one that would close a gap no tile can
  fill, one that does not touch the group), and the engine refuses them with its reason;
- ``demo_settings``: the demo study's A/B test of a message's wording
  (:data:`WORDING_EXPERIMENT`): why a tile slid into a narrow gap by itself, in plain
  words or in the seed's terms;
- ``messages_shown``: the messages the board shows about the last action as the tester's
  turn starts (why each forced tile appeared), in the tester's wording;
- ``message_effect``: the planted truth of that test (:data:`PLANTED_WORDING`).

>>> from engine.vasco import VascoGame
>>> state = VascoGame().new_initial_state()
>>> sorted(slip_targets(state, ()))[:3]
['-1,-1', '-1,1', '0,-1']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.vasco.geometry import cell_name, neighbours
from playtest.games.vasco.messages import forced_messages

#: The demo study's experiment: the wording of ``forced_gap`` (a tile slid by itself into
#: a narrow gap between path ends of different colours), the message the board shows
#: most often (most moves force tiles, most of them into such gaps).
WORDING_EXPERIMENT: dict[str, Any] = {
    "key": "forced_gap_wording", "target": "message:forced_gap",
    "variants": {"plain": "default", "formal": "formal"},
}

#: Planted truth: the formal wording ("Auto move at 3,2: a 60° gap between ends of
#: different colours.") leaves testers puzzled: a longer pause before their next click
#: (:data:`PLANTED_PAUSE_MS` more) and a rules lookup after it :data:`PLANTED_LOOKUPS` of
#: the time; the plain wording barely slows them.
PLANTED_WORDING = ("forced_gap", "formal")
PLANTED_PAUSE_MS = 2500.0
PLANTED_LOOKUPS = 0.25


def demo_settings() -> dict[str, Any]:
    """What Vasco's demo study sets beyond the game's defaults: the wording experiment.

    >>> [e["target"] for e in demo_settings()["experiments"]]
    ['message:forced_gap']
    """
    return {"experiments": [dict(WORDING_EXPERIMENT)]}


def messages_shown(events: Sequence[Any], variants: Mapping[str, str]) -> list[dict[str, str]]:
    """Why the last action's forced tiles appeared, one message per kind, in the tester's
    wording (:func:`playtest.games.vasco.messages.forced_messages`, as the board shows)."""
    return forced_messages(events, variants)


def message_effect(key: str, variant: str) -> tuple[float, float]:
    """The extra ms before the tester's next click after reading message ``key`` in
    ``variant``, and the chance of a rules lookup.

    >>> message_effect("forced_gap", "formal"), message_effect("forced_gap", "default")
    ((2500.0, 0.25), (300.0, 0.03))
    """
    if (key, variant) == PLANTED_WORDING:
        return PLANTED_PAUSE_MS, PLANTED_LOOKUPS
    return 300.0, 0.03


def slip_targets(state: Any, selection: Sequence[str]) -> list[str]:
    """Empty cells within two steps of the tiles (the start cell's ring on an empty board)."""
    placed = set(state.tiles) or {(0, 0)}
    ring = {n for cell in placed for n in neighbours(cell)}
    ring |= {n for cell in ring for n in neighbours(cell)}
    return sorted(cell_name(cell) for cell in ring - set(state.tiles))
