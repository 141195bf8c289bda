"""The engines' fast paths against the plain path: seeded random games played through both,
every state compared whole.

Each game whose engine was made faster (bit masks, tables, incremental state) keeps the
state class it had before as test-only code (``tests/engine/plain/``: not registered, not
product code). Here both play the same seeded random games side by side; after every
action the two states must agree on everything a caller can see: ``to_json()`` (the
whole position, history, last events), whose turn, the legal actions in order, the
returns, the events the action emitted, the click targets, and the refusal (reason and
words) of an illegal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import CHANCE, IllegalActionError, sample_chance
from engine.dokusen import DokusenGame, builtin_stages
from engine.morris import MorrisGame
from engine.vasco import STATES, Place, VascoGame
from tests.engine.plain import dokusen_state as plain_dokusen
from tests.engine.plain import morris_state as plain_morris
from tests.engine.plain import vasco_state as plain_vasco

GAMES_PER_CASE = 12


def refusal_of(state: Any, action: int) -> tuple[str, str] | str:
    """How ``state`` refuses ``action`` (``"applied"`` when it does not), on a clone."""
    try:
        state.clone().apply_action(action)
    except IllegalActionError as err:
        return err.reason, str(err)
    return "applied"


def play_side_by_side(
    fast: Any, plain: Any, seed: int, targets: Callable[[Any], Any], illegal: Callable[
        [Any, random.Random], int], max_plies: int = 2000,
) -> int:
    """One seeded random game through both states; returns the plies played."""
    rng = random.Random(seed)
    plies = 0
    while True:
        assert fast.to_json() == plain.to_json()
        assert fast.current_player() == plain.current_player()
        assert fast.is_terminal() == plain.is_terminal()
        assert fast.returns() == plain.returns()
        legal = fast.legal_actions()
        assert legal == plain.legal_actions()
        assert targets(fast) == targets(plain)
        if fast.is_terminal() or plies >= max_plies:
            return plies
        wrong = illegal(fast, rng)
        assert refusal_of(fast, wrong) == refusal_of(plain, wrong)
        if fast.current_player() == CHANCE:
            assert fast.chance_outcomes() == plain.chance_outcomes()
            action = sample_chance(fast, rng)
        else:
            action = rng.choice(legal)
        assert fast.apply_action(action) == plain.apply_action(action)
        plies += 1


# ----- Bricks & Walls --------------------------------------------------------------------

MORRIS_RULES = [
    "standard",
    "classic",
    {"base": "standard", "flying": False},
    {"base": "standard", "bricks": 3},
    {"base": "standard", "bricks": 11, "move_cap": 30},
    {"base": "classic", "bricks": 5, "flying": False},
]


def morris_targets(state: Any) -> Any:
    own = state.legal_targets()
    return own, [state.legal_targets([t]) for t in own[:3]], state.phase, state.to_text()


def morris_illegal(state: Any, rng: random.Random) -> int:
    return rng.randrange(0, 624)


@pytest.mark.parametrize("rules", MORRIS_RULES, ids=str)
def test_morris_fast_path_plays_every_game_as_the_plain_path(rules: Any) -> None:
    plies = 0
    for seed in range(GAMES_PER_CASE):
        fast = MorrisGame(rules).new_initial_state()
        plain = plain_morris.MorrisGame(rules).new_initial_state()
        plies += play_side_by_side(fast, plain, seed, morris_targets, morris_illegal)
    assert plies > GAMES_PER_CASE * 20


def test_morris_fast_path_from_json_positions() -> None:
    """States rebuilt from snapshots mid-game (start positions) go on alike."""
    rng = random.Random(7)
    for seed in range(10):
        s = MorrisGame().new_initial_state()
        for _ in range(rng.randrange(10, 60)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        snap = s.to_json()
        fast = MorrisGame().start_state(snap)
        plain = plain_morris.MorrisGame().start_state(snap)
        play_side_by_side(fast, plain, seed, morris_targets, morris_illegal)


# ----- Dokusen ---------------------------------------------------------------------------


def dokusen_targets(state: Any) -> Any:
    clicks = [state.click(f"{r},{c}") for r in range(-1, 3) for c in range(-1, 3)]
    return state.legal_targets(), clicks, state.to_text(), state.counts()


def dokusen_illegal(state: Any, rng: random.Random) -> int:
    return rng.randrange(0, 2 * state.game.grid.size)


@pytest.mark.parametrize("stage", [s.id for s in builtin_stages()])
def test_dokusen_fast_path_plays_every_game_as_the_plain_path(stage: str) -> None:
    for seed in range(GAMES_PER_CASE):
        fast = DokusenGame(stage).new_initial_state()
        plain = plain_dokusen.DokusenGame(stage).new_initial_state()
        play_side_by_side(fast, plain, seed, dokusen_targets, dokusen_illegal)


# ----- Vasco -----------------------------------------------------------------------------


def vasco_targets(state: Any) -> Any:
    cells = state.legal_targets()
    return (cells, [state.legal_targets([c]) for c in cells[:2]], state.legal_targets(["ox*"]),
            [state.click(c) for c in ("0,0", "1,1", "-1,2", "2,-1")], state.to_text())


def vasco_illegal(state: Any, rng: random.Random) -> int:
    """A placement next to the group, mostly refused (to compare the refusals' words)."""
    cells = sorted(state.tiles) or [(0, 0)]
    r, c = rng.choice(cells)
    return state.game.encode(
        Place(r + rng.randrange(-2, 3), c + rng.randrange(-2, 3), rng.choice(STATES))
    )


@pytest.mark.parametrize("pool", [54, 24, 8])
def test_vasco_fast_path_plays_every_game_as_the_plain_path(pool: int) -> None:
    for seed in range(GAMES_PER_CASE):
        rules = {"base": "standard", "pool": pool}
        fast = VascoGame(rules).new_initial_state()
        plain = plain_vasco.VascoGame(rules).new_initial_state()
        play_side_by_side(fast, plain, seed, vasco_targets, vasco_illegal)


@pytest.mark.parametrize("pool", [54, 12])
def test_vasco_clones_and_their_moves_play_as_the_plain_path(pool: int) -> None:
    """A state keeps what each candidate's cascade gave and lends it to the positions after
    it (and clones share it, as a search's children do): clones that play other moves, with
    or without their own legal actions asked first, and their clones' replies, give the
    plain path's events, states and legal actions."""
    rules = {"base": "standard", "pool": pool}
    for seed in range(GAMES_PER_CASE // 2):
        rng = random.Random(seed)
        fast = VascoGame(rules).new_initial_state()
        plain = plain_vasco.VascoGame(rules).new_initial_state()
        while not fast.is_terminal():
            legal = fast.legal_actions()
            assert legal == plain.legal_actions()
            for action in rng.sample(legal, min(3, len(legal))):
                child, plain_child = fast.clone(), plain.clone()
                assert child.apply_action(action) == plain_child.apply_action(action)
                assert child.to_json() == plain_child.to_json()
                if plain_child.is_terminal():
                    continue
                if rng.random() < 0.5:  # else the reply's position reuses the parent's cascades
                    assert child.legal_actions() == plain_child.legal_actions()
                reply = rng.choice(plain_child.legal_actions())
                grand, plain_grand = child.clone(), plain_child.clone()
                assert grand.apply_action(reply) == plain_grand.apply_action(reply)
                assert grand.to_json() == plain_grand.to_json()
                assert grand.legal_actions() == plain_grand.legal_actions()
                assert child.legal_actions() == plain_child.legal_actions()
            action = rng.choice(legal)
            assert fast.apply_action(action) == plain.apply_action(action)


# ----- Vapoosh ---------------------------------------------------------------------------


def test_vapoosh_roll_targets_by_roll_id_equal_the_plain_statuses() -> None:
    """The per-roll table (``roll``) answers every roll as the option-by-option path does,
    on seeded random boards of every fullness, for both seats and every rule switch."""
    from engine.vapoosh.actions import ROLL_COUNT
    from engine.vapoosh.primitives import BROWN_OPTIONAL, NO_BROWN, ROLL_OPTIONS, roll_targets

    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        fill = rng.random()
        masks = [0, 0]
        brown = 0
        for i in range(144):
            x = rng.random()
            if x < fill * 0.45:
                masks[0] |= 1 << i
            elif x < fill * 0.9:
                masks[1] |= 1 << i
            elif x < fill:
                brown |= 1 << i
        for roll in rng.sample(range(ROLL_COUNT), 60):
            opts = ROLL_OPTIONS[roll]
            for seat in (0, 1):
                for browns in (NO_BROWN, BROWN_OPTIONAL):
                    for capture_any in (False, True):
                        for suicide in (False, True):
                            args = (masks, brown, seat, opts, browns, capture_any, suicide)
                            assert roll_targets(*args, roll) == roll_targets(*args)
                            checked += 1
    assert checked > 100_000


def test_vapoosh_win_reason_equals_every_window_through_the_new_tiles() -> None:
    from engine.vapoosh.board import LINE_WINDOWS, SQUARE_WINDOWS, bits, win_reason

    def plain(mine: int, gained: int) -> str | None:
        if any(mine & w == w for i in bits(gained) for w in LINE_WINDOWS[i]):
            return "four_in_row"
        if any(mine & w == w for i in bits(gained) for w in SQUARE_WINDOWS[i]):
            return "square"
        return None

    rng = random.Random(4)
    wins = 0
    for _ in range(30_000):
        mine = 0
        for _ in range(rng.randrange(1, 45)):
            mine |= 1 << rng.randrange(144)
        gained = 1 << rng.randrange(144)
        if rng.random() < 0.2:
            gained |= 1 << rng.randrange(144)
        mine |= gained
        assert win_reason(mine, gained) == plain(mine, gained)
        wins += plain(mine, gained) is not None
    assert wins > 1000
