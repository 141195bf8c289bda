"""Dokusen's analytics (pure functions over a study's events): per stage the
first-attempt win rate, rounds, and the squares that flip against the tester right after
their move (:mod:`analytics.games.dokusen.stages`); the tester's decisions, refused
clicks by reason and the ``rule:<reason>`` and ``flip:<stage>`` confusion points
(:mod:`analytics.games.dokusen.decisions`).

``ANALYTICS`` is the plug-in object the report and the designer's pages use. Nothing
here imports the engine: the stage is read from ``game_start.props.rules``.

>>> ANALYTICS.name, [s.key for s in ANALYTICS.sections], [f.name for f in ANALYTICS.families]
('dokusen', ['stages', 'refusals'], ['flip'])
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from analytics.data import StudyData
from analytics.game_analytics import Chart, Column, Family, ReportSection
from analytics.game_parts import (
    board_turns,
    game_analytics,
    interval,
    percent,
    refused_by_reason_chart,
)
from analytics.games.dokusen import decisions
from analytics.games.dokusen.stages import (
    LOG,
    fresh_flips,
    games,
    refused_clicks,
    stage_label,
    stage_summary,
)

__all__ = ["ANALYTICS", "fresh_flips", "games", "refused_clicks", "stage_label",
           "stage_summary"]

STAGES_CAPTION = (
    "First-attempt win rate: among testers whose first game of the stage finished, the "
    "share who won it (strictly more than half of the squares), 95 % Wilson interval. "
    "Rounds: rounds of the finished games, median with a distribution-free 95 % interval "
    "(none below 6 games). Fresh flip: a tester's placement that the growth ending the same "
    "round turned to another colour (\"I placed it and it turned orange\"); share of "
    "placements, 95 % cluster-bootstrap interval over testers. Taken: placements a rival "
    "placed on before the growth (not counted as flips).")
REFUSALS_CAPTION = (
    "Decisions: the tiles testers placed. A reason's rate is the share of decisions with "
    "at least one click refused for it before the tile was placed (95 % Wilson interval).")


def _num(value: Any) -> Any:
    """JSON-safe: NaN becomes None."""
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _rounds(value: Any) -> str:
    med, low, high = value
    if med is None:
        return "–"
    return f"{med:g}" + ("" if low is None else f" ({low:g}–{high:g})")


def _stage_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    del top, min_attempts  # every stage is a row: there are few
    out = []
    for row in stage_summary(data).to_dict("records"):
        r = {str(k): _num(v) for k, v in row.items()}
        out.append({
            "stage": r["stage"], "games": int(r["games"]), "testers": int(r["testers"]),
            "win_rate": r["win_rate"], "win_interval": (r["win_low"], r["win_high"]),
            "first_finished": int(r["first_finished"]),
            "rounds": (r["rounds_median"], r["rounds_low"], r["rounds_high"]),
            "flip_rate": r["flip_rate"], "flip_interval": (r["flip_low"], r["flip_high"]),
            "placements": int(r["placements"]),
        })
    return out


def _refusal_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    del min_attempts
    out = []
    for row in decisions.reason_table(data).head(top).to_dict("records"):
        r = {str(k): _num(v) for k, v in row.items()}
        out.append({"reason": r["reason"], "decisions_with": int(r["decisions_with"]),
                    "occasions": int(r["occasions"]), "rate": r["rate"],
                    "interval": (r["ci_low"], r["ci_high"]), "testers": int(r["testers"])})
    return out


def _share(value: Any, low: Any, high: Any) -> str:
    """``83 % (66–93 %)``; ``–`` without data, no interval when it is not defined."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if low is None or high is None or any(math.isnan(v) for v in (low, high)):
        return f"{value:.0%}"
    return f"{value:.0%} ({low:.0%}–{high:.0%})"


def _median(value: Any, low: Any, high: Any) -> str:
    if value is None or math.isnan(value):
        return "–"
    if math.isnan(low) or math.isnan(high):
        return f"{value:g} (under 6 games)"
    return f"{value:g} ({low:g}–{high:g})"


def _stages_for_people(data: StudyData) -> pd.DataFrame:
    """The per-stage table as the page shows it: each rate with its 95 % interval."""
    table = stage_summary(data)
    return pd.DataFrame({
        "stage": table["stage"], "games": table["games"], "testers": table["testers"],
        "first_finished": table["first_finished"],
        "win": [_share(v, lo, hi) for v, lo, hi in
                zip(table["win_rate"], table["win_low"], table["win_high"], strict=True)],
        "rounds": [_median(v, lo, hi) for v, lo, hi in
                   zip(table["rounds_median"], table["rounds_low"], table["rounds_high"],
                       strict=True)],
        "placements": table["placements"],
        "flips": [_share(v, lo, hi) for v, lo, hi in
                  zip(table["flip_rate"], table["flip_low"], table["flip_high"], strict=True)],
        "taken": [_share(v, None, None) for v in table["taken_rate"]],
    })


def _refusals_for_people(data: StudyData) -> pd.DataFrame:
    table = decisions.reason_table(data)
    return pd.DataFrame({
        "reason": table["reason"].map(lambda r: decisions.REASON_WORDS.get(r, r)),
        "code": table["reason"], "decisions_with": table["decisions_with"],
        "occasions": table["occasions"],
        "rate": [_share(v, lo, hi) for v, lo, hi in
                 zip(table["rate"], table["ci_low"], table["ci_high"], strict=True)],
        "refusals": table["refusals"], "testers": table["testers"]})


def _stage_figure(data: StudyData) -> go.Figure:
    """First-attempt win rate and fresh-flip rate per stage, with their intervals."""
    table = stage_summary(data)
    fig = go.Figure()
    for name, col, low, high, colour in (
            ("first-attempt win rate", "win_rate", "win_low", "win_high", "#0072B2"),
            ("fresh-flip rate", "flip_rate", "flip_low", "flip_high", "#E69F00")):
        fig.add_trace(go.Bar(
            name=name, x=table["stage"].astype(str), y=table[col], marker_color=colour,
            error_y={"type": "data", "symmetric": False,
                     "array": (table[high] - table[col]).clip(lower=0),
                     "arrayminus": (table[col] - table[low]).clip(lower=0)}))
    fig.update_layout(barmode="group", title="Per stage, with 95 % intervals",
                      yaxis={"title": "share", "tickformat": ".0%", "range": [0, 1]},
                      xaxis={"title": "stage"}, legend={"orientation": "h", "y": -0.25},
                      margin={"l": 40, "r": 10, "t": 50, "b": 40})
    return fig


#: The tester places one tile per round, then the computer colours place theirs and the
#: round ends with the growth.
TURNS = board_turns(
    ("place",), breaks=("grow",),
    definition="A turn is the tester's clicks for their one tile of a round, up to the "
               "tile placed (the computer colours' tiles and the growth that follow are "
               "not part of it).")

ANALYTICS = game_analytics(
    __name__, "Dokusen", rule_definition=decisions.RULE_DEFINITION,
    occasions="a tile the tester placed (for a refusal reason), a placement followed by a "
              "growth (for a fresh flip)",
    turns=TURNS, click_keys=("at",), reason_words=decisions.REASON_WORDS,
    families=(
        # a surprise, not a wrong click: the impact of a pause (analytics.severity)
        Family("flip", decisions.FLIP_DEFINITION, 0.5, decisions.flip_tallies,
               decisions.flip_label, decisions.flip_action),
    ),
    actions=decisions.ACTIONS,
    sections=(
        ReportSection(
            "stages", "Per stage: win rate, rounds, fresh flips", _stage_rows, (
                Column("stage", "stage"), Column("games", "games"),
                Column("testers", "testers"),
                Column("first-attempt win rate", "win_rate", percent),
                Column("win rate: 95 % interval", "win_interval", interval),
                Column("rounds: median (95 %)", "rounds", _rounds),
                Column("fresh-flip rate", "flip_rate", percent),
                Column("fresh-flip rate: 95 % interval", "flip_interval", interval)),
            empty="No Dokusen game yet.",
            caption=STAGES_CAPTION,
            frame=_stages_for_people,
            # the rates first: on a phone the table scrolls sideways
            page_columns={"stage": "Stage", "win": "First-attempt win rate (95 %)",
                          "rounds": "Rounds: median (95 %)",
                          "flips": "Fresh-flip rate (95 %)", "games": "Games",
                          "testers": "Testers", "first_finished": "First games finished",
                          "placements": "Placements", "taken": "Taken rate"}),
        ReportSection(
            "refusals", "Refused clicks by reason", _refusal_rows, (
                Column("reason", "reason"), Column("decisions with it", "decisions_with"),
                Column("decisions", "occasions"), Column("rate", "rate", percent),
                Column("95 % interval", "interval", interval),
                Column("testers", "testers")),
            empty="No click was refused.",
            caption=REFUSALS_CAPTION,
            frame=_refusals_for_people,
            page_columns={"reason": "Refused because the tester", "rate": "Rate (95 %)",
                          "decisions_with": "Placements with it", "occasions": "Placements",
                          "refusals": "Refused clicks", "testers": "Testers",
                          "code": "Reason code"}),
    ),
    charts=(
        refused_by_reason_chart("dokusen_reasons"),
        Chart("Per stage: win rate and fresh flips", _stage_figure, "dokusen_stages",
              section="stages"),
    ),
    prepared=tuple((kind, tuple(keys)) for kind, keys in LOG.items()),
)
