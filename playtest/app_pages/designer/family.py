"""The designer's "Did it work?" page: the study's family across its versions
(:mod:`playtest.family_results`, :mod:`analytics.did_it_work`).

For each confusion point a follow-up experiment of the family was made to fix: its
trouble rate in each version and arm with its interval, the change from the first
version with its always-valid interval and a verdict (fixed, better, no change, worse,
too few testers yet), each defined on the page; the trajectory of the points across
versions in one chart; and what this version changed from the one before it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics.did_it_work import DEFINITIONS, trajectory_figure
from analytics.text_safety import markdown_literal
from playtest import runtime
from playtest.app_pages.common import plain
from playtest.app_pages.designer.opening import open_page, study_link
from playtest.app_pages.designer.study_cache import bundle
from playtest.app_pages.empty import plot
from playtest.family_results import family_results

TITLE = "Did it work?"


def family_page() -> None:
    # A follow-up version without testers yet still shows the versions before it.
    study = open_page(TITLE)
    if study is None:
        return
    found = family_results(runtime.database(), study,
                           load=lambda study_id: bundle(study_id).bundle.data)
    if found is None:
        st.info("This study has no follow-up yet. On the Confusion page, a confusion point "
                "with a remedy offers **Start a follow-up study**: a new version of this "
                "study with the remedy as an experiment, on a link of its own. This page "
                "then says whether the fix worked.")
        return
    st.markdown(f"**Version {found.version} of family {markdown_literal(found.family)}**")
    st.dataframe(pd.DataFrame([{"Version": v.number, "Study": v.study_id, "Title": v.title,
                                "Testers": v.testers, "Tester link": study_link(v.study_id)}
                               for v in found.versions]),
                 hide_index=True, key="family-versions")
    if found.changes:
        st.subheader(f"What changed since version {found.version - 1}")
        plain("\n".join(f"- {line}" for line in found.changes))
    if not found.points:
        st.info("No experiment of this family names a confusion point it was made to fix "
                "(its `targets`), so there is nothing to follow yet.")
        return
    st.subheader("Each targeted confusion point")
    for report in found.reports:
        st.markdown(f"**{markdown_literal(report.point)}**")
        if not report.changes:
            plain("Only one group of testers so far: nothing to compare yet.")
        else:
            plain("\n".join(f"- {change.said()}" for change in report.changes))
    plot(trajectory_figure(found.reports), "family-trajectory",
         "no tester has met the targeted points yet")
    st.caption(" ".join(DEFINITIONS.values()))
