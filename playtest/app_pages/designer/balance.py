"""The Balance page: computer players play the study's game and rules many times
(:mod:`playtest.app_pages.balance_view` draws it)."""

from __future__ import annotations

from playtest.app_pages import balance_view
from playtest.app_pages.designer.opening import open_page
from playtest.app_pages.designer.study_form import stored_config
from playtest.games.registry import game_plugin


def balance_page() -> None:
    study = open_page("Balance")
    if study is None:
        return
    config, problem = stored_config(study)
    if problem:
        return
    plugin = game_plugin(config.game)  # the study's game, through the registry
    balance_view.page(study.study_id, plugin.name, plugin.title, config.rules,
                      plugin.ai_levels(), plugin.seats)
