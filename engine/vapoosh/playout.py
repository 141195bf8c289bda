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

from engine.vapoosh.actions import DEAL_BASE, DICE
from engine.vapoosh.board import NB4, NB8, WIN_WINDOWS
from engine.vapoosh.state import VapooshGame, _flood

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
(
    _CAPTURE,
    _SURROUND,
    _BROWN,
    _EXTRA,
    _BLOCKED_OWN,
    _REROLL,
    _MISS,
    _QUAD,
    _SKIP,
    _VAPOOSH,
) = range(len(RULE_EVENTS))

_SQUARE, _QUADF, _VAPOOH, _VAPOOSHF = 1, 2, 4, 8


def _roll_info() -> tuple[tuple[int, int, int], ...]:
    out = []
    for p1, p2, g1, g2 in DICE:
        pink, green = p1 + p2, g1 + g2
        a = (green - 1) * 12 + pink - 1  # tile (pink, green)
        b = (pink - 1) * 12 + green - 1  # tile (green, pink)
        lo, hi = (a, -1) if a == b else (min(a, b), max(a, b))
        sixes = (p1, p2, g1, g2).count(6)
        flags = 0
        if pink == green:
            flags |= _SQUARE
        if p1 == p2 == g1 == g2 and sixes == 0:
            flags |= _QUADF
        if sixes == 3:
            flags |= _VAPOOH
        if sixes == 4:
            flags |= _VAPOOSHF
        out.append((lo, hi, flags))
    return tuple(out)


#: Per roll id: (lower tile bit, higher tile bit or -1, flags).
ROLL_INFO = _roll_info()
_BITS = tuple(1 << i for i in range(144))


def _wins(mine: int, gained: int) -> bool:
    while gained:
        low = gained & -gained
        i = low.bit_length() - 1
        gained ^= low
        if mine & NB8[i]:
            for w in WIN_WINDOWS[i]:
                if mine & w == w:
                    return True
    return False


def random_playout(game: VapooshGame, rng: random.Random) -> tuple[int | None, int, dict[str, int]]:
    """Play one random game; returns ``(winner seat or None, rolls made, rule_counts)``.

    ``rule_counts`` maps every kind in :data:`RULE_EVENTS` to how many such
    events the game produced.
    """
    rules = game.rules
    n = game.num_players
    rnd = rng.random
    max_turns = rules.max_turns
    any_capture = rules.capture == "any"
    suicide_rule = rules.suicide and n > 1
    surround = rules.surround
    vapooh_mode = rules.vapooh
    vapooh_on = vapooh_mode != "off"
    brown_forced = vapooh_mode == "brown_and_miss_next"
    extra_rule = rules.square_extra_turn
    quad_rule = rules.quad_skips_next
    reroll_limit = rules.own_suicide_rerolls
    counts = [0] * len(RULE_EVENTS)
    masks = [0] * n
    if rules.preplaced:
        outcomes = game.deal_outcomes()
        packed = outcomes[int(rnd() * len(outcomes))][0] - DEAL_BASE
        i = 0
        while packed:
            s = packed & 7
            if s:
                masks[s - 1] |= 1 << i
            packed >>= 3
            i += 1
    allp = 0
    for m in masks:
        allp |= m
    brown = 0
    skips = [0] * n
    seat = 0
    turns = 0
    rerolls = 0
    info = ROLL_INFO
    nb4 = NB4
    nb8 = NB8
    opt_bits = _BITS
    win_windows = WIN_WINDOWS

    while True:
        if turns >= max_turns:
            return None, turns, dict(zip(RULE_EVENTS, counts, strict=True))
        lo, hi, flags = info[int(rnd() * 1296)]
        turns += 1
        if flags:
            if flags & _VAPOOSHF:
                counts[_VAPOOSH] += 1
                return seat + 1, turns, dict(zip(RULE_EVENTS, counts, strict=True))
            if flags & _QUADF and quad_rule:
                counts[_QUAD] += 1
                skips[(seat + 1) % n] += 1
        mine = masks[seat]
        st_lo = st_hi = -1
        both = opt_bits[lo] | (opt_bits[hi] if hi >= 0 else 0)
        if not (both & (allp | brown)) and not (
            suicide_rule and (allp & nb4[lo] == nb4[lo] or (hi >= 0 and allp & nb4[hi] == nb4[hi]))
        ):
            # fast path: every option empty and no neighbourhood full of counters
            empties = [lo] if hi < 0 else [lo, hi]
            opps: list[int] = []
        else:
            # classify the options: 0 empty, 1 suicide, 2 own, 3 opponent, 4 brown
            empties = []
            opps = []
            for o in (lo, hi):
                if o < 0:
                    break
                b = 1 << o
                if brown & b:
                    st = 4
                elif mine & b:
                    st = 2
                elif allp & b:
                    st = 3
                    opps.append(o)
                else:
                    st = 0
                    if suicide_rule:
                        nb = nb4[o]
                        if allp & nb == nb:
                            if n == 2:
                                if (allp ^ mine) & nb == nb:
                                    st = 1
                            else:
                                for s in range(n):
                                    if s != seat and masks[s] & nb == nb:
                                        st = 1
                                        break
                    if st == 0:
                        empties.append(o)
                if o == lo:
                    st_lo = st
                else:
                    st_hi = st
        if any_capture:
            normal = empties + opps
            if len(empties) == 1 and len(opps) == 1 and opps[0] < empties[0]:
                normal = [opps[0], empties[0]]
        else:
            normal = empties or opps
        if vapooh_on and flags & _VAPOOH:
            browns = [o + 1000 for o in (lo, hi) if not brown >> o & 1]
            moves = browns if brown_forced else normal + browns
        else:
            moves = normal
        if not moves:
            # blocked
            if st_lo == 2 and st_hi in (2, -1):
                counts[_BLOCKED_OWN] += 1
                skips[(seat + 1) % n] += 1
            elif (
                (st_lo == 2 and st_hi == 1) or (st_lo == 1 and st_hi == 2)
            ) and rerolls < reroll_limit:
                rerolls += 1
                counts[_REROLL] += 1
                continue
            else:
                counts[_MISS] += 1
        else:
            k = len(moves)
            move = moves[int(rnd() * k)] if k > 1 else moves[0]
            if move >= 1000:
                t = move - 1000
                b = 1 << t
                counts[_BROWN] += 1
                if allp & b:
                    allp ^= b
                    for s in range(n):
                        if masks[s] & b:
                            masks[s] ^= b
                            break
                brown |= b
                if brown_forced:
                    skips[seat] += 1
            else:
                t = move
                b = 1 << t
                if allp & b:
                    counts[_CAPTURE] += 1
                    for s in range(n):
                        if masks[s] & b:
                            masks[s] ^= b
                            break
                mine |= b
                allp |= b
                gained = b
                if surround != "off":
                    cand = nb4[t] & allp & ~mine
                    if cand:
                        if surround == "tile":
                            while cand:
                                low = cand & -cand
                                cand ^= low
                                nb = nb4[low.bit_length() - 1]
                                if mine & nb == nb:
                                    gained |= low
                                    counts[_SURROUND] += 1
                        else:
                            done = 0
                            while cand:
                                low = cand & -cand
                                cand ^= low
                                if done & low:
                                    continue
                                for s in range(n):
                                    if masks[s] & low:
                                        break
                                group = _flood(low, masks[s])
                                border = 0
                                g = group
                                while g:
                                    gl = g & -g
                                    g ^= gl
                                    border |= nb4[gl.bit_length() - 1]
                                border &= ~group
                                if border & ~mine == 0:
                                    done |= group
                                    counts[_SURROUND] += 1
                            gained |= done
                        captured = gained ^ b
                        if captured:
                            for s in range(n):
                                if s != seat:
                                    masks[s] &= ~captured
                            mine |= captured
                masks[seat] = mine
                if gained != b:
                    if _wins(mine, gained):
                        return seat + 1, turns, dict(zip(RULE_EVENTS, counts, strict=True))
                elif mine & nb8[t]:
                    for w in win_windows[t]:
                        if mine & w == w:
                            return seat + 1, turns, dict(zip(RULE_EVENTS, counts, strict=True))
                if flags & _SQUARE and extra_rule:
                    counts[_EXTRA] += 1
                    rerolls = 0
                    continue
        # pass the turn, paying owed missed turns
        rerolls = 0
        seat = (seat + 1) % n
        while skips[seat]:
            skips[seat] -= 1
            counts[_SKIP] += 1
            seat = (seat + 1) % n
