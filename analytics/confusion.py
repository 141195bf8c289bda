"""Confusion signals: wrong clicks, board heatmaps, hardest facts, message aftermath,
rules-overlay use, and the ranked list of confusion points.

See :mod:`analytics.derive` for "turn", "hesitation" and "fact". Scores of confusion
points are all "extra trouble per occasion", in 0..1, so they rank together:

- ``wrong:<kind>`` / ``rule:<reason>``: wrong clicks of that class per human turn;
- ``fact:<a>x<b>``: the fact's smoothed maths-error rate ((wrong+1)/(attempts+2)) minus the
  study's overall rate (facts with at least ``min_attempts`` attempts);
- ``message:<key>``: share of showings followed by trouble (a wrong click in the next turn,
  hesitation above the study's 75th percentile, or a rules lookup with that context)
  minus the same share over all turns (rules lookups excluded from the baseline);
- ``survey:<item>``: share of the item's free-text answers with a negative theme.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData
from analytics.questionnaires import theme_counts

BOARD = list(range(1, 13))

ACTIONS: dict[str, str] = {
    "rule:empty_priority": "Explain that empty tiles come before captures; after a wrong "
                           "click, highlight the legal options.",
    "rule:suicide": "Say why a surrounded tile is forbidden when it is clicked; add a "
                    "suicide example to the rules overlay.",
    "rule:own_tile": "Make own counters look unclickable and say 'you already own this "
                     "tile'.",
    "rule:brown": "Mark brown tiles as blocked for normal counters and explain brown "
                  "counters in the rules overlay.",
    "wrong:rule": "Clarify the placement rules at the moment they bite (message on the "
                  "wrong click).",
    "wrong:same_product": "Show the two factors ('5 × 8') with the roll and highlight the "
                          "row and column headers.",
    "wrong:near_miss": "Enlarge tiles or highlight the hovered row and column so clicks "
                       "land where intended.",
    "wrong:arithmetic": "Offer a times-table hint after a wrong answer; consider an easier "
                        "rule preset for beginners.",
}


@dataclass(frozen=True)
class ConfusionPoint:
    """One ranked confusion point of the report."""

    id: str
    label: str
    score: float
    evidence: dict[str, Any] = field(default_factory=dict)
    action: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "score": round(self.score, 6),
                "evidence": self.evidence, "action": self.action}


def human_turn_count(data: StudyData) -> int:
    """Number of human turns (rolls by a human seat) in the study."""
    return len(derive.turns(data))


def _wrong_by(data: StudyData, column: str) -> pd.DataFrame:
    table = derive.clicks(data)
    wrong = table[~table["ok"]]
    if column == "rule_reason":
        wrong = wrong[wrong["wrong_kind"] == "rule"]
    wrong = wrong[wrong[column].notna()]
    grouped = wrong.groupby(column)
    result = pd.DataFrame({"clicks": grouped.size(),
                           "participants": grouped["participant_id"].nunique()})
    turns = max(human_turn_count(data), 1)
    result["per_turn"] = result["clicks"] / turns
    return result.rename_axis(column).reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)


def wrong_clicks_by_class(data: StudyData) -> pd.DataFrame:
    """Wrong clicks per ``wrong_kind``: ``wrong_kind, clicks, participants, per_turn``."""
    return _wrong_by(data, "wrong_kind")


def wrong_clicks_by_rule_reason(data: StudyData) -> pd.DataFrame:
    """``rule`` wrong clicks per ``rule_reason``: ``rule_reason, clicks, participants,
    per_turn``."""
    return _wrong_by(data, "rule_reason")


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
    turn_table = derive.turns(data)
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


def hardest_facts(data: StudyData, min_attempts: int = 5) -> pd.DataFrame:
    """Multiplication facts ranked by maths-error rate (smaller factor first: ``7x8``).

    An attempt is a human turn with at least one click; it is wrong when it holds a wrong
    click other than a ``rule`` one. Columns: ``fact, a, b, attempts, wrong, wrong_rate,
    median_ms, smoothed_rate``; facts with fewer than ``min_attempts`` attempts are left
    out; ranked by ``smoothed_rate`` ((wrong+1)/(attempts+2)), then attempts.
    """
    # confusion_points, the page and the report all ask: computed once per StudyData
    return derive.remember(data, f"hardest_facts:{min_attempts}",
                           lambda: _hardest_facts(data, min_attempts)).copy()


def _hardest_facts(data: StudyData, min_attempts: int) -> pd.DataFrame:
    turn_table = derive.turns(data)
    attempted = turn_table[(turn_table["n_clicks"] > 0) & turn_table["fact"].notna()]
    grouped = attempted.assign(wrong=attempted["n_wrong_math"] > 0).groupby("fact")
    result = pd.DataFrame({
        "a": grouped["a"].first(), "b": grouped["b"].first(),
        "attempts": grouped.size(), "wrong": grouped["wrong"].sum(),
        "median_ms": grouped["first_ms"].median(),
    }).rename_axis("fact").reset_index()
    result = result[result["attempts"] >= min_attempts]
    result["a"] = result["a"].astype(int)
    result["b"] = result["b"].astype(int)
    result["wrong"] = result["wrong"].astype(int)
    result["wrong_rate"] = result["wrong"] / result["attempts"]
    result["smoothed_rate"] = (result["wrong"] + 1) / (result["attempts"] + 2)
    return result.sort_values(["smoothed_rate", "attempts"], ascending=[False, False],
                              kind="stable").reset_index(drop=True)[
        ["fact", "a", "b", "attempts", "wrong", "wrong_rate", "median_ms", "smoothed_rate"]]


def _trouble(turn_table: pd.DataFrame, slow_ms: float) -> pd.Series:
    return (turn_table["n_wrong"] > 0) | (turn_table["first_ms"] > slow_ms)


def message_aftermath(data: StudyData) -> pd.DataFrame:
    """Per message key: what the next human turn looked like, against all turns.

    Columns: ``key, shown, participants, wrong_per_turn_after, wrong_per_turn_all,
    hesitation_after_ms, hesitation_all_ms, rules_opened, rules_open_rate, trouble_rate,
    baseline_trouble_rate``. ``rules_opened`` counts showings followed by a
    ``rules_open`` whose ``context`` is the key before the next message of the session.
    """
    # confusion_points reads it too: computed once per StudyData
    return derive.remember(data, "message_aftermath", lambda: _message_aftermath(data)).copy()


def _message_aftermath(data: StudyData) -> pd.DataFrame:
    columns = ["key", "shown", "participants", "wrong_per_turn_after", "wrong_per_turn_all",
               "hesitation_after_ms", "hesitation_all_ms", "rules_opened",
               "rules_open_rate", "trouble_rate", "baseline_trouble_rate"]
    shown = derive.messages(data)
    turn_table = derive.turns(data)
    if shown.empty:
        return pd.DataFrame(columns=columns)
    slow_ms = float(turn_table["first_ms"].quantile(0.75)) if len(turn_table) else np.inf
    baseline = float(_trouble(turn_table, slow_ms).mean()) if len(turn_table) else 0.0
    opens = derive.props_of(data, "rules_open", ["context"])
    followed = pd.Series(False, index=shown.index)
    if not opens.empty:
        # Each rules lookup is credited to the latest message before it in its session.
        shown_sorted = shown[["row", "session_code", "key"]].reset_index().sort_values("row")
        matched = pd.merge_asof(opens[["row", "session_code", "context"]].sort_values("row"),
                                shown_sorted, on="row", by="session_code",
                                direction="backward")
        matched = matched[matched["index"].notna() & (matched["key"] == matched["context"])]
        followed.loc[matched["index"].astype(int).unique()] = True
    indexed = turn_table.set_index("turn_id")[["n_wrong", "first_ms"]]
    has_turn = shown["next_turn_id"] >= 0
    next_turns = indexed.reindex(shown["next_turn_id"].where(has_turn, -1).to_numpy())
    next_turns.index = shown.index
    trouble = (_trouble(next_turns, slow_ms) & has_turn) | followed
    frame = pd.DataFrame({
        "key": shown["key"], "participant_id": shown["participant_id"],
        "wrong": next_turns["n_wrong"].where(has_turn), "ms": next_turns["first_ms"],
        "followed": followed, "trouble": trouble})
    grouped = frame.groupby("key")
    result = pd.DataFrame({
        "shown": grouped.size(),
        "participants": grouped["participant_id"].nunique(),
        "wrong_per_turn_after": grouped["wrong"].mean(),
        "hesitation_after_ms": grouped["ms"].mean(),
        "rules_opened": grouped["followed"].sum().astype(int),
        "trouble_rate": grouped["trouble"].mean(),
    }).rename_axis("key").reset_index()
    result["wrong_per_turn_all"] = float(turn_table["n_wrong"].mean()) if len(turn_table) \
        else np.nan
    result["hesitation_all_ms"] = float(turn_table["first_ms"].mean()) if len(turn_table) \
        else np.nan
    result["rules_open_rate"] = result["rules_opened"] / result["shown"]
    result["baseline_trouble_rate"] = baseline
    return result[columns].sort_values("trouble_rate", ascending=False,
                                       kind="stable").reset_index(drop=True)


def rules_overlay_use(data: StudyData) -> pd.DataFrame:
    """Rules-overlay opens by ``context`` (last message key shown; "none" if absent).

    Columns: ``context, opens, participants, median_open_s`` (time to the next
    ``rules_close`` of the session).
    """
    opens = derive.props_of(data, "rules_open", ["context"])
    columns = ["context", "opens", "participants", "median_open_s"]
    if opens.empty:
        return pd.DataFrame(columns=columns)
    closes = derive.props_of(data, "rules_close", ["context"])
    opens = opens.assign(context=opens["context"].fillna("none").astype(str))
    if closes.empty:
        opens["open_s"] = np.nan
    else:
        matched = pd.merge_asof(
            opens[["row", "session_code", "at"]].sort_values("row"),
            closes[["row", "session_code", "at"]].rename(columns={"at": "closed_at"})
            .sort_values("row"), on="row", by="session_code", direction="forward")
        seconds = (pd.to_datetime(matched["closed_at"], utc=True)
                   - pd.to_datetime(matched["at"], utc=True)).dt.total_seconds()
        opens = opens.sort_values("row").assign(open_s=seconds.to_numpy())
    grouped = opens.groupby("context")
    return pd.DataFrame({"opens": grouped.size(),
                         "participants": grouped["participant_id"].nunique(),
                         "median_open_s": grouped["open_s"].median()}).rename_axis(
        "context").reset_index().sort_values("opens", ascending=False,
                                             kind="stable").reset_index(drop=True)


def confusion_points(data: StudyData, min_attempts: int = 5, top_facts: int = 5
                     ) -> list[ConfusionPoint]:
    """All confusion points, ranked most confusing first (see the module docstring)."""
    points: list[ConfusionPoint] = []
    turns = human_turn_count(data)
    for row in _rows(wrong_clicks_by_class(data)):
        kind = str(row.wrong_kind)
        points.append(ConfusionPoint(
            f"wrong:{kind}", f"Wrong clicks: {kind.replace('_', ' ')}", float(row.per_turn),
            {"clicks": int(row.clicks), "participants": int(row.participants),
             "human_turns": turns}, ACTIONS.get(f"wrong:{kind}", "")))
    for row in _rows(wrong_clicks_by_rule_reason(data)):
        reason = str(row.rule_reason)
        points.append(ConfusionPoint(
            f"rule:{reason}", f"Rule not understood: {reason.replace('_', ' ')}",
            float(row.per_turn),
            {"clicks": int(row.clicks), "participants": int(row.participants),
             "human_turns": turns},
            ACTIONS.get(f"rule:{reason}", "Explain this rule where it applies.")))
    facts = hardest_facts(data, min_attempts=min_attempts)
    turn_table = derive.turns(data)
    attempted = turn_table[turn_table["n_clicks"] > 0]
    overall = float((attempted["n_wrong_math"] > 0).mean()) if len(attempted) else 0.0
    for row in _rows(facts.head(top_facts)):
        excess = float(row.smoothed_rate) - overall
        if excess <= 0:
            continue
        points.append(ConfusionPoint(
            f"fact:{row.fact}", f"Hard fact {row.a} × {row.b} = {row.a * row.b}", excess,
            {"attempts": int(row.attempts), "wrong_rate": float(row.wrong_rate),
             "overall_wrong_rate": overall, "median_ms": _finite(row.median_ms)},
            f"When {row.a} × {row.b} is rolled, show the row and column headers of "
            f"{row.a} and {row.b}; practise this fact in a warm-up."))
    for row in _rows(message_aftermath(data)):
        excess = float(row.trouble_rate) - float(row.baseline_trouble_rate)
        if excess <= 0:
            continue
        points.append(ConfusionPoint(
            f"message:{row.key}", f"Message '{row.key}' is followed by trouble", excess,
            {"shown": int(row.shown), "participants": int(row.participants),
             "trouble_rate": float(row.trouble_rate),
             "baseline_trouble_rate": float(row.baseline_trouble_rate),
             "wrong_per_turn_after": _finite(row.wrong_per_turn_after),
             "wrong_per_turn_all": _finite(row.wrong_per_turn_all),
             "hesitation_after_ms": _finite(row.hesitation_after_ms),
             "hesitation_all_ms": _finite(row.hesitation_all_ms),
             "rules_opened": int(row.rules_opened)},
            f"Reword the '{row.key}' message or show it longer, and A/B test the new "
            "wording."))
    themes = theme_counts(data.responses, data.study.get("text_items"))
    negative = themes[themes["negative"].astype(bool)] if len(themes) else themes
    for item, group in negative.groupby("item", sort=True):
        top = group.sort_values("share", ascending=False).iloc[0]
        points.append(ConfusionPoint(
            f"survey:{item}", f"Free-text answers to '{item}' mention: "
            + ", ".join(group["theme"].astype(str)), float(top["share"]),
            {"themes": {str(t): int(a) for t, a in zip(group["theme"], group["answers"],
                                                         strict=True)},
             "top_theme": str(top["theme"])},
            f"Read the '{top['theme']}' answers to '{item}' and fix the most frequent "
            "complaint."))
    return sorted(points, key=lambda p: p.score, reverse=True)


def _finite(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if np.isfinite(number) else None


class _Row:
    """Attribute access to one record (typed ``Any``, unlike ``itertuples`` rows)."""

    def __init__(self, record: dict[Any, Any]) -> None:
        self._record = record

    def __getattr__(self, name: str) -> Any:
        try:
            return self._record[name]
        except KeyError as error:
            raise AttributeError(name) from error


def _rows(frame: pd.DataFrame) -> list[Any]:
    return [_Row(record) for record in frame.to_dict("records")]
