"""Hard (weighted evaluation, one ply), Expert (sampled look-ahead) and Expectimax players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.players import geometry as geo
from engine.players.base import Decision, Move, Player, after, capitalised, describe, tile_of
from engine.players.evaluation import Boards, FloatArray, Weights, features, scores
from engine.players.tactics import bitboards, board_of, tile_text, winning_tiles
from engine.vapoosh import Roll

#: Value of a won game (a lost one is minus this). Positions still in play are valued
#: 2*P(win) - 1 from the evaluation's log-odds, so both live on the same scale.
WIN_VALUE = 1.0

_MASK_BYTES = (geo.CELLS + 7) // 8
_ROW_TABLE = str.maketrans(
    {".": "\x00", "1": "\x01", "2": "\x02", "3": "\x03", "4": "\x04", "B": "\x05"}
)


def boards_of(states: Sequence[Any]) -> Boards:
    """Boards of many states as one (n, 144) int8 array."""
    bits = [bitboards(s) for s in states]
    if states and all(b is not None for b in bits):
        players = states[0].players
        raw = b"".join(
            m.to_bytes(_MASK_BYTES, "little") for b in bits if b is not None for m in (*b[0], b[1])
        )
        planes = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        planes = planes.reshape(len(states), players + 1, _MASK_BYTES * 8)[:, :, : geo.CELLS]
        codes = np.array([*range(1, players + 1), geo.BROWN], dtype=np.int8)
        return np.asarray(np.einsum("npc,p->nc", planes.astype(np.int8), codes), dtype=np.int8)
    text = "".join("".join(s.board_rows()) for s in states).translate(_ROW_TABLE)
    return np.frombuffer(text.encode("latin-1"), dtype=np.int8).reshape(len(states), geo.CELLS)


def leaf_values(states: Sequence[Any], weights: Weights) -> tuple[FloatArray, Any]:
    """Values of ``states`` for every seat, in -1..1: an array (n, players).

    Finished games are worth +WIN_VALUE to the winner and -WIN_VALUE to the others
    (0 to everyone on a draw); others ``tanh(score / 2)`` = 2*P(win) - 1 from the
    evaluation's log-odds. Returns the values and the features (None if all ended).
    """
    n = len(states)
    if n == 0:
        return np.zeros((0, 0)), None
    first = states[0]
    players = first.players
    rules = first.rules
    values = np.zeros((n, players))
    live = [k for k, s in enumerate(states) if s.phase != "over"]
    feats = None
    if live:
        feats = features(
            boards_of([states[k] for k in live]),
            players,
            rules.capture == "any",
            rules.suicide,
            weights.window,
            weights.latent,
        )
        movers = [states[k].to_move for k in live]
        for seat in range(1, players + 1):
            values[live, seat - 1] = np.tanh(scores(feats, seat, movers, weights) / 2)
    for k, s in enumerate(states):
        if s.phase == "over":
            if s.winner is None:
                values[k, :] = 0.0
            else:
                values[k, :] = -WIN_VALUE
                values[k, s.winner - 1] = WIN_VALUE
    return values, feats


def _pick(rng: Any, values: Sequence[float]) -> int:
    best = max(values)
    tied = [k for k, v in enumerate(values) if v >= best - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _threat_notes(state: Any, board: list[int], action: Move) -> list[str]:
    """Why a move matters tactically: blocks and new winning tiles, in words."""
    seat = state.to_move
    rules = state.rules
    capture_any = rules.capture == "any"
    notes = []
    i = tile_of(action)
    for other in range(1, state.players + 1):
        if other != seat:
            pattern = winning_tiles(board, other, capture_any, rules.suicide).get(i)
            if pattern:
                notes.append(f"blocks seat {other}'s {pattern} at {tile_text(i)}")
                break
    before = winning_tiles(board, seat, capture_any, rules.suicide)
    child_board = board_of(after(state, action))
    now = winning_tiles(child_board, seat, capture_any, rules.suicide)
    new = sorted(set(now) - set(before))
    if new:
        notes.append("threatens a win at " + ", ".join(tile_text(t) for t in new[:3]))
    return notes


def _children_or_win(
    state: Any, targets: list[Move]
) -> tuple[int, list[int], list[Any], Decision | None]:
    """The mover, the board, each move's resulting state, and a winning move if any."""
    seat = state.to_move
    board = board_of(state)
    children = [after(state, a) for a in targets]
    for action, child in zip(targets, children, strict=True):
        if child.winner == seat:
            return (
                seat,
                board,
                children,
                Decision(action, f"Wins: {describe(state, action, board)}"),
            )
    return seat, board, children, None


class HardPlayer(Player):
    """Scores every legal move by a weighted evaluation of the position it leaves.

    The evaluation (engine.players.evaluation) weighs both sides' immediate winning
    chances (lines and squares one tile short, counting suicide tiles and the capture
    rule), open patterns by how many tiles are held and how likely the rest is to be
    rolled (which favours the centre), and material (captures).
    """

    level = "hard"

    def __init__(self, seed: int = 1, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()

    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        seat, board, children, win = _children_or_win(state, targets)
        if win is not None:
            return win
        values, _ = leaf_values(children, self.weights)
        mine = [float(v) for v in values[:, seat - 1]]
        k = _pick(self._rng, mine)
        return Decision(targets[k], _reason(state, board, targets, mine, k, "score"))


def _reason(
    state: Any, board: list[int], targets: list[Move], values: list[float], k: int, word: str
) -> str:
    action = targets[k]
    parts = [capitalised(describe(state, action, board))]
    parts += _threat_notes(state, board, action)
    others = [j for j in range(len(targets)) if j != k]
    runner = max(others, key=lambda j: values[j])
    parts.append(
        f"{word} {values[k]:+.2f} vs {values[runner]:+.2f} for "
        f"{describe(state, targets[runner], board)}"
    )
    return "; ".join(parts)


@dataclass(frozen=True)
class _Leaf:
    candidate: int
    probability: float
    #: Index range into the flat leaf list: one leaf, or the mover's options after a roll.
    start: int
    stop: int
    mover: int


class ExpectimaxPlayer(Player):
    """Exact expectimax over the next roll, with the Hard evaluation at the leaves.

    Not one of the levels: against Hard it won 143 of 300 games (47.7%), the sampled
    deeper look-ahead of :class:`ExpertPlayer` 461 of 900 (51.2%); both are within noise
    of Hard. Kept as a reference and for its exact "an opponent wins on the next roll"
    figure.

    For each legal move it applies every class of the next roll (the 1296 rolls grouped
    into 74 classes by tile pair and special kind: quad, Vapooh, VAPOOSH!), lets whoever
    then places pick their best reply by the Hard evaluation from their own seat, and
    averages the resulting values by probability. Wins and losses inside that horizon are
    counted exactly.
    """

    level = "expectimax"

    def __init__(self, seed: int = 1, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()

    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        seat, board, children, win = _children_or_win(state, targets)
        if win is not None:
            return win
        flat: list[Any] = []
        plan: list[_Leaf] = []
        for k, child in enumerate(children):
            if child.phase == "over":
                plan.append(_Leaf(k, 1.0, len(flat), len(flat) + 1, 0))
                flat.append(child)
                continue
            for chance in geo.CHANCE_CLASSES:
                rolled = child.clone()
                rolled.apply(Roll(chance.dice))
                start = len(flat)
                if rolled.phase == "place":
                    flat.extend(after(rolled, a) for a in rolled.targets())
                    plan.append(_Leaf(k, chance.probability, start, len(flat), rolled.to_move))
                else:
                    flat.append(rolled)
                    plan.append(_Leaf(k, chance.probability, start, start + 1, 0))
        values, _ = leaf_values(flat, self.weights)
        expected = [0.0] * len(targets)
        lose = [0.0] * len(targets)
        for leaf in plan:
            block = values[leaf.start : leaf.stop]
            row = 0 if leaf.mover == 0 else int(np.argmax(block[:, leaf.mover - 1]))
            expected[leaf.candidate] += leaf.probability * float(block[row, seat - 1])
            if flat[leaf.start + row].winner not in (None, seat):
                lose[leaf.candidate] += leaf.probability
        k = _pick(self._rng, expected)
        reason = _reason(state, board, targets, expected, k, "expects")
        others = [j for j in range(len(targets)) if j != k]
        runner = max(others, key=lambda j: expected[j])
        # VAPOOSH! alone gives every move a 0.08% loss: mention only real dangers.
        if max(lose[k], lose[runner]) >= 0.01:
            reason += f"; an opponent wins on the next roll {lose[k]:.1%} (vs {lose[runner]:.1%})"
        return Decision(targets[k], reason)


class ExpertPlayer(Player):
    """Sampled look-ahead: every move is tried against the same sampled dice futures.

    ``futures`` dice sequences of ``depth`` rolls are drawn once per decision (seeded);
    for each legal move every future is played out with all seats choosing by the Hard
    evaluation from their own seat, and the move's value is the mean of the final
    positions' values (wins and losses counted exactly). Sharing the futures between the
    moves (common random numbers) cancels most of the dice noise in the comparison.
    """

    level = "expert"

    def __init__(
        self, seed: int = 1, weights: Weights | None = None, futures: int = 48, depth: int = 4
    ) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()
        self.futures = futures
        self.depth = depth

    def _choose(self, state: Any, targets: list[Move]) -> Decision:
        seat, board, children, win = _children_or_win(state, targets)
        if win is not None:
            return win
        rolls = [
            [self._rng.randrange(1296) for _ in range(self.depth)] for _ in range(self.futures)
        ]
        expected: list[float] = []
        lost: list[int] = []
        for child in children:
            sims = [child.clone() for _ in range(self.futures)]
            for step in range(self.depth):
                waiting = []
                for j, sim in enumerate(sims):
                    if sim.phase == "roll":
                        sim.apply_action(rolls[j][step])  # roll ids: the 1296 ordered dice
                    if sim.phase == "place":
                        waiting.append(j)
                if not waiting:
                    continue
                options = [(j, after(sims[j], a)) for j in waiting for a in sims[j].targets()]
                values, _ = leaf_values([o[1] for o in options], self.weights)
                best: dict[int, tuple[float, Any]] = {}
                for row, (j, option) in enumerate(options):
                    v = float(values[row, sims[j].to_move - 1])
                    if j not in best or v > best[j][0]:
                        best[j] = (v, option)
                for j, (_, option) in best.items():
                    sims[j] = option
            values, _ = leaf_values(sims, self.weights)
            expected.append(float(values[:, seat - 1].mean()))
            lost.append(sum(1 for s in sims if s.winner not in (None, seat)))
        k = _pick(self._rng, expected)
        reason = _reason(state, board, targets, expected, k, "expects")
        return Decision(
            targets[k],
            f"{reason}; over {self.futures} sampled {self.depth}-roll futures, lost in {lost[k]}",
        )
