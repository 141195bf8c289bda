"""How :func:`analytics.derive.human_seats` reads whose seat an event is: each rule of its
docstring on one small log (the game from the event, else the session's latest
``game_start``; that game's seat list, found by either of its names; no list: a person)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import derive
from analytics.data import EVENT_COLUMNS, StudyData
from analytics.game_analytics import default_game

AT = pd.Timestamp("2026-01-05T09:00:00Z")


def _study(rows: list[tuple[str, str, dict[str, Any], str | None]]) -> StudyData:
    """Events (participant, type, props, game_id), in order, one session per tester."""
    events = pd.DataFrame(
        [[pid, f"s-{pid}", seq, AT + pd.Timedelta(seconds=seq), kind, props, game]
         for seq, (pid, kind, props, game) in enumerate(rows, start=1)],
        columns=EVENT_COLUMNS)
    empty = StudyData.empty("seats", default_game())
    return StudyData(study=empty.study, participants=empty.participants,
                     assignments=empty.assignments, events=events,
                     responses=empty.responses)


def test_each_click_is_a_person_s_as_its_game_s_seat_list_says() -> None:
    data = _study([
        ("P1", "game_start", {"game_id": "g1", "seats": ["human", "ai:easy"]}, "g1"),
        ("P1", "click", {"seat": 1}, None),  # no game: the session's latest start's
        ("P1", "click", {"seat": 2}, "g1"),  # the computer's seat
        ("P1", "click", {"seat": 3}, "g1"),  # a seat outside the list
        # an import named the game twice, differently: either name finds the list
        ("P1", "game_start", {"game_id": "g2-props", "seats": ("ai:hard", "human")},
         "g2-column"),
        ("P1", "click", {"seat": 2}, "g2-column"),
        ("P1", "click", {"seat": 1}, None),  # the latest start names it g2-props
        ("P1", "click", {"seat": 1}, "g-unknown"),  # no game_start: every seat a person's
        ("P2", "click", {"seat": 1}, None),  # no start in this session at all
        ("P2", "game_start", {"game_id": "g3", "seats": []}, "g3"),
        ("P2", "click", {"seat": 1}, "g3"),  # an empty list has no person's seat
        ("P2", "game_start", {"game_id": "g4"}, "g4"),
        ("P2", "click", {"seat": "1"}, "g4"),  # no list: a person
        ("P1", "click", {"seat": 1.5}, "g1"),  # not a seat number
    ])
    clicks = derive.props_of(data, "click", ["seat"])
    human, games = derive.human_seats(data, clicks)
    # in log order: the first tester's clicks, then the second's
    assert human.tolist() == [True, False, False, True, False, True, False,
                              True, False, True]
    named = [None if pd.isna(game) else game for game in games]
    assert named == ["g1", "g1", "g1", "g2-column", "g2-props", "g-unknown", "g1",
                     None, "g3", "g4"]


def test_without_any_game_start_every_seat_is_a_person_s() -> None:
    data = _study([("P1", "click", {"seat": 2}, "g1"), ("P1", "click", {"seat": 7}, None)])
    human, games = derive.human_seats(data, derive.props_of(data, "click", ["seat"]))
    assert human.tolist() == [True, True]
    assert games[0] == "g1" and pd.isna(games[1])
