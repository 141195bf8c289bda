"""Vapoosh!'s facts in play, for the Learning page (:mod:`analytics.learning`).

Every turn a tester rolls asks one multiplication fact, ``P × G`` with ``P = p1 + p2``
and ``G = g1 + g2`` (keyed smaller factor first: ``7x8``). A **try** at the fact is a
tester's turn with at least one click; it is **right** when the turn holds no maths slip
(a wrong click other than a ``rule`` one: the definition of the hardest-facts table), and
its time is the first click's ``ms`` (from the options appearing). The tries come in the
order played, so :func:`analytics.learning_facts.numbered_attempts` can number each tester's
attempts at each fact.

>>> from analytics.data import StudyData
>>> list(fact_attempts(StudyData.empty("s")).columns)
['participant_id', 'fact', 'correct', 'ms', 'at']
"""

from __future__ import annotations

import pandas as pd

from analytics.data import StudyData
from analytics.games.vapoosh.rolls import roll_turns

COLUMNS = ["participant_id", "fact", "correct", "ms", "at"]


def fact_attempts(data: StudyData) -> pd.DataFrame:
    """The tester's tries at facts in play (module docstring), in the order played."""
    turns = roll_turns(data)
    tried = turns[(turns["n_clicks"] > 0) & turns["fact"].notna()]
    if tried.empty:
        return pd.DataFrame(columns=COLUMNS)
    table = pd.DataFrame({
        "participant_id": tried["participant_id"].astype(str).to_numpy(),
        "fact": tried["fact"].astype(str).to_numpy(),
        "correct": (tried["n_wrong_math"] == 0).to_numpy(),
        "ms": pd.to_numeric(tried["first_ms"], errors="coerce").to_numpy(),
        "at": tried["at"].to_numpy(),
        "seq": pd.to_numeric(tried["seq"], errors="coerce").to_numpy(),
    })
    return table.sort_values(["participant_id", "at", "seq"], kind="stable")[COLUMNS] \
        .reset_index(drop=True)
