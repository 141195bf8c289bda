"""What Vasco adds to the one game session (:mod:`playtest.session`): how a game ends,
what its board says (whose turn and what to do, a refusal, why forced tiles slid in, the
tile choice, the end) and the data its renderer draws.

>>> from playtest.games.registry import game_plugin
>>> from playtest.session import Play
>>> first = Moment(Play.new(game_plugin("vasco"), game_id="g", participant_id="p",
...                         seats=("human", "ai:medium"), seed=7, rules="standard"))
>>> [say.key for say in words(first)][-4:], view(first)["candidates"]
(['zoom_fit', 'turn_line', 'tiles_left', 'turn'], ('0,0',))
"""

from __future__ import annotations

from typing import Any

from engine.vasco import cell_name, parse_cell
from playtest.games.plugin import GameResult
from playtest.games.vasco.messages import (
    CATALOG,
    LEGEND,
    REFUSAL_KEYS,
    TURN_LINES,
    auto_message_key,
    end_say,
)
from playtest.games.vasco.view import SEAT_COLOURS, WORDS, board_view, tile_origins
from playtest.messages.speeds import speed
from playtest.session.play import Play, Step
from playtest.session.session import translated_catalog
from playtest.session.view import Moment
from playtest.session.words import Say

#: How the turn line and messages name a seat's lines, in a child's words.
SEAT_NAMES = {1: "Red", 2: "Blue"}


def result(state: Any, actions: int) -> GameResult:
    """The engine's outcome: the winning seat (None: a draw) and why."""
    outcome = state.outcome
    return GameResult(None if outcome is None else outcome.winner,
                      "over" if outcome is None else str(outcome.reason), actions)


#: Where ``play.memo`` keeps who put each tile there (every step since the start, not
#: only the last steps the play holds).
ORIGINS = "origins"


def on_step(play: Play, step: Step, settings: Any) -> None:
    """Note who put the tiles of ``step`` there (the tester, the computer, forced)."""
    play.memo[ORIGINS] = {**play.memo.get(ORIGINS, {}),
                          **tile_origins([(step.by_computer, step.events)])}


def _fresh_events(moment: Moment) -> list[Any]:
    return [e for step in moment.fresh for e in step.events]


def _computer_placed(moment: Moment) -> str | None:
    """The cell of the tile the computer placed in the last input's steps (None: none)."""
    return next((cell_name(e.tiles[0]) for step in moment.fresh if step.by_computer
                 for e in step.events if e.kind == "place" and e.tiles), None)


def _turn_line(play: Play) -> Say:
    """The board's top line: whose turn it is, by the colour of their lines, or that the
    game is over."""
    state = play.state
    if state.is_terminal():
        return Say(TURN_LINES["over"], slot="turn_line")
    seat = int(state.to_move)
    who = "human" if play.seats[seat - 1].is_human else "computer"
    return Say(TURN_LINES[who], {"colour": SEAT_COLOURS[seat]}, slot="turn_line")


def words(moment: Moment) -> tuple[Say, ...]:
    """What the board says: the legend of the lines and of the tiles' origins and the
    zoom button's words (they stay on the board: said once, with the game's first words
    in this session); the top line (whose turn, or the game over) and the tile counter;
    while the last input's move plays out, that the computer is playing and, when it
    placed a tile, that it did; a refused click's reason, else whose turn it is and what
    to do; why each kind of forced tile slid in (one message per kind, in the order they
    fell) and, when several fell, each one's number, said before its reason as it slides
    in; the tile choice of the glowing space; at the end, why the game ended."""
    play = moment.play
    state = play.state
    seats = tuple(play.seat_words)
    says: list[Say] = []
    if play.shown_count == 0:
        says += [Say(f"legend_{item}", slot=f"legend:{item}") for item in LEGEND]
        says.append(Say("zoom_fit", slot="fit"))
    says.append(_turn_line(play))
    says.append(Say("tiles_left", {"left": state.tiles_remaining, "pool": state.rules.pool},
                    slot="counter"))
    fresh = _fresh_events(moment)
    placed = _computer_placed(moment)
    if placed is not None or any(e.kind == "auto" for e in fresh):
        says.append(Say("computer_playing", slot="playing"))
    if placed is not None:
        says.append(Say("computer_placed", slot="computer", computer=True))
    if play.refusal is not None:
        key = REFUSAL_KEYS.get(play.refusal.reason, "wrong_bad_target")
        says.append(Say(key, {"cell": play.refused_fields.get("cell", ""),
                              "count": state.tiles_remaining}))
    elif not state.is_terminal():
        seat = int(state.to_move)
        human = play.seats[seat - 1].is_human
        name = "you" if human and seats.count("human") == 1 else SEAT_NAMES[seat]
        says.append(Say("turn", {"seat": seat, "name": name},
                        voice="you" if name == "you" else "seat") if human
                    else Say("turn_computer", {"name": "The computer"}))
    forced = [e for e in fresh if e.kind == "auto" and e.tiles]
    if len(forced) > 1:  # each forced tile's reason is led by its number, one by one
        says += [Say("forced_count", {"number": i, "total": len(forced)},
                     slot=f"forced_count:{i}") for i in range(1, len(forced) + 1)]
    seen: set[str] = set()
    for event in fresh:
        if event.kind != "auto" or not event.tiles:
            continue
        key = auto_message_key(int(event.data.get("constrained", 1)))
        if key in seen:
            continue
        seen.add(key)
        r, c = event.tiles[0]
        says.append(Say(key, {"cell": f"{r},{c}"}, slot=f"forced:{key}"))
    if play.selection and not state.is_terminal():
        cell = play.selection[-1]
        if cell in state.legal_targets():
            count = len(state.legal_states_at(parse_cell(cell)))
            says.append(Say("pick_tile", {"cell": cell, "count": count}, slot="pick"))
    outcome = state.outcome
    if outcome is not None:
        says.append(end_say(outcome.reason, outcome.lengths, winner=outcome.winner,
                            mover=3 - state.to_move, seats=seats))
    return tuple(says)


def view(moment: Moment) -> dict[str, Any]:
    """What the renderer draws (:func:`~playtest.games.vasco.view.board_view`): the last
    input's forced tiles animated in order, in the tester's wording."""
    from playtest.i18n.words import study_words  # it reads the registry of the games

    play = moment.play
    pick = moment.text("pick")
    computer_placed = _computer_placed(moment)
    level = moment.setting("speed", 2)
    pace = speed(level if level in (1, 2, 3) else 2).message_ms // 5
    data = board_view(play.state, seats=play.seat_words, selection=play.selection,
                      events=_fresh_events(moment),
                      refused=play.refused_fields.get("cell") if play.refusal else None,
                      variants=moment.wording,
                      origins=play.memo.get(ORIGINS, {}),
                      computer_placed=computer_placed, pace_ms=pace,
                      catalog=translated_catalog(CATALOG.load(), "vasco", moment.language),
                      words=study_words(moment.language, "vasco")).to_data()
    if pick is not None:
        data["pick_text"] = pick.text
    data["interactive"] = moment.interactive
    # the forced tiles of the tester's own move (when the computer answered at once)
    # slide in before the computer's tile is named
    events = _fresh_events(moment)
    if computer_placed is not None:
        at = next(i for i, e in enumerate(events) if e.kind == "place" and e.tiles
                  and cell_name(e.tiles[0]) == computer_placed)
        data["autos_before_computer"] = sum(e.kind == "auto" for e in events[:at])
    data.pop("message", None)
    data["words"] = WORDS  # the renderer's own words (the tester's language: board_data)
    return data


def seat_name(seat: int) -> str:
    """Red or Blue."""
    return SEAT_NAMES[seat]
