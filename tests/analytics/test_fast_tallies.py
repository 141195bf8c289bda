"""The dashboard's faster counting gives the tables the plain pandas way gives: occasion
tallies (numpy bincounts) and problem answers (matched per distinct answer), on planted
rows with repeats, missing values, blank and non-text answers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import confusion, questionnaires, severity
from analytics.data import RESPONSE_COLUMNS


def _reference_tallies(frame: pd.DataFrame, family: str, baseline: float) -> list[severity.Tally]:
    """One pandas group per candidate, counted the obvious way."""
    rows = frame[frame["candidate"].notna()].assign(
        later=frame["later"].fillna(False).astype(bool),
        trouble=frame["trouble"].fillna(False).astype(bool),
        tester=frame["participant_id"].astype(object).where(frame["participant_id"].notna(),
                                                            "<none>"))
    tallies = []
    for name in pd.unique(rows["candidate"]):
        group = rows[rows["candidate"] == name]
        troubled = group[group["trouble"]]
        tallies.append(severity.Tally(
            id=f"{family}:{name}", family=family, occasions=len(group),
            troubles=int(group["trouble"].sum()), testers=group["tester"].nunique(),
            affected=troubled["tester"].nunique(),
            first_occasions=int((~group["later"]).sum()),
            first_troubles=int((group["trouble"] & ~group["later"]).sum()),
            later_occasions=int(group["later"].sum()),
            later_troubles=int((group["trouble"] & group["later"]).sum()),
            baseline=baseline, impact=confusion.IMPACT[family]))
    return tallies


def test_occasion_tallies_equal_a_plain_count_per_candidate() -> None:
    rng = np.random.default_rng(7)
    n = 2000
    testers = np.array([f"t{i}" for i in range(60)] + [None], dtype=object)
    names = np.array(["roll_first", "empty_priority", "pass_rule", None], dtype=object)
    frame = pd.DataFrame({
        "candidate": names[rng.integers(0, 4, n)],
        "participant_id": testers[rng.integers(0, len(testers), n)],
        "later": pd.Series([(True, False, None)[k] for k in rng.integers(0, 3, n)],
                           dtype="boolean"),
        "trouble": rng.random(n) < 0.3})
    fast = confusion.occasion_tallies(frame, "rule", 0.1)
    assert fast == _reference_tallies(frame, "rule", 0.1)
    assert {t.id for t in fast} == {"rule:roll_first", "rule:empty_priority", "rule:pass_rule"}
    assert sum(t.occasions for t in fast) == int(frame["candidate"].notna().sum())
    assert confusion.occasion_tallies(frame.iloc[0:0], "rule", 0.1) == []


def _reference_problems(responses: pd.DataFrame, polarity: dict[str, str]) -> pd.DataFrame:
    """Each text answer matched on its own (no sharing between equal answers)."""
    rows = []
    for item in sorted({str(i) for i in responses["item"]}):
        sign = polarity.get(item, "neutral")
        if sign == "praise":
            continue
        for tester, value in responses.loc[responses["item"] == item,
                                           ["participant_id", "value"]].itertuples(index=False):
            if not isinstance(value, str) or not value.strip():
                continue
            flags = questionnaires._theme_flags(pd.Series([value]))
            bad = [name for name in flags.columns
                   if questionnaires._is_negative(str(name), sign) and flags[name].iloc[0]]
            denied = bool(questionnaires._DENIAL.match(value))
            problem = bool(bad) and not denied
            rows.append({"participant_id": tester, "item": item, "problem": problem,
                         "themes": "|".join(bad) if problem else ""})
    return pd.DataFrame(rows, columns=["participant_id", "item", "problem", "themes"])


def test_problem_answers_equal_matching_each_answer_on_its_own() -> None:
    texts = ["the rules were confusing", "nothing was confusing", "no", "  ", "boring",
             "I did not understand the dice", "the rules were confusing", "fun!", 4, None]
    items = ["open.confused", "open.confused", "open.liked", "open.other"]
    rng = np.random.default_rng(3)
    n = 400
    responses = pd.DataFrame({
        "participant_id": [f"p{i % 90}" for i in range(n)], "survey": "post",
        "survey_version": "1", "phase": "post",
        "item": [items[k] for k in rng.integers(0, len(items), n)],
        "value": pd.Series([texts[k] for k in rng.integers(0, len(texts), n)], dtype=object),
        "at": None}, columns=RESPONSE_COLUMNS)
    polarity = {"open.confused": "problem", "open.liked": "praise"}
    fast = questionnaires.problem_answers(responses, polarity=polarity)
    expected = _reference_problems(responses, polarity)
    assert fast["problem"].any() and not fast["problem"].all()
    assert "open.liked" not in set(fast["item"])
    pd.testing.assert_frame_equal(
        fast.astype({"participant_id": object, "item": object, "themes": object}),
        expected.astype({"participant_id": object, "item": object, "themes": object,
                         "problem": bool}))
    only = questionnaires.problem_answers(responses, text_items=["open.other"])
    assert set(only["item"]) == {"open.other"}
