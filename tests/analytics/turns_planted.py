"""Planted studies of Bricks & Walls, Vasco and Dokusen where every tester's turns are known.

Each tester plays two games; the log follows telemetry-format.md and the order the app
logs in (a click, then the engine's events of the action it made; a computer's events,
then its ``ai_move``). Every tester's turn gets a planted number of refused clicks
before the accepted ones and a planted time on its first click
(``LogNormal(log(think_ms), 0.4)``, ``think_ms`` per tester); messages are shown before
some turns. :class:`Planted` keeps, per tester and in order, each turn's clicks, refused
clicks and first-click time, and per message the refused clicks of the turn after it:
the truth the analysis must recover exactly.

What makes each game's turns hard to find:

- **morris** (seat 1 or 2 for the tester): a move takes two clicks; a wall's removal
  (with its own refused ``walled`` clicks) is a turn of its own, right after the
  placement or move that formed the wall, and a message shown between the two is
  followed by the removal; a ``skip`` of the opponent gives the tester two turns in a
  row with no other seat acting; a stale tab's click during the computer's move is no
  act of the tester's;
- **vasco**: forced ``auto`` tiles follow a placement; one tester plays pass-and-play
  (both seats human: both seats' turns are the tester's);
- **dokusen**: a stage alone (seats ``["human"]``: only the round's ``grow`` separates
  the tester's turns) and a stage with two computer colours (``ai_move`` of seats 2, 3),
  chance ``meteor`` events.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)

START = pd.Timestamp("2026-05-01T09:00:00Z")
MESSAGE_KEY = "hint"
GAMES = ("morris", "vasco", "dokusen")
#: A refusal reason per game the planted refused clicks carry.
REASON = {"morris": "occupied", "vasco": "no_contact", "dokusen": "own_square"}


@dataclass(frozen=True)
class TurnTruth:
    """One planted turn of a tester: its clicks, refused clicks and first-click ms."""

    clicks: int
    wrong: int
    first_ms: float


@dataclass
class Planted:
    """A planted study and its truth (module docstring)."""

    data: StudyData
    turns: dict[str, list[TurnTruth]] = field(default_factory=dict)
    after_message: dict[str, list[int]] = field(default_factory=dict)


class _Log:
    """One tester's events, one second apart, with consecutive ``seq``."""

    def __init__(self, pid: str, start: pd.Timestamp, rows: list[list[Any]]) -> None:
        self.pid, self.clock, self.rows, self.seq = pid, start, rows, 0
        self.game_id: str | None = None

    def __call__(self, kind: str, props: dict[str, Any]) -> None:
        self.seq += 1
        self.clock += pd.Timedelta(seconds=1)
        self.rows.append([self.pid, f"s-{self.pid}", self.seq, self.clock, kind, props,
                          self.game_id])


@dataclass
class _Tester:
    pid: str
    log: _Log
    rng: random.Random
    slip: float
    think_ms: float
    turns: list[TurnTruth]
    after_message: list[int]
    message_pending: bool = False

    def maybe_message(self) -> None:
        """Show the message before the tester's next turn now and then."""
        if self.rng.random() < 0.3:
            self.log("message", {"key": MESSAGE_KEY, "variant": "A", "text": "…",
                                 "ms_visible": 2000})
            self.message_pending = True

    def clicks(self, game: str, seat: int, accepted: int, fields: dict[str, Any],
               extra_wrong: int = 0) -> tuple[int, int, float]:
        """Refused clicks (some), then ``accepted`` ones: (clicks, wrong, first ms)."""
        rng = self.rng
        wrong = sum(rng.random() < self.slip for _ in range(3)) + extra_wrong
        first = self.think_ms * math.exp(rng.gauss(0.0, 0.4))
        for number in range(wrong + accepted):
            ms = round(first) if number == 0 else rng.randint(300, 1500)
            props = {"seat": seat, **fields, "ms": ms, "via": "mouse"}
            if number < wrong:
                props.update(ok=False, reason=REASON[game])
            else:
                props["ok"] = True
            self.log("click", props)
        return wrong + accepted, wrong, float(round(first))

    def record(self, clicks: int, wrong: int, first: float) -> None:
        self.turns.append(TurnTruth(clicks, wrong, first))
        if self.message_pending:
            self.after_message.append(wrong)
            self.message_pending = False


def _morris_game(t: _Tester, number: int) -> None:
    log, rng = t.log, t.rng
    human = 1 + number % 2  # the tester is White in one game, Black in the other
    seats = ["human", "ai:easy"] if human == 1 else ["ai:easy", "human"]
    computer = 3 - human
    log("game_start", {"game_id": log.game_id, "game": "morris", "seats": seats,
                       "rules": "standard", "seed": number})
    mover = 1
    for step in range(14):
        if mover == computer:
            kind = "place" if step < 8 else "move"
            log(kind, {"seat": computer, "tiles": [[0, step]], "point": "a1"})
            if rng.random() < 0.2:
                log("wall", {"seat": computer, "tiles": [], "points": ["a1", "a4", "a7"]})
                log("remove", {"seat": computer, "tiles": [[1, 1]], "point": "d2"})
            if rng.random() < 0.3:  # another tab of the tester's, out of date
                log("click", {"seat": human, "point": "g7", "ok": False, "ms": 90,
                              "reason": "not_your_turn", "stale": True})
            log("ai_move", {"seat": computer, "action": ["place", "a1"]})
            mover = human
            continue
        t.maybe_message()
        moving = step >= 8
        clicks, wrong, first = t.clicks("morris", human, 2 if moving else 1,
                                        {"point": "d6"})
        log("move" if moving else "place", {"seat": human, "tiles": [[2, step]],
                                            "point": "d6"})
        t.record(clicks, wrong, first)
        if rng.random() < 0.3:  # a wall: the removal is a turn of its own
            log("wall", {"seat": human, "tiles": [], "points": ["d5", "d6", "d7"]})
            t.maybe_message()  # e.g. "Wall! Take a brick": the removal follows it
            t.record(*t.clicks("morris", human, 1, {"point": "b4"},
                               extra_wrong=rng.randint(0, 1)))
            log("remove", {"seat": human, "tiles": [[3, 3]], "point": "b4"})
        if rng.random() < 0.2:  # rule 6: the opponent cannot move, the tester again
            log("skip", {"seat": computer, "tiles": []})
            continue
        mover = computer
    log("game_end", {"game_id": log.game_id, "winner": None, "reason": "over", "turns": 14})


def _vasco_game(t: _Tester, number: int) -> None:
    log, rng = t.log, t.rng
    both = t.pid.endswith("1")  # pass-and-play: both seats are the tester's
    seats = ["human", "human"] if both else ["human", "computer"]
    log("game_start", {"game_id": log.game_id, "game": "vasco", "seats": seats,
                       "rules": "standard", "seed": number})
    for step in range(12):
        seat = 1 + step % 2
        if seat == 2 and not both:
            log("place", {"seat": 2, "tiles": [[0, step]], "tile": "ox*"})
            log("ai_move", {"seat": 2, "action": ["place", [0, step], "ox*"]})
            continue
        t.maybe_message()
        clicks, wrong, first = t.clicks("vasco", seat, 2, {"cell": [1, step], "tile": "xo*"})
        log("place", {"seat": seat, "tiles": [[1, step]], "tile": "xo*"})
        for _ in range(rng.randint(0, 2)):  # forced tiles, the same seat's
            log("auto", {"seat": seat, "tiles": [[2, step]], "tile": "ox*"})
        t.record(clicks, wrong, first)
    log("game_end", {"game_id": log.game_id, "winner": 1, "reason": "line", "turns": 12})


def _dokusen_game(t: _Tester, number: int) -> None:
    log, rng = t.log, t.rng
    alone = number == 0  # the first stage alone, the second with two computer colours
    log("game_start", {"game_id": log.game_id, "game": "dokusen", "seats": ["human"],
                       "rules": "S1" if alone else "S4", "seed": number})
    for round_no in range(8):
        t.maybe_message()
        clicks, wrong, first = t.clicks("dokusen", 1, 1, {"at": [round_no % 7, 2]})
        log("place", {"seat": 1, "tiles": [[round_no % 7, 2]], "player": 0, "took": None})
        t.record(clicks, wrong, first)
        if not alone:
            for seat in (2, 3):
                log("place", {"seat": seat, "tiles": [[4, seat]], "player": seat - 1,
                              "took": None})
                log("ai_move", {"seat": seat, "action": ["place", [4, seat]]})
        log("grow", {"seat": None, "tiles": [[1, 1]]})
        if rng.random() < 0.2:
            log("meteor", {"seat": None, "tiles": [[3, 3]]})
    log("game_end", {"game_id": log.game_id, "winner": 1, "reason": "end", "turns": 8})


_GAME: dict[str, Callable[[_Tester, int], None]] = {
    "morris": _morris_game, "vasco": _vasco_game, "dokusen": _dokusen_game}


def planted_turns_study(game: str, testers: int = 12, seed: int = 0) -> Planted:
    """``testers`` testers of ``game``, two games each, variant A or B of an experiment
    on highlighting (alternately): the study and its truth."""
    rng = random.Random(f"{game}:{seed}")
    rows: list[list[Any]] = []
    planted = Planted(data=StudyData.empty("planted"))
    for number in range(testers):
        pid = f"{game[0].upper()}{number:02d}"
        log = _Log(pid, START + pd.Timedelta(hours=number), rows)
        tester = _Tester(pid, log, random.Random(rng.random()), slip=rng.uniform(0.02, 0.4),
                         think_ms=rng.uniform(800, 4000), turns=[], after_message=[])
        log("page", {"page": "play"})
        for game_no in range(2):
            log.game_id = f"{pid}-g{game_no}"
            _GAME[game](tester, game_no)
            log.game_id = None
        log("page", {"page": "done"})
        planted.turns[pid] = tester.turns
        planted.after_message[pid] = tester.after_message
    ids = list(planted.turns)
    planted.data = StudyData(
        study={"study_id": f"planted-{game}", "title": "", "game": game, "rules": "standard",
               "experiments": [{"key": "highlight", "variants": ["off", "on"],
                                "target": "ui:highlight_options"}]},
        participants=pd.DataFrame([[f"planted-{game}", p, START, START] for p in ids],
                                  columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame([[p, "highlight", ("off", "on")[i % 2], START]
                                  for i, p in enumerate(ids)], columns=ASSIGNMENT_COLUMNS),
        events=pd.DataFrame(rows, columns=EVENT_COLUMNS),
        responses=pd.DataFrame(columns=RESPONSE_COLUMNS))
    return planted
