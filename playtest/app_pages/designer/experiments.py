"""The Experiments page: each experiment's verdict in one sentence, what each variant
shows, its testers per variant, its metrics with intervals and the effect chart."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analytics import experiments, figures, game_analytics
from analytics.stats import SEQUENTIAL_METHOD
from analytics.targets import ExperimentTarget, TargetError
from analytics.text_safety import markdown_literal
from playtest.app_pages.designer.opening import open_page, with_testers
from playtest.app_pages.designer.study_cache import whole_study
from playtest.app_pages.empty import plot
from playtest.experiment_choices import shown, target_in_words
from playtest.games.registry import GamePlugin, game_plugin
from playtest.storage import repository as repo

METHOD_NOTE = (
    f"How verdicts are made: each experiment is decided by its primary metric alone, with "
    f"an {SEQUENTIAL_METHOD}. It stays valid however often you look, so checking every "
    "day does not make false 'better' verdicts more likely. 'No difference' means the "
    "interval lies inside ± the smallest difference worth acting on. Other metrics use "
    "fixed-sample tests with Holm's correction; guardrails (completion, wrong clicks, "
    "survey scores) are named when a variant is clearly worse on one.")


def experiments_page() -> None:
    study = open_page("Experiments")
    if study is None:
        return
    if not study.experiment_records:
        st.info("This study has no experiments. Add them on the Studies page.")
        return
    opened = with_testers(study, "Experiments")
    if opened is None:
        return
    results = whole_study(study.study_id, "experiments",
                          lambda b: experiments.analyze_experiments(b.data, b.scores, b.quiz))
    st.caption(METHOD_NOTE)
    st.caption(game_analytics.turn_definition(game_analytics.for_study(opened.head.data)))
    plugin = game_plugin(study.game)
    for result in results:
        _experiment_section(result, plugin, study)


def _experiment_section(result: experiments.ExperimentResult, plugin: GamePlugin,
                        study: repo.Study) -> None:
    doc = result.to_json()
    st.subheader(f"{result.key} · {result.target}")  # both checked: no Markdown in them
    box = st.success if result.verdict.endswith(" better") else st.info
    if result.guardrails:
        box = st.warning
    summary = result.summary()  # variant names are the designer's: shown as written
    rest = summary[len(result.verdict):]
    box(f"**{markdown_literal(result.verdict)}**{' ' if rest[:1].isspace() else ''}"
        f"{markdown_literal(rest)}" if summary.startswith(result.verdict)
        else markdown_literal(summary))
    if doc.get("definition"):
        st.caption(f"Primary metric: {doc['definition']}")
    for note in result.notes:
        st.warning(markdown_literal(note))
    st.text(_variants_text(result, plugin, study))  # plain text: the designer's words
    cols = st.columns(len(result.counts) + 1)
    for col, (name, count) in zip(cols, result.counts.items(), strict=False):
        col.metric(f"Testers with {markdown_literal(name)}", count)
    cols[-1].metric("Sample-ratio check p", "–" if doc["srm_p"] is None
                    else f"{doc['srm_p']:.3f}", help="Below 0.001 the split between "
                    "variants is broken: do not trust the verdict.")
    rows = experiments.readable_rows(doc)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        plot(figures.experiment_effect_figure(doc), f"eff-{result.key}")


def _variants_text(result: experiments.ExperimentResult, plugin: GamePlugin,
                   study: repo.Study) -> str:
    """What testers see in each variant, one line each."""
    stored = next((e for e in study.config.get("experiments") or []
                   if isinstance(e, dict) and e.get("key") == result.key), {})
    payloads: dict[str, Any] = stored.get("variants") or {}
    try:
        target = ExperimentTarget.parse(result.target)
    except TargetError:
        return ""
    return f"It varies {target_in_words(result.target)}:\n" + "\n".join(
        f"  {name}: {shown(plugin, target, payloads[name]) if name in payloads else '–'}"
        for name in result.counts)
