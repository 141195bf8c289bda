"""A study's computer seats name levels of its own game: the engine's registered levels
(``engine.players.register_levels``), else the levels its plug-in's default seats name,
else none; a wrong level is refused with a one-line message listing that game's levels,
and the Studies page's seats field lists them."""

from __future__ import annotations

import pytest

from engine.players import PlayerError, levels
from playtest.app_pages.designer import seats_label
from playtest.games.registry import game_names, game_plugin, games
from playtest.study_config import StudyConfigError, ai_levels, parse_study_config


def _registered(game: str) -> tuple[str, ...] | None:
    try:
        return levels(game)
    except PlayerError:
        return None


@pytest.mark.parametrize("game", game_names())
def test_each_game_s_levels_come_from_its_engine_registration(game: str) -> None:
    plugin = game_plugin(game)
    registered = _registered(game)
    if registered is not None:
        assert ai_levels(game) == registered
    else:
        named = tuple(s[3:] for s in plugin.default_seats if s.startswith("ai:"))
        assert ai_levels(game) == named
    # Every level it offers makes a valid study with a human seat (within its seat count).
    low, high = plugin.seats
    for level in ai_levels(game):
        if high >= 2:
            config = parse_study_config({"game": game, "seats": ["human", f"ai:{level}"]})
            assert config.seats == ["human", f"ai:{level}"]


def test_levels_differ_between_games_and_a_foreign_level_is_refused_naming_the_game_s() -> None:
    by_game = {p.name: ai_levels(p.name) for p in games() if p.seats[1] >= 2}
    # a level some game has and another two-seat game lacks (the first game's strongest
    # level is not every game's)
    pairs = [(level, game) for level in {lv for lvs in by_game.values() for lv in lvs}
             for game, lvs in by_game.items() if level not in lvs and lvs]
    assert pairs, "every two-seat game has the same levels: nothing to refuse"
    level, game = pairs[0]
    with pytest.raises(StudyConfigError) as refused:
        parse_study_config({"game": game, "seats": ["human", f"ai:{level}"]})
    message = str(refused.value)
    assert "\n" not in message
    assert f"ai:{level}" in message and game_plugin(game).title in message
    assert ", ".join(by_game[game]) in message


@pytest.mark.parametrize("game", game_names())
def test_a_computer_seat_the_game_lacks_is_refused_saying_what_it_offers(game: str) -> None:
    """Its levels listed, or, for a game without computer seats, that it has none."""
    plugin = game_plugin(game)
    seats = ["human", "ai:no-such-level"][-plugin.seats[1]:]
    with pytest.raises(StudyConfigError) as refused:
        parse_study_config({"game": game, "seats": seats})
    message = str(refused.value)
    assert "\n" not in message and "ai:no-such-level" in message
    if ai_levels(game):
        assert f"{plugin.title} from {', '.join(ai_levels(game))}" in message
    else:
        assert f"{plugin.title} has no computer seats" in message


@pytest.mark.parametrize("game", game_names())
def test_the_studies_page_seats_help_lists_the_game_s_levels(game: str) -> None:
    label = seats_label(game_plugin(game))
    assert label == "Seats (comma separated: " + ", ".join(
        ["human", *(f"ai:{level}" for level in ai_levels(game))]) + ")"
