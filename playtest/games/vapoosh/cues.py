"""Which message and sound follow an action: engine events in, a catalog key out.

One action can cause several events (a placement that captures, surrounds and earns an
extra turn); the screen shows one message, the most important by :data:`PRIORITY`.
The values cover every placeholder the catalog's messages use, so any key renders.

>>> from engine.core import Event
>>> pick_cue([Event("place", 1, ((7, 7),)), Event("extra_turn", 1)], mover=1, players=2,
...          dice=(3, 4, 2, 5), human=True).key
'extra_turn'

Given the game's seats, a cue also says whose *voice* tells it (see the catalog): the one
human against the computer hears "you", the computer's moves are told as its own, and in
pass-and-play each seat is named by its colour.

>>> cue = pick_cue([Event("blocked_own", 2, (), {"next_seat": 1})], mover=2, players=2,
...                dice=(1, 2, 3, 4), human=False, seats=("human", "ai:easy"))
>>> cue.key, cue.voice, cue.values["name"], cue.values["next_name"]
('blocked_own', 'computer', 'the computer', 'you')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Event
from playtest.session.words import Say

# Most important first: the message the tester must not miss wins.
PRIORITY: tuple[str, ...] = (
    "vapoosh", "win", "draw", "surround_capture", "capture", "blocked_own", "reroll",
    "miss_turn", "quad", "extra_turn", "brown", "skip", "place",
)


#: A message key with the values it needs, whether a computer caused it, the words to show
#: when the catalog has no message for it and the voice that tells it (the session's Say).
Cue = Say


# Messages about the tester's own move that the computers' moves after it must not hide.
STICKY_KEYS = frozenset({"win_row", "win_square", "vapoosh", "extra_turn", "capture",
                         "surround", "blocked_own"})
# A computer's moves that take counters: the tester hears of them even after news of their own.
TAKING_KEYS = frozenset({"capture", "surround"})
# Messages that end the game: whoever caused them, they are what the board shows last.
RESULT_KEYS = frozenset({"win_row", "win_square", "vapoosh", "draw", "game_over"})


def cue_to_show(cues: list[Cue]) -> Cue | None:
    """The one message to show for the cues of one input and the computer moves after it.

    The game's result first (a computer's winning move after the tester's capture must
    not leave "Captured!" on a finished board), then a computer's move that took a
    counter (the last one: the board changed against the tester, and "Captured! 42 is
    yours now." beside a counter just taken back misleads), then the tester's own news,
    then the latest.

    >>> capture, win = Cue("capture"), Cue("win_row", computer=True)
    >>> cue_to_show([capture, Cue("computer_moved", computer=True)]).key
    'capture'
    >>> cue_to_show([capture, win]).key
    'win_row'
    >>> cue_to_show([capture, Cue("capture", computer=True)]).computer
    True
    >>> cue_to_show([Cue(None)]) is None
    True
    """
    shown = [c for c in cues if c.key]
    if not shown:
        return None
    result = [c for c in shown if c.key in RESULT_KEYS]
    taken = [c for c in shown if c.computer and c.key in TAKING_KEYS]
    own = [c for c in shown if not c.computer and c.key in STICKY_KEYS]
    return result[-1] if result else taken[-1] if taken else own[0] if own else shown[-1]


# Seat colours as a child names them (the board's Okabe-Ito counters, seat 1 first).
COLOUR_NAMES: tuple[str, ...] = ("Blue", "Orange", "Green", "Pink")


def seat_names(seats: Sequence[str]) -> dict[int, str]:
    """Each seat's name as the tester knows it, by the seats' kinds ("human", "ai:...").

    >>> seat_names(["human", "ai:easy"])
    {1: 'you', 2: 'the computer'}
    >>> seat_names(["human", "human", "ai:hard"])
    {1: 'Blue', 2: 'Orange', 3: 'the computer'}
    >>> seat_names(["human", "ai:easy", "ai:hard"])[3]
    'the green computer'
    """
    humans = sum(1 for kind in seats if kind == "human")
    computers = len(seats) - humans
    names: dict[int, str] = {}
    for seat, kind in enumerate(seats, start=1):
        colour = COLOUR_NAMES[seat - 1]
        if kind == "human":
            names[seat] = "you" if humans == 1 else colour
        else:
            names[seat] = "the computer" if computers == 1 else f"the {colour.lower()} computer"
    return names


def voice_for(seat: int, seats: Sequence[str]) -> str:
    """The catalog voice for a message about ``seat``'s move (see the module docstring)."""
    if not 1 <= seat <= len(seats):
        return "seat"
    if seats[seat - 1] != "human":
        return "computer"
    return "you" if sum(1 for kind in seats if kind == "human") == 1 else "seat"


def possessive(name: str) -> str:
    """A seat's name as an owner.

    >>> possessive("you"), possessive("the computer")
    ('your', "the computer's")
    """
    return "your" if name == "you" else f"{name}'s"


def name_values(values: dict[str, Any], seats: Sequence[str] | None) -> dict[str, Any]:
    """Fill ``name``, ``next_name`` and ``victim_of`` from the seat numbers in ``values``."""
    if not seats:
        names: dict[int, str] = {}
    else:
        names = seat_names(seats)

    def name(seat: Any) -> str:
        return names.get(int(seat or 0), f"player {seat}")

    values["name"] = name(values.get("seat"))
    values["next_name"] = name(values.get("next_seat"))
    values["victim_of"] = possessive(name(values.get("victim")))
    return values


def base_values(mover: int, players: int, dice: tuple[int, int, int, int] | None,
                seats: Sequence[str] | None = None) -> dict[str, Any]:
    p = dice[0] + dice[1] if dice else 0
    g = dice[2] + dice[3] if dice else 0
    return name_values({
        "seat": mover, "next_seat": mover % players + 1, "p": p, "g": g, "c": 0, "r": 0,
        "number": 0, "clicked": 0, "expected": p * g, "left": 0, "victim": 0, "count": 0,
        "turns": 0, "other_c": 0, "other_r": 0,
    }, seats)


def pick_cue(
    events: Sequence[Event], *, mover: int, players: int,
    dice: tuple[int, int, int, int] | None, human: bool, win_reason: str | None = None,
    turns: int = 0, vapooh_compulsory: bool = False, highlight: bool = False,
    rerolls_allowed: int = 3, seats: Sequence[str] | None = None,
) -> Cue:
    """The cue after an action by seat ``mover`` that caused ``events``.

    ``seats`` (the seats' kinds, "human" / "ai:<level>") names the seats and picks the
    cue's voice; without it, seats are "player N" and the voice is the plain one.
    """
    cue = _pick(events, mover=mover, players=players, dice=dice, human=human,
                win_reason=win_reason, turns=turns, vapooh_compulsory=vapooh_compulsory,
                highlight=highlight, rerolls_allowed=rerolls_allowed)
    if not seats:
        return cue
    values = name_values(dict(cue.values), seats)
    return Cue(cue.key, values, cue.computer, cue.fallback_text,
               voice_for(int(values.get("seat") or mover), seats))


def _pick(
    events: Sequence[Event], *, mover: int, players: int,
    dice: tuple[int, int, int, int] | None, human: bool, win_reason: str | None,
    turns: int, vapooh_compulsory: bool, highlight: bool, rerolls_allowed: int,
) -> Cue:
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
    if not human:  # the computer's roll, on screen for a moment before it places
        return Cue("computer_rolled", values, True)
    return Cue("place_prompt_hint" if highlight else "place_prompt", values, not human)
