"""The 12×12 board heatmaps: wrong clicks per tile, hesitation per answer tile.

>>> from analytics.data import StudyData
>>> wrong_click_heatmap(StudyData.empty("s")).shape
(12, 12)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData
from analytics.games.vapoosh.rolls import roll_turns

BOARD = list(range(1, 13))


def _empty_board() -> pd.DataFrame:
    return pd.DataFrame(np.nan, index=pd.Index(BOARD, name="r"),
                        columns=pd.Index(BOARD, name="c"))


def wrong_click_heatmap(data: StudyData) -> pd.DataFrame:
    """12×12 counts of wrong clicks on tile (c, r): index ``r`` 1..12, columns ``c``."""
    table = derive.clicks(data)
    wrong = table[~table["ok"] & table["c"].between(1, 12) & table["r"].between(1, 12)]
    counts = wrong.groupby(["r", "c"]).size().unstack("c")
    board = _empty_board().fillna(0.0)
    if not counts.empty:
        counts.index = counts.index.astype(int)
        counts.columns = counts.columns.astype(int)
        board = board.add(counts.reindex(index=BOARD, columns=BOARD).fillna(0.0), fill_value=0)
    board.index.name, board.columns.name = "r", "c"
    return board


def hesitation_heatmap(data: StudyData) -> pd.DataFrame:
    """12×12 median hesitation (ms) of turns whose rolled options include tile (c, r).

    A roll's options are (P, G) and (G, P) (vapoosh-rules.md), so both mirrored tiles of
    the turn's fact get the turn's hesitation. NaN: never rolled.
    """
    turn_table = roll_turns(data)
    turn_table = turn_table[turn_table["first_ms"].notna() & turn_table["a"].notna()]
    if turn_table.empty:
        return _empty_board()
    # The options of a roll are always (P, G) and (G, P): the fact's two mirrored tiles.
    low = turn_table["a"].to_numpy(int)
    high = turn_table["b"].to_numpy(int)
    ms = turn_table["first_ms"].to_numpy(float)
    mirrored = low != high
    tiles = pd.DataFrame({"c": np.concatenate([low, high[mirrored]]),
                          "r": np.concatenate([high, low[mirrored]]),
                          "ms": np.concatenate([ms, ms[mirrored]])})
    medians = tiles.groupby(["r", "c"])["ms"].median().unstack("c")
    board = medians.reindex(index=BOARD, columns=BOARD).astype(float)
    board.index.name, board.columns.name = "r", "c"
    return board
