"""A study's settings form on the Studies page: a new study's (its game chosen first), or
an existing study's. The form only gathers; :func:`playtest.study_config.config_from_form`
checks, and the experiments come from the form of :mod:`.experiment_form` or as YAML."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics.data import UNNAMED_GAME
from playtest import runtime, services
from playtest.app_pages.designer import experiment_form
from playtest.app_pages.designer.game_choice import (
    display_settings,
    display_values,
    game_choice,
    seats_label,
)
from playtest.app_pages.designer.panel_form import remote_fields, remote_values
from playtest.experiment_choices import payload_text
from playtest.games.registry import GamePlugin
from playtest.i18n import available_languages
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig, StudyConfigError
from playtest.study_form_checks import (
    StudyForm,
    config_from_form,
    config_to_correct,
    experiments_text,
)
from surveys import list_surveys

AUDIENCES = ["mixed", "adults", "children"]
#: Shown once after "Create study" (the form itself is cleared).
CREATED = "study_created"
#: Set when a new study's form is to start again from its defaults.
RESET = "study_form_reset-{}"


def study_form(study: repo.Study | None) -> None:
    plugin = game_choice(study)
    # A new study's form is the chosen game's: its widgets start from that game's
    # defaults (surveys, rules), not from what was picked for another game.
    key = study.study_id if study else ("new" if plugin.name == UNNAMED_GAME
                                        else f"new-{plugin.name}")
    config, problem = stored_config(study)
    if study is None and config.game != plugin.name:
        config = StudyConfig(game=plugin.name)
    _start_values(key, study, plugin, config, problem)
    surveys = list_surveys()
    with st.form(f"study-{key}"):  # every widget's value is in the session's state
        title = st.text_input("Title", key=f"title-{key}")
        rules = st.text_input(
            "Rules: a preset name or a JSON rules object", key=f"rules-{key}",
            help=f"Presets: {', '.join(plugin.presets)}. Rule options: "
                 f"{', '.join(o for o in plugin.rule_options if o != 'base')}. Example: "
                 f'{{"base": "{plugin.default_rules}", "<option>": <choice>}}')
        seats = st.text_input(seats_label(plugin), key=f"seats-{key}")
        cols = st.columns(3)
        games_each = cols[0].number_input("Games per tester", 1, 20, key=f"games-{key}")
        more = cols[1].checkbox("May play more", key=f"more-{key}")
        is_open = cols[2].checkbox("Open", key=f"open-{key}")
        audience = st.selectbox("Audience", AUDIENCES, key=f"aud-{key}")
        languages = {lang.code: lang.name for lang in available_languages()}
        language = st.selectbox(
            "Testers' language", list(languages), format_func=languages.__getitem__,
            key=f"lang-{key}", help="Everything a tester reads: consent, surveys, the "
                                    "board. Every answer is stored with it.")
        pre = st.selectbox("Pre-play survey", surveys, key=f"pre-{key}")
        post = st.selectbox("Post-play survey (short or long form)", surveys,
                            key=f"post-{key}")
        ui = display_settings(plugin, config, key)
        remote = remote_fields(key)
        st.text_area("Experiments (YAML list of key, target, variants): the form below "
                     "the button writes them here", key=f"exp-{key}", height=160,
                     help="target: message:<key>, rules or ui:<setting>; variants: name → "
                          "payload; optional primary_metric (decides the verdict) and "
                          "min_effect (the smallest difference worth acting on, in the "
                          "metric's unit)")
        submitted = st.form_submit_button("Save study" if study else "Create study")
    experiment_form.experiments_section(plugin, key)
    if submitted:
        _save(study, key, StudyForm(
            game=plugin.name, title=title, rules=rules, seats=seats,
            games_per_tester=int(games_each), allow_more_games=more, audience=audience,
            pre_survey=pre, post_survey=post, speed=int(ui["speed"]),
            highlight_options=bool(ui["highlight_options"]),
            show_computer_dice=bool(ui["show_computer_dice"]),
            ai_think_ms=config.ai_think_ms, experiments=st.session_state[f"exp-{key}"],
            remote=remote, language=str(language)),
            is_open)


def _start_values(key: str, study: repo.Study | None, plugin: GamePlugin,
                  config: StudyConfig, problem: str | None) -> None:
    """The form's values where the session has none yet (or all of them again after
    "Create study"): the study's, else its game's defaults. Kept in the session's state,
    not passed to the widgets, so that a reset reaches the browser's fields too."""
    experiment_form.take_pending(key)
    reset = st.session_state.pop(RESET.format(key), False)
    surveys = list_surveys()
    values: dict[str, Any] = {
        "title": study.title if study else "",
        "rules": config.rules if isinstance(config.rules, str) else payload_text(config.rules),
        "seats": ", ".join(config.seats), "games": config.games_per_tester,
        "more": config.allow_more_games, "open": study.open if study else True,
        "aud": config.audience, "lang": config.language,
        "pre": config.pre_survey if config.pre_survey in surveys else surveys[0],
        "post": config.post_survey if config.post_survey in surveys else surveys[0],
        "exp": experiments_text(config.experiments
                                or (_stored_experiments(study) if problem else [])),
        **display_values(plugin, config), **remote_values(config)}
    for name, value in values.items():
        if reset or f"{name}-{key}" not in st.session_state:
            st.session_state[f"{name}-{key}"] = value
    if reset:
        experiment_form.reset(key)


def _save(study: repo.Study | None, key: str, form: StudyForm, is_open: bool) -> None:
    try:
        title, config = config_from_form(form)
    except StudyConfigError as err:
        st.error(f"Not saved: {err}")
        return
    engine = runtime.database()
    if study is not None:
        # the form has no field for the study's family: it keeps the one it has
        config = services.with_family_of(study, config)
        repo.update_study(engine, study.study_id, title=title, open=is_open,
                          **services.study_columns(config))
        st.success("Saved.")
        return
    created = services.create_study(engine, title=title, config=config, open=is_open)
    st.session_state[CREATED] = created.study_id
    st.session_state[RESET.format(key)] = True  # the form starts empty again
    st.rerun()


def stored_config(study: repo.Study | None) -> tuple[StudyConfig, str | None]:
    """The study's config for its form, and why its stored settings fail the check (then
    testers see "This study is being fixed", and the designer sees why here)."""
    if study is None:
        return StudyConfig(), None
    config, problem = config_to_correct(study.game, study.config)
    if problem:
        st.error(f"Testers cannot play this study until it is saved again: {problem}. "
                 "They see \"This study is being fixed\". Correct it below and save.")
    return config, problem


def _stored_experiments(study: repo.Study | None) -> list[object]:
    """The stored experiments to correct (payloads as stored)."""
    stored = study.config.get("experiments") if study is not None else None
    return [e for e in stored if isinstance(e, dict)] if isinstance(stored, list) else []
