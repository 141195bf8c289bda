"""Hypothesis property tests over random action histories, every preset and 1-4 seats."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, TERMINAL, IllegalActionError
from engine.vapoosh import Rules, VapooshGame, VapooshState
from engine.vapoosh.actions import DEAL_BASE

RULE_SETS = {
    "standard": "standard",
    "classic": "classic",
    "house": "house",
    "group": {"base": "standard", "surround": "group"},
    "short": {"base": "house", "max_turns": 12, "capture": "any"},
}
COMBOS = [(name, seats) for name in RULE_SETS for seats in (1, 2, 3, 4)]
PROBES = (0, 700, 1295, 1296, 1300, 1439, 1440, 1500, 1583, DEAL_BASE + 5, -1)


def check_step(state: VapooshState, probe: int) -> None:
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL and legal == [] and state.phase == "over"
        assert state.outcome is not None
    elif player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
    else:
        assert player == state.to_move - 1 and state.phase == "place"
        assert 1 <= len(legal) <= 4
        assert legal == sorted(state.game.encode(t) for t in state.targets())
    clone = state.clone()
    assert clone == state
    if probe not in legal and not (state.phase == "setup" and probe >= DEAL_BASE):
        with pytest.raises(IllegalActionError):
            state.apply_action(probe)
        assert state == clone  # == compares every field, history and last events included


@pytest.mark.parametrize(("rules", "seats"), COMBOS, ids=[f"{r}-{s}" for r, s in COMBOS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=40))
def test_random_histories_keep_the_invariants(rules: str, seats: int, choices: list[int]) -> None:
    game = VapooshGame(Rules.from_obj(RULE_SETS[rules]), seats)
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        assert state.turns <= game.rules.max_turns
        choice = choices[step % len(choices)] + step
        check_step(state, PROBES[choice % len(PROBES)])
        legal = state.legal_actions()
        before = state.clone()
        events = state.apply_action(legal[choice % len(legal)])
        assert events and state.last_events == events
        assert all(e.seat is None or 1 <= e.seat <= seats for e in events)
        assert before != state
        if step % 9 == 0:
            again = VapooshState.from_json(json.loads(json.dumps(state.to_json())))
            assert again == state
        step += 1
    check_step(state, PROBES[step % len(PROBES)])
    assert state.turns <= game.rules.max_turns
    assert sum(state.returns()) == pytest.approx(0.0 if seats > 1 else state.returns()[0])
    assert state.record().replay() == state
    assert VapooshState.from_json(json.loads(json.dumps(state.to_json()))) == state
