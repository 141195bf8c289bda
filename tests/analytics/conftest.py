"""Hand-made study frames with known answers for the analytics tests."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)

T0 = pd.Timestamp("2026-03-01T10:00:00Z")


class Builder:
    """Appends events per participant with consecutive seq numbers and 1 s steps."""

    def __init__(self) -> None:
        self.events: list[list[Any]] = []
        self.seq: dict[str, int] = {}

    def add(self, pid: str, kind: str, props: dict[str, Any], game: str | None = None,
            seconds: float | None = None) -> None:
        seq = self.seq.get(pid, 0) + 1
        self.seq[pid] = seq
        at = T0 + pd.Timedelta(seconds=seconds if seconds is not None else seq)
        self.events.append([pid, f"s-{pid}", seq, at, kind, props, game])

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.events, columns=EVENT_COLUMNS)


def click(ok: bool, ms: int, c: int = 5, r: int = 8, kind: str | None = None,
          reason: str | None = None, seat: int = 1) -> dict[str, Any]:
    props: dict[str, Any] = {"seat": seat, "c": c, "r": r, "ok": ok, "ms": ms,
                             "expected": 40, "clicked": c * r}
    if kind:
        props["wrong_kind"] = kind
    if reason:
        props["rule_reason"] = reason
    return props


def roll(seat: int, p1: int, p2: int, g1: int, g2: int) -> dict[str, Any]:
    pink, green = p1 + p2, g1 + g2
    return {"seat": seat, "dice": [p1, p2, g1, g2], "options": [[pink, green], [green, pink]]}


@pytest.fixture
def small_study() -> StudyData:
    """Two testers, one game each vs ai:easy.

    P1 (variant A): turn 1 fact 3x5 first click wrong near_miss (ms 4000) then ok;
    AI roll; message extra_turn; turn 2 fact 7x8: rule/suicide wrong (ms 9000), ok;
    rules_open(context extra_turn) … close after 5 s; reaches done.
    P2 (variant B): turn 1 fact 7x8 ok (ms 2000); message extra_turn; turn 2 fact 6x6 ok
    (ms 1000); stops after post_survey.
    """
    b = Builder()
    b.add("P1", "page", {"page": "consent"})
    b.add("P1", "page", {"page": "pre_survey"})
    b.add("P1", "page", {"page": "play"})
    b.add("P1", "game_start", {"game_id": "g1", "seats": ["human", "ai:easy"], "seed": 1}, "g1")
    b.add("P1", "roll", roll(1, 1, 2, 2, 3), "g1")                      # 3 x 5
    b.add("P1", "click", click(False, 4000, 4, 6, "near_miss"), "g1")
    b.add("P1", "click", click(True, 5000, 3, 5), "g1")
    b.add("P1", "roll", roll(2, 6, 6, 1, 1), "g1")                      # AI turn
    b.add("P1", "message", {"key": "extra_turn", "variant": "A", "text": "t",
                            "ms_visible": 3000}, "g1")
    b.add("P1", "roll", roll(1, 3, 4, 4, 4), "g1")                      # 7 x 8
    b.add("P1", "click", click(False, 9000, 7, 8, "rule", "suicide"), "g1")
    b.add("P1", "rules_open", {"context": "extra_turn"}, "g1", seconds=20)
    b.add("P1", "rules_close", {"context": "extra_turn"}, "g1", seconds=25)
    b.add("P1", "click", click(True, 12000, 8, 7), "g1", seconds=30)
    b.add("P1", "game_end", {"game_id": "g1", "winner": 1, "reason": "line", "turns": 3},
          "g1", seconds=31)
    b.add("P1", "page", {"page": "post_survey"}, seconds=40)
    b.add("P1", "page", {"page": "done"}, seconds=100)
    b.add("P2", "page", {"page": "consent"})
    b.add("P2", "page", {"page": "pre_survey"})
    b.add("P2", "game_start", {"game_id": "g2", "seats": ["human", "ai:easy"], "seed": 2}, "g2")
    b.add("P2", "roll", roll(1, 3, 5, 3, 4), "g2")                      # 8 x 7 -> 7x8
    b.add("P2", "click", click(True, 2000, 8, 7), "g2")
    b.add("P2", "message", {"key": "extra_turn", "variant": "B", "text": "t",
                            "ms_visible": 3000}, "g2")
    b.add("P2", "roll", roll(1, 3, 3, 2, 4), "g2")                      # 6 x 6
    b.add("P2", "click", click(True, 1000, 6, 6), "g2")
    b.add("P2", "page", {"page": "post_survey"})
    participants = pd.DataFrame([["st", "P1", T0, T0], ["st", "P2", T0, T0]],
                                columns=PARTICIPANT_COLUMNS)
    assignments = pd.DataFrame([["P1", "copy", "A", T0], ["P2", "copy", "B", T0]],
                               columns=ASSIGNMENT_COLUMNS)
    responses = pd.DataFrame([
        ["P1", "post", 1, "post", "feedback", "The rules were confusing", T0],
        ["P2", "post", 1, "post", "feedback", "fun but <script>alert(1)</script>", T0],
        ["P1", "pre", 1, "pre", "age_band", "adult", T0],
    ], columns=RESPONSE_COLUMNS)
    return StudyData(
        study={"study_id": "st", "title": "t", "game": "vapoosh", "rules": "standard",
               "experiments": [{"key": "copy", "variants": ["A", "B"],
                                "target": "message:extra_turn"}]},
        participants=participants, assignments=assignments, events=b.frame(),
        responses=responses,
        attributes=pd.DataFrame({"participant_id": ["P1", "P2"],
                                 "age_band": ["adult", "child"]}))
