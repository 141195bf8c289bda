"""Vapoosh's refusal reasons and wrong-click kinds, with their occasions.

- A ``rule`` wrong click (``wrong_kind == "rule"``) carries its ``rule_reason``
  (``empty_priority``, ``suicide``, ``own_tile``, ``brown``).
- The **occasions** of a reason are the human turns whose ``roll`` logged the reason in
  ``refused`` (a rolled option the rules refuse for that reason: ``empty_priority`` is a
  turn with one option empty and the other an opponent's). Rolls logged before
  ``refused`` existed give NaN: the core then counts them as an occasion of every
  reason seen in the study (the evidence says so).
- ``wrong:<kind>`` for the maths kinds (``arithmetic``, ``same_product``,
  ``near_miss``): occasions are all turns with a click.

>>> from analytics.data import StudyData
>>> wrong_clicks_by_class(StudyData.empty("s")).empty
True
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import derive, severity
from analytics.confusion import human_turn_count, occasion_tallies
from analytics.data import StudyData

MATHS_KINDS = ("arithmetic", "same_product", "near_miss")

ACTIONS: dict[str, str] = {
    "rule:empty_priority": "Explain that empty tiles come before captures; after a wrong "
                           "click, highlight the legal options.",
    "rule:suicide": "Say why a surrounded tile is forbidden when it is clicked; add a "
                    "suicide example to the rules overlay.",
    "rule:own_tile": "Make own counters look unclickable and say 'you already own this "
                     "tile'.",
    "rule:brown": "Mark brown tiles as blocked for normal counters and explain brown "
                  "counters in the rules overlay.",
    "rule:brown_compulsory": "After a Vapooh! roll, show that the brown counter must be "
                             "placed now, and highlight where it can go.",
    "wrong:rule": "Clarify the placement rules at the moment they bite (message on the "
                  "wrong click).",
    "wrong:same_product": "Show the two factors ('5 × 8') with the roll and highlight the "
                          "row and column headers.",
    "wrong:near_miss": "Enlarge tiles or highlight the hovered row and column so clicks "
                       "land where intended.",
    "wrong:arithmetic": "Offer a times-table hint after a wrong answer; consider an easier "
                        "rule preset for beginners.",
}

RULE_DEFINITION = ("Occasions: turns whose roll the rules refuse an option of for this "
                   "reason. Trouble: a wrong click for this reason.")
WRONG_DEFINITION = "Occasions: turns with a click. Trouble: a wrong click of this kind."


def wrong_clicks_by_class(data: StudyData) -> pd.DataFrame:
    """Wrong clicks per ``wrong_kind``: ``wrong_kind, clicks, participants, per_turn``
    (per human turn), most frequent first."""
    table = derive.clicks(data)
    wrong = table[~table["ok"] & table["wrong_kind"].notna()]
    grouped = wrong.groupby("wrong_kind")
    result = pd.DataFrame({"clicks": grouped.size(),
                           "participants": grouped["participant_id"].nunique()})
    result["per_turn"] = result["clicks"] / max(human_turn_count(data), 1)
    return result.rename_axis("wrong_kind").reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)


def wrong_kind_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                       ) -> tuple[list[severity.Tally], float | None]:
    """One ``wrong:<kind>`` tally per maths kind that occurred (baseline 0)."""
    table = derive.clicks(data)
    wrong = table[(table["turn_id"] >= 0) & ~table["ok"]]
    tallies: list[severity.Tally] = []
    for kind in MATHS_KINDS:
        hit = set(wrong.loc[wrong["wrong_kind"] == kind, "turn_id"].astype("int64"))
        if not hit:
            continue
        tallies += occasion_tallies(pd.DataFrame({
            "candidate": kind, "participant_id": attempted["participant_id"],
            "later": later.reindex(attempted.index),
            "trouble": attempted["turn_id"].astype("int64").isin(hit)}), "wrong", 0.0, 1.0)
    return tallies, None


def wrong_label(name: str, extra: dict[str, Any]) -> str:
    """``Wrong clicks: near miss``."""
    return f"Wrong clicks: {name.replace('_', ' ')}"


def wrong_action(name: str, extra: dict[str, Any]) -> str:
    """The fix for a kind of wrong click ('' when none is known)."""
    return ACTIONS.get(f"wrong:{name}", "")
