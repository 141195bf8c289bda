"""Position features and the weighted evaluation used by the Hard and Expert players.

Boards are flat ``int8`` arrays of 144 tiles (index ``(r-1)*12 + (c-1)``; 0 empty,
1..4 a seat, 5 brown). Features are computed for many boards at once with numpy, so
a search can score hundreds of leaves in one call.

Per seat the features are:

- ``threat``: the probability that one roll offers that seat a tile that wins at once
  (four in a row or a 2x2 square), counting suicide and the capture rule;
- ``potential``: the winning patterns still open to the seat, each weighted by how many
  of its tiles the seat holds and how likely the missing tiles are to be rolled and
  to be placeable (empty and not suicide for the seat, or capturable);
- ``material``: counters on the board.

>>> import numpy as np
>>> board = np.zeros((1, 144), dtype=np.int8)
>>> for c in (5, 6, 7):
...     board[0, (6 - 1) * 12 + (c - 1)] = 1
>>> f = features(board, players=2, capture_any=False, suicide=True)
>>> round(float(f.threat[0, 0]), 3), float(f.threat[0, 1])
(0.062, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.vapoosh import geometry as geo
from engine.vapoosh.primitives import suicide_tiles

_WIN = np.array(geo.WINDOWS, dtype=np.intp)  # (W, 4)
_W0, _W1, _W2, _W3 = (np.ascontiguousarray(_WIN[:, k]) for k in range(4))
_MIRROR = np.array(geo.MIRROR, dtype=np.intp)
_ROLLABLE = np.array(geo.ROLLABLE, dtype=bool)
_REACH = np.array(geo.TILE_REACH, dtype=np.float32)
_DIAG = np.array([geo.MIRROR[i] == i for i in range(geo.CELLS)], dtype=bool)
# Probability of each unordered tile pair, counted once (on the c <= r half).
_PAIR_PROB = np.array(
    [geo.TILE_PROB[i] if geo.tile(i)[0] <= geo.tile(i)[1] else 0.0 for i in range(geo.CELLS)],
    dtype=np.float64,
)

Boards = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Weights:
    """Weights of the evaluation; the score they give is a log-odds of winning.

    The defaults were fitted by logistic regression of the game's winner on these
    features: 8,100 positions, each seen from both seats, from 600 Hard-vs-Medium games
    under the standard, house and classic presets (pseudo-R² 0.05: the dice decide most
    games). ``window`` weights an open pattern by how many of its four tiles the seat
    holds; ``next_mover`` multiplies the threat of the seat that rolls next.
    """

    threat_self: float = 4.56
    threat_opponent: float = 4.56
    next_mover: float = 1.40
    window: tuple[float, float, float, float] = (0.0, 0.02, 0.12, 0.45)
    potential_self: float = 0.271
    potential_opponent: float = 0.271
    material: float = 0.023
    latent: float = 0.0


@dataclass(frozen=True)
class Features:
    """Per-board, per-seat features: arrays of shape (boards, players); seat s is column s-1."""

    threat: FloatArray
    potential: FloatArray
    material: FloatArray


def features(
    boards: Boards,
    players: int,
    capture_any: bool,
    suicide: bool,
    window: tuple[float, float, float, float] = Weights.window,
    latent: float = Weights.latent,
) -> Features:
    """Compute the features of every board in ``boards`` (shape (n, 144)).

    ``window`` weights an open pattern by how many of its tiles the seat holds (0..3);
    ``latent`` is the ease of an opponent's counter that becomes capturable only once its
    mirror tile fills (capture "when_blocked").
    """
    n = boards.shape[0]
    empty = boards == 0
    counters = (boards >= 1) & (boards <= 4)
    # trapped[:, s - 1]: the suicide tiles of seat s (the rule itself, on each board's masks)
    trapped = _suicide_planes(boards, players) if suicide else None
    threat = np.zeros((n, players))
    potential = np.zeros((n, players))
    material = np.zeros((n, players))
    window_weight = np.array((*window, 0.0), dtype=np.float32)
    for s in range(1, players + 1):
        mine = boards == s
        if trapped is not None:
            placeable = empty & _ROLLABLE & ~trapped[:, s - 1]
        else:
            placeable = empty & _ROLLABLE
        occupied_by_other = counters & ~mine & _ROLLABLE
        if capture_any:
            capturable = occupied_by_other
            ease = (placeable | capturable).astype(np.float32)
        else:
            capturable = occupied_by_other & (_DIAG | ~placeable[:, _MIRROR])
            # A counter that cannot be captured yet (its mirror is still empty) can be
            # once the mirror fills: the pattern is delayed, not dead.
            ease = (placeable | capturable) + latent * (occupied_by_other & ~capturable)
        reach = np.where(mine, np.float32(1.0), _REACH * ease)
        # Column by column: contiguous gathers, several times faster than reach[:, _WIN].
        in_window = reach[:, _W0] * reach[:, _W1] * reach[:, _W2] * reach[:, _W3]  # (n, W)
        m8 = mine.view(np.int8)
        held = m8[:, _W0] + m8[:, _W1] + m8[:, _W2] + m8[:, _W3]  # (n, W)
        potential[:, s - 1] = (window_weight[held] * in_window).sum(axis=1)
        # The missing tile of every open pattern held 3/4 wins at once. (Scattered by hand:
        # a matrix product here goes through BLAS, slow on a small busy machine.)
        one_short = (held == 3) & (in_window > 0)
        board_no, window_no, slot = np.nonzero(one_short[:, :, None] & ~mine[:, _WIN])
        winning = np.zeros((n, geo.CELLS), dtype=bool)
        winning[board_no, _WIN[window_no, slot]] = True
        winning |= winning[:, _MIRROR]
        threat[:, s - 1] = (winning * _PAIR_PROB).sum(axis=1)
        material[:, s - 1] = mine.sum(axis=1)
    return Features(threat, potential, material)


_MASK_BYTES = (geo.CELLS + 7) // 8


def _suicide_planes(boards: Boards, players: int) -> npt.NDArray[np.bool_]:
    """Per board and seat, the tiles that are suicide for that seat: shape (n, players, 144).

    >>> b = np.zeros((1, 144), dtype=np.int8)
    >>> for c, r in ((4, 5), (6, 5), (5, 4), (5, 6)):
    ...     b[0, geo.index(c, r)] = 2
    >>> planes = _suicide_planes(b, 2)
    >>> bool(planes[0, 0, geo.index(5, 5)]), bool(planes[0, 1, geo.index(5, 5)])
    (True, False)
    """
    n = boards.shape[0]
    seats = np.arange(1, players + 1, dtype=np.int8)
    packed = np.packbits(boards[:, None, :] == seats[None, :, None], axis=2, bitorder="little")
    out = np.zeros((n, players, _MASK_BYTES), dtype=np.uint8)
    for b in range(n):
        masks = [int.from_bytes(packed[b, s].tobytes(), "little") for s in range(players)]
        for s in range(players):
            trapped = suicide_tiles(masks, s)
            if trapped:
                out[b, s] = np.frombuffer(trapped.to_bytes(_MASK_BYTES, "little"), dtype=np.uint8)
    return np.unpackbits(out, axis=2, bitorder="little")[:, :, : geo.CELLS].astype(bool)


def scores(
    feats: Features,
    seat: int,
    next_mover: Sequence[int],
    weights: Weights,
) -> FloatArray:
    """Score every board for ``seat`` (1-based): log-odds of winning, higher is better.

    ``next_mover[i]`` is the seat that rolls next on board i (it weighs that seat's threat
    by ``weights.next_mover``).
    """
    n, players = feats.threat.shape
    movers = np.asarray(next_mover, dtype=np.intp)
    factor = np.ones((n, players))
    factor[np.arange(n), movers - 1] = weights.next_mover
    threat = feats.threat * factor
    me = seat - 1
    others = [o for o in range(players) if o != me]
    score = weights.threat_self * threat[:, me] - weights.threat_opponent * threat[:, others].sum(
        axis=1
    )
    score += weights.potential_self * feats.potential[:, me]
    score -= weights.potential_opponent * feats.potential[:, others].sum(axis=1)
    score += weights.material * (feats.material[:, me] - feats.material[:, others].mean(axis=1))
    return np.asarray(score, dtype=np.float64)
