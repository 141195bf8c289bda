"""Planted Bricks & Walls studies: real games of the engine, clicks and times planted.

Each tester plays one game as White (seat 1, ``human``) against ``ai:random``; both
sides pick uniformly random legal actions (``random.Random(seed)``); the engine decides
everything and its events are logged as the app logs them (kind, ``seat``, ``tiles``,
data), after the tester's accepted click that made the action. The truth planted on top
(:class:`MorrisTruth`):

- the tester's time on an ordinary click is ``LogNormal(log(click_ms), 0.3)``; on the
  click that forms a wall ``LogNormal(log(forming_ms), 0.3)``;
- once a wall forms, the removal click comes ``LogNormal(log(removal_ms), 0.4)`` after
  the ``wall`` event; before it, with probability ``walled_slip`` and when the enemy has
  a walled brick, the tester first clicks one (refused ``walled``, 600 ms in);
- when placing while ``trap`` is taken, the tester first clicks it with probability
  ``trap_slip`` (refused ``occupied``).

Medians of the lognormals are their ``*_ms`` values: what the analysis must recover.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)

START = pd.Timestamp("2026-04-01T09:00:00Z")


@dataclass(frozen=True)
class MorrisTruth:
    click_ms: float = 1200.0
    forming_ms: float = 2500.0
    removal_ms: float = 3000.0
    walled_slip: float = 0.5
    trap: str = "d6"
    trap_slip: float = 0.4
    move_cap: int = 40


def planted_morris_study(testers: int, seed: int = 0,
                         truth: MorrisTruth = MorrisTruth()) -> StudyData:
    """A study of ``testers`` real games with the planted truth (module docstring)."""
    from engine.core import make_game
    from engine.morris import Move, Place, Remove, decode

    rng = random.Random(seed)
    events: list[list[Any]] = []
    participants: list[list[Any]] = []
    for number in range(testers):
        pid, sid, gid = f"M{number:03d}", f"S{number:03d}", f"M{number:03d}-g1"
        participants.append(["planted-morris", pid, START, START])
        clock = START + pd.Timedelta(minutes=number)
        seq = 0

        def log(kind: str, props: dict[str, Any], at: pd.Timestamp,
                pid: str = pid, sid: str = sid, gid: str = gid) -> None:
            nonlocal seq
            seq += 1
            events.append([pid, sid, seq, at, kind, props, gid])

        def wait(ms: float, median: float, spread: float) -> float:
            return float(median * math.exp(rng.gauss(0.0, spread))) if ms < 0 else ms

        log("page", {"page": "play"}, clock)
        log("game_start", {"game_id": gid, "game": "morris", "seats": ["human", "ai:random"],
                           "rules": "standard", "seed": seed}, clock)
        state = make_game("morris", {"base": "standard", "move_cap": truth.move_cap},
                          2).new_initial_state()
        wall_at: pd.Timestamp | None = None
        while not state.is_terminal():
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            move = decode(action)
            if seat == 1:  # the computer: its events only
                clock += pd.Timedelta(milliseconds=800)
                for event in state.apply_action(action):
                    log(event.kind, _props(event), clock)
                continue
            forming = _forms_wall(state, action)
            if isinstance(move, Remove):
                assert wall_at is not None
                walled = [p for p, owner in state.board.items()
                          if owner == "B" and state.walled(p)]
                if walled and rng.random() < truth.walled_slip:
                    point = rng.choice(walled)
                    result = state.click(point)
                    assert result.refusal is not None
                    log("click", {"seat": 1, "ok": False, "reason": result.refusal.reason,
                                  "ms": 600.0, "point": point},
                        wall_at + pd.Timedelta(milliseconds=600))
                delay = wait(-1, truth.removal_ms, 0.4)
                clock = wall_at + pd.Timedelta(milliseconds=delay)
                click = {"seat": 1, "ok": True, "ms": delay, "point": move.at}
            else:
                if isinstance(move, Place) and state.owner(truth.trap) is not None \
                        and rng.random() < truth.trap_slip:
                    result = state.click(truth.trap)
                    assert result.refusal is not None
                    clock += pd.Timedelta(milliseconds=700)
                    log("click", {"seat": 1, "ok": False, "reason": result.refusal.reason,
                                  "ms": 700.0, "point": truth.trap}, clock)
                ms = wait(-1, truth.forming_ms if forming else truth.click_ms, 0.3)
                if isinstance(move, Move):  # select the brick, then its destination
                    clock += pd.Timedelta(milliseconds=400)
                    log("click", {"seat": 1, "ok": True, "ms": 400.0, "point": move.frm},
                        clock)
                    click = {"seat": 1, "ok": True, "ms": ms, "point": move.to,
                             "from": move.frm}
                else:
                    click = {"seat": 1, "ok": True, "ms": ms, "point": move.to}
                clock += pd.Timedelta(milliseconds=ms)
            log("click", click, clock)  # before the engine's events, as the app logs it
            applied = state.apply_action(action)
            for event in applied:
                log(event.kind, _props(event), clock)
            wall_at = clock if any(e.kind == "wall" for e in applied) else None
        log("game_end", {"game_id": gid, "winner": None, "reason": "over"}, clock)
    return StudyData(
        study={"study_id": "planted-morris", "title": "Planted morris", "game": "morris",
               "rules": "standard", "experiments": []},
        participants=pd.DataFrame(participants, columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(columns=ASSIGNMENT_COLUMNS),
        events=pd.DataFrame(events, columns=EVENT_COLUMNS),
        responses=pd.DataFrame(columns=RESPONSE_COLUMNS))


def _props(event: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"seat": event.seat, "tiles": [list(t) for t in event.tiles]}
    props.update(dict(event.data))
    return props


def _forms_wall(state: Any, action: int) -> bool:
    return any(e.kind == "wall" for e in state.clone().apply_action(action))
