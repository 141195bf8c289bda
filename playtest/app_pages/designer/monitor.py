"""The Monitor page: who is where in the study right now, redrawn by itself every few
seconds (a fragment with ``run_every``). Storage reads (:mod:`playtest.storage.live`),
analytics computes (:mod:`analytics.live`), this draws."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics import live
from playtest import runtime
from playtest.app_pages.designer.opening import open_page
from playtest.display_words import step_words
from playtest.storage.live import live_rows
from playtest.storage.timeutil import now_ms

#: Seconds between two redraws of the monitor.
REFRESH_S = 5


def monitor_page() -> None:
    study = open_page("Monitor")
    if study is None:
        return
    st.caption(f"Redrawn every {REFRESH_S} seconds while this page is open.")
    live_panel(study.study_id)


@st.fragment(run_every=REFRESH_S)
def live_panel(study_id: str) -> None:
    """The monitor's numbers, read and drawn again on every run of the fragment."""
    moment = now_ms()
    pages, last = live_rows(runtime.database(), study_id, now_ms=moment,
                            window_ms=live.WINDOW_HOURS * live.HOUR_MS)
    view = live.live_view(pages, last, now_ms=moment)
    cols = st.columns(3)
    cols[0].metric("In the study now", sum(view.in_step.values()),
                   help=live.DEFINITIONS["in_step"])
    cols[1].metric("Started in the last hour", view.started_last_hour,
                   help=live.DEFINITIONS["started"])
    cols[2].metric("Finished in the last hour", view.finished_last_hour,
                   help=live.DEFINITIONS["finished"])
    st.subheader("Testers in each step now")
    st.caption(live.DEFINITIONS["in_step"])
    if view.in_step:
        st.dataframe(pd.DataFrame({"Step": [step_words(s) for s in view.in_step],
                                   "Testers": list(view.in_step.values())}),
                     hide_index=True, key="monitor_steps")
    else:
        st.write("Nobody is taking part right now.")
    st.subheader("Median time per step")
    st.caption(live.DEFINITIONS["median"])
    if view.step_times:
        st.dataframe(pd.DataFrame([{
            "Step": step_words(t.step), "Median (s)": round(t.median_s),
            "95% interval (s)": "–" if t.low_s is None or t.high_s is None
            else f"{t.low_s:.0f} to {t.high_s:.0f}",
            "Testers": t.testers} for t in view.step_times]),
            hide_index=True, key="monitor_times")
    else:
        st.write(f"No tester moved on from a page in the last {live.WINDOW_HOURS} hours.")
    st.subheader("Testers idle on one page")
    st.caption(live.DEFINITIONS["idle"])
    if view.idle:
        st.dataframe(pd.DataFrame([{"Tester": i.participant_id, "Step": step_words(i.step),
                                    "Minutes without an action": i.idle_minutes}
                                   for i in view.idle]),
                     hide_index=True, key="monitor_idle")
    else:
        st.write("Nobody is idle.")
