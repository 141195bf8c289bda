"""The rules of Vapoosh!, each written once, as pure functions on bit masks.

:class:`~engine.vapoosh.state.VapooshState`, the fast playout
(:mod:`engine.vapoosh.playout`) and the computer players
(:mod:`engine.vapoosh.tactics`, :mod:`engine.vapoosh.evaluation`) all call these, so a
rule changed here changes everywhere at once. A position is ``masks`` (one int per
seat, 0-based; bits as in :mod:`engine.vapoosh.board`) plus ``brown``.

>>> from engine.vapoosh.board import index
>>> masks = [0, sum(1 << index(c, r) for c, r in ((4, 5), (6, 5), (5, 4), (5, 6)))]
>>> is_suicide(masks, 0, index(5, 5)), is_suicide(masks, 1, index(5, 5))
(True, False)
>>> roll_kind((6, 6, 6, 2)), roll_kind((3, 3, 3, 3)), roll_kind((1, 2, 3, 4))
('vapooh', 'quad', 'normal')
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.vapoosh.actions import BROWN_BASE, DICE, PLACE_BASE
from engine.vapoosh.board import FULL, NB4, NB8, SIZE, bits, index, win_reason

#: Status of a rolled option for the mover (codes, and their names in events).
EMPTY, SUICIDE, OWN, OPPONENT, BROWN = range(5)
STATUS_NAMES = ("empty", "suicide", "own", "opponent", "brown")

#: Whether a Vapooh roll (three 6s) offers brown counters: not, alongside, or only.
NO_BROWN, BROWN_OPTIONAL, BROWN_ONLY = range(3)

_ROW_FIRST = sum(1 << index(c, 1) for c in range(1, SIZE + 1))
_ROW_LAST = sum(1 << index(c, SIZE) for c in range(1, SIZE + 1))
_COL_FIRST = sum(1 << index(1, r) for r in range(1, SIZE + 1))
_COL_LAST = sum(1 << index(SIZE, r) for r in range(1, SIZE + 1))


def roll_kind(dice: tuple[int, int, int, int]) -> str:
    """``"vapoosh"`` (four 6s), ``"vapooh"`` (three 6s), ``"quad"`` or ``"normal"``."""
    sixes = dice.count(6)
    if sixes == 4:
        return "vapoosh"
    if sixes == 3:
        return "vapooh"
    if dice[0] == dice[1] == dice[2] == dice[3]:
        return "quad"
    return "normal"


def is_square(dice: tuple[int, int, int, int]) -> bool:
    """A square roll (pink sum = green sum) earns an extra turn under ``square_extra_turn``."""
    return dice[0] + dice[1] == dice[2] + dice[3]


def roll_options(dice: tuple[int, int, int, int]) -> tuple[int, ...]:
    """Tiles a roll offers: ``(P, G)`` then ``(G, P)``; one tile when the sums are equal."""
    pink, green = dice[0] + dice[1], dice[2] + dice[3]
    if pink == green:
        return (index(pink, green),)
    return (index(pink, green), index(green, pink))


#: Per roll id (``DICE`` order): the options, whether it is a square roll, its kind.
ROLL_OPTIONS: tuple[tuple[int, ...], ...] = tuple(roll_options(d) for d in DICE)
ROLL_SQUARE: tuple[bool, ...] = tuple(is_square(d) for d in DICE)
ROLL_KIND: tuple[str, ...] = tuple(roll_kind(d) for d in DICE)


def _roll_fast(options: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
    nbs = [NB4[i] for i in options]
    return (
        sum(1 << i for i in options),
        nbs[0],
        nbs[-1],
        tuple(sorted(PLACE_BASE + i for i in options)),
    )


#: Per roll id: its options' mask, the two options' neighbourhoods (the same twice for one
#: option) and the options' place ids, sorted: :func:`roll_targets` when they are empty.
ROLL_FAST: tuple[tuple[int, int, int, tuple[int, ...]], ...] = tuple(
    _roll_fast(opts) for opts in ROLL_OPTIONS
)


def surrounded(mask: int) -> int:
    """Tiles every on-board orthogonal neighbour of which is in ``mask`` (edges count as in).

    >>> from engine.vapoosh.board import tile
    >>> [tile(i) for i in bits(surrounded((1 << index(2, 1)) | (1 << index(1, 2))))]
    [(1, 1)]
    """
    up = (mask << SIZE) | _ROW_FIRST
    down = (mask >> SIZE) | _ROW_LAST
    left = ((mask << 1) & ~_COL_FIRST) | _COL_FIRST
    right = ((mask >> 1) & ~_COL_LAST) | _COL_LAST
    return up & down & left & right & FULL


def suicide_tiles(masks: Sequence[int], seat: int) -> int:
    """Empty tiles where ``seat``'s counter would be trapped: every on-board neighbour is one
    and the same opponent's (the suicide rule)."""
    occupied = 0
    trapped = 0
    for s, m in enumerate(masks):
        occupied |= m
        if s != seat:
            trapped |= surrounded(m)
    return trapped & ~occupied


def is_suicide(masks: Sequence[int], seat: int, i: int) -> bool:
    """Whether tile ``i`` is a suicide tile for ``seat``: the one-tile form of
    :func:`suicide_tiles` (``m & NB4[i] == NB4[i]`` is bit ``i`` of ``surrounded(m)``;
    a test checks both forms agree), for the hot paths of the state and the playout."""
    nb = NB4[i]
    bit = 1 << i
    trapped = False
    for s, m in enumerate(masks):
        if m & bit:
            return False
        if s != seat and m & nb == nb:
            trapped = True
    return trapped


def option_status(masks: Sequence[int], brown: int, seat: int, i: int, suicide_rule: bool) -> int:
    """The status code of tile ``i`` for ``seat``: EMPTY, SUICIDE, OWN, OPPONENT or BROWN."""
    bit = 1 << i
    if brown & bit:
        return BROWN
    if masks[seat] & bit:
        return OWN
    for m in masks:
        if m & bit:
            return OPPONENT
    return SUICIDE if suicide_rule and is_suicide(masks, seat, i) else EMPTY


def roll_targets(
    masks: Sequence[int],
    brown: int,
    seat: int,
    options: Sequence[int],
    browns: int,
    capture_any: bool,
    suicide_rule: bool,
    roll: int = -1,
) -> list[int]:
    """The legal action ids (sorted) when ``seat`` rolled ``options``.

    A normal counter goes on an empty non-suicide option; an opponent's counter is
    replaced only when no option is empty (``capture_any``: always allowed). ``browns``
    says whether a brown counter may go on an option without one (Vapooh roll).
    ``roll``, the roll id when known, looks the options up in :data:`ROLL_FAST`.
    """
    if browns == BROWN_ONLY:
        return sorted(BROWN_BASE + i for i in options if not brown >> i & 1)
    # The statuses of option_status, inlined: this runs once per roll in every playout.
    if len(masks) == 2:
        occupied = brown | masks[0] | masks[1]
    else:
        occupied = brown
        for m in masks:
            occupied |= m
    if roll >= 0 and browns == NO_BROWN:
        mask, nb0, nb1, ids = ROLL_FAST[roll]
        # every option empty, none with all neighbours taken (so none a suicide tile)
        if not occupied & mask and (
            not suicide_rule or (occupied & nb0 != nb0 and occupied & nb1 != nb1)
        ):
            return [*ids]
    taken = brown | masks[seat]
    out: list[int] = []
    opponents: list[int] = []
    for i in options:
        bit = 1 << i
        if not occupied & bit:
            # a tile with an empty neighbour is never a suicide tile: skip the full check
            if suicide_rule and occupied & NB4[i] == NB4[i] and is_suicide(masks, seat, i):
                continue
            out.append(PLACE_BASE + i)
        elif not taken & bit:
            opponents.append(PLACE_BASE + i)
    if opponents and (capture_any or not out):
        out += opponents
    if len(out) > 1 and out[0] > out[1]:
        out.reverse()  # at most two options: sorted
    if browns == BROWN_OPTIONAL:
        out += sorted(BROWN_BASE + i for i in options if not brown >> i & 1)
    return out


def blocked_outcome(statuses: Sequence[int], rerolls: int, reroll_limit: int) -> str:
    """What a roll with no legal move does: ``"blocked_own"`` (all options own: the next
    seat misses a turn), ``"reroll"`` (own + suicide, while re-rolls are left) or
    ``"miss_turn"``."""
    if all(s == OWN for s in statuses):
        return "blocked_own"
    if sorted(statuses) == [SUICIDE, OWN] and rerolls < reroll_limit:
        return "reroll"
    return "miss_turn"


def place_counter(
    masks: list[int], seat: int, i: int, surround: str
) -> tuple[int, Sequence[tuple[int, int]], str | None]:
    """``seat`` puts a counter on tile ``i`` (empty or an opponent's, as
    :func:`roll_targets` allows): the counter there is captured, then the opponents'
    counters or groups the new one surrounds (:func:`surround_captures`, ``surround`` its
    mode), then the win check through every tile gained
    (:func:`~engine.vapoosh.board.win_reason`). Changes ``masks``; returns ``(the
    captured counter's seat or -1, [(surround-captured mask, victim seat), ...], the win
    reason or None)``.

    >>> from engine.vapoosh.board import tile
    >>> masks = [1 << index(2, 1), 1 << index(1, 1)]   # orange in the corner, blue beside
    >>> place_counter(masks, 0, index(1, 2), "tile")   # blue closes it in: surrounded
    (-1, [(1, 1)], None)
    >>> [sorted(tile(k) for k in bits(m)) for m in masks]
    [[(1, 1), (1, 2), (2, 1)], []]
    >>> place_counter(masks, 1, index(5, 5), "tile")   # far from everything: nothing else
    (-1, (), None)
    """
    bit = 1 << i
    if len(masks) == 2:
        held = masks[0] | masks[1]
    else:
        held = 0
        for m in masks:
            held |= m
    mine = masks[seat]
    victim = -1
    if held & bit:
        victim = next(s for s, m in enumerate(masks) if m & bit)
        masks[victim] ^= bit
    # the other seats' counters next to the new one (masks are disjoint)
    candidates = NB4[i] & (held ^ mine) if surround != "off" else 0
    mine |= bit
    masks[seat] = mine
    if not candidates:
        # one tile gained: a pattern through it has a tile of mine next to it
        return victim, (), win_reason(mine, bit) if mine & NB8[i] else None
    found = surround_captures(masks, seat, candidates, surround)
    gained = bit
    for group, loser in found:
        masks[loser] &= ~group
        gained |= group
    masks[seat] = mine = mine | gained
    return victim, found, win_reason(mine, gained)


def surround_captures(
    masks: Sequence[int], seat: int, candidates: int, mode: str
) -> list[tuple[int, int]]:
    """Of ``candidates`` (the other seats' counters next to ``seat``'s new counter, on
    ``masks`` with that counter placed), the counters (``mode="tile"``) or their groups
    (``"group"``) that only ``seat``'s counters and the edges touch, judged on one board:
    ``[(captured mask, victim seat), ...]`` in board order. Does not change ``masks``."""
    mine = masks[seat]
    captured = 0
    found: list[tuple[int, int]] = []
    while candidates:
        nbit = candidates & -candidates
        candidates ^= nbit
        n = nbit.bit_length() - 1
        if captured & nbit:
            continue
        if mode == "tile":
            nb = NB4[n]
            if mine & nb != nb:
                continue  # an empty tile or another seat's counter touches it
            group = nbit
        else:
            group = flood(nbit, next(m for m in masks if m & nbit))
            if dilate(group) & ~group & ~mine:
                continue
        victim = next(s for s, m in enumerate(masks) if m & nbit)
        found.append((group, victim))
        captured |= group
    return found


def next_to_roll(seat: int, skips: list[int], players: int) -> tuple[int, int]:
    """The seat after ``seat`` that rolls next, paying owed missed turns on the way.

    Decrements ``skips`` in place; returns the seat and how many turns were missed
    (by the seats after ``seat`` in order: ``(seat + 1 + k) % players`` for each ``k``).

    >>> skips = [0, 1, 0]
    >>> next_to_roll(0, skips, 3), skips
    ((2, 1), [0, 0, 0])
    """
    nxt = (seat + 1) % players
    missed = 0
    while skips[nxt]:
        skips[nxt] -= 1
        missed += 1
        nxt = (nxt + 1) % players
    return nxt, missed


def dilate(mask: int) -> int:
    """Orthogonal neighbours of every tile of ``mask`` (may include ``mask`` itself)."""
    out = 0
    for i in bits(mask):
        out |= NB4[i]
    return out & FULL


def flood(start: int, colour: int) -> int:
    """The orthogonally connected group of ``colour`` containing ``start``."""
    group = start
    frontier = start
    while frontier:
        grown = dilate(frontier) & colour & ~group
        group |= grown
        frontier = grown
    return group
