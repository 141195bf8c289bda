"""Which message and sound follow an action: engine events in, a catalog key out.

One action can cause several events (a placement that captures, surrounds and earns an
extra turn); the screen shows one message, the most important by :data:`PRIORITY`.
The values cover every placeholder the catalog's messages use, so any key renders.

>>> from engine.core import Event
>>> pick_cue([Event("place", 1, ((7, 7),)), Event("extra_turn", 1)], mover=1, players=2,
...          dice=(3, 4, 2, 5), human=True).key
'extra_turn'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event

# Most important first: the message the tester must not miss wins.
PRIORITY: tuple[str, ...] = (
    "vapoosh", "win", "draw", "surround_capture", "capture", "blocked_own", "reroll",
    "miss_turn", "quad", "extra_turn", "brown", "skip", "place",
)


@dataclass(frozen=True)
class Cue:
    """A message key with the values it needs, and whether a computer caused it."""

    key: str | None
    values: dict[str, Any] = field(default_factory=dict)
    computer: bool = False
    # Plain words to show when the catalog has no message for ``key``.
    fallback_text: str = ""


def base_values(mover: int, players: int, dice: tuple[int, int, int, int] | None) -> dict[str, Any]:
    p = dice[0] + dice[1] if dice else 0
    g = dice[2] + dice[3] if dice else 0
    return {
        "seat": mover, "next_seat": mover % players + 1, "p": p, "g": g, "c": 0, "r": 0,
        "number": 0, "clicked": 0, "expected": p * g, "left": 0, "victim": 0, "count": 0,
        "turns": 0, "other_c": 0, "other_r": 0,
    }


def pick_cue(
    events: Sequence[Event], *, mover: int, players: int,
    dice: tuple[int, int, int, int] | None, human: bool, win_reason: str | None = None,
    turns: int = 0, vapooh_compulsory: bool = False, highlight: bool = False,
    rerolls_allowed: int = 3,
) -> Cue:
    """The cue after an action by seat ``mover`` that caused ``events``."""
    values = base_values(mover, players, dice)
    values["turns"] = turns
    by_kind = {e.kind: e for e in events}
    placed = next((e for e in events if e.kind in ("place", "brown")), None)
    if placed is not None and placed.tiles:
        c, r = placed.tiles[0]
        values.update(c=c, r=r, number=c * r)
    kind = next((k for k in PRIORITY if k in by_kind), None)
    computer = not human
    if kind is None:
        return _after_roll(events, values, human, vapooh_compulsory, highlight)
    event = by_kind[kind]
    if event.seat:
        values["seat"] = event.seat
    data = dict(event.data)
    if "next_seat" in data:
        values["next_seat"] = data["next_seat"]
    if kind == "vapoosh":
        return Cue("vapoosh", values, computer)
    if kind == "win":
        reason = data.get("reason", win_reason)
        return Cue("win_square" if reason == "square" else "win_row", values, computer)
    if kind == "draw":
        return Cue("draw", values, computer)
    if kind == "surround_capture":
        values["count"] = sum(len(e.tiles) for e in events if e.kind == "surround_capture")
        return Cue("surround", values, computer)
    if kind == "capture":
        values["victim"] = data.get("from_seat", 0)
        return Cue("capture", values, computer)
    if kind == "blocked_own":
        return Cue("blocked_own", values, computer)
    if kind == "reroll":
        values["left"] = max(rerolls_allowed - int(data.get("reroll", 0)), 0)
        return Cue("reroll", values, computer)
    if kind == "miss_turn":
        return Cue("blocked", values, computer)
    if kind == "quad" and "place" not in by_kind:
        return Cue("quad", values, computer)
    if kind == "extra_turn":
        return Cue("extra_turn", values, computer)
    if kind == "brown":
        return Cue("brown", values, computer)
    if kind in ("place", "quad"):
        if computer:
            return Cue("computer_moved", values, True)
        return Cue("placed", values, False)
    if kind == "skip":
        return Cue("skip", values, computer)
    return _after_roll(events, values, human, vapooh_compulsory, highlight)


def _after_roll(events: Sequence[Event], values: dict[str, Any], human: bool,
                vapooh_compulsory: bool, highlight: bool) -> Cue:
    roll = next((e for e in events if e.kind == "roll"), None)
    if roll is None:
        return Cue(None, values, not human)
    dice = roll.data.get("dice") if roll.data else None
    sixes = sum(1 for d in (dice or ()) if d == 6)
    if sixes == 3:
        return Cue("vapooh_compulsory" if vapooh_compulsory else "vapooh", values, not human)
    if values["p"] == values["g"] and values["p"]:
        return Cue("square_roll", values, not human)
    return Cue("place_prompt_hint" if highlight else "place_prompt", values, not human)
