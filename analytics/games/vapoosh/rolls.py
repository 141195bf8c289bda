"""Vapoosh!'s turns as its dice made them: each tester's turn (a ``roll`` and the clicks
up to the next one, :mod:`analytics.derive`) with the roll's dice, options and refused
options, its multiplication fact and its maths slips.

- A roll logs ``dice`` ``[p1, p2, g1, g2]``, ``options`` ``[[c, r], …]`` and ``refused``
  (the rule reasons refusing some rolled option; absent in data from before it existed).
- A click logs ``c``, ``r``, ``wrong_kind`` (``rule``, ``same_product``, ``near_miss``,
  ``arithmetic``) and, for ``rule``, ``rule_reason``: the game's name for the refusal
  reason every other game logs as ``reason`` (:func:`read_clicks` moves it there).
- A turn's **fact** is ``P×G`` with ``P = p1+p2``, ``G = g1+g2``, keyed smaller factor
  first (``"7x8"``); ``n_wrong_math`` counts its wrong clicks other than ``rule`` ones
  (mental-maths errors).

>>> from analytics.data import StudyData
>>> list(roll_turns(StudyData.empty("s")).columns)[-6:]
['a', 'b', 'fact', 'options', 'refused', 'n_wrong_math']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData

#: The props of a roll the game reads (kept in a study's prepared tables).
ROLL_KEYS = ("seat", "dice", "options", "refused")
#: The props of a click beyond the contract's ``seat, ok, reason, ms``.
CLICK_KEYS = ("c", "r", "wrong_kind", "rule_reason", "expected", "clicked")
ROLL_COLUMNS = ["a", "b", "fact", "options", "refused", "n_wrong_math"]


def read_clicks(table: pd.DataFrame) -> pd.DataFrame:
    """The click table as the core reads every game's: board coordinates as numbers and
    a refused rule's ``rule_reason`` as the click's ``reason``.

    >>> table = pd.DataFrame({"ok": [False, False], "reason": [None, None], "c": ["3", 4],
    ...     "r": [5, 6], "wrong_kind": ["rule", "near_miss"],
    ...     "rule_reason": ["suicide", None]})
    >>> read = read_clicks(table)
    >>> read["reason"][0], bool(read["reason"].isna()[1]), read["c"].tolist()
    ('suicide', True, [3, 4])
    """
    table = table.copy()
    table["c"] = pd.to_numeric(table["c"], errors="coerce")
    table["r"] = pd.to_numeric(table["r"], errors="coerce")
    rule = table["wrong_kind"].eq("rule") & table["rule_reason"].notna()
    table["reason"] = table["rule_reason"].where(rule, None).astype(object)
    return table


def roll_turns(data: StudyData) -> pd.DataFrame:
    """:func:`analytics.derive.turns` with the roll's dice (``a`` ≤ ``b``: the two
    sums), ``fact``, ``options``, ``refused`` (NaN where the roll did not log it) and
    ``n_wrong_math``; the roll of a turn is the event that started it."""
    return derive.remember(data, "vapoosh:turns", lambda: _roll_turns(data))


def _roll_turns(data: StudyData) -> pd.DataFrame:
    turn_table = derive.turns(data)
    if turn_table.empty:
        return turn_table.reindex(columns=[*turn_table.columns, *ROLL_COLUMNS])
    rolls = derive.props_of(data, "roll", list(ROLL_KEYS))
    rolls = rolls[~rolls["turn_no"].duplicated()].set_index("turn_no")
    ids = turn_table["turn_id"]
    dice_lists = ids.map(rolls["dice"]).tolist()
    try:
        # Fast path: every roll has four dice.
        dice_array = np.array(dice_lists, dtype=float).reshape(len(dice_lists), 4)
    except (ValueError, TypeError):
        dice_array = np.array([list(d) if isinstance(d, list | tuple | np.ndarray)
                               and len(d) == 4 else [np.nan] * 4 for d in dice_lists],
                              dtype=float)
    pink = dice_array[:, 0] + dice_array[:, 1]
    green = dice_array[:, 2] + dice_array[:, 3]
    result = turn_table.copy()
    result["a"] = np.minimum(pink, green)
    result["b"] = np.maximum(pink, green)
    # Fact labels by table lookup (dice sums are 2..12): no per-row string building.
    labels = np.array([None] + [f"{a}x{b}" for a in range(1, 13) for b in range(1, 13)],
                      dtype=object)
    a_values = result["a"].to_numpy(float)
    b_values = result["b"].to_numpy(float)
    in_range = (np.isfinite(a_values) & np.isfinite(b_values) & (a_values >= 1)
                & (b_values <= 12))
    codes = np.where(in_range, (np.nan_to_num(a_values) - 1) * 12
                     + np.nan_to_num(b_values), 0).astype(int)
    result["fact"] = labels[codes]
    result["options"] = ids.map(rolls["options"]).to_numpy(dtype=object)
    result["refused"] = ids.map(rolls["refused"]).to_numpy(dtype=object)
    table = derive.clicks(data)
    in_turn = table[table["turn_id"] >= 0]
    maths = in_turn[~in_turn["ok"] & (in_turn["wrong_kind"] != "rule")]
    result["n_wrong_math"] = ids.map(maths.groupby("turn_id").size()).fillna(0) \
        .astype("int64").to_numpy()
    return result


def reason_occasions(data: StudyData, attempted: pd.DataFrame) -> pd.Series:
    """Per turn, the rule reasons its roll logged in ``refused`` (NaN: not logged)."""
    refused = roll_turns(data).set_index("turn_id")["refused"]
    return attempted["turn_id"].map(refused)
