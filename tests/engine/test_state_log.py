"""The part of every game's state that engine.core's StateLog keeps alike (history, last
events, start, the record, the snapshot's envelope), checked on each registered game
after random play: snapshots and records restore equal states, the envelope has one
shape for every game, and a bad history names its field."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import RulesError, StateLog, make_game, sample_chance

# (game, rules, seats, the snapshot's key for the rules)
GAMES = [
    ("vapoosh", "standard", 2, "rules"),
    ("morris", "standard", 2, "rules"),
    ("vasco", {"pool": 24}, 2, "rules"),
    ("dokusen", "S4", 1, "stage"),
]


def _played(name: str, rules: Any, players: int, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = make_game(name, rules, players).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "rules", "players", "rules_key"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_every_game_keeps_its_log_and_snapshot_envelope_alike(
    name: str, rules: Any, players: int, rules_key: str
) -> None:
    game = make_game(name, rules, players)
    for seed in range(3):
        state = _played(name, rules, players, seed, 12)
        assert isinstance(state, StateLog)
        # a slotted state stays slotted: the log's slots are the base's
        assert hasattr(state, "__dict__") == ("__slots__" not in type(state).__dict__)
        snapshot = state.to_json()
        keys = list(snapshot)
        assert keys[:3] == ["game", rules_key, "players"]
        assert keys[-3:] == ["history", "last_events", "start"]
        assert snapshot["game"] == name and snapshot["players"] == players
        assert snapshot["history"] == [game.action_to_json(a) for a in state.history]
        assert snapshot["last_events"] == [e.to_dict() for e in state.last_events]
        restored = game.state_from_json(snapshot)
        assert restored == state and restored.to_json() == snapshot
        record = state.record()
        assert (record.game, record.rules, record.players) == (
            name, snapshot[rules_key], players)
        assert record.replay() == state
        # the properties are copies: changing them leaves the state alone
        state.history.append(-1)
        state.last_events.clear()
        assert state.to_json() == snapshot


@pytest.mark.parametrize(("name", "rules", "players", "rules_key"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_bad_log_in_a_snapshot_names_its_field(
    name: str, rules: Any, players: int, rules_key: str
) -> None:
    game = make_game(name, rules, players)
    snapshot = _played(name, rules, players, 1, 6).to_json()
    with pytest.raises(RulesError, match=r"^state\.history: action: "):
        game.state_from_json({**snapshot, "history": [["fly", [1, 2]]]})
    with pytest.raises(RulesError, match=r"^state\.history: malformed "):
        game.state_from_json({**snapshot, "history": 3})
    with pytest.raises(RulesError, match=r"^state\.last_events: malformed "):
        game.state_from_json({**snapshot, "last_events": [{"seat": 1}]})
    with pytest.raises(RulesError, match=r"^state\.start: malformed "):
        game.state_from_json({**snapshot, "start": [1, 2]})
    without_log = {k: v for k, v in snapshot.items()
                   if k not in ("history", "last_events", "start")}
    bare = game.state_from_json(without_log)
    assert bare.history == [] and bare.last_events == [] and bare.to_json()["start"] is None


def _fifth_game() -> Any:
    from tests.fifth_game.engine import TicTacToeGame

    return TicTacToeGame()


#: every game on the base: the four engine games and the fifth game of tests/fifth_game
ALL_GAMES = [pytest.param(lambda g=g: make_game(g[0], g[1], g[2]), id=g[0]) for g in GAMES] + [
    pytest.param(_fifth_game, id="fifth_game")]
LOG_KEYS = ("history", "last_events", "start")


def _play(state: Any, rng: random.Random, steps: int) -> list[int]:
    played = []
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() < 0:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played.append(action)
    return played


def _position(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k not in LOG_KEYS}


@pytest.mark.parametrize("make", ALL_GAMES)
def test_a_fresh_state_has_an_empty_log_and_a_record_begun_at_a_snapshot_replays(
    make: Any
) -> None:
    game = make()
    fresh = game.start_state(None)
    assert fresh.history == [] and fresh.last_events == [] and fresh.record().start is None
    assert fresh.to_json() == game.new_initial_state().to_json()
    for seed in range(3):
        rng = random.Random(seed)
        played = game.new_initial_state()
        _play(played, rng, 3 + seed)
        snapshot = played.to_json()
        assert snapshot["history"]  # the snapshot's own log is not empty
        begun = game.start_state(snapshot)
        # the record begins at the snapshot: the log is empty, the position the snapshot's
        assert begun.history == [] and begun.last_events == []
        assert begun.game is game and begun.to_json()["start"] == snapshot
        assert _position(begun.to_json()) == _position(snapshot)
        copy = begun.clone()
        after = _play(begun, rng, 4)
        assert copy.history == [] and _position(copy.to_json()) == _position(snapshot)
        record = begun.record()
        assert record.start == snapshot
        assert list(record.actions) == [game.action_to_json(a) for a in after]
        assert record.replay().to_json() == begun.to_json()
