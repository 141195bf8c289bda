"""The Studies page: games counted right (imported ones too), each number defined, and
the tester link shown right after "Create"."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.storage import repository as repo
from playtest.storage.exchange import load_study_data
from tests.app.games_of_every_kind import mixed_games

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _studies_page() -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    return at.run()


def test_games_played_out_and_started_count_every_game(db: Engine) -> None:
    mixed_games(db)
    at = _studies_page()
    assert not at.exception, at.exception
    metrics = {m.label: m for m in at.metric}
    events = load_study_data(db, "mixed").events
    started = int((events["type"] == "game_start").sum())
    ends = [p["reason"] for p in events[events["type"] == "game_end"]["props"]]
    played_out = len([r for r in ends if r not in ("restarted", "left")])
    # One expander per study; "mixed" is the newest, so listed first.
    games = [m for m in at.metric if m.label == "Games played out / started"]
    assert len(games) == 2
    assert games[0].value == f"{played_out} / {started}"
    assert played_out > 3  # the imported games count (the old figure was the app's 3)
    assert "Played out" in (games[0].help or "") and "Started" in (games[0].help or "")
    assert "Testers" in metrics and metrics["Testers"].help
    summaries = [c.value for c in at.caption if "games started by" in str(c.value)]
    assert summaries[0].startswith(f"{started} games started by 6 testers: {played_out} "
                                   "played out, 1 restarted, 1 left unfinished, 1 in progress")


def test_create_shows_the_new_study_s_tester_link(db: Engine) -> None:
    at = _studies_page()
    at.text_input(key="title-new").input("Wording test")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert not at.exception
    created = [s for s in repo.list_studies(db) if s.title == "Wording test"]
    assert len(created) == 1
    assert f"Created study {created[0].study_id}" in at.success[0].value
    links = [c.value for c in at.code]
    assert links and links[-1].endswith(f"/?study={created[0].study_id}")


def test_a_new_study_plays_the_game_chosen_from_the_registry(db: Engine) -> None:
    from playtest.games.registry import games

    at = _studies_page()
    choice = at.selectbox(key="game-new")
    assert list(choice.options) == [p.title for p in games()]
    for plugin in games():
        at.selectbox(key="game-new").set_value(plugin).run()
        assert not at.exception
        # The game's presets and rule options are shown before the form is filled in.
        shown = " ".join(str(m.value) for m in at.markdown)
        assert f"Presets: {', '.join(plugin.presets)}" in shown
        form = "new" if plugin is games()[0] else f"new-{plugin.name}"
        at.text_input(key=f"title-{form}").input(f"A {plugin.name} study")
        at.button(key=f"FormSubmitter:study-{form}-Create study").click().run()
        assert not at.exception
        (created,) = [s for s in repo.list_studies(db) if s.title == f"A {plugin.name} study"]
        assert created.game == plugin.name
        assert created.config["rules"] == plugin.default_rules
        assert created.config["pre_survey"] == plugin.pre_survey
        assert created.config["seats"] == list(plugin.default_seats)  # Dokusen: one seat


def test_an_experiment_on_a_setting_the_games_board_ignores_is_not_saved(db: Engine) -> None:
    """Vasco's board shows every fitting space whatever the setting, so an experiment on
    highlighting would compare two arms that look the same: the designer is told, and
    nothing is stored. The same experiment on a game whose board uses it is saved."""
    from playtest.games.registry import game_plugin

    at = _studies_page()
    for game, saved in (("vasco", False), ("morris", True)):
        plugin = game_plugin(game)
        at.selectbox(key="game-new").set_value(plugin).run()
        form = f"new-{game}"
        at.text_input(key=f"title-{form}").input(f"Highlight on {game}")
        at.text_area(key=f"exp-{form}").input(
            "- key: hl\n  target: ui:highlight_options\n  variants: {plain: false, lit: true}\n")
        at.button(key=f"FormSubmitter:study-{form}-Create study").click().run()
        assert not at.exception
        stored = [s for s in repo.list_studies(db) if s.title == f"Highlight on {game}"]
        errors = "\n".join(str(e.value) for e in at.error)
        if saved:
            assert len(stored) == 1 and "does not use" not in errors
        else:
            assert stored == []
            assert "Not saved" in errors and "Vasco's board does not use ui:highlight_options" \
                in errors
