"""The demo's simulated clicks are the engine's: replaying a simulated game's click events
against the engine (the same targets, the same selection) gives the same verdicts, the
same refusal reasons and the same actions as its stored record, for every game played
through the engine core's clicks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from analytics.data import UNNAMED_GAME
from engine.core import CHANCE
from playtest import demo_play
from playtest.games.registry import game_names, game_plugin

OTHER_GAMES = [name for name in game_names() if name != UNNAMED_GAME]


class _Tester:
    """A tester unsure of the rules (many slips), as demo.SimulatedTester looks to the
    error model."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rules = 0.1
        self.pace = 1.0
        self.moves_made = 0


def _simulated(game: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    return _played(game_plugin(game), seed, _Tester(seed))


def _played(plugin: Any, seed: int, tester: _Tester) -> list[tuple[str, dict[str, Any]]]:
    log: list[tuple[str, dict[str, Any]]] = []
    demo_play.play_game(plugin, rules=plugin.default_rules, seats=list(plugin.default_seats),
                        seed=seed, game_id=f"g{seed}", tester=tester, highlight=False,
                        log=lambda kind, props: log.append((kind, props)), clock=[0.0])
    return log


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_simulated_clicks_replay_to_the_same_verdicts_and_record(game: str) -> None:
    plugin = game_plugin(game)
    refusals: set[str] = set()
    for seed in (1, 2, 3):
        log = _simulated(game, seed)
        kinds = [kind for kind, _ in log]
        assert kinds[0] == "game_start" and kinds[-1] == "game_end"
        start, end = log[0][1], log[-1][1]
        assert start["game"] == game
        engine_game = plugin.make_game(start["rules"], len(start["seats"]))
        state: Any = engine_game.new_initial_state()
        record = [engine_game.action_from_json(a) for a in end["record"]]
        done = 0
        selection: tuple[str, ...] = ()
        for kind, props in log:
            if kind != "click":
                continue
            # the actions before this click: chance draws and the computer's moves
            while state.current_player() != props["seat"] - 1:
                assert state.current_player() == CHANCE or \
                    start["seats"][state.current_player()] != "human"
                state.apply_action(record[done])
                done += 1
            result = state.click(props["target"], selection)
            assert result.ok is props["ok"]
            assert result.refusal is None or result.refusal.reason == props["reason"]
            if not result.ok:
                refusals.add(props["reason"])
            selection = tuple(result.selection)
            if result.action is not None:
                assert result.action == record[done]
                state.apply_action(record[done])
                done += 1
        for action in record[done:]:  # the computer's and chance's last actions
            assert state.current_player() == CHANCE or \
                start["seats"][state.current_player()] != "human"
            state.apply_action(action)
        assert state.is_terminal() and end["turns"] == len(record)
    assert refusals, "testers unsure of the rules made no refused click"


def test_a_tester_sure_of_the_rules_slips_less_and_learns() -> None:
    """The error model: fewer refused clicks for testers sure of the rules, and fewer in
    later moves than in the first ones (learning)."""
    game = OTHER_GAMES[0]
    plugin = game_plugin(game)

    def refused(rules: float, seeds: range) -> tuple[int, int]:
        early = late = 0
        for seed in seeds:
            tester = _Tester(seed)
            tester.rules = rules
            log = _played(plugin, seed, tester)
            moves = 0
            for kind, props in log:
                if kind == "click" and props["ok"]:
                    moves += 1
                elif kind == "click":
                    if moves < 20:
                        early += 1
                    elif moves < 40:
                        late += 1
        return early, late

    unsure_early, unsure_late = refused(0.2, range(8))
    sure_early, _ = refused(0.9, range(8))
    assert sure_early < unsure_early
    assert unsure_late < unsure_early
