"""What Vapoosh! adds to the one game session (:mod:`playtest.session`): who rolls, how a
game ends, its click and roll telemetry, what the board keeps of each action (the last
dice, the glowing tiles) and the one message it shows after an input.

The dice are chance actions like any other: the session draws them from the game's seed
when the tester presses Roll or the computer rolls (:func:`~playtest.games.vapoosh.plugin.draw_chance`).

>>> from playtest.games.vapoosh.plugin import PLUGIN
>>> play = Play.new(PLUGIN, game_id="g", participant_id="p", seats=("human", "ai:easy"),
...                 seed=7, rules="standard")
>>> roller(play.state), play.over
(0, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import ClickResult
from engine.vapoosh.clicks import BROWN_SELECTED
from playtest.games.plugin import GameResult, event_props
from playtest.games.vapoosh.catalog import wrong_click_key
from playtest.games.vapoosh.cues import (
    COLOUR_NAMES,
    Cue,
    base_values,
    cue_to_show,
    pick_cue,
    seat_names,
    voice_for,
)
from playtest.games.vapoosh.view import board_view, glow_from_events, winning_tiles
from playtest.session.play import Play, Step
from playtest.session.view import Moment
from playtest.session.words import Say

#: The play's memory (:attr:`Play.memo`) of the last roll ``(seat, dice)``, each seat's
#: last dice and the glowing tiles of the last placement.
LAST_ROLL, LAST_DICE, GLOW = "last_roll", "last_dice", "glow"
#: With the computer's dice hidden (a UI variant), its messages must not name them either.
DICE_HIDDEN_KEYS: Mapping[str, str] = {"computer_moved": "computer_placed",
                                       "computer_rolled": "turn_computer"}


def roller(state: Any) -> int | None:
    """Whose Roll button makes the draw due (the seat to move, 0-based), None for the deal
    of preplaced counters (nobody's)."""
    return int(state.to_move) - 1 if state.phase == "roll" else None


def result(state: Any, actions: int) -> GameResult:
    """A finished game's winner, the engine's reason and the game's turns."""
    outcome = state.outcome
    return GameResult(state.winner, "unknown" if outcome is None else outcome.reason,
                      state.turns)


def click_props(seat: int, target: str, click: ClickResult, ms: int | None,
                via: str) -> dict[str, Any]:
    """A ``click`` event's props (telemetry-format.md: ``c``, ``r``, ``ok``, ``expected``,
    ``clicked``, ``ms``; ``wrong_kind`` and ``rule_reason`` when not ok)."""
    fields = dict(click.fields)
    props: dict[str, Any] = {"seat": seat, "c": fields.get("c"), "r": fields.get("r"),
                             "ok": click.ok, "expected": fields.get("expected"),
                             "clicked": fields.get("clicked"), "ms": ms,
                             "brown": bool(fields.get("brown"))}
    if not click.ok:
        props["wrong_kind"] = fields.get("wrong_kind")
        if fields.get("wrong_kind") == "rule":
            props["rule_reason"] = fields.get("rule_reason")
    return props


def refused_reasons(state: Any) -> list[str]:
    """Why the rules refuse some rolled option now (``rule_reason`` codes, sorted).

    Logged with each roll: a turn is an occasion for the wrong click ``rule:<reason>``
    only when one of its options is refused for that reason (e.g. ``empty_priority``:
    one option empty, the other an opponent's).
    """
    if state.phase != "place":
        return []
    reasons = {state.rule_reason(c, r) for c, r in state.options}
    return sorted(reason for reason in reasons if reason)


def action_events(state: Any, step: Step) -> list[tuple[str, dict[str, Any]]]:
    """A roll's ``roll`` event (its dice, the options and the refused reasons) first, then
    the engine's other events."""
    out: list[tuple[str, dict[str, Any]]] = []
    if step.action[0] == "roll":
        out.append(("roll", {"seat": step.seat, "dice": list(step.action[1]),
                             "options": [list(o) for o in state.options] if state.options
                             else [], "refused": refused_reasons(state)}))
    out += [(e.kind, event_props(e)) for e in step.events if e.kind != "roll"]
    return out


def _seat_words(play: Play) -> list[str]:
    return [str(s) for s in play.seats]


def on_step(play: Play, step: Step, settings: Mapping[str, Any]) -> Say | None:
    """Keep the last roll, each seat's dice and the glowing tiles (in ``play.memo``), and
    say what the action did (:func:`~playtest.games.vapoosh.cues.pick_cue`)."""
    state = play.state
    seat = step.seat or int(state.to_move)
    memo = play.memo
    if step.action[0] == "roll":
        dice = tuple(int(d) for d in step.action[1])
        memo[LAST_ROLL] = (seat, dice)
        memo[LAST_DICE] = {**memo.get(LAST_DICE, {}), seat: dice}
    seats = _seat_words(play)
    human = play.seats[seat - 1].is_human if 0 < seat <= len(seats) else False
    if any(e.kind in ("place", "brown") for e in step.events):
        memo[GLOW] = glow_from_events(step.events, computer=not human)
    if step.mover < 0:
        return None  # the deal: nobody's
    rules = play.game.rules
    outcome = state.outcome
    return pick_cue(
        step.events, mover=seat, players=len(seats),
        dice=state.dice or memo.get(LAST_DICE, {}).get(seat), human=human,
        win_reason=outcome.reason if outcome else None, turns=state.turns,
        vapooh_compulsory=rules.vapooh == "brown_and_miss_next",
        highlight=bool(settings.get("highlight_options")),
        rerolls_allowed=rules.own_suicide_rerolls, seats=seats)


def legal_tiles(state: Any) -> list[tuple[int, int]]:
    """The tiles a counter may go on now."""
    if state.phase != "place":
        return []
    return sorted({(t.c, t.r) for t in state.targets()})


def refusal_cue(play: Play) -> Cue | None:
    """The message of the tester's last refused click (None without one)."""
    refusal, fields = play.refusal, play.refused_fields
    if refusal is None or "wrong_kind" not in fields:
        return None
    kind, reason = fields["wrong_kind"], fields.get("rule_reason")
    seat = int(play.state.to_move)
    seats = _seat_words(play)
    values = base_values(seat, len(seats), play.state.dice, seats)
    c, r = int(fields["c"]), int(fields["r"])
    legal = legal_tiles(play.state)
    other = legal[0] if legal else (0, 0)
    values.update(c=c, r=r, number=c * r, clicked=fields["clicked"],
                  expected=fields["expected"], other_c=other[0], other_r=other[1])
    return Cue(wrong_click_key(kind, reason), values, False, fallback_text=refusal.message,
               voice=voice_for(seat, seats))


def words(moment: Moment) -> tuple[Say, ...]:
    """The one message after an input: its refusal, else the most important of what it
    and the computers' moves after it did (:func:`cue_to_show`); a passing message
    while the game goes on, the result stays."""
    play = moment.play
    cues = [c for c in (refusal_cue(play), *(s.say for s in moment.fresh)) if c is not None]
    chosen = cue_to_show(cues)
    if chosen is None or chosen.key is None:
        return ()
    key = chosen.key
    if not moment.setting("show_computer_dice", True):
        key = DICE_HIDDEN_KEYS.get(key, key)
    return (Cue(key, chosen.values, chosen.computer, chosen.fallback_text, chosen.voice,
                transient=not play.over),)


def brown_selection(brown: bool) -> tuple[str, ...]:
    """The selection a click on the Brown button beside a tile holds."""
    return (BROWN_SELECTED,) if brown else ()


def dice_shown(play: Play, show_computer_dice: bool) -> tuple[Sequence[int] | None, int | None]:
    """The dice of the last roll made in the game and who made it (the computer's only
    when the study shows them): a computer's roll is shown for the move it is making."""
    last = play.memo.get(LAST_ROLL)
    if last is None:
        return None, None
    seat, dice = last
    if play.seats[seat - 1].is_computer and not show_computer_dice:
        return None, None
    return dice, seat


def brown_choice(state: Any) -> str:
    """'none', 'optional' or 'forced': how brown counters figure in this placement."""
    if state.phase != "place":
        return "none"
    targets = state.targets()
    browns = [t for t in targets if t.to_json()[0] == "brown"]
    if not browns:
        return "none"
    return "forced" if len(browns) == len(targets) else "optional"


def seat_name(seat: int) -> str:
    """A seat's colour, as the counters show it (pass-and-play)."""
    return COLOUR_NAMES[seat - 1]


def _rows(play: Play) -> list[str]:
    """``state.board_rows()``, worked out once per position (every rerun draws the board)."""
    kept = play.memo.get("rows")
    if kept is None or kept[0] != len(play.actions) or kept[1] is not play.state:
        kept = (len(play.actions), play.state, play.state.board_rows())
        play.memo["rows"] = kept
    return list(kept[2])


def _turn_text(play: Play, names: Mapping[int, str]) -> str | None:
    """The board's top line once the game is over: who won (None while it goes on)."""
    if not play.over:
        return None
    winner = play.state.winner
    if not winner:
        return "It's a draw"
    name = names.get(int(winner), f"player {winner}")
    return "You won!" if name == "you" else f"{name[0].upper()}{name[1:]} won!"


def _glow(play: Play, rows: list[str]) -> dict[tuple[int, int], str]:
    glow = dict(play.memo.get(GLOW, {}))
    winner = play.state.winner if play.over else None
    if winner:
        last = next(iter(glow), None)
        for tile in winning_tiles(rows, int(winner), last):
            glow[tile] = "win"
    return glow


#: The words the renderer shows of its own (render.js): its buttons, the dice line, and
#: what a screen reader says of a die, a row's and a column's header and a Brown button.
WORDS = {"roll": "Roll the dice", "back": "\u2715 Back", "back_aria": "Back to the whole board",
         "brown": "Brown", "dice": "Dice:", "rolled": "{who} rolled:",
         "sums": "pink {pink}, green {green}", "die": "{colour} die {value}",
         "pink": "pink", "green": "green", "column": "column {n}", "row": "row {n}",
         "brown_aria": "Put a brown counter on column {col}, row {row}",
         "tile": "column {c}, row {r}, {n}, empty", "pink_dice": "pink dice",
         "green_dice": "green dice", "grid": "Multiplication board, 12 columns by 12 rows",
         "zoom": "Magnified part of the board: tap your tile"}

#: A part of a tile's words that holds a number: "column 3", "player 2"...
_NUMBERED = re.compile(r"(column|row|player|computer \(player) (\d+)(\)?)")


def tile_words(label: str, gettext: Callable[[str], str]) -> str:
    """A tile's words for a screen reader (the view's ``labels``: "column 3, row 4, 12,
    yours, blue circle, just placed") in the language of ``gettext``, part by part.

    >>> german = {"column {n}": "Spalte {n}", "row {n}": "Zeile {n}", "yours": "deiner"}
    >>> tile_words("column 3, row 4, 12, yours, blue circle", lambda t: german.get(t, t))
    'Spalte 3, Zeile 4, 12, deiner, blue circle'
    """
    def part(text: str) -> str:
        found = _NUMBERED.fullmatch(text)
        if found is None:
            return text if text.isdigit() else gettext(text)
        return gettext(f"{found[1]} {{n}}{found[3]}").replace("{n}", found[2])

    return ", ".join(part(text) for text in label.split(", "))


def view(moment: Moment) -> dict[str, Any]:
    """What the renderer draws: the board, the dice of the last roll (the computer's only
    when the study shows them), the tester's options (ringed only with highlighting on),
    the glowing tiles, whose turn it is, and the Brown buttons of a Vapooh roll."""
    play = moment.play
    state = play.state
    seats = [str(s) for s in play.seats]
    names = seat_names(seats)
    tester_places = not play.over and state.phase == "place" and \
        play.seats[int(state.to_move) - 1].is_human
    dice, dice_seat = dice_shown(play, bool(moment.setting("show_computer_dice", True)))
    brown = brown_choice(state) if tester_places else "none"
    rows = _rows(play)
    data = board_view(
        rows, dice=dice, dice_seat=dice_seat,
        # the tester's options only: the computer's would breathe as if waiting for a click
        options=state.options if tester_places else (),
        highlight=bool(moment.setting("highlight_options", False)), glow=_glow(play, rows),
        seats=play.seat_words, to_move=None if play.over else int(state.to_move),
        phase=state.phase if state.phase in ("roll", "place", "over") else "roll",
        turn=state.turns, turn_text=_turn_text(play, names), interactive=moment.interactive,
        names=[names[s] for s in range(1, len(seats) + 1)],
        zoom=bool(moment.extra.get("zoom", False)),
        brown_tiles=legal_tiles(state) if brown == "optional" else (),
    ).to_data()
    data["note"] = "Vapooh! Your counter this time is a brown one." if brown == "forced" else ""
    data["words"] = WORDS  # the renderer's own words (the tester's language: board_data)
    if moment.language != "en":  # the tiles' words, made by the view in English
        from playtest.i18n.words import study_words  # it reads the registry of the games

        gettext = study_words(moment.language, "vapoosh").gettext
        data["labels"] = {i: tile_words(label, gettext) for i, label in data["labels"].items()}
    for shell_owned in ("message", "tone", "message_ms", "sound", "nonce", "muted"):
        del data[shell_owned]  # the board shell's: its message line, sound and token
    return data
