"""The wrong-click classifier (vapoosh-rules.md, "The mental-maths step").

The player must find the tile for ``P x G`` by its number. Any click that is
not a legal target is a *wrong click*, never an error; :func:`classify_click`
says which kind, for the log and the message shown.

>>> from engine.vapoosh import VapooshGame, Roll
>>> s = VapooshGame("standard", 2).new_initial_state()
>>> _ = s.apply(Roll((2, 3, 4, 4)))   # P = 5, G = 8: tiles (5,8) and (8,5), 40
>>> classify_click(s, 5, 8).ok
True
>>> v = classify_click(s, 4, 10)
>>> v.kind, v.expected, v.clicked
('same_product', 40, 40)
>>> classify_click(s, 6, 9).kind
'near_miss'
>>> classify_click(s, 2, 2).kind, classify_click(s, 2, 2).message
('arithmetic', 'That tile is 2 × 2 = 4. Your dice make 5 × 8 = 40.')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import ClickResult, IllegalActionError, Refusal
from engine.vapoosh.actions import Brown, Place
from engine.vapoosh.board import NB8, SIZE, index
from engine.vapoosh.state import VapooshState


@dataclass(frozen=True)
class ClickVerdict:
    """What a click on a tile means.

    ``kind``: ``None`` when ``ok`` (or when no placement is due), else
    ``"rule"``, ``"same_product"``, ``"near_miss"`` or ``"arithmetic"``;
    ``rule_reason`` only for ``"rule"``: ``"empty_priority"``, ``"suicide"``,
    ``"own_tile"`` or ``"brown"`` (``"brown_compulsory"`` when house rules
    demand a brown counter and a normal one is impossible there). ``expected``
    is the rolled product ``P x G`` (0 when nothing is rolled), ``clicked`` is
    ``c x r``.
    """

    ok: bool
    kind: str | None
    rule_reason: str | None
    expected: int
    clicked: int
    message: str


_RULE_MESSAGES = {
    "empty_priority": "Right number! But that tile is taken and {other} is free: "
    "your counter must go on the free tile.",
    "suicide": "Right number! But that tile is surrounded by another player's counters, "
    "so a counter there would be trapped.",
    "own_tile": "Right number! But you already have a counter there.",
    "brown": "Right number! But a brown counter is there, so nobody can use that tile.",
    "brown_compulsory": "Right number! After three 6s your counter must be a brown one.",
}


def classify_click(state: VapooshState, c: int, r: int) -> ClickVerdict:
    """Classify a click on tile ``(c, r)`` while the mover must place.

    Pure: looks at the state, changes nothing. Outside phase ``place`` it
    returns ``ok=False, kind=None`` with a hint (roll first / game over).
    """
    clicked = c * r
    if state.phase != "place" or state.dice is None:
        hint = "The game is over." if state.phase == "over" else "Roll the dice first."
        return ClickVerdict(False, None, None, 0, clicked, hint)
    p1, p2, g1, g2 = state.dice
    pink, green = p1 + p2, g1 + g2
    expected = pink * green
    sums = f"{pink} × {green} = {expected}"
    target_tiles = {(t.c, t.r) for t in state.targets()}
    if (c, r) in target_tiles:
        return ClickVerdict(True, None, None, expected, clicked, f"Yes! {sums}.")
    if (c, r) in state.options:
        reason = state.rule_reason(c, r) or "empty_priority"
        free = [t for t in state.options if t in target_tiles and state.owner(*t) == 0]
        other = f"{free[0][0]} × {free[0][1]}" if free else "the other tile"
        message = _RULE_MESSAGES[reason].format(other=other)
        return ClickVerdict(False, "rule", reason, expected, clicked, message)
    if clicked == expected:
        return ClickVerdict(
            False,
            "same_product",
            None,
            expected,
            clicked,
            f"{c} × {r} is {clicked} too, but your dice say {sums}.",
        )
    near = 0
    for tc, tr in target_tiles:
        near |= NB8[index(tc, tr)]
    if near >> index(c, r) & 1:
        return ClickVerdict(
            False,
            "near_miss",
            None,
            expected,
            clicked,
            f"So close! That tile is {c} × {r} = {clicked}; {sums} is right next to it.",
        )
    return ClickVerdict(
        False,
        "arithmetic",
        None,
        expected,
        clicked,
        f"That tile is {c} × {r} = {clicked}. Your dice make {sums}.",
    )


# -- the app's face of a state (engine.core.PlayableState) ------------------------------
# Targets are tiles written "c,r". The selection may hold "brown": the tester chose a
# brown counter (the board's Brown chip) before clicking a tile. When every legal move is
# a brown counter, a plain click puts down a brown one (what the play screen always did).

#: The selection entry that says "a brown counter, not a normal one".
BROWN_SELECTED = "brown"

_PHASE_REFUSALS = {
    "setup": Refusal("must_deal", "The preplaced counters must be dealt first."),
    "roll": Refusal("must_roll", "Roll the dice first."),
    "over": Refusal("game_over", "The game is over."),
}


def parse_target(target: str) -> tuple[int, int] | None:
    """``"5,8"`` → ``(5, 8)``; None for anything that is not a tile of the board.

    >>> parse_target("5,8"), parse_target(" 12 , 1 "), parse_target("13,1"), parse_target("x")
    ((5, 8), (12, 1), None, None)
    """
    c_text, sep, r_text = str(target).partition(",")
    try:
        c, r = int(c_text), int(r_text)
    except ValueError:
        return None
    if not sep or not (1 <= c <= SIZE and 1 <= r <= SIZE):
        return None
    return c, r


def brown_forced(state: VapooshState) -> bool:
    """True when every legal move is a brown counter (a plain click puts a brown one)."""
    targets = state.targets()
    return bool(targets) and all(isinstance(t, Brown) for t in targets)


def legal_targets(state: VapooshState, selection: Sequence[str] = ()) -> list[str]:
    """Tiles (``"c,r"``) where a click completes a legal move, sorted by column then row.

    >>> from engine.vapoosh import VapooshGame, Roll
    >>> s = VapooshGame("standard", 2).new_initial_state()
    >>> legal_targets(s)
    []
    >>> _ = s.apply(Roll((2, 3, 4, 4)))
    >>> legal_targets(s), legal_targets(s, ["brown"])
    (['5,8', '8,5'], [])
    """
    if state.phase != "place":
        return []
    use_brown = BROWN_SELECTED in selection or brown_forced(state)
    wanted = Brown if use_brown else Place
    return [f"{c},{r}" for c, r in sorted(
        {(t.c, t.r) for t in state.targets() if isinstance(t, wanted)})]


def _engine_refusal(state: VapooshState, c: int, r: int, brown: bool) -> tuple[str, str]:
    """The engine's reason code and words for refusing this counter on (c, r)."""
    try:
        state.clone().apply(Brown(c, r) if brown else Place(c, r))
    except IllegalActionError as err:
        return err.reason, str(err)
    return "own_tile", _RULE_MESSAGES["own_tile"]  # not reached: the move is not legal


def click(state: VapooshState, target: str, selection: Sequence[str] = ()) -> ClickResult:
    """What a click on tile ``target`` means (pure): the classifier's verdict as a
    :class:`~engine.core.ClickResult`.

    The refusal reason is the wrong-click kind (``same_product``, ``near_miss``,
    ``arithmetic``) or, for a rolled tile the rules refuse, its rule reason
    (``empty_priority``, ``suicide``, ``own_tile``, ``brown`` ...). ``fields`` are the
    ``click`` telemetry fields of telemetry-format.md (``c``, ``r``, ``expected``,
    ``clicked``, ``brown``, and ``wrong_kind``/``rule_reason`` when refused).

    >>> from engine.vapoosh import VapooshGame, Roll
    >>> s = VapooshGame("standard", 2).new_initial_state()
    >>> click(s, "5,8").refusal
    Refusal(reason='must_roll', message='Roll the dice first.')
    >>> _ = s.apply(Roll((2, 3, 4, 4)))
    >>> ok = click(s, "5,8")
    >>> ok.action == s.game.encode(Place(5, 8)), ok.refusal, ok.fields["expected"]
    (True, None, 40)
    >>> wrong = click(s, "4,10")
    >>> wrong.refusal.reason, wrong.fields["wrong_kind"], wrong.action
    ('same_product', 'same_product', None)
    """
    refusal = _PHASE_REFUSALS.get(state.phase)
    if refusal is not None:
        return ClickResult(None, refusal, (), {})
    tile_at = parse_target(target)
    if tile_at is None:
        return ClickResult(None, Refusal("not_a_tile", f"{str(target)[:20]!r} is not a tile."))
    c, r = tile_at
    verdict = classify_click(state, c, r)
    use_brown = BROWN_SELECTED in selection or brown_forced(state)
    # Legal for the counter being put down: on a Vapooh roll a tile may take a brown
    # counter but not a normal one (the tester's own tile, say), or the other way round.
    wanted = Brown if use_brown else Place
    ok = any(isinstance(t, wanted) and (t.c, t.r) == (c, r) for t in state.targets())
    fields: dict[str, Any] = {"c": c, "r": r, "expected": verdict.expected,
                              "clicked": verdict.clicked, "brown": use_brown}
    if ok:
        action = state.game.encode(Brown(c, r) if use_brown else Place(c, r))
        return ClickResult(action, None, (), fields)
    kind, rule_reason, message = verdict.kind, verdict.rule_reason, verdict.message
    if verdict.ok:  # the right tile, but not for this kind of counter
        kind = "rule"
        rule_reason, engine_words = _engine_refusal(state, c, r, use_brown)
        message = _RULE_MESSAGES.get(rule_reason, engine_words)
    fields["wrong_kind"] = kind
    if kind == "rule":
        fields["rule_reason"] = rule_reason
    reason = str(rule_reason if kind == "rule" else kind)
    return ClickResult(None, Refusal(reason, message), (), fields)


def to_text(state: VapooshState) -> str:
    """The position as text: who is to do what (and the dice), then the 12 board rows.

    >>> from engine.vapoosh import VapooshGame, Roll
    >>> s = VapooshGame("standard", 2).new_initial_state()
    >>> _ = s.apply(Roll((2, 3, 4, 4)))
    >>> print(to_text(s).splitlines()[0])
    seat 1 to place: dice 2 3 4 4 (5 × 8 = 40), tiles 5,8 8,5
    """
    seat = state.to_move
    if state.phase == "over":
        outcome = state.outcome
        winner = outcome.winner if outcome else None
        head = (f"over: seat {winner} wins ({outcome.reason if outcome else ''})"
                if winner else "over: a draw")
    elif state.phase == "place" and state.dice is not None:
        p1, p2, g1, g2 = state.dice
        tiles = " ".join(f"{c},{r}" for c, r in state.options)
        head = (f"seat {seat} to place: dice {p1} {p2} {g1} {g2} "
                f"({p1 + p2} × {g1 + g2} = {(p1 + p2) * (g1 + g2)}), tiles {tiles}")
    else:
        head = f"seat {seat} to {'deal' if state.phase == 'setup' else 'roll'}"
    return "\n".join([head, *state.board_rows()])
