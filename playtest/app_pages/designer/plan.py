"""The UX design plan page: the plan's downloads (Markdown, JSON, HTML with charts) and
its ranked confusion points, what works, the game's sections and the experiments."""

from __future__ import annotations

import json
import zlib
from typing import Any

import pandas as pd
import streamlit as st

from analytics import confusion, experiments
from analytics.did_it_work import DEFINITIONS as DID_IT_WORK_DEFINITIONS
from analytics.follow_ups import DEFINITIONS as FOLLOW_UP_DEFINITIONS
from analytics.report import (
    build_report,
    follow_up_text,
    report_chart_names,
    report_figures,
    report_game,
    report_html,
    report_markdown,
)
from analytics.verdicts import verdict_text
from playtest import runtime
from playtest.app_pages.common import plain
from playtest.app_pages.designer.opening import open_results_page
from playtest.app_pages.designer.study_cache import bundle, head_of, whole_study_as_of
from playtest.family_results import family_results

HTML_OF = "plan_html_of"


def report_page() -> None:
    opened = open_results_page("UX design plan")
    if opened is None:
        return
    study_id = opened.study.study_id
    report, of = whole_study_as_of(study_id, "report",
                                   lambda b: build_report(b.data, b.scores, b.quiz))
    # The study's family (other studies' data): added after the study's own cached
    # report, and part of the downloads' keys, so a new tester in another version shows.
    family = family_results(runtime.database(), opened.study,
                            load=lambda other: bundle(other).bundle.data)
    if family is not None:
        report = {**report, "family": family.to_json()}
        of = f"{of}:{zlib.crc32(json.dumps(report['family'], sort_keys=True).encode())}"
        _family_lines(report["family"])
    _downloads(study_id, report, of)
    st.subheader("Ranked confusion points")
    st.caption(report.get("severity_definition", ""))
    follow = {row["point"]: row for row in report.get("follow_ups") or []}
    for i, point in enumerate(report["confusion_points"][:15], start=1):
        plain(f"{i}. {point['label']} (severity {point['score']:.2f}) → "
              f"{point.get('action', '')}\n   Evidence: {confusion.evidence_text(point)}"
              + (f"\n   Follow-up experiment: {follow_up_text(follow[point['id']])}"
                 if point.get("id") in follow else ""))
    if follow:
        st.caption("Follow-up experiments: the Confusion page prefills each one and adds "
                   "it to this study. " + " ".join(FOLLOW_UP_DEFINITIONS.values()))
    if report.get("what_works"):
        st.subheader("What works (praise from free text)")
        plain("\n".join(f"- {row['theme']}: {row['answers']} of the answers to "
                        f"{row['item']} ({row['share']:.0%})" for row in report["what_works"]))
    _plan_sections(report)
    st.subheader("Experiments")
    for e in report["experiments"]:
        # the Experiments page's sentence, and what each variant shows beside its result
        plain(f"{e['key']}: {e.get('summary') or verdict_text(e).text}")
        rows = experiments.variant_rows(e)
        if rows:  # what each variant shows, beside its testers and primary value
            st.table(pd.DataFrame(rows).set_index("Variant"))


def _family_lines(family: dict[str, Any]) -> None:
    """The plan's start for a study of a family: what changed, did it work?"""
    st.subheader(f"Version {family['version']} of study family {family['family']}")
    if family["changes"]:
        plain(f"What changed since version {family['version'] - 1}:\n"
              + "\n".join(f"- {line}" for line in family["changes"]))
    lines = [f"- {point['point']}: " + ("; ".join(c["said"] for c in point["changes"])
                                        or "nothing to compare yet")
             for point in family["did_it_work"]]
    if lines:
        plain("Did it work? (the Did it work? page has the chart)\n" + "\n".join(lines))
        st.caption(" ".join(DID_IT_WORK_DEFINITIONS.values()))


def _downloads(study_id: str, report: dict[str, Any], of: str) -> None:
    """The plan as files: Markdown and JSON at once; HTML (~5 MB, plotly.js inlined so it
    works offline) made only when asked for, not on every run of the page."""
    kept = head_of(study_id)
    st.download_button("Download plan (Markdown)", kept.memo(("report_md", of), lambda:
                       report_markdown(report, report_chart_names(report))),
                       file_name=f"plan-{study_id}.md", mime="text/markdown", key="dl_md")
    st.download_button("Download plan (JSON)", kept.memo(("report_json", of), lambda:
                       json.dumps(report, indent=2)), file_name=f"plan-{study_id}.json",
                       mime="application/json", key="dl_json")
    if st.button("Prepare the plan as HTML with charts", key="make_html"):
        st.session_state[HTML_OF] = study_id
    if st.session_state.get(HTML_OF) != study_id:
        return
    if of != kept.head.state:  # its charts could not be drawn as of then
        st.caption("The HTML plan is made from the current data: ready once the results "
                   "above are updated.")
        return
    loaded = bundle(study_id)  # the charts draw from the study's tables
    page = loaded.memo(("report_html", of), lambda: report_html(
        report, report_figures(loaded.bundle.data, report)))
    st.download_button("Download plan (HTML with charts)", page,
                       file_name=f"plan-{study_id}.html", mime="text/html", key="dl_html")


def _plan_sections(report: dict[str, Any]) -> None:
    """The game's own sections of the plan, as the download shows them (its tables)."""
    for section in report_game(report).sections:
        st.subheader(section.title)
        if section.caption:
            st.caption(section.caption)
        rows = report.get(section.key) or []
        if not rows:
            st.caption(section.empty or "No data yet.")
            continue
        st.dataframe(pd.DataFrame([["–" if row.get(column.key) is None
                                     else column.show(row[column.key])
                                     for column in section.columns] for row in rows],
                                  columns=[column.header for column in section.columns]),
                     hide_index=True, key=f"plan_{section.key}")
