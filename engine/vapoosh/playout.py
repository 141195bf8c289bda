"""Fast random self-play: the same rules as :class:`VapooshState`, no objects per move.

:func:`random_playout` plays one whole game with uniformly random dice and a
uniformly random legal move, drawing from the caller's ``random.Random``:

- a deal (preplaced rules): ``outcomes[int(rng.random() * len(outcomes))]`` of
  ``game.deal_outcomes()``;
- a roll: roll id ``int(rng.random() * 1296)`` (ids as in ``legal_actions()``);
- a move: ``legal[int(rng.random() * len(legal))]`` with ``legal`` sorted as
  ``legal_actions()``; no draw when there is a single legal move.

Driving a :class:`VapooshState` with exactly those draws gives the same game
(the test suite checks it for every preset and seat count).

>>> import random
>>> from engine.vapoosh import VapooshGame
>>> winner, turns, counts = random_playout(VapooshGame("standard", 2), random.Random(1))
>>> winner in (1, 2, None), turns > 0, sorted(counts) == sorted(RULE_EVENTS)
(True, True, True)
"""

from __future__ import annotations

import random
from functools import lru_cache

from engine.vapoosh.actions import BROWN_BASE, PLACE_BASE, ROLL_COUNT, Deal, decode
from engine.vapoosh.board import index
from engine.vapoosh.primitives import (
    BROWN_ONLY,
    BROWN_OPTIONAL,
    NO_BROWN,
    ROLL_KIND,
    ROLL_OPTIONS,
    ROLL_SQUARE,
    blocked_outcome,
    next_to_roll,
    option_status,
    place_counter,
    roll_targets,
)
from engine.vapoosh.state import VapooshGame, VapooshState

#: Event kinds counted in ``rule_counts`` (one count per event, as the state emits them).
RULE_EVENTS = (
    "capture",
    "surround_capture",
    "brown",
    "extra_turn",
    "blocked_own",
    "reroll",
    "miss_turn",
    "quad",
    "skip",
    "vapoosh",
)


@lru_cache(maxsize=8)
def _rolls(vapooh_browns: int, extra_rule: bool) -> tuple[tuple[str, int, tuple[int, ...], bool], ...]:
    """Per roll id: its kind, the browns it offers, its options and whether it earns an
    extra turn (a square roll under ``square_extra_turn``)."""
    return tuple(
        (kind, vapooh_browns if kind == "vapooh" else NO_BROWN, opts, square and extra_rule)
        for kind, opts, square in zip(ROLL_KIND, ROLL_OPTIONS, ROLL_SQUARE, strict=True)
    )


def random_playout(
    game: VapooshGame, rng: random.Random, start: VapooshState | None = None
) -> tuple[int | None, int, dict[str, int]]:
    """Play one random game; returns ``(winner seat or None, rolls made, rule_counts)``.

    ``start`` (a state of ``game`` in phase ``roll``) continues that position instead of
    beginning a new game; ``rolls made`` then counts the start's rolls too.

    ``rule_counts`` maps every kind in :data:`RULE_EVENTS` to how many such
    events the game produced. Every rule is the one of :mod:`engine.vapoosh.primitives`
    that the state applies; this loop only skips building states and events.
    """
    rules = game.rules
    n = game.num_players
    rnd = rng.random
    max_turns = rules.max_turns
    capture_any = rules.capture == "any"
    suicide_rule = rules.suicide
    surround = rules.surround
    if rules.vapooh == "off":
        vapooh_browns = NO_BROWN
    elif rules.vapooh == "brown_and_miss_next":
        vapooh_browns = BROWN_ONLY
    else:
        vapooh_browns = BROWN_OPTIONAL
    extra_rule = rules.square_extra_turn
    quad_rule = rules.quad_skips_next
    reroll_limit = rules.own_suicide_rerolls
    counts = dict.fromkeys(RULE_EVENTS, 0)
    masks = [0] * n
    brown = 0
    skips = [0] * n
    seat = 0
    turns = 0
    rerolls = 0
    if start is not None:
        if start.game != game or start.phase != "roll":
            raise ValueError("random_playout: start must be a state of this game in phase 'roll'")
        masks = start._masks[:]
        brown = start._brown
        skips = start._skips[:]
        seat = start._to_move
        turns = start._turns
        rerolls = start._rerolls
    elif rules.preplaced:
        outcomes = game.deal_outcomes()
        deal = decode(outcomes[int(rnd() * len(outcomes))][0])
        assert isinstance(deal, Deal)
        for s, c, r in deal.counters:
            masks[s - 1] |= 1 << index(c, r)
    rolls = _rolls(vapooh_browns, extra_rule)
    seats = tuple(range(n))

    while True:
        if turns >= max_turns:
            return None, turns, counts
        roll = int(rnd() * ROLL_COUNT)
        kind, browns, opts, extra = rolls[roll]
        turns += 1
        if kind != "normal":
            if kind == "vapoosh":
                counts["vapoosh"] += 1
                return seat + 1, turns, counts
            if kind == "quad" and quad_rule:
                counts["quad"] += 1
                skips[(seat + 1) % n] += 1
        moves = roll_targets(masks, brown, seat, opts, browns, capture_any, suicide_rule, roll)
        if not moves:
            outcome = blocked_outcome(
                [option_status(masks, brown, seat, i, suicide_rule) for i in opts],
                rerolls,
                reroll_limit,
            )
            counts[outcome] += 1
            if outcome == "reroll":
                rerolls += 1
                continue
            if outcome == "blocked_own":
                skips[(seat + 1) % n] += 1
        else:
            k = len(moves)
            move = moves[int(rnd() * k)] if k > 1 else moves[0]
            if move >= BROWN_BASE:
                b = 1 << (move - BROWN_BASE)
                counts["brown"] += 1
                for s in seats:
                    if masks[s] & b:
                        masks[s] ^= b
                        break
                brown |= b
                if vapooh_browns == BROWN_ONLY:
                    skips[seat] += 1
            else:
                victim, found, won = place_counter(masks, seat, move - PLACE_BASE, surround)
                if victim >= 0:
                    counts["capture"] += 1
                if found:
                    counts["surround_capture"] += len(found)
                if won is not None:
                    return seat + 1, turns, counts
                if extra:
                    counts["extra_turn"] += 1
                    rerolls = 0
                    continue
        # pass the turn, paying owed missed turns
        rerolls = 0
        seat, missed = next_to_roll(seat, skips, n)
        if missed:
            counts["skip"] += missed
