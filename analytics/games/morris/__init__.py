"""Bricks & Walls' analytics: the points heatmap (clicks and wrong-click rates on the 24
points), wall and removal hesitation (:mod:`.hesitation`) and the phase in which each
refusal reason can bite (:mod:`.decisions`: the occasions of the core's
``rule:<reason>`` confusion points).

``ANALYTICS`` is the plug-in object the report, the pages and the registry use. The
game has no facts: its report has no ``hardest_facts``.

>>> ANALYTICS.name, [s.key for s in ANALYTICS.sections]
('morris', ['points', 'removal_hesitation'])
>>> ANALYTICS.has_section("hardest_facts")
False
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from analytics.data import StudyData
from analytics.game_analytics import Chart, Column, ReportSection
from analytics.game_parts import (
    board_turns,
    game_analytics,
    interval,
    percent,
    refused_by_reason_chart,
)
from analytics.games.morris import decisions, figures, hesitation, points, telemetry

#: The fix to suggest for each refusal reason of the engine (engine/morris/state.py):
#: what a designer can change on the board or in the messages.
ACTIONS = {
    "rule:walled": "Grey out walled bricks more clearly during a removal and say why a "
                   "walled brick cannot be taken.",
    "rule:not_adjacent": "Show the selected brick's possible destinations.",
    "rule:removal_pending": "Keep 'Wall! Take one of the bricks' on screen until the "
                            "removal is made, and dim everything but the bricks that "
                            "can be taken.",
    "rule:occupied": "Make taken points look unclickable while placing and moving.",
    "rule:no_moves": "Dim the bricks that have no empty neighbour, so a tester picks one "
                     "that can move.",
    "rule:remove_own": "During a removal, mark only the other player's bricks as ones to "
                       "take (the tester's own stay plain).",
    "rule:remove_empty": "During a removal, highlight the bricks that can be taken so an "
                         "empty point is not clicked.",
    "rule:not_yours": "Make the tester's own bricks stand out (outline or glow) when it "
                      "is their move.",
    "rule:select_first": "Say 'first pick one of your bricks' at the start of the moving "
                         "phase, and show selectable bricks.",
    "rule:game_over": "Make the end screen's way on (next game, survey) the obvious next "
                      "click.",
    "rule:no_removal": "Only show the removal prompt right after a wall forms.",
    "rule:not_a_point": "Make the board's points larger targets than the lines between "
                        "them.",
    "rule:placement_over": "Say clearly when the last brick is placed that bricks now "
                           "move, and show which of them can.",
    "rule:still_placing": "Show how many bricks are still to place, and that bricks move "
                          "only once all are on the board.",
}


def _ms_interval(value: Any) -> str:
    return interval(value, ",.0f")


def _number(value: Any) -> str:
    return f"{value:,.0f}"


def _points_figure(data: StudyData) -> go.Figure:
    return figures.points_figure(points.points_table(data))


def _hesitation_figure(data: StudyData) -> go.Figure:
    return figures.hesitation_figure(hesitation.removals(data))


def _hesitation_for_people(data: StudyData) -> Any:
    table = hesitation.hesitation_summary(data)
    return table.assign(median_s=table["median_ms"] / 1000, low_s=table["ci_low"]
                        .where(table["measure"] != "wrong_first") / 1000,
                        high_s=table["ci_high"].where(table["measure"] != "wrong_first")
                        / 1000)


#: A turn is one action of the tester's: a placement, a move, or the removal a wall asks
#: for (a decision of its own, made after the wall formed); after a ``skip`` (rule 6: the
#: opponent cannot move) the same player's next move is a turn of its own.
TURNS = board_turns(
    ("place", "move", "remove"), breaks=("skip",),
    definition="A turn is the tester's clicks for one action of theirs, up to the action "
               "made: a placement, a move, or the removal of a brick after a wall (a turn "
               "of its own).")

ANALYTICS = game_analytics(
    __name__, "Bricks & Walls", rule_definition=decisions.DEFINITION,
    occasions="a decision of the tester's in a phase where the rules can refuse a click for "
              "the reason",
    turns=TURNS, click_keys=telemetry.CLICK_KEYS, reason_occasions=decisions.reason_occasions,
    actions=ACTIONS,
    sections=(
        ReportSection(
            "points", "Clicks per point", points.points_rows, (
                Column("point", "point"), Column("clicks", "clicks"),
                Column("wrong", "wrong"), Column("wrong rate", "wrong_rate", percent),
                Column("95 % interval", "interval", interval),
                Column("most frequent refusal", "top_reason")),
            empty="No tester clicked a point yet.",
            caption="Every click of a tester on a point (select, place, move, remove); "
                    "wrong: refused by the rules. 95 % Wilson interval of the wrong rate.",
            frame=points.points_for_people,
            page_columns={"point": "Point", "clicks": "Clicks", "wrong": "Wrong",
                          "wrong_rate": "Wrong rate", "ci_low": "95 % low",
                          "ci_high": "95 % high", "top_reason": "Most frequent refusal"}),
        ReportSection(
            "removal_hesitation", "Wall and removal hesitation", hesitation.hesitation_rows, (
                Column("measure", "measure"), Column("testers", "testers"),
                Column("n", "n"), Column("median ms", "median_ms", _number),
                Column("95 % interval (ms)", "interval_ms", _ms_interval),
                Column("share", "share", percent),
                Column("95 % interval", "interval", interval),
                Column("definition", "definition")),
            caption="Removal: from the wall's forming to the tester's removal click. Wall "
                    "forming: the tester's time on the click that formed the wall. "
                    "Medians with a distribution-free 95 % interval; wrong first: share of "
                    "removals with a refused click before the removal (Wilson interval).",
            frame=_hesitation_for_people,
            page_columns={"measure": "Measure", "n": "Removals", "testers": "Testers",
                          "median_s": "Median (s)", "low_s": "95 % low (s)",
                          "high_s": "95 % high (s)", "share": "Wrong rate",
                          "definition": "Definition"}),
    ),
    prepared=telemetry.PREPARED,
    charts=(
        refused_by_reason_chart("reasons"),
        Chart("Clicks per point", _points_figure, "morris_points", section="points"),
        Chart("Wall and removal hesitation", _hesitation_figure, "morris_hesitation",
              section="removal_hesitation"),
    ),
)
