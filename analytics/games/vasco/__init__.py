"""Vasco's analytics (pure functions over a study's telemetry; no playtest import).

- :mod:`analytics.games.vasco.decisions`: the tester's decisions (the core's turns that
  placed a tile), the refusals with the engine's reason (the core's ``rule:<reason>``
  points: every decision is an occasion of every reason);
- :mod:`analytics.games.vasco.cascades`: how often a forced cascade surprised the tester
  (a slow first click after it, compared with decisions that followed no cascade);
- :mod:`analytics.games.vasco.report`: both as sections of the designer's pages and the
  plan, with their definitions, intervals and charts.
(The planted studies that test them, real engine games with planted refusals and
hesitation, are ``tests/analytics/vasco_planted.py``: analytics may not import the engine.)

Telemetry read (telemetry-format.md): ``click`` with ``seat``, ``ok``, ``reason``, ``ms``,
``cell``, ``tile``; engine events ``place``, ``auto`` (a forced tile), ``win``, ``draw``
with ``seat``; ``game_start`` with ``game_id``.

``ANALYTICS`` is the plug-in object the report, the pages and the registry use.

>>> ANALYTICS.name, [s.key for s in ANALYTICS.sections]
('vasco', ['refusal_reasons', 'cascade_surprise'])
"""

from __future__ import annotations

from typing import Any

from analytics.game_analytics import Chart, Column, ReportSection
from analytics.game_parts import board_turns, game_analytics, interval, percent
from analytics.games.vasco import decisions, report

#: The fix to suggest for each refusal reason of the engine (engine/vasco/board.py
#: ``REASONS`` and the clicks' own): what a designer can change on the board or in the
#: messages.
ACTIONS = {
    "rule:centre_first": "Before the first tile, show only the middle space as tappable.",
    "rule:occupied": "Make spaces that hold a tile look unlike the green free spaces.",
    "rule:no_contact": "Say that a new tile must touch the others, and show where it can.",
    "rule:mismatch": "Show why the lines would not meet: flash the edge whose colours "
                     "differ.",
    "rule:dead_cell": "Mark spaces where two same-coloured lines meet, and say no tile can "
                      "ever go there.",
    "rule:not_connected": "Explain corner contact: a tile touching only at a corner needs "
                          "tiles that slide in to join it.",
    "rule:not_enough_tiles": "Show how many tiles a move would slide in next to the "
                             "tiles left.",
    "rule:unplayable": "Preview the tiles a move would slide in, and the gap they leave.",
    "rule:not_your_turn": "Dim the board and say whose turn it is while the computer and "
                          "the forced tiles play.",
    "rule:game_over": "Make the end screen's way on (next game, survey) the obvious next "
                      "click.",
    "rule:bad_tile": "Show the tile choices as the only things to pick once a space is "
                     "chosen.",
    "rule:bad_target": "Make the spaces and the tile choices the only things that look "
                       "clickable; say 'pick a space first'.",
}


def _signed(value: Any) -> str:
    return "–" if value is None else f"{value:+.0%}"


def _interval(value: Any) -> str:
    return interval(value, between=" to ")


#: Seats alternate, one tile each (its forced tiles follow by themselves).
TURNS = board_turns(
    ("place",),
    definition="A turn is the tester's clicks for one tile of theirs, up to the tile "
               "placed (the forced tiles that follow it are not clicked).")

ANALYTICS = game_analytics(
    __name__, "Vasco", rule_definition=decisions.DEFINITION,
    occasions="a tile the tester placed (for the rules' refusals)",
    turns=TURNS, click_keys=decisions.CLICK_KEYS, actions=ACTIONS,
    sections=(
        ReportSection(
            "refusal_reasons", "Refused clicks by reason", report.reason_rows, (
                Column("reason", "reason"), Column("occasions", "occasions"),
                Column("decisions with it", "decisions_with"),
                Column("rate", "rate", percent),
                Column("95 % interval", "interval", _interval),
                Column("refusals", "refusals"), Column("testers", "testers")),
            empty="No click of a tester was refused yet.",
            caption=report.REASONS_CAPTION,
            frame=report.reasons_for_people,
            page_columns={"reason": "Reason", "occasions": "Occasions (tiles placed)",
                          "decisions_with": "Decisions with it", "rate": "Wrong rate",
                          "ci_low": "95 % low", "ci_high": "95 % high",
                          "refusals": "Refused clicks", "testers": "Testers"}),
        ReportSection(
            "cascade_surprise", "Forced-cascade surprise", report.surprise_rows, (
                Column("surprise excess", "excess", _signed),
                Column("95 % interval", "interval", _interval),
                Column("testers", "testers"),
                Column("decisions after a cascade", "after_cascade"),
                Column("slow after a cascade", "rate_after_cascade", percent),
                Column("decisions after none", "after_none"),
                Column("slow after none", "rate_after_none", percent),
                Column("definition", "definition")),
            caption=report.SURPRISE_DEFINITION,
            frame=report.surprise_for_people,
            page_columns={"excess": "Surprise excess", "ci_low": "95 % low",
                          "ci_high": "95 % high", "testers": "Testers",
                          "after_cascade": "Decisions after a cascade",
                          "rate_after_cascade": "Slow after a cascade",
                          "after_none": "Decisions after none",
                          "rate_after_none": "Slow after none"}),
    ),
    charts=(
        Chart("Refused clicks by reason", report.reasons_figure, "vasco_reasons",
              section="refusal_reasons"),
        Chart("Slow first clicks after forced cascades", report.surprise_figure,
              "vasco_surprise", section="cascade_surprise"),
    ),
    prepared=decisions.PREPARED,
)
