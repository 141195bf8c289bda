"""A planted Dokusen study: testers play real engine games (``engine.dokusen``) and their
events are logged as the platform logs them (engine events as their kind with
``seat``/``tiles``/data props, ``game_start``, ``click``). The truth is taken from the
engine's *states* during play, not from the events, so the analytics' reading of the
events is checked against it.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)
from engine.core import CHANCE, sample_chance
from engine.dokusen import DokusenGame
from engine.dokusen.ai import computer_action, greedy_action
from engine.dokusen.board import grown_owner

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)


class Log:
    """Collects events the way the platform's sink does (seq per session, no gaps)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.seq: dict[tuple[str, str], int] = {}

    def log(self, pid: str, sid: str, kind: str, props: dict[str, Any], game_id: str) -> None:
        n = self.seq.get((pid, sid), 0) + 1
        self.seq[(pid, sid)] = n
        self.rows.append(
            {
                "participant_id": pid,
                "session_id": sid,
                "seq": n,
                "at": T0 + timedelta(seconds=len(self.rows)),
                "type": kind,
                "props": props,
                "game_id": game_id,
            }
        )

    def study(self) -> StudyData:
        return StudyData(
            study={
                "study_id": "d",
                "title": "",
                "game": "dokusen",
                "rules": "S1",
                "experiments": [],
            },
            participants=pd.DataFrame(columns=PARTICIPANT_COLUMNS),
            assignments=pd.DataFrame(columns=ASSIGNMENT_COLUMNS),
            events=pd.DataFrame(self.rows),
            responses=pd.DataFrame(columns=RESPONSE_COLUMNS),
        )


def play(
    log: Log,
    pid: str,
    stage: str,
    game_no: int,
    rng: random.Random,
    careless: float,
    leave_after: int | None = None,
) -> dict[str, Any]:
    """One game by a simulated tester; returns the truth seen in the engine's states.

    With probability ``careless`` the tester puts the tile on a square the growth will
    take from them (when there is one), else plays greedily; now and then they click their
    own square first (a refused click)."""
    game = DokusenGame(stage)
    grid = game.grid
    state = game.new_initial_state()
    gid = f"{pid}-g{game_no}"
    sid = f"{pid}-s"
    log.log(pid, sid, "game_start", {"game_id": gid, "rules": stage}, gid)
    truth = {"placements": 0, "flipped": 0, "taken": 0, "refused": 0}
    placed_at, taken = -1, False
    while not state.is_terminal():
        cur = state.current_player()
        if cur == 0:
            if leave_after is not None and truth["placements"] >= leave_after:
                props = {"game_id": gid, "winner": None, "reason": "left"}
                log.log(pid, sid, "game_end", props, gid)
                return {**truth, "result": None, "rounds": None}
            own = [i for i, o in enumerate(state.cells) if o == 0]
            if own and rng.random() < 0.3:
                r, c = grid.coord(own[0])
                res = state.click(f"{r},{c}")
                assert res.refusal is not None
                props = {"seat": 1, "ok": False, "reason": res.refusal.reason, "at": [r, c]}
                log.log(pid, sid, "click", props, gid)
                truth["refused"] += 1
            traps = []
            for a in state.legal_actions():
                cells = list(state.cells)
                cells[a] = 0
                if grown_owner(grid, cells, a) != 0:
                    traps.append(a)
            if traps and rng.random() < careless:
                action = rng.choice(traps)
            else:
                action = greedy_action(state)
            r, c = grid.coord(action)
            log.log(pid, sid, "click", {"seat": 1, "ok": True, "at": [r, c]}, gid)
            placed_at, taken = action, False
        elif cur == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = computer_action(state, rng)
            taken = taken or action == placed_at
        events = state.apply_action(action)
        for e in events:
            props = {"seat": e.seat, "tiles": [list(t) for t in e.tiles], **dict(e.data)}
            log.log(pid, sid, e.kind, props, gid)
        if cur == 0:
            truth["placements"] += 1
        if any(e.kind == "grow" for e in events):
            # S1 and S5 have no meteors: the state now is the board right after growth
            truth["taken"] += taken
            truth["flipped"] += (not taken) and state.cells[placed_at] != 0
    assert state.outcome is not None
    return {**truth, "result": state.outcome.result, "rounds": state.outcome.rounds}


def planted_dokusen_study(seed: int = 2026) -> tuple[StudyData, dict[str, Any]]:
    """16 testers, three games each (S1, S5, S5), half of them careless; one leaves a
    game early. The study and its truth per stage."""
    rng = random.Random(seed)
    log = Log()
    truth: dict[str, Any] = {
        "S1": [],
        "S5": [],
        "flips": {"S1": [0, 0], "S5": [0, 0]},
        "refused": 0,
    }
    for k in range(16):
        pid = f"t{k:02d}"
        careless = 0.9 if k % 2 else 0.0
        for n, stage in enumerate(("S1", "S5", "S5")):
            left = 2 if (k == 3 and n == 2) else None
            t = play(log, pid, stage, n, rng, careless, leave_after=left)
            truth[stage].append((pid, n, t["result"], t["rounds"]))
            truth["flips"][stage][0] += t["flipped"]
            truth["flips"][stage][1] += t["placements"]
            truth["refused"] += t["refused"]
    return log.study(), truth
