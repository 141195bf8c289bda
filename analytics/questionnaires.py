"""Questionnaire results: instrument scores with norms, item distributions, pre vs post,
quiz correctness and free-text themes.

Scores arrive computed (surveys package) as the ``scores`` frame of ``analytics.data``.

>>> sus_grade(80.75), sus_grade(71.05), sus_grade(40.0)
('A-', 'C', 'F')
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd

from analytics.data import QUIZ_COLUMNS, RESPONSE_COLUMNS, SCORE_COLUMNS, require_columns
from analytics.stats import wilcoxon_p

# Sauro–Lewis curved grading scale, as lower bounds (questionnaires.md §2, §13.6).
SUS_GRADES: list[tuple[float, str]] = [
    (84.1, "A+"), (80.8, "A"), (78.9, "A-"), (77.2, "B+"), (74.1, "B"), (72.6, "B-"),
    (71.1, "C+"), (65.0, "C"), (62.7, "C-"), (51.7, "D"), (0.0, "F"),
]


@dataclass(frozen=True)
class Norm:
    """A published reference value for an instrument's total score."""

    mean: float | None
    sd: float | None
    note: str


NORMS: dict[str, Norm] = {
    "sus": Norm(68.0, 12.5, "SUS average 68 (Sauro 2011); curved grades A+…F"),
    "umux_lite": Norm(68.0, 12.5, "compare with SUS norms (average 68) with caution"),
    "nps": Norm(None, None, "NPS > 0 good, > 20 favourable, > 50 excellent, > 80 world-class"),
}

#: Keyword themes for free text (lower-case word stems). ``negative`` themes are
#: confusion points.
THEMES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "confusing": (True, ("confus", "unclear", "don't understand", "dont understand",
                         "didn't understand", "lost", "weird", "strange", "why")),
    "rules": (True, ("rule", "allowed", "not allowed", "forbidden", "capture", "brown",
                     "suicide")),
    "maths hard": (True, ("math", "multipl", "times table", "hard", "difficult", "tricky")),
    "slow": (True, ("slow", "wait", "long", "boring", "bored")),
    "bugs": (True, ("bug", "broken", "crash", "stuck", "freeze", "error")),
    "fun": (False, ("fun", "enjoy", "love", "like", "cool", "great", "nice")),
    "easy": (False, ("easy", "simple", "clear")),
}


def sus_grade(score: float) -> str:
    """Sauro–Lewis letter grade of a SUS score (lower bounds, so gaps fall down)."""
    for bound, grade in SUS_GRADES:
        if score >= bound:
            return grade
    return "F"


def _mean_ci(values: np.ndarray) -> tuple[float, float]:
    from scipy import stats as sps
    if len(values) < 2 or np.ptp(values) == 0:
        mean = float(values.mean()) if len(values) else math.nan
        return (mean, mean) if len(values) >= 2 else (math.nan, math.nan)
    interval = sps.t.interval(0.95, len(values) - 1, loc=values.mean(),
                              scale=sps.sem(values))
    return float(interval[0]), float(interval[1])


def instrument_summary(scores: pd.DataFrame, variants: pd.Series | None = None
                       ) -> pd.DataFrame:
    """Per instrument × scale × phase (× variant): n, mean, sd, 95 % CI, norm, grade.

    ``variants`` maps participant_id → variant (see
    :func:`analytics.experiments.participant_variants`); when given the summary is split
    by variant. ``grade`` is the grade of the group mean (SUS only).

    Columns: ``instrument, scale, phase, variant, n, mean, sd, ci_low, ci_high,
    norm_mean, norm_note, grade``.
    """
    require_columns(scores, SCORE_COLUMNS, "scores")
    table = scores.assign(value=pd.to_numeric(scores["value"], errors="coerce"))
    table = table[np.isfinite(table["value"].astype(float))]
    table["variant"] = (table["participant_id"].map(variants) if variants is not None
                        else "all")
    table = table[table["variant"].notna()]
    rows = []
    for (instrument, scale, phase, variant), group in table.groupby(
            ["instrument", "scale", "phase", "variant"], sort=True):
        values = group["value"].to_numpy(float)
        low, high = _mean_ci(values)
        norm = NORMS.get(str(instrument).lower())
        mean = float(values.mean())
        grade = sus_grade(mean) if str(instrument).lower() == "sus" and scale == "total" \
            else None
        rows.append({"instrument": instrument, "scale": scale, "phase": phase,
                     "variant": variant, "n": len(values), "mean": mean,
                     "sd": float(values.std(ddof=1)) if len(values) > 1 else math.nan,
                     "ci_low": low, "ci_high": high,
                     "norm_mean": norm.mean if norm and scale == "total" else None,
                     "norm_note": norm.note if norm and scale == "total" else None,
                     "grade": grade})
    return pd.DataFrame(rows, columns=["instrument", "scale", "phase", "variant", "n",
                                       "mean", "sd", "ci_low", "ci_high", "norm_mean",
                                       "norm_note", "grade"])


def item_distribution(responses: pd.DataFrame, item: str,
                      variants: pd.Series | None = None) -> pd.DataFrame:
    """Counts of each answer to one item by phase (× variant).

    Columns: ``phase, variant, value, count, share`` (share within phase × variant).
    List answers (multiple choice) count once per chosen option.
    """
    require_columns(responses, RESPONSE_COLUMNS, "responses")
    table = responses.loc[responses["item"] == item, ["participant_id", "phase", "value"]]
    table = table.explode("value")
    table = table[table["value"].notna()]
    table["variant"] = (table["participant_id"].map(variants) if variants is not None
                        else "all")
    table = table[table["variant"].notna()]
    table["value"] = table["value"].astype(str)
    counts = table.groupby(["phase", "variant", "value"]).size().rename("count").reset_index()
    counts["share"] = counts["count"] / counts.groupby(["phase", "variant"])[
        "count"].transform("sum")
    return counts


def pre_post(scores: pd.DataFrame) -> pd.DataFrame:
    """Expectation vs experience: instruments × scales scored both pre and post play.

    Pairs each participant's pre and post value; the p-value is the Wilcoxon
    signed-rank test (``scipy.stats.wilcoxon``'s p-value: :func:`analytics.stats.
    wilcoxon_p`) on the paired differences.
    Columns: ``instrument, scale, n_pairs, pre_mean, post_mean, change, p_value``.
    """
    require_columns(scores, SCORE_COLUMNS, "scores")
    table = scores.assign(value=pd.to_numeric(scores["value"], errors="coerce"))
    wide = table.pivot_table(index=["instrument", "scale", "participant_id"],
                             columns="phase", values="value", aggfunc="mean")
    rows = []
    if {"pre", "post"} <= set(wide.columns):
        paired = wide.dropna(subset=["pre", "post"])
        for (instrument, scale), group in paired.groupby(level=[0, 1], sort=True):
            diff = (group["post"] - group["pre"]).to_numpy(float)
            p_value = math.nan
            if len(diff) >= 2 and np.any(diff != 0):
                p_value = wilcoxon_p(diff)
            rows.append({"instrument": instrument, "scale": scale, "n_pairs": len(diff),
                         "pre_mean": float(group["pre"].mean()),
                         "post_mean": float(group["post"].mean()),
                         "change": float(diff.mean()), "p_value": p_value})
    return pd.DataFrame(rows, columns=["instrument", "scale", "n_pairs", "pre_mean",
                                       "post_mean", "change", "p_value"])


def quiz_correctness(quiz: pd.DataFrame, variants: pd.Series | None = None) -> pd.DataFrame:
    """Per quiz item (× variant): answers, correct answers and the share correct."""
    require_columns(quiz, QUIZ_COLUMNS, "quiz")
    table = quiz.assign(correct=quiz["correct"].astype(bool))
    table["variant"] = (table["participant_id"].map(variants) if variants is not None
                        else "all")
    table = table[table["variant"].notna()]
    grouped = table.groupby(["item", "variant"])["correct"]
    result = pd.DataFrame({"answers": grouped.size(), "correct": grouped.sum()})
    result["share_correct"] = result["correct"] / result["answers"]
    return result.reset_index()


def _theme_pattern(words: tuple[str, ...]) -> str:
    # Stems match at a word start ("rule" matches "rules", "fun" does not match "refund").
    return r"\b(?:" + "|".join(re.escape(word) for word in words) + ")"


def free_text(responses: pd.DataFrame, search: str | None = None,
              variants: pd.Series | None = None,
              text_items: Iterable[str] | None = None) -> pd.DataFrame:
    """String answers with their keyword themes, optionally filtered by ``search``.

    ``search`` is matched case-insensitively as plain text (not a regex). ``text_items``,
    when given, limits the answers to those items (the free-text questions: a choice
    item's answer is a string too, but not something a tester wrote). Columns:
    ``participant_id, phase, item, variant, text, themes`` (themes: list of names).
    """
    require_columns(responses, RESPONSE_COLUMNS, "responses")
    is_text = responses["value"].map(lambda v: isinstance(v, str))
    if text_items is not None:
        is_text &= responses["item"].isin(list(text_items))
    table = responses.loc[is_text, ["participant_id", "phase", "item", "value"]].rename(
        columns={"value": "text"})
    table = table[table["text"].str.strip() != ""]
    if search:
        table = table[table["text"].str.contains(search, case=False, regex=False)]
    table["variant"] = (table["participant_id"].map(variants) if variants is not None
                        else "all")
    flags = _theme_flags(table["text"])
    names = np.array(list(THEMES), dtype=object)
    matrix = flags.to_numpy(dtype=bool)
    table["themes"] = [names[row].tolist() for row in matrix] if len(table) else []
    return table.reset_index(drop=True)[["participant_id", "phase", "item", "variant",
                                         "text", "themes"]]


def _theme_flags(texts: pd.Series,
                 themes: dict[str, tuple[str, ...]] | None = None) -> pd.DataFrame:
    """One bool column per theme: does the text mention one of its keywords?

    ``themes`` (name -> word stems) defaults to the built-in :data:`THEMES`.
    """
    words_by_theme = themes if themes is not None else {
        name: words for name, (_, words) in THEMES.items()}
    # Each distinct answer is matched once ("no", "nothing" … come back again and again).
    codes, distinct = pd.factorize(texts.astype(object).str.lower())
    unique = pd.Series(distinct, dtype=object)
    flags = {name: unique.str.contains(_theme_pattern(tuple(words)), regex=True)
             .fillna(False).astype(bool).to_numpy() if words
             else np.zeros(len(unique), dtype=bool)
             for name, words in words_by_theme.items()}
    missing = codes < 0
    return pd.DataFrame({name: np.where(missing, False, column[np.maximum(codes, 0)])
                         if len(column) else np.zeros(len(codes), dtype=bool)
                         for name, column in flags.items()}, index=texts.index)


THEME_COLUMNS = ["item", "theme", "negative", "polarity", "answers", "share"]


def _is_negative(theme: str, polarity: str) -> bool:
    """A mention is a problem in a ``problem`` item, never in a ``praise`` item, and keeps
    the built-in theme's sign in a ``neutral`` one (an item's own themes: not negative).

    >>> _is_negative("fun", "problem"), _is_negative("rules", "praise")
    (True, False)
    >>> _is_negative("rules", "neutral"), _is_negative("fun", "neutral")
    (True, False)
    """
    if polarity == "problem":
        return True
    if polarity == "praise":
        return False
    return bool(THEMES.get(theme, (False, ()))[0])


def theme_counts(responses: pd.DataFrame,
                 text_items: Iterable[str] | None = None,
                 polarity: Mapping[str, str] | None = None,
                 themes: Mapping[str, Mapping[str, Iterable[str]] | None] | None = None
                 ) -> pd.DataFrame:
    """Per free-text item × theme: answers mentioning it, share of the item's answers.

    ``polarity`` maps an item to what its question asks for (``problem``, ``praise`` or
    ``neutral``, the default); ``themes`` maps an item to its own keyword themes (else
    :data:`THEMES`). ``negative`` says whether a mention is a problem (see
    :func:`_is_negative`). Answers that mention no theme count in the share's
    denominator only.

    Columns: ``item, theme, negative, polarity, answers, share``.

    >>> answers = pd.DataFrame({"participant_id": ["p", "q"], "survey": "s",
    ...     "survey_version": "1", "phase": "post", "item": "open.liked",
    ...     "value": ["ok", "the rules were fun"], "at": None})
    >>> theme_counts(answers.iloc[:1]).empty
    True
    >>> table = theme_counts(answers, polarity={"open.liked": "praise"})
    >>> table[["theme", "negative", "answers", "share"]].values.tolist()
    [['fun', False, 1, 0.5], ['rules', False, 1, 0.5]]
    """
    require_columns(responses, RESPONSE_COLUMNS, "responses")
    is_text = responses["value"].map(lambda v: isinstance(v, str))
    if text_items is not None:
        is_text &= responses["item"].isin(list(text_items))
    texts = responses.loc[is_text, ["item", "value"]]
    texts = texts[texts["value"].astype(str).str.strip() != ""]
    empty = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in (
        ("item", object), ("theme", object), ("negative", bool), ("polarity", object),
        ("answers", "int64"), ("share", float))})
    if texts.empty:
        return empty
    polarity = polarity or {}
    themes = themes or {}
    frames = []
    for item, group in texts.groupby(texts["item"].astype(str), sort=True):
        own = themes.get(item)
        item_themes = ({str(k): tuple(str(w).lower() for w in v) for k, v in own.items()}
                       if own else None)
        flags = _theme_flags(group["value"].astype(str), item_themes)
        counts = flags.sum(axis=0).astype("int64")
        counts = counts[counts > 0]
        if counts.empty:
            continue
        sign = str(polarity.get(item, "neutral"))
        frames.append(pd.DataFrame({
            "item": item, "theme": counts.index.astype(str),
            "negative": [_is_negative(str(t), sign) if item_themes is None
                         else sign == "problem" for t in counts.index],
            "polarity": sign, "answers": counts.to_numpy(dtype="int64"),
            "share": counts.to_numpy(dtype=float) / len(group)}))
    if not frames:
        return empty
    counts_table = pd.concat(frames, ignore_index=True)
    counts_table["negative"] = counts_table["negative"].astype(bool)
    return counts_table[THEME_COLUMNS].sort_values(
        ["share", "item", "theme"], ascending=[False, True, True],
        kind="stable").reset_index(drop=True)


#: An answer that opens with a plain "no" ("nothing", "none", "no") names no problem,
#: even when it goes on with a theme word ("nothing was confusing").
_DENIAL = re.compile(r"^\s*(?:no|nope|none|nothing|not really|n/?a)\b", re.IGNORECASE)


def problem_answers(responses: pd.DataFrame, text_items: Iterable[str] | None = None,
                    polarity: Mapping[str, str] | None = None,
                    themes: Mapping[str, Mapping[str, Iterable[str]] | None] | None = None
                    ) -> pd.DataFrame:
    """Each answer to a free-text item that can name problems (``problem`` or
    ``neutral`` polarity; never a ``praise`` item), and whether it names one.

    Columns: ``participant_id, item, problem, themes`` (the problem themes named,
    joined by ``|``; empty when none).

    >>> answers = pd.DataFrame({"participant_id": ["p", "q", "r"], "survey": "s",
    ...     "survey_version": "1", "phase": "post",
    ...     "item": ["open.confused", "open.confused", "open.liked"],
    ...     "value": ["the rules", "nothing was confusing", "the rules"], "at": None})
    >>> table = problem_answers(answers, polarity={"open.confused": "problem",
    ...                                            "open.liked": "praise"})
    >>> table[["participant_id", "problem"]].values.tolist()
    [['p', True], ['q', False]]
    """
    require_columns(responses, RESPONSE_COLUMNS, "responses")
    polarity = polarity or {}
    themes = themes or {}
    # Selected with numpy masks, then matched per distinct (item, answer): at 10,000
    # testers there are ~100k text answers but a few hundred distinct ones ("no",
    # "nothing" …), so each is matched against the themes once (same table, ~4× faster).
    values = responses["value"].to_numpy(dtype=object)
    keep = np.fromiter((isinstance(value, str) for value in values), dtype=bool,
                       count=len(values))
    items = responses["item"].astype(object)
    if text_items is not None:
        keep &= items.isin(list(text_items)).to_numpy(dtype=bool)
    praise = [item for item, sign in polarity.items() if sign == "praise"]
    if praise:
        keep &= ~items.astype(str).isin(praise).to_numpy(dtype=bool)
    rows = np.flatnonzero(keep)
    rows = rows[np.fromiter((value.strip() != "" for value in values[rows]), dtype=bool,
                            count=len(rows))]
    if not len(rows):
        return pd.DataFrame(columns=["participant_id", "item", "problem", "themes"])
    texts = pd.DataFrame({"participant_id": responses["participant_id"].to_numpy()[rows],
                          "item": items.to_numpy()[rows].astype(str),
                          "value": values[rows]})
    frames = []
    for key, group in texts.groupby("item", sort=True):
        item = str(key)
        codes, distinct = pd.factorize(group["value"])
        problem, named = _problems(pd.Series(distinct, dtype=object),
                                   str(polarity.get(item, "neutral")), themes.get(item))
        frames.append(pd.DataFrame({
            "participant_id": group["participant_id"].to_numpy(), "item": item,
            "problem": problem[codes], "themes": named[codes]}))
    return pd.concat(frames, ignore_index=True)


def _problems(distinct: pd.Series, sign: str, own: Mapping[str, Iterable[str]] | None
              ) -> tuple[np.ndarray, np.ndarray]:
    """For each distinct answer to an item (its polarity ``sign``, its ``own`` themes or
    None): does it name a problem, and which problem themes (joined by ``|``)."""
    item_themes = ({str(k): tuple(str(w).lower() for w in v) for k, v in own.items()}
                   if own else None)
    flags = _theme_flags(distinct, item_themes)
    bad = [name for name in flags.columns
           if (sign == "problem" if item_themes is not None
               else _is_negative(str(name), sign))]
    named = flags[bad] if bad else pd.DataFrame(index=flags.index)
    denied = distinct.str.match(_DENIAL).to_numpy(dtype=bool)
    problem = named.to_numpy(dtype=bool).any(axis=1) & ~denied
    # "rules|bugs|" per answer at once (bool × str), split into lists
    joined = (cast(Any, named).dot(pd.Index(bad).astype(str) + "|") if bad
              else pd.Series("", index=flags.index)).where(problem, "")
    return problem, joined.astype(str).str.rstrip("|").to_numpy(dtype=object)


def what_works(responses: pd.DataFrame, text_items: Iterable[str] | None = None,
               polarity: Mapping[str, str] | None = None,
               themes: Mapping[str, Mapping[str, Iterable[str]] | None] | None = None
               ) -> pd.DataFrame:
    """The praise: themes of the answers to ``praise`` items (and the positive themes of
    ``neutral`` ones), most mentioned first. Columns as :func:`theme_counts`."""
    counts = theme_counts(responses, text_items, polarity, themes)
    return counts[~counts["negative"].astype(bool)
                  & (counts["polarity"] != "problem")].reset_index(drop=True)
