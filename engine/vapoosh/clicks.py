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

from dataclasses import dataclass

from engine.vapoosh.board import NB8, index
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
