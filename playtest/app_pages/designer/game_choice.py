"""A study's game on the Studies page: chosen from the registry for a new study, with its
presets and rule options shown before the form is filled in, fixed once a study exists;
and the display settings its board offers, each with its choices."""

from __future__ import annotations

from typing import Any

import streamlit as st

from playtest.experiment_choices import ui_settings
from playtest.games.registry import GamePlugin, game_plugin, games
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig

#: The widget key of each display setting (kept from before settings were per game).
UI_KEYS = {"highlight_options": "hl", "show_computer_dice": "dice", "speed": "speed"}


def seats_label(plugin: GamePlugin) -> str:
    """The seats field's label: the seat kinds this game's studies may use."""
    kinds = ["human", *(f"ai:{level}" for level in plugin.ai_levels())]
    return f"Seats (comma separated: {', '.join(kinds)})"


def game_choice(study: repo.Study | None) -> GamePlugin:
    """The study's game: chosen from the registry for a new study (outside the form, so
    its presets and rule options show at once), fixed once a study exists."""
    if study is not None:
        plugin = game_plugin(study.game)
        st.caption(f"Game: {plugin.title}")
        return plugin
    chosen = st.selectbox("Game", games(), format_func=lambda p: p.title, key="game-new",
                          help="The game testers play in this study (the registry's games).")
    with st.expander(f"{chosen.title}: presets and rule options"):
        st.write(f"Presets: {', '.join(chosen.presets)} (default {chosen.default_rules}). "
                 f"Seats: {chosen.seats[0]} to {chosen.seats[1]}.")
        st.dataframe([{"option": name, "choices": ", ".join(map(str, choices))}
                      for name, choices in chosen.rule_options.items()], hide_index=True)
    return chosen


def display_values(plugin: GamePlugin, config: StudyConfig) -> dict[str, Any]:
    """The study's value of each display setting its game's board offers, by widget."""
    return {_widget(s.name): getattr(config, s.name, s.default)
            for s in ui_settings(plugin)}


def _widget(setting: str) -> str:
    return UI_KEYS.get(setting, f"ui-{setting}")


def display_settings(plugin: GamePlugin, config: StudyConfig, key: str) -> dict[str, Any]:
    """The display settings the game's board offers, each with its choices (their values
    in the session's state, :func:`display_values`); the others keep the study's value
    (its board does not use them)."""
    values: dict[str, Any] = {name: getattr(config, name) for name in UI_KEYS}
    offered = ui_settings(plugin)
    for column, setting in zip(st.columns(max(len(offered), 1)), offered, strict=False):
        widget = f"{_widget(setting.name)}-{key}"
        options = [c.value for c in setting.choices]
        if options == [False, True]:
            values[setting.name] = column.checkbox(setting.label, key=widget,
                                                   help=setting.help)
        else:
            values[setting.name] = column.selectbox(setting.label, options, key=widget,
                                                    help=setting.help,
                                                    format_func=setting.label_of)
    return values
