"""The Confusion page: the ranked confusion points, the follow-up experiment of each point
a remedy fits (:mod:`playtest.follow_ups`), the game's own charts and sections, messages
followed by trouble and the rules overlay's use."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics import game_analytics, severity
from analytics.follow_ups import ProposedFollowUp, proposed_follow_ups
from analytics.remedies import RemedyError
from analytics.text_safety import markdown_literal
from playtest import follow_ups, page_results, runtime, services
from playtest.app_pages.designer.filters import UNFILTERED, filtered, filters
from playtest.app_pages.designer.opening import Opened, open_results_page, study_link
from playtest.app_pages.designer.study_cache import whole_study
from playtest.app_pages.empty import plot
from playtest.display_words import reasons_in_words
from playtest.games.registry import game_plugin
from playtest.people_tables import (
    AFTERMATH_NAMES,
    OVERLAY_NAMES,
    confusion_points_table,
    people_table,
)
from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError
from playtest.study_config import StudyConfigError
from playtest.study_form_checks import config_to_correct


def _tables(opened: Opened) -> dict[str, Any]:
    study_id = opened.study.study_id
    fkey, chosen = filters(opened.study, opened.head.data)
    if fkey == UNFILTERED:
        tables = whole_study(study_id, "confusion",
                             lambda b: page_results.confusion_tables(b.data))
    else:
        loaded, data = filtered(study_id, fkey, chosen)
        tables = loaded.memo(("confusion", *fkey),
                             lambda: page_results.confusion_tables(data))
    # the study's game (its charts and sections) is added on each run: functions, not kept
    return page_results.with_game(tables, opened.head.data)


def confusion_page() -> None:
    opened = open_results_page("Confusion points")
    if opened is None:
        return
    t = _tables(opened)
    points = t["points"]
    st.caption("Ranked by severity: the extra trouble per occasion, weighted by how many "
               "testers it reached, whether it persisted after the first game, and impact.")
    with st.expander("How severity is defined"):
        st.caption(severity.severity_definition(t["game"].occasions))
    if points:
        st.dataframe(confusion_points_table(points), hide_index=True, key="points_table",
                     column_config=confusion_columns())
    else:
        st.info("No confusion point has enough evidence yet: each needs at least "
                f"{severity.MIN_OCCASIONS} occasions and {severity.MIN_TESTERS} testers.")
    _follow_ups(opened)
    _game_sections(t)
    st.subheader("Messages followed by trouble")
    st.caption("Trouble: a wrong click in the next turn, hesitation above the study's 75th "
               "percentile, or a rules lookup from the message. "
               + game_analytics.turn_definition(t["game"]))
    st.dataframe(people_table(t["aftermath"], AFTERMATH_NAMES), hide_index=True)
    st.subheader("Rules overlay use")
    st.dataframe(people_table(t["overlay"], OVERLAY_NAMES), hide_index=True)


def confusion_columns() -> dict[str, Any]:
    """The points table's point and advice get the room (a phone scrolls to the rest)."""
    return {"Confusion point": st.column_config.TextColumn(width="medium"),
            "What to do": st.column_config.TextColumn(width="large")}


def _game_sections(t: dict[str, Any]) -> None:
    """The game's own charts, then its sections (heading, caption, charts, table)."""
    game = t["game"]
    side_by_side = [chart for chart in game.charts if chart.group and not chart.section]
    for column, chart in zip(st.columns(len(side_by_side)) if side_by_side else [],
                             side_by_side, strict=True):
        with column:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for chart in game.charts:
        if not chart.section and not chart.group:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for section in game.sections:
        st.subheader(section.heading or section.title)
        if section.caption:
            st.caption(section.caption)
        for chart in game.charts:
            if chart.section == section.key:
                plot(t["charts"][chart.name], chart.key or chart.name)
        if section.key in t["frames"]:
            # refusal reasons in the play screen's words (select_first: "First click...")
            frame = reasons_in_words(t["frames"][section.key],
                                     game_plugin(game.name).refusal_words)
            st.dataframe(people_table(frame, dict(section.page_columns)),
                         hide_index=True, placeholder="–")


def _follow_ups(opened: Opened) -> None:
    """Each remedied point's prefilled follow-up experiment, editable, with "Add to this
    study" and "Start a follow-up study" (:mod:`playtest.follow_ups` holds the logic)."""
    found = whole_study(opened.study.study_id, "follow_ups",
                        lambda b: proposed_follow_ups(b.data))
    if not found:
        return
    st.subheader("Follow-up experiments")
    st.caption("Each point a remedy of the game fits, with the experiment that tests it: "
               "control = today, challenger = the remedy, decided by the point's own "
               "trouble rate. Edit it, then add it to this study or start a follow-up "
               "study with it.")
    for proposal in found:
        with st.expander(markdown_literal(f"{proposal.label}: {proposal.remedy.title}"),
                         expanded=proposal is found[0]):
            _follow_up(opened, proposal)


def _follow_up(opened: Opened, proposal: ProposedFollowUp) -> None:
    study = opened.study
    key = proposal.plan.key
    plugin = game_plugin(study.game)
    config, _ = config_to_correct(study.game, study.config)
    running = follow_ups.stored_experiments(study)
    st.caption(markdown_literal(proposal.remedy.why))
    choices = follow_ups.challenger_choices(plugin, proposal)
    start = follow_ups.challenger_start(plugin, proposal)
    if choices is not None:
        challenger = st.selectbox("Remedy (challenger)", choices, index=choices.index(start)
                                  if start in choices else 0, key=f"fu-ch-{key}")
    else:
        challenger = st.text_input("Remedy (challenger): a wording of the catalog or a text "
                                   "of your own", value=start, key=f"fu-ch-{key}")
    rate = proposal.plan.rate
    most = max(0.1, round(rate * 100, 1))
    effect = st.number_input(
        "Smallest effect worth acting on (percentage points)", min_value=0.1,
        max_value=most, value=min(most, max(0.1, round(proposal.plan.min_effect * 100, 1))),
        step=1.0, key=f"fu-effect-{key}") / 100
    try:
        plan = follow_ups.sized(proposal, effect)
        experiment = follow_ups.experiment_of(plugin, proposal, config, challenger,
                                              plan.min_effect, running)
    except (RemedyError, StudyConfigError) as err:
        if any(e.get("key") == key for e in running):
            st.success(markdown_literal(f"“{key}” is in this study's experiments: the "
                                        "Experiments page shows its verdict as testers "
                                        "come in."))
        else:
            st.error(markdown_literal(f"This experiment cannot be added: {err}"))
        return
    cols = st.columns(4)
    cols[0].metric("Trouble rate today", f"{rate * 100:.1f}%")
    cols[1].metric("Smallest effect", f"{plan.min_effect * 100:.1f} pp")
    cols[2].metric("Testers per arm", plan.per_arm)
    cols[3].metric("Testers who met it", proposal.met)
    st.caption(proposal.rate_said())
    st.table({"arm": list(experiment["variants"]),
              "testers see": list(follow_ups.arms_shown(plugin, experiment).values())})
    for line in follow_ups.DEFINITIONS.values():
        st.caption(line)
    st.caption(markdown_literal(f"Decided by {plan.metric} (lower is better), with the "
                                "Experiments page's always-valid interval."))
    said_then = follow_ups.effect_on_running(running, experiment)
    (st.warning if follow_ups.clashes(running, experiment) else st.caption)(
        markdown_literal(said_then))
    replaces = follow_ups.follow_up_replaces(study, experiment)
    if replaces:
        st.warning(markdown_literal(replaces))
    st.caption(follow_ups.CHOICES)
    add_col, start_col = st.columns(2)
    if add_col.button("Add to this study", key=f"fu-add-{key}"):
        try:
            added = follow_ups.add_to_study(runtime.database(), study.study_id, experiment)
        except StudyConfigError as err:
            st.error(markdown_literal(f"Not added: {err}"))
            return
        st.session_state[f"fu-said-{key}"] = added.message
        st.rerun()
    if start_col.button("Start a follow-up study", key=f"fu-start-{key}"):
        try:
            started = follow_ups.start_follow_up(runtime.database(), study.study_id,
                                                 experiment)
        except (StudyConfigError, ConflictError) as err:
            st.error(markdown_literal(f"No follow-up study started: {err}"))
            return
        st.session_state[f"fu-started-{key}"] = (started.study.study_id, started.message)
        st.rerun()
    said = st.session_state.get(f"fu-said-{key}")
    if said:
        st.success(markdown_literal(said))
    _started(study, key)


def _started(study: repo.Study, key: str) -> None:
    """The follow-up study started from this point (this session, or before): what was
    done, its place in the family and its tester link (as the Studies page shows links)."""
    engine = runtime.database()
    started = st.session_state.get(f"fu-started-{key}")
    if started:
        study_id, message = started
        st.success(markdown_literal(message))
        made = repo.get_study(engine, study_id)
    else:
        made = services.existing_follow_up(engine, study, key)
        if made is not None:
            st.info(markdown_literal(f"The follow-up study {made.study_id} runs “{key}” "
                                     "already."))
    if made is not None:
        st.caption(markdown_literal(services.family_words(made) + ". Share this link with "
                                    "testers (the copy button is at its right):"))
        st.code(study_link(made.study_id), language=None, wrap_lines=True)
        st.caption("Once its testers have played, the Did it work? page compares the "
                   "versions: this point's trouble rate before and after, with a verdict.")
