"""Vapoosh! as an ``engine.core.PlayableState``: targets, clicks and the text view agree
with the rules (``targets()``, ``apply``) and with the wrong-click classifier, on every
tile of positions reached by random play under every preset."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalActionError, PlayableState, sample_chance
from engine.vapoosh import PRESETS, Brown, Place, VapooshGame, VapooshState, classify_click
from engine.vapoosh.board import SIZE

TILES = [(c, r) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)]


def _place_states(preset: str, players: int, seed: int, limit: int = 40) -> list[VapooshState]:
    """Positions where a placement is due, from one random game."""
    rng = random.Random(seed)
    state = VapooshGame(preset, players).new_initial_state()
    found: list[VapooshState] = []
    while not state.is_terminal() and len(found) < limit:
        if state.phase == "place":
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(sample_chance(state, rng))
    return found


def test_a_vapoosh_state_is_a_playable_state() -> None:
    assert isinstance(VapooshGame("standard", 2).new_initial_state(), PlayableState)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_clicks_agree_with_the_rules_and_the_classifier(preset: str) -> None:
    checked = refused_rule = 0
    for seed in range(6):
        for state in _place_states(preset, 2 + seed % 3, seed):
            legal = {(t.c, t.r, isinstance(t, Brown)) for t in state.targets()}
            forced = all(brown for _, _, brown in legal)
            for brown_chosen in (False, True):
                selection = ("brown",) if brown_chosen else ()
                use_brown = brown_chosen or forced
                targets = state.legal_targets(selection)
                assert targets == [f"{c},{r}" for c, r, b in sorted(legal) if b == use_brown]
                for c, r in TILES:
                    result = state.click(f"{c},{r}", selection)
                    verdict = classify_click(state, c, r)
                    assert result.fields["expected"] == verdict.expected
                    assert result.fields["brown"] is use_brown
                    if (c, r, use_brown) in legal:
                        assert result.ok and f"{c},{r}" in targets
                        move = Brown(c, r) if use_brown else Place(c, r)
                        assert result.action == state.game.encode(move)
                        state.clone().apply_action(result.action)  # legal: no error
                        continue
                    assert result.action is None and result.refusal is not None
                    with pytest.raises(IllegalActionError):
                        state.clone().apply(Brown(c, r) if use_brown else Place(c, r))
                    if verdict.ok:  # the right tile, the wrong kind of counter
                        assert result.fields["wrong_kind"] == "rule"
                    else:
                        assert result.fields["wrong_kind"] == verdict.kind
                        assert result.refusal.message == verdict.message
                    if result.fields["wrong_kind"] == "rule":
                        refused_rule += 1
                        assert result.refusal.reason == result.fields["rule_reason"]
                    else:
                        assert result.refusal.reason == verdict.kind
                    checked += 1
    assert checked > 1000 and refused_rule > 0


def test_clicks_outside_a_placement_and_bad_targets_are_refused_with_a_reason() -> None:
    state = VapooshGame("standard", 2).new_initial_state()
    assert state.legal_targets() == []
    assert state.click("5,8").refusal is not None
    assert state.click("5,8").refusal.reason == "must_roll"  # type: ignore[union-attr]
    place = _place_states("standard", 2, 1, limit=1)[0]
    for bad in ("13,1", "0,0", "x", "", "5;8", "5,8,1"):
        result = place.click(bad)
        assert result.refusal is not None and result.refusal.reason == "not_a_tile"
    house = VapooshGame("house", 2).new_initial_state()
    assert house.click("1,1").refusal.reason == "must_deal"  # type: ignore[union-attr]


def test_the_text_view_says_whose_turn_and_shows_the_board() -> None:
    state = _place_states("standard", 3, 2, limit=5)[-1]
    lines = state.to_text().splitlines()
    assert lines[0].startswith(f"seat {state.to_move} to place: dice ")
    assert lines[1:] == state.board_rows()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.current_player() < 0
                           else rng.choice(state.legal_actions()))
    assert state.to_text().startswith("over: ")
