"""Expectation against experience: the same question asked before and after playing.

The bundled surveys ask it as item pairs, not as a scored instrument: adults rate
"How much fun do you expect the game to be?" (``expect.fun_0_10``, 0–10) before and "How
much fun was it?" (``experience.fun_0_10``) after; children pick a Smileyometer face for
"How good do you think this game will be?" (``expect.smileyometer_pre``, 1–5) before and
"How good was it?" (``child.smileyometer``) after. Instrument scores that a
study's own surveys give in both phases are paired as well (``pre_post`` of
:mod:`analytics.questionnaires`).

For each measure, each tester who answered both is one pair; ``change`` is the mean of
post − pre, with a 95% t-interval (``ci95_low``, ``ci95_high``; NaN below two pairs) and
the Wilcoxon signed-rank p-value (NaN below two pairs or when nothing changed).

>>> rows = [["P1", "pre", "expect.fun_0_10", 6], ["P1", "post", "experience.fun_0_10", 8],
...         ["P2", "pre", "expect.fun_0_10", 5], ["P2", "post", "experience.fun_0_10", 9],
...         ["P3", "pre", "expect.fun_0_10", 7]]
>>> responses = pd.DataFrame([[p, "s", "1", ph, i, v, None] for p, ph, i, v in rows],
...                          columns=RESPONSE_COLUMNS)
>>> table = expectation_vs_experience(responses)
>>> row = table.set_index("measure").loc["Fun, 0–10 (adults)"]
>>> int(row["n_pairs"]), float(row["pre_mean"]), float(row["post_mean"]), float(row["change"])
(2, 5.5, 8.5, 3.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics.data import RESPONSE_COLUMNS, SCORE_COLUMNS, require_columns
from analytics.questionnaires import pre_post
from analytics.stats import wilcoxon_p


@dataclass(frozen=True)
class ItemPair:
    """One question asked before (``pre_item``, phase ``pre``) and after playing."""

    measure: str
    pre_item: str
    post_item: str


BUNDLED_PAIRS: tuple[ItemPair, ...] = (
    ItemPair("Fun, 0–10 (adults)", "expect.fun_0_10", "experience.fun_0_10"),
    ItemPair("How good, faces 1–5 (children)", "expect.smileyometer_pre",
             "child.smileyometer"),
)

# What a reader looks for first (the change and its interval) before the item ids.
COLUMNS = ["measure", "n_pairs", "pre_mean", "post_mean", "change", "ci95_low", "ci95_high",
           "p_value", "pre_question", "post_question"]


def _numeric(values: pd.Series) -> pd.Series:
    # Numbers only: a bool or a string answer is not a rating.
    kept = values.where(values.map(lambda v: isinstance(v, int | float)
                                   and not isinstance(v, bool)))
    return pd.to_numeric(kept, errors="coerce")


def paired_change(pre: pd.Series, post: pd.Series) -> dict[str, float]:
    """Pairs of ``pre`` and ``post`` (indexed by participant): n, means, change, 95% CI, p.

    >>> out = paired_change(pd.Series({"a": 1.0, "b": 2.0, "c": 3.0}),
    ...                     pd.Series({"a": 2.0, "b": 4.0, "c": 3.0}))
    >>> out["n_pairs"], out["change"], round(out["ci95_low"], 2), round(out["ci95_high"], 2)
    (3.0, 1.0, -1.48, 3.48)
    """
    import scipy.stats as sps
    pairs = pd.concat([pre.rename("pre"), post.rename("post")], axis=1).dropna()
    diff = (pairs["post"] - pairs["pre"]).to_numpy(float)
    n = len(diff)
    low = high = p_value = math.nan
    if n >= 2:
        spread = float(np.std(diff, ddof=1))
        half = float(sps.t.ppf(0.975, n - 1)) * spread / math.sqrt(n)
        low, high = float(diff.mean()) - half, float(diff.mean()) + half
        if np.any(diff != 0):
            p_value = wilcoxon_p(diff)
    return {"n_pairs": float(n),
            "pre_mean": float(pairs["pre"].mean()) if n else math.nan,
            "post_mean": float(pairs["post"].mean()) if n else math.nan,
            "change": float(diff.mean()) if n else math.nan,
            "ci95_low": low, "ci95_high": high, "p_value": p_value}


def expectation_vs_experience(responses: pd.DataFrame, scores: pd.DataFrame | None = None,
                              pairs: tuple[ItemPair, ...] = BUNDLED_PAIRS) -> pd.DataFrame:
    """One row per measure that has at least one tester who answered both (``COLUMNS``).

    Item pairs come first (``pairs``), then instruments scored in both phases
    (``scores``, one row per instrument × scale, questions named by the instrument).
    """
    require_columns(responses, RESPONSE_COLUMNS, "responses")
    # Only the pairs' items are read: the other answers need not be made numbers.
    paired = {item for pair in pairs for item in (pair.pre_item, pair.post_item)}
    table = responses[responses["item"].isin(list(paired)).to_numpy(dtype=bool)]
    table = table.assign(number=_numeric(table["value"]))
    rows: list[dict[str, object]] = []
    for pair in pairs:
        pre = table[(table["item"] == pair.pre_item) & (table["phase"] == "pre")]
        post = table[(table["item"] == pair.post_item) & (table["phase"] == "post")]
        result = paired_change(pre.groupby("participant_id")["number"].mean(),
                               post.groupby("participant_id")["number"].mean())
        if result["n_pairs"]:
            rows.append({"measure": pair.measure, "pre_question": pair.pre_item,
                         "post_question": pair.post_item, **result})
    if scores is not None:
        require_columns(scores, SCORE_COLUMNS, "scores")
        values = scores.assign(value=pd.to_numeric(scores["value"], errors="coerce"))
        for record in pre_post(scores).to_dict("records"):
            mine = values[(values["instrument"] == record["instrument"])
                          & (values["scale"] == record["scale"])]
            result = paired_change(
                mine[mine["phase"] == "pre"].groupby("participant_id")["value"].mean(),
                mine[mine["phase"] == "post"].groupby("participant_id")["value"].mean())
            name = f"{record['instrument']} ({record['scale']})"
            rows.append({"measure": name, "pre_question": name, "post_question": name,
                         **result})
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["n_pairs"] = frame["n_pairs"].astype(int)
    return frame
