"""A study's settings form on the Studies page: a new study's (its game chosen first), or
an existing study's. The form only gathers; :func:`playtest.study_config.config_from_form`
checks, and the experiments come from the form of :mod:`.experiment_form` or as YAML."""

from __future__ import annotations

import streamlit as st

from analytics.data import UNNAMED_GAME
from playtest import runtime, services
from playtest.app_pages.designer import experiment_form
from playtest.app_pages.designer.game_choice import display_settings, game_choice, seats_label
from playtest.app_pages.designer.opening import study_link
from playtest.experiment_choices import payload_text
from playtest.storage import repository as repo
from playtest.study_config import (
    StudyConfig,
    StudyConfigError,
    StudyForm,
    config_from_form,
    config_to_correct,
    experiments_text,
)
from surveys import list_surveys

AUDIENCES = ["mixed", "adults", "children"]
#: Shown once after "Create study" (the form itself is cleared).
CREATED = "study_created"


def study_form(study: repo.Study | None) -> None:
    plugin = game_choice(study)
    # A new study's form is the chosen game's: its widgets start from that game's
    # defaults (surveys, rules), not from what was picked for another game.
    key = study.study_id if study else ("new" if plugin.name == UNNAMED_GAME
                                        else f"new-{plugin.name}")
    config, problem = stored_config(study)
    if study is None and config.game != plugin.name:
        config = StudyConfig(game=plugin.name)
    if study is None and CREATED in st.session_state:
        created = st.session_state.pop(CREATED)
        st.success(f"Created study {created}. Share this link with testers (the copy "
                   "button is at its right):")
        st.code(study_link(created), language=None, wrap_lines=True)
    experiment_form.take_pending(key)
    st.session_state.setdefault(f"exp-{key}", experiments_text(
        config.experiments or (_stored_experiments(study) if problem else [])))
    surveys = list_surveys()
    with st.form(f"study-{key}"):
        title = st.text_input("Title", value=study.title if study else "", key=f"title-{key}")
        rules = st.text_input(
            "Rules: a preset name or a JSON rules object", key=f"rules-{key}",
            value=config.rules if isinstance(config.rules, str) else
            payload_text(config.rules),
            help=f"Presets: {', '.join(plugin.presets)}. Rule options: "
                 f"{', '.join(o for o in plugin.rule_options if o != 'base')}. Example: "
                 f'{{"base": "{plugin.default_rules}", "<option>": <choice>}}')
        seats = st.text_input(seats_label(plugin), value=", ".join(config.seats),
                              key=f"seats-{key}")
        cols = st.columns(3)
        games_each = cols[0].number_input("Games per tester", 1, 20, config.games_per_tester,
                                          key=f"games-{key}")
        more = cols[1].checkbox("May play more", config.allow_more_games, key=f"more-{key}")
        is_open = cols[2].checkbox("Open", study.open if study else True, key=f"open-{key}")
        audience = st.selectbox("Audience", AUDIENCES, key=f"aud-{key}",
                                index=AUDIENCES.index(config.audience))
        pre = st.selectbox("Pre-play survey", surveys, key=f"pre-{key}",
                           index=surveys.index(config.pre_survey)
                           if config.pre_survey in surveys else 0)
        post = st.selectbox("Post-play survey (short or long form)", surveys,
                            key=f"post-{key}", index=surveys.index(config.post_survey)
                            if config.post_survey in surveys else 0)
        ui = display_settings(plugin, config, key)
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
            ai_think_ms=config.ai_think_ms, experiments=st.session_state[f"exp-{key}"]),
            is_open)


def _save(study: repo.Study | None, key: str, form: StudyForm, is_open: bool) -> None:
    try:
        title, config = config_from_form(form)
    except StudyConfigError as err:
        st.error(f"Not saved: {err}")
        return
    engine = runtime.database()
    if study is not None:
        repo.update_study(engine, study.study_id, title=title, open=is_open,
                          **services.study_columns(config))
        st.success("Saved.")
        return
    created = services.create_study(engine, title=title, config=config, open=is_open)
    for name in [n for n in st.session_state if str(n).endswith(f"-{key}")
                 or f"-{key}-" in str(n)]:
        del st.session_state[name]  # the form starts empty again
    st.session_state[CREATED] = created.study_id
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
