"""The designer tables' columns named for people (the frames keep their keys), and the
notes that define them."""

from __future__ import annotations

from typing import Any

import streamlit as st

SCORE_TABLE_NOTE = (
    "One row per instrument, scale and phase (pre: before play, post: after): testers "
    "(n), their mean score with its 95 % confidence interval (t), and the standard "
    "deviation across testers. Norm: the instrument's published mean, where there is one.")
SCORE_COLUMNS: dict[str, Any] = {
    "instrument": "Instrument", "scale": "Scale", "phase": "Phase", "variant": "Variant",
    "n": st.column_config.NumberColumn("Testers (n)"),
    "mean": st.column_config.NumberColumn("Mean", format="%.2f"),
    "sd": st.column_config.NumberColumn("Std. dev.", format="%.2f"),
    "ci_low": st.column_config.NumberColumn("95 % low", format="%.2f"),
    "ci_high": st.column_config.NumberColumn("95 % high", format="%.2f"),
    "norm_mean": st.column_config.NumberColumn("Norm mean", format="%.1f"),
    "norm_note": "Norm", "grade": "Grade"}
QUIZ_COLUMNS: dict[str, Any] = {
    "item": "Quiz question", "variant": "Variant", "answers": "Answers", "correct": "Correct",
    "share_correct": st.column_config.NumberColumn("Share correct", format="percent")}
EXPECTATION_NOTE = (
    "One pair per tester who answered both. Change: mean of after − before, with its 95% "
    "interval (t) and the Wilcoxon signed-rank p-value; blank below two pairs.")
EXPECTATION_COLUMNS: dict[str, Any] = {
    name: st.column_config.NumberColumn(label, format="%.2f")
    for name, label in (("pre_mean", "Before (mean)"), ("post_mean", "After (mean)"),
                        ("change", "Change"), ("ci95_low", "95 % low"),
                        ("ci95_high", "95 % high"))} | {
    "measure": "Measure", "n_pairs": "Pairs", "pre_question": "Before: question",
    "post_question": "After: question",
    "p_value": st.column_config.NumberColumn("p (Wilcoxon)", format="%.3f")}
THEMES_NOTE = (
    "Themes by the question's intent: a mention in answers to a problem question (\"What "
    "confused you?\") is a problem; in answers to a praise question (\"What did you "
    "like?\") it is something that works, never a confusion.")
