"""Planted Vasco studies: real engine games, clicks whose truth is known.

(A test helper: analytics may not import the engine, so the studies are made here.)

    python tests/analytics/vasco_planted.py     # false alarms and power of the surprise interval

Each tester plays ``games`` games as Red (seat 1) against a random legal opponent.
Per decision the tester first makes, with probability ``refusal_rates[reason]``, one
click the engine really refuses for that reason (found by asking the engine, never
made up), then clicks a cell and a legal tile. The first click's ``ms`` is drawn from a
log-normal around the tester's own speed, multiplied by ``surprise_factor`` when forced
tiles appeared since the tester's previous decision.

>>> data = planted_study(testers=2, games=1, seed=4, refusal_rates={"mismatch": 0.5})
>>> sorted(set(data.events["type"]) - {"draw", "win"})
['auto', 'click', 'game_start', 'place']
>>> data.study["planted"]["refusals"]["mismatch"] > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)
from engine.vasco import STATES, VascoGame, VascoState, cell_name


class _Log:
    """Appends one tester's events with rising ``seq`` and ``at``."""

    def __init__(self, pid: str, clock: pd.Timestamp, events: list[dict[str, Any]]) -> None:
        self.pid, self.clock, self.events, self.seq = pid, clock, events, 0

    def __call__(self, kind: str, props: dict[str, Any], game_id: str, ms: float = 0.0) -> None:
        self.seq += 1
        self.clock = self.clock + pd.Timedelta(milliseconds=ms + 5)
        self.events.append(
            {
                "participant_id": self.pid,
                "session_id": f"{self.pid}-s",
                "seq": self.seq,
                "at": self.clock,
                "type": kind,
                "props": props,
                "game_id": game_id,
            }
        )


def _refused_click(state: VascoState, reason: str, rng: random.Random) -> tuple[str, str] | None:
    """A (cell, tile) the engine refuses with ``reason`` in this position, if any."""
    cells = state.legal_targets()
    rng.shuffle(cells)
    for cell in cells[:12]:
        for tile in STATES:
            result = state.click(tile, (cell,))
            if result.refusal is not None and result.refusal.reason == reason:
                return cell, tile
    return None


def planted_study(
    *,
    testers: int = 20,
    games: int = 2,
    seed: int = 1,
    pool: int = 24,
    refusal_rates: Mapping[str, float] | None = None,
    surprise_factor: float = 1.0,
) -> StudyData:
    """A study of ``testers`` testers; see the module docstring."""
    rng = random.Random(seed)
    rates = dict(refusal_rates or {})
    start = pd.Timestamp("2026-01-05T09:00:00Z")
    events: list[dict[str, Any]] = []
    participants = []
    planted: dict[str, int] = {}
    decisions = 0
    for t in range(testers):
        pid = f"P{t:03d}"
        participants.append(
            {
                "study_id": "planted-vasco",
                "participant_id": pid,
                "created_at": start,
                "consented_at": start,
            }
        )
        speed = rng.lognormvariate(8.0, 0.3)  # the tester's median first click, ~3 s
        log = _Log(pid, start + pd.Timedelta(minutes=10 * t), events)

        for g in range(games):
            gid = f"{pid}-g{g}"
            state = VascoGame({"pool": pool}).new_initial_state()
            log("game_start", {"game": "vasco", "seats": ["human", "computer"]}, gid)
            cascade = False
            while not state.is_terminal():
                if state.to_move == 1:
                    first = rng.lognormvariate(0.0, 0.35) * speed
                    if cascade:
                        first *= surprise_factor
                    cascade = False
                    ms = first
                    decisions += 1
                    for reason, rate in sorted(rates.items()):
                        if rng.random() < rate:
                            found = _refused_click(state, reason, rng)
                            if found is not None:
                                planted[reason] = planted.get(reason, 0) + 1
                                log(
                                    "click",
                                    {
                                        "seat": 1,
                                        "ok": False,
                                        "reason": reason,
                                        "cell": found[0],
                                        "tile": found[1],
                                        "ms": round(ms),
                                    },
                                    gid,
                                    ms,
                                )
                                ms += rng.uniform(800, 2500)
                    action = rng.choice(state.legal_actions())
                    place = state.game.decode(action)
                    log(
                        "click",
                        {
                            "seat": 1,
                            "ok": True,
                            "reason": None,
                            "cell": cell_name(place.cell),
                            "tile": None,
                            "ms": round(ms),
                        },
                        gid,
                        ms,
                    )
                    ms += rng.uniform(500, 1500)
                    log(
                        "click",
                        {
                            "seat": 1,
                            "ok": True,
                            "reason": None,
                            "cell": cell_name(place.cell),
                            "tile": place.state,
                            "ms": round(ms),
                        },
                        gid,
                        ms,
                    )
                else:
                    action = rng.choice(state.legal_actions())
                for e in state.apply_action(action):
                    cascade = cascade or e.kind == "auto"
                    log(
                        e.kind,
                        {
                            "seat": e.seat,
                            "tiles": [list(c) for c in e.tiles],
                            **{k: v for k, v in e.data.items() if k == "tile"},
                        },
                        gid,
                    )
    return StudyData(
        study={
            "study_id": "planted-vasco",
            "title": "Planted Vasco study",
            "game": "vasco",
            "rules": {"pool": pool},
            "experiments": [],
            # the truth the tests recover: refused clicks made, per reason, and decisions
            "planted": {"refusals": planted, "decisions": decisions},
        },
        participants=pd.DataFrame(participants, columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(columns=ASSIGNMENT_COLUMNS),
        events=pd.DataFrame(events, columns=EVENT_COLUMNS),
        responses=pd.DataFrame(columns=RESPONSE_COLUMNS),
    )


def calibrate(runs: int = 20, testers: int = 10, factor: float = 3.0) -> dict[str, float]:
    """False alarms and power of the cascade-surprise interval on planted studies.

    ``false_alarm``: share of studies without planted surprise whose interval excludes
    0 upwards; ``power``: share of studies with first clicks ``factor`` times slower
    after cascades whose interval does.
    """
    from analytics.games.vasco.cascades import surprise

    alarms = hits = 0
    for run in range(runs):
        null = surprise(planted_study(testers=testers, games=2, seed=1000 + run))
        alarms += bool(null.ci_low > 0)
        real = surprise(
            planted_study(testers=testers, games=2, seed=2000 + run, surprise_factor=factor)
        )
        hits += bool(real.ci_low > 0)
    return {"runs": runs, "false_alarm": alarms / runs, "power": hits / runs}


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    print(calibrate())
