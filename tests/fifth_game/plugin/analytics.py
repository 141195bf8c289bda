"""Tic-tac-toe's analytics: what a turn is, and its refusals as ``rule:<reason>`` confusion
points (the core scores them: :mod:`analytics.confusion`).

A refusal is a tester's click the rules refused (``ok: false``) with the engine's
``reason`` (``taken``…). Every turn of a tester is an occasion of every reason (a taken
square is on the board on all but the game's very first turn).

>>> from analytics.data import StudyData
>>> list(refusals(StudyData.empty("s")).columns)
['turn_id', 'participant_id', 'reason']
>>> ANALYTICS.name, ANALYTICS.turns.acts
('tictactoe', ('place',))
"""

from __future__ import annotations

import pandas as pd

from analytics import derive
from analytics.data import StudyData
from analytics.game_analytics import GameAnalytics
from analytics.turns import TurnRule
from tests.fifth_game.engine import NAME, REFUSALS


def refusals(data: StudyData) -> pd.DataFrame:
    """The refused clicks in a tester's turn: ``turn_id, participant_id, reason``."""
    clicks = derive.clicks(data)
    reasons = derive.props_of(data, "click", ["reason"])[["row", "reason"]]
    wrong = clicks[(clicks["turn_id"] >= 0) & ~clicks["ok"]].merge(reasons, on="row")
    wrong = wrong[wrong["reason"].notna()]
    return pd.DataFrame({"turn_id": wrong["turn_id"].astype("int64"),
                         "participant_id": wrong["participant_id"],
                         "reason": wrong["reason"].astype(str)})


def reason_occasions(data: StudyData, attempted: pd.DataFrame) -> pd.Series:
    """Per tester turn, the reasons the rules could refuse a click for: all of them."""
    del data
    return pd.Series([list(REFUSALS)] * len(attempted), index=attempted.index, dtype=object)


ANALYTICS = GameAnalytics(
    name=NAME, title="Tic-tac-toe", refusals=refusals, reason_occasions=reason_occasions,
    actions={"rule:taken": "Make taken squares look unclickable."},
    definitions={"rule": "Occasions: the tester's turns. Trouble: a click the rules "
                         "refused for this reason in the turn."},
    prepared=(("click", ("reason",)),),
    turns=TurnRule(acts=("place",), definition=(
        "A turn is the tester's clicks for one mark of theirs, from the computer's mark "
        "to their own. Thinking time: from the board being ready to the turn's first "
        "click.")))
