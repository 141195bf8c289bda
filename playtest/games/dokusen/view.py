"""What the Dokusen board shows, as plain data for its browser component (no Streamlit).

:func:`board_data` turns an engine state (and the events applied since the tester last
saw the board) into the JSON the component draws:

- the grid: ``cells`` row-major (``-2`` void, ``-1`` black, else the owner's id), each
  colour's name, symbol and pattern (a second cue besides the colour, for colour-blind
  players);
- ``steps``: the round replayed square by square (placements, then every square the
  growth flipped, each with the neighbour counts that decided it, then meteors with their
  impact area), starting from ``before`` (the board when the tester last saw it);
- ``neighbours``: per square, the coloured neighbours now (the "Why?" view);
- the owner counts, the squares needed to win (the 50 % line), the round;
- the message (from the catalog) and, at the end, ``over`` with the result and its
  buttons (retry while the tester may play on; next when won and a next stage exists).

>>> from engine.dokusen import DokusenGame, Place
>>> s = DokusenGame("S4").new_initial_state()
>>> events = s.apply(Place(0, 2))
>>> d = board_data(s, events=events)
>>> d["rows"], d["cols"], d["need"], d["counts"]["0"]
(7, 5, 18, 3)
>>> [st["kind"] for st in d["steps"]][:3], d["steps"][0]["at"]
(['place', 'grow', 'grow'], [0, 2])
>>> message_say(s, events).key, message_say(DokusenGame("S4").new_initial_state()).key
('grew_against_you', 'your_turn')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.core import CHANCE, TERMINAL, Event, Refusal
from engine.dokusen.board import neighbour_counts
from engine.dokusen.state import DokusenState, colour_name
from playtest.games.dokusen.catalog import refusal_key
from playtest.i18n import ENGLISH, Translator, translator
from playtest.session.words import Say

#: A second cue per colour (symbol and CSS pattern), so colour is never the only signal.
SYMBOLS: Final = {0: "●", 1: "▲", 2: "■", 3: "◆"}
PATTERNS: Final = {0: "dots", 1: "stripes", 2: "checks", 3: "diamonds"}
#: Okabe–Ito colours, distinguishable with the common colour-vision deficiencies.
HEX: Final = {0: "#0072B2", 1: "#E69F00", 2: "#009E73", 3: "#CC79A7"}

LABELS: Final = {
    "board": "Dokusen board",
    "why": "Why?",
    "why_hide": "Hide counts",
    "round": "Round",
    "of": "of",
    "win_with": "win with",
    "retry": "Retry",
    "next": "Next stage",
    "you": "You",
    "black": "Black",  # beside "You" and "Orange" in the counts
    "sound_on": "Sound on",
    "sound_off": "Sound off",
    "watching": "Watch the colours grow…",
    # a square as a screen reader says it: "row 2, column 3: yours" (or "orange's", "Black")
    "cell": "row {row}, column {col}: {what}",
    "yours": "yours",
    "owned": "{colour}'s",
}


def position_token(state: DokusenState, game_id: str = "") -> str:
    """Names the position a click was made on (clicks on an older one are dropped).

    >>> from engine.dokusen import DokusenGame
    >>> position_token(DokusenGame("S1").new_initial_state(), "g7")
    'g7:0'
    """
    return f"{game_id}:{len(state.history)}"


@dataclass(frozen=True)
class RoundSteps:
    """The round the board replays: the board ``before`` it (row-major owners) and its
    events as square-by-square ``steps`` (see the module docstring). Worked out once per
    input and given to both the message and the board data.

    >>> from engine.dokusen import DokusenGame, Place
    >>> s = DokusenGame("S4").new_initial_state()
    >>> r = round_steps(s, s.apply(Place(0, 2)))
    >>> len(r.before) == len(s.cells), r.steps[0]
    (True, {'kind': 'place', 'at': [0, 2], 'to': 0})
    """

    before: tuple[int, ...]
    steps: tuple[dict[str, Any], ...]


def round_steps(state: DokusenState, events: Sequence[Event] = ()) -> RoundSteps:
    """The board before ``events`` and the events as square-by-square steps."""
    grid = state.game.grid
    cells = list(state.cells)
    # undo the events, newest first, to find the board they started from
    for e in reversed(events):
        if e.kind == "place":
            took = e.data.get("took")
            cells[grid.index(*e.tiles[0])] = -1 if took is None else int(took)
        elif e.kind in ("grow", "meteor"):
            for t, b in zip(e.tiles, e.data.get("before", ()), strict=False):
                cells[grid.index(*t)] = int(b)
    before = cells[:]
    steps: list[dict[str, Any]] = []
    for e in events:
        if e.kind == "place":
            i = grid.index(*e.tiles[0])
            who = int(e.data.get("player", (e.seat or 1) - 1))
            steps.append({"kind": "place", "at": list(e.tiles[0]), "to": who})
            cells[i] = who
        elif e.kind == "grow":
            snapshot = cells[:]  # growth is judged on the board before it
            for t, a in zip(e.tiles, e.data.get("after", ()), strict=False):
                i = grid.index(*t)
                counts = neighbour_counts(grid, snapshot, i)
                steps.append(
                    {
                        "kind": "grow",
                        "at": list(t),
                        "from": snapshot[i],
                        "to": int(a),
                        "why": [[p, n] for p, n in sorted(counts.items())],
                    }
                )
                cells[i] = int(a)
        elif e.kind == "meteor":
            steps.append(
                {
                    "kind": "meteor",
                    "at": list(e.data.get("at", e.tiles[0] if e.tiles else (0, 0))),
                    "area": [list(t) for t in e.tiles],
                }
            )
            for t in e.tiles:
                cells[grid.index(*t)] = -1
    return RoundSteps(tuple(before), tuple(steps))


def squares(count: int) -> str:
    """A number of squares in words that agree with it.

    >>> squares(1), squares(3)
    ('1 square', '3 squares')
    """
    return f"{count} square" if count == 1 else f"{count} squares"


def _rival_names(steps: Sequence[dict[str, Any]]) -> str:
    """The computer colours that placed a square in ``steps``, in words ("Orange",
    "Orange and Green").

    >>> _rival_names([{"kind": "place", "to": 0}, {"kind": "place", "to": 1},
    ...               {"kind": "place", "to": 2}])
    'Orange and Green'
    """
    names = [colour_name(s["to"]).capitalize() for s in steps
             if s["kind"] == "place" and s["to"] > 0]
    return " and ".join(dict.fromkeys(names))


def message_say(state: DokusenState, events: Sequence[Event] = (),
                refusal: Refusal | None = None, *, played: RoundSteps | None = None) -> Say:
    """The board's message: a refusal, the stage's result, a meteor falling, a computer
    colour choosing, or what the last round did (your squares lost, a meteor, a computer
    colour's placement, the growth), else whose turn it is. ``played``: the round's
    steps (:func:`round_steps` of ``events``) when already worked out."""
    counts = state.counts()
    total = counts["total"]
    need = total // 2 + 1
    steps = (played or round_steps(state, events)).steps
    cur = state.current_player()
    lost = sum(1 for s in steps if s["kind"] == "grow" and s["from"] == 0 and s["to"] != 0)
    grew = sum(1 for s in steps if s["kind"] == "grow")
    hit = sum(len(s["area"]) for s in steps if s["kind"] == "meteor")
    if refusal is not None:
        return Say(refusal_key(refusal.reason))
    if cur == TERMINAL and state.outcome is not None:
        key = "stage_won" if state.outcome.won else "stage_lost"
        return Say(key, {"count": counts["0"], "total": total})
    if cur == CHANCE:
        return Say("meteor_falling")
    if cur != 0:
        return Say("computer_turn", {"colour": colour_name(cur).capitalize()})
    if lost:
        return Say("grew_against_you", {"count": lost})
    if hit:
        return Say("meteor_hit", {"count": hit, "squares": squares(hit)})
    rivals = _rival_names(steps)
    if rivals:
        return Say("rival_placed", {"colour": rivals, "count": grew, "squares": squares(grew)})
    if grew:
        return Say("grew", {"count": grew, "squares": squares(grew)})
    return Say("your_turn", {"need": need, "total": total})


def progress_text(games: tuple[int, int] | None, stages_won: int | None,
                  words: Translator | None = None) -> str:
    """The tester's way through the study: which game of the games it asks for, and the
    stages of its course won so far (either may be unknown: None), in the language of
    ``words`` (English without).

    >>> progress_text((2, 4), 1), progress_text((5, 4), 3), progress_text(None, 0)
    ('Game 2 of 4 · stages won: 1', 'Game 5 (an extra one) · stages won: 3', 'Stages won: 0')
    >>> progress_text((1, 1), None)
    'Game 1 of 1'
    """
    words = words or translator(ENGLISH)
    parts = []
    if games is not None:
        number, needed = games
        parts.append(words.gettext("Game {number} of {total}") if number <= needed
                     else words.gettext("Game {number} (an extra one)"))
        parts[-1] = parts[-1].format(number=number, total=needed)
    if stages_won is not None:
        parts.append(words.ngettext("stages won: {count}", "stages won: {count}",
                                    stages_won).format(count=stages_won))
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]


def stage_line(stage_of: tuple[int, int] | None, words: Translator | None = None) -> str:
    """This stage's place in the tester's course ("Stage 2 of 8"; nothing for a course
    of one stage), in the language of ``words`` (English without).

    >>> stage_line((2, 8)), stage_line((1, 1)), stage_line(None)
    ('Stage 2 of 8', '', '')
    """
    if stage_of is None or stage_of[1] <= 1:
        return ""
    text = (words or translator(ENGLISH)).gettext("Stage {number} of {total}")
    return text.format(number=stage_of[0], total=stage_of[1])


def board_data(state: DokusenState, *, events: Sequence[Event] = (), speed_ms: int = 220,
               stage_of: tuple[int, int] | None = None, played: RoundSteps | None = None,
               games: tuple[int, int] | None = None,
               stages_won: int | None = None, words: Translator | None = None
               ) -> dict[str, Any]:
    """The JSON for the renderer (see the module docstring; the board's words are the
    shell's, and what it words itself is in the language of ``words``). ``stage_of``:
    this stage's place in the tester's course (``(2, 8)``: "Stage 2 of 8"); ``played``:
    the round's steps (:func:`round_steps` of ``events``) when already worked out;
    ``games`` (this game's number, the games the study asks for) and ``stages_won``: the
    tester's progress through the study (:func:`progress_text`)."""
    words = words or translator(ENGLISH)
    game = state.game
    grid = game.grid
    n = game.num_players
    counts = state.counts()
    total = counts["total"]
    need = total // 2 + 1
    played = played or round_steps(state, events)
    before, steps = list(played.before), list(played.steps)
    cur = state.current_player()
    neighbours: list[list[list[int]]] = []
    for i in range(grid.size):
        if not grid.is_square[i]:
            neighbours.append([])
            continue
        found = neighbour_counts(grid, state.cells, i)
        neighbours.append([[p, k] for p, k in sorted(found.items())])
    colours = [
        {
            "id": p,
            "name": LABELS["you"] if p == 0 else colour_name(p).capitalize(),
            "colour": colour_name(p),
            # the colour in the tester's language, as a screen reader says a square's owner
            "word": words.gettext(colour_name(p)),
            "kind": state.kind_of(p),
            "symbol": SYMBOLS.get(p, str(p)),
            "pattern": PATTERNS.get(p, "plain"),
            "hex": HEX.get(p, "#999999"),
            "count": counts[str(p)],
        }
        for p in range(n)
    ]
    over = None if state.outcome is None else {"result": state.outcome.result}
    return {
        "rows": grid.rows,
        "cols": grid.cols,
        "cells": list(state.cells),
        "before": before,
        "steps": steps,
        "speed": max(0, int(speed_ms)),
        "neighbours": neighbours,
        "colours": colours,
        "counts": counts,
        "black": counts["black"],
        "total": total,
        "need": need,
        "round": state.round,
        "maxRounds": state.stage.max_rounds,
        "stage": state.stage.id or "custom",
        "stageName": words.gettext(state.stage.name),
        "stageOf": stage_line(stage_of, words),
        "progress": progress_text(games, stages_won, words),
        "phase": state.phase,
        "toMove": cur if cur >= 0 else None,
        "interactive": cur == 0,
        "targets": state.legal_targets(),
        "over": over,
        # the computer colours' placements of the round: ringed once the round is replayed
        "rivalPlaced": [s["at"] for s in steps if s["kind"] == "place" and s["to"] > 0],
        "token": position_token(state),
        "labels": dict(LABELS),
    }
