"""The Studies page's experiments as a form: what an experiment varies chosen from what
the game offers (its messages with their texts, its rules, its display settings), its
variants with what testers see in each, and the metric that decides it. "Add" checks it
as saving the study does and writes it into the study form's experiments (YAML, kept for
those who want it); "Create study" or "Save study" then stores it."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analytics.targets import ExperimentTarget
from playtest.experiment_choices import (
    default_key,
    experiment_from_form,
    experiment_in_words,
    metric_choice_rows,
    metric_options,
    payload_of,
    shown,
    starting_variants,
    targets_offered,
    ui_setting,
)
from playtest.games.registry import GamePlugin
from playtest.study_config import StudyConfigError, load_settings_text
from playtest.study_form_checks import experiments_text


def experiments_section(plugin: GamePlugin, form: str) -> None:
    """The form's experiments in words, the form to add one, the metrics' definitions."""
    listed = _listed(form)
    if listed:
        st.dataframe(pd.DataFrame([experiment_in_words(plugin, e) for e in listed]),
                     hide_index=True, key=f"xb-list-{form}", column_config={
                         "variants": st.column_config.TextColumn(width="large")})
    with st.expander("Add an experiment", expanded=not listed):
        _add_form(plugin, form)
    with st.expander("Metrics an experiment can be decided by (primary_metric, min_effect)"):
        st.dataframe(pd.DataFrame(metric_choice_rows()), hide_index=True,
                     key=f"metric-choices-{form}")


def _listed(form: str) -> list[dict[str, Any]]:
    """The experiments now in the form's YAML (none while it does not read)."""
    try:
        found = load_settings_text(st.session_state.get(f"exp-{form}") or "[]", "experiments")
    except StudyConfigError:
        return []
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


@st.fragment
def _add_form(plugin: GamePlugin, form: str) -> None:
    offered = {str(t.target): t.label for t in targets_offered(plugin)}
    chosen = st.selectbox("What it varies", list(offered), format_func=offered.__getitem__,
                          key=f"xb-target-{form}",
                          help="A message's wording, the rules, or a display setting "
                               "the game's board offers.")
    target = ExperimentTarget.parse(chosen)
    rows = st.data_editor(
        pd.DataFrame([{"name": v.name, "payload": v.payload}
                      for v in starting_variants(plugin, target)], columns=["name", "payload"]),
        key=f"xb-variants-{form}-{chosen}", num_rows="dynamic", hide_index=True,
        column_config={"name": st.column_config.TextColumn("Variant", max_chars=64),
                       "payload": _payload_column(plugin, target)})
    variants = [(str(r["name"]).strip(), str(r["payload"] if r["payload"] is not None else ""))
                for r in rows.to_dict("records") if r.get("name") or r.get("payload")]
    st.caption("What testers see in each variant:")
    st.dataframe(pd.DataFrame([{"variant": name, "testers see": shown(
        plugin, target, payload_of(plugin, target, payload) if target.is_ui else payload)}
        for name, payload in variants], columns=["variant", "testers see"]),
        hide_index=True, key=f"xb-shown-{form}")
    options, default = metric_options(target)
    names = {m.key: m for m in options}
    cols = st.columns(2)
    st.session_state.setdefault(f"xb-key-{form}-{chosen}", default_key(target))
    key = cols[0].text_input("Key (a short name: a-z, 0-9, _ and -)",
                             key=f"xb-key-{form}-{chosen}")
    primary = cols[1].selectbox("Decided by", list(names), index=list(names).index(default),
                                format_func=lambda k: names[k].name, key=f"xb-metric-{form}")
    st.caption(f"{names[primary].name}: {names[primary].definition}" + (
        " It needs the fluency probe in the forms before and after play."
        if primary == "learning_gain" else ""))
    least = st.number_input(f"Smallest difference worth acting on ({names[primary].unit}; "
                            f"empty: {names[primary].min_effect})", min_value=0.0,
                            value=None, key=f"xb-min-{form}")
    if st.button("Add to the experiments above", key=f"xb-add-{form}"):
        _add(plugin, form, key, target, variants, primary if primary != default else None,
             least or None)


def _payload_column(plugin: GamePlugin, target: ExperimentTarget) -> Any:
    if target.is_ui:
        setting = ui_setting(plugin, target.name)
        return st.column_config.SelectboxColumn(
            "Value", options=[c.label for c in setting.choices] if setting else [])
    if target.is_rules:
        return st.column_config.TextColumn(
            "Preset or rules object", help=f"A preset ({', '.join(plugin.presets)}) or a JSON "
            f'object such as {{"base": "{plugin.default_rules}", "<option>": <choice>}}')
    return st.column_config.TextColumn(
        "Wording", max_chars=300, help="A wording of the game's catalog (default, formal) "
        "or a text of your own; {values} as in the message's text")


def _add(plugin: GamePlugin, form: str, key: str, target: ExperimentTarget,
         variants: list[tuple[str, str]], primary: str | None, least: float | None) -> None:
    """Check the experiment as saving does, then write it into the form's experiments."""
    listed = _listed(form)
    try:
        if (st.session_state.get(f"exp-{form}") or "").strip() and not listed:
            raise StudyConfigError("the experiments' YAML above does not read: correct or "
                                   "clear it first")
        experiment = experiment_from_form(plugin, key, target, variants, primary, least,
                                          listed)
    except StudyConfigError as err:
        st.error(f"Not added: {err}")
        return
    # the form's text area takes it at the top of the next run (it is drawn by then)
    st.session_state[PENDING.format(form)] = experiments_text([*listed, experiment])
    st.rerun()


#: Experiments added by the form, for the study form's text area on the next run.
PENDING = "xb-pending-{}"


def reset(form: str) -> None:
    """The form of a new experiment as at first (after its study was created)."""
    for name in [n for n in st.session_state if str(n).startswith("xb-")
                 and (str(n).endswith(f"-{form}") or f"-{form}-" in str(n))]:
        del st.session_state[name]
    st.session_state[f"xb-target-{form}"] = "rules"


def take_pending(form: str) -> None:
    """Put an experiment added on the last run into the form's experiments (call before
    the text area is drawn)."""
    pending = st.session_state.pop(PENDING.format(form), None)
    if pending is not None:
        st.session_state[f"exp-{form}"] = pending

