"""A game's report section cannot name two columns alike: the page could not draw the
table (pyarrow refuses duplicate names) and a reader could not tell them apart."""

from __future__ import annotations

import pytest

from analytics.game_analytics import Column, ReportSection


def _rows(data: object, top: int, min_attempts: int) -> list[dict[str, object]]:
    return []


def test_two_columns_of_one_name_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match=r"'stages'.*95 % interval"):
        ReportSection("stages", "Per stage", _rows,
                      (Column("95 % interval", "a"), Column("95 % interval", "b")))
    with pytest.raises(ValueError, match="Rate"):
        ReportSection("stages", "Per stage", _rows, (Column("a", "a"),),
                      page_columns={"x": "Rate", "y": "Rate"})


def test_distinct_names_are_accepted() -> None:
    section = ReportSection("stages", "Per stage", _rows,
                            (Column("win: 95 % interval", "a"), Column("flip: 95 % interval", "b")),
                            page_columns={"x": "Win", "y": "Flip"})
    assert [c.header for c in section.columns] == ["win: 95 % interval", "flip: 95 % interval"]
