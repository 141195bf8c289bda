"""The Replay page: restarted and abandoned games are labelled as such, and the step
caption says the step the slider is on."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import replay
from playtest.games.registry import game_plugin, games
from playtest.storage import repository as repo
from tests.app.games_of_every_kind import mixed_games

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _replay_page(tester: str) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "replay"
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = "mixed"
    at.session_state["replay_tester"] = tester
    return at.run()


def test_every_game_is_labelled_by_how_it_ended(db: Engine) -> None:
    mixed = mixed_games(db)
    at = _replay_page(mixed.app_tester)
    assert not at.exception, at.exception
    picker = at.selectbox(key="replay_game")
    labels = dict(zip([g.game_id for g in replay.games_of(db, mixed.app_tester)],
                      picker.options, strict=True))
    assert "played out: seat" in labels[mixed.played_out] and " won" in labels[mixed.played_out]
    assert "restarted (abandoned" in labels[mixed.restarted]
    assert "left unfinished (abandoned" in labels[mixed.left]
    # Before the fix all three read "finished".
    assert not any("· finished ·" in label for label in labels.values())
    picker.select_index(list(labels).index(mixed.restarted)).run()
    assert "This game: restarted (abandoned, does not count)." in [c.value for c in at.caption]
    going = _replay_page(mixed.waiting_tester)
    assert "not ended" in going.selectbox(key="replay_game").options[0]


def test_the_step_caption_matches_the_slider(db: Engine) -> None:
    mixed = mixed_games(db)
    at = _replay_page(mixed.app_tester)
    game = repo.load_game(db, mixed.played_out)
    assert game is not None
    slider = at.slider(key=f"replay_step-{mixed.played_out}")
    total = len(game.actions)
    assert (slider.min, slider.max, slider.value) == (1, total, total)
    for number in (1, 2, 5, total):
        slider.set_value(number).run()
        captions = [str(c.value) for c in at.caption if str(c.value).startswith("Step ")]
        assert len(captions) == 1
        assert captions[0].startswith(f"Step {number} of {total}: "), captions[0]
    slider.set_value(1).run()
    first = next(str(c.value) for c in at.caption if str(c.value).startswith("Step "))
    assert "seat 1 (tester) rolled" in first


@pytest.mark.parametrize("game", [p.name for p in games()])
def test_every_game_replays_on_its_board_step_by_step(db: Engine, game: str) -> None:
    """Each game's Replay is its read-only board (its plug-in's ``replay``), never the
    engine's text in a code block; the slider moves the board and the caption."""
    import random

    from engine.core import sample_chance
    from playtest import services
    from playtest.study_config import StudyConfig

    plugin = game_plugin(game)
    assert plugin.replay is not None, game
    seats = ["human", *plugin.default_seats[1:]]
    study = services.create_study(db, title="Other game", study_id="mixed",
                                  config=StudyConfig(game=plugin.name, seats=seats))
    tester = services.consent(db, study, {"child": False}).participant_id
    engine_game = plugin.make_game(plugin.default_rules, len(seats))
    state = engine_game.new_initial_state()
    rng = random.Random(3)
    game_id = repo.create_game(db, tester, None, plugin.default_rules, seats, 1,
                               game=plugin.name)
    steps = 0
    while steps < 8 and not state.is_terminal():
        action = sample_chance(state, rng) if state.current_player() < 0 else \
            rng.choice(state.legal_actions())
        repo.append_game_action(db, game_id, steps, engine_game.action_to_json(action))
        state.apply_action(action)
        steps += 1
    at = _replay_page(tester)
    assert not at.exception, at.exception
    assert list(at.code) == []
    assert any(c.value.startswith(f"Step {steps} of {steps}: ") for c in at.caption)
    at.slider(key=f"replay_step-{game_id}").set_value(2).run()
    assert not at.exception, at.exception
    assert any(c.value.startswith(f"Step 2 of {steps}: ") for c in at.caption)
