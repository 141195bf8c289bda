"""The Experiments page: each experiment's verdict in one plain sentence (the plan's:
:mod:`analytics.verdicts`), what each variant shows testers beside its testers and
its primary value, its metrics with intervals, and the effect chart (right is better)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics import experiments, figures, game_analytics
from analytics.stats import SEQUENTIAL_METHOD
from analytics.text_safety import markdown_literal
from playtest.app_pages.designer.opening import open_page, with_testers
from playtest.app_pages.designer.study_cache import whole_study
from playtest.app_pages.empty import plot
from playtest.experiment_choices import target_in_words

METHOD_NOTE = (
    f"How verdicts are made: each experiment is decided by its primary metric alone, with "
    f"an {SEQUENTIAL_METHOD}. It stays valid however often you look, so checking every "
    "day does not make false 'better' verdicts more likely. 'No difference' means the "
    "interval lies inside ± the smallest difference worth acting on; 'No change worth "
    "acting on' means it excludes 0 but the difference is smaller than that. Other metrics "
    "use fixed-sample tests with Holm's correction across them. After the verdict, "
    "\"But …\" names a variant clearly worse on a guardrail (completion, wrong clicks, "
    "survey scores) after that correction, and a guardrail on which the better variant "
    "looks worse by at least its smallest difference worth acting on, not yet beyond "
    "chance.")
FOREST_NOTE = (
    "The chart: right is better, for every metric (a lower-is-better metric such as a "
    "time is turned round). Each diamond is a difference in units of that metric's "
    "smallest difference worth acting on, with its 95% interval; the grey band is too "
    "small to act on.")


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
    with st.expander("How the verdicts are made"):
        st.caption(METHOD_NOTE)
        st.caption(FOREST_NOTE)
    st.caption(game_analytics.turn_definition(game_analytics.for_study(opened.head.data)))
    for result in results:
        _experiment_section(result)


def _experiment_section(result: experiments.ExperimentResult) -> None:
    doc = result.to_json()
    st.subheader(f"{result.key} · {result.target}")  # both checked: no Markdown in them
    words = result.words()  # variant names and texts are the designer's: shown as written
    box = {"better": st.success, "caution": st.warning}.get(words.tone, st.info)
    rest = words.after_headline
    box(f"**{markdown_literal(words.headline)}**{' ' if rest[:1].isspace() else ''}"
        f"{markdown_literal(rest)}")
    if doc.get("definition"):
        st.caption(f"Primary metric: {doc['definition']}")
    for note in result.notes:
        st.warning(markdown_literal(note))
    st.caption(f"It varies {markdown_literal(target_in_words(result.target))}. "
               "What each variant shows testers:")
    # a small table whose texts wrap: every column fits a phone
    st.table(pd.DataFrame(experiments.variant_rows(doc)).set_index("Variant"))
    cols = st.columns(len(result.counts) + 1)
    for col, (name, count) in zip(cols, result.counts.items(), strict=False):
        col.metric(f"Testers with {markdown_literal(name)}", count)
    cols[-1].metric("Sample-ratio check p", "–" if doc["srm_p"] is None
                    else f"{doc['srm_p']:.3f}", help="Below 0.001 the split between "
                    "variants is broken: do not trust the verdict.")
    rows = experiments.readable_rows(doc)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        st.caption("Chart: right is better on every row (a time's difference is turned "
                   "round); the grey band is too small to act on.")
        plot(figures.experiment_effect_figure(doc), f"eff-{result.key}")
