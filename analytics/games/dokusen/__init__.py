"""Dokusen's analytics (pure functions over a study's events): per stage the
first-attempt win rate, rounds, and the squares that flip against the tester right after
their move (:mod:`analytics.games.dokusen.stages`), and refused clicks by reason.

Nothing here imports the engine: the stage is read from ``game_start.props.rules``.
"""

from __future__ import annotations

from analytics.games.dokusen.stages import (
    fresh_flips,
    games,
    refused_clicks,
    stage_label,
    stage_summary,
)

__all__ = ["fresh_flips", "games", "refused_clicks", "stage_label", "stage_summary"]
