"""Vapoosh!'s analytics: its turns are rolls (:mod:`.rolls`: the dice, the fact, the
refused options), multiplication facts, the 12×12 board heatmaps, the roll's refusal
occasions (``roll.props.refused``) and the maths kinds of wrong clicks.

``ANALYTICS`` is the plug-in object the report, the pages and the registry use.

>>> ANALYTICS.name, [s.key for s in ANALYTICS.sections]
('vapoosh', ['hardest_facts'])
>>> [c.name for c in ANALYTICS.charts if c.in_report]
['Wrong clicks by class', 'Wrong clicks on the board', 'Hesitation on the board', 'Hardest facts']
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from analytics import confusion
from analytics import figures as core_figures
from analytics.data import StudyData
from analytics.game_analytics import Chart, Column, Family, ReportSection
from analytics.game_parts import game_analytics, percent
from analytics.games.vapoosh import facts, figures, heatmaps, learning, occasions, rolls
from analytics.turns import TurnRule


def _ms(value: Any) -> str:
    # as analytics.report._fmt(value, 5)
    if value is None:
        return "–"
    number = float(value)
    return f"{number:,.0f}" if abs(number) >= 1000 else f"{number:.5g}"


def _wrong_by_class(data: StudyData) -> go.Figure:
    return core_figures.wrong_class_figure(occasions.wrong_clicks_by_class(data))


def _wrong_by_reason(data: StudyData) -> go.Figure:
    table = confusion.wrong_clicks_by_reason(data).rename(columns={"reason": "rule_reason"})
    return core_figures.wrong_class_figure(table, column="rule_reason")


def _wrong_heatmap(data: StudyData) -> go.Figure:
    return figures.board_heatmap_figure(heatmaps.wrong_click_heatmap(data),
                                        "Wrong clicks per tile", "wrong clicks")


def _hesitation_heatmap(data: StudyData) -> go.Figure:
    return figures.board_heatmap_figure(
        heatmaps.hesitation_heatmap(data), "Median hesitation when the tile is the answer",
        "ms")


def _facts_figure(data: StudyData) -> go.Figure:
    return figures.hardest_facts_figure(facts.hardest_facts(data))


#: A turn is a roll: the roll of a tester's seat starts it, its clicks run to the next roll.
TURNS = TurnRule(
    marker="roll",
    definition="A turn is a roll of the dice by the tester's seat and the tester's clicks "
               "up to the next roll. Thinking time: from the options appearing after the "
               "roll to the turn's first click.")

_FACT_COLUMNS = {"fact": "Fact", "attempts": "Attempts", "wrong": "Wrong",
                 "wrong_rate": "Wrong rate", "smoothed_rate": "Shrunk rate",
                 "ci_low": "95 % low", "ci_high": "95 % high",
                 "median_ms": "Median first click (ms)"}


ANALYTICS = game_analytics(
    __name__, "Vapoosh!", rule_definition=occasions.RULE_DEFINITION,
    occasions="a turn whose roll the rule could refuse, a turn that rolled the fact",
    turns=TURNS, click_keys=rolls.CLICK_KEYS, read_clicks=rolls.read_clicks,
    reason_occasions=rolls.reason_occasions,
    families=(
        Family("fact", facts.FACT_DEFINITION, 1.0, facts.fact_tallies, facts.fact_label,
               facts.fact_action),
        Family("wrong", occasions.WRONG_DEFINITION, 1.0, occasions.wrong_kind_tallies,
               occasions.wrong_label, occasions.wrong_action),
    ),
    actions=occasions.ACTIONS,
    sections=(
        ReportSection("hardest_facts", "Hardest facts", facts.hardest_facts_rows, (
            Column("fact", "fact"), Column("attempts", "attempts"),
            Column("wrong rate", "wrong_rate", percent),
            Column("median ms", "median_ms", _ms)),
            heading="Hardest multiplication facts",
            caption="Wrong rate shrunk toward the study's maths-error rate (empirical "
                    "Bayes), with its 95 % interval; facts with at least 5 attempts.",
            frame=facts.facts_for_people, page_columns=_FACT_COLUMNS),
    ),
    charts=(
        Chart("Wrong clicks by class", _wrong_by_class, "wrong_class", group="wrong"),
        Chart("Rule wrong clicks by reason", _wrong_by_reason, "reasons", group="wrong",
              in_report=False),
        Chart("Wrong clicks on the board", _wrong_heatmap, "heat_wrong"),
        Chart("Hesitation on the board", _hesitation_heatmap, "heat_hes"),
        Chart("Hardest facts", _facts_figure, "facts", section="hardest_facts"),
    ),
    prepared=(("roll", rolls.ROLL_KEYS),),
    fact_attempts=learning.fact_attempts,
)
