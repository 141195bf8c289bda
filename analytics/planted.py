"""Planted studies: simulated testers whose truth is known, for calibrating verdicts.

:func:`planted_study` builds a :class:`~analytics.data.StudyData` directly (no engine,
no database) for one message-wording experiment ``wording`` (target
``message:extra_turn``, variants ``A`` control and ``B``), so that
``analytics.calibrate`` can run the report's own analysis on thousands of studies.

**Error model** (every number is a field of :class:`PlantedTruth`):

- *Testers* are assigned A/B alternately in a shuffled order (balanced, as the app
  does). Each has a pace ``exp(N(0, pace_sd))`` that scales all their times.
- *Turns*: each tester plays ``turns`` turns against ``ai:easy``. A turn is a ``roll``
  of two pink and two green dice, then clicks: the first after a thinking time
  ``think_s · pace · LogNormal(0, 0.4)`` from the options appearing (its ``ms``).
- *Wrong clicks*: a turn's first click is wrong with probability ``slip`` (1 % by
  default, the background), or ``hard_fact_wrong`` when the rolled fact is in
  ``hard_facts``; after a wrong click the right one follows 1.5 s later.
- *Messages*: after the tester's placement, with probability ``message_rate`` the
  ``extra_turn`` message is shown and the tester rolls again; otherwise the computer
  rolls (1.5 s) and then the tester. The time from the message to the tester's next
  roll is ``response_s · pace · LogNormal(0, response_sd)``, multiplied by
  ``response_ratio`` in variant B. With probability ``lookup`` (``lookup_b`` in B) the
  tester opens the rules halfway through that wait (the opening is then their next
  action; ``rules_open`` … ``rules_close``, 6 s). The
  turn after a message has a first-click slip probability of ``slip_after``
  (``slip_after_b`` in B).
- *Completion*: a tester reaches the ``done`` page with probability ``completion``
  (``completion_b`` in B). *Survey*: a SUS total ``N(68, 12.5)`` clipped to 0–100, plus
  ``sus_shift_b`` in B.

The defaults are an A/A study: B equals A in everything.

>>> data, scores = planted_study(PlantedTruth(), testers=4, seed=1)
>>> sorted(data.assignments["variant"])
['A', 'A', 'B', 'B']
>>> int((data.events["type"] == "message").sum()) > 0
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    SCORE_COLUMNS,
    StudyData,
)
from analytics.game_analytics import default_game

EXPERIMENT = {"key": "wording", "variants": ["A", "B"], "target": "message:extra_turn"}
START = pd.Timestamp("2026-01-05T09:00:00Z")


@dataclass(frozen=True)
class PlantedTruth:
    """What the simulated testers do (see the module docstring); defaults: A/A."""

    turns: int = 20
    pace_sd: float = 0.35
    think_s: float = 3.0
    slip: float = 0.01
    hard_facts: tuple[str, ...] = ()
    hard_fact_wrong: float = 0.4
    message_rate: float = 0.3
    response_s: float = 2.0
    response_sd: float = 0.5
    response_ratio: float = 1.0
    lookup: float = 0.05
    lookup_b: float = 0.05
    slip_after: float = 0.05
    slip_after_b: float = 0.05
    completion: float = 0.9
    completion_b: float = 0.9
    sus_shift_b: float = 0.0


#: A large wording effect: B's message makes testers wait 3 times as long before
#: their next action, open the rules five times as often, and slip more after it.
LARGE_MESSAGE_EFFECT = PlantedTruth(response_ratio=3.0, lookup_b=0.25, slip_after_b=0.15)
#: The issue's moderate effect: about 4 s against 2 s before the next action.
MODERATE_MESSAGE_EFFECT = PlantedTruth(response_ratio=2.0)


def _fact(dice: np.ndarray) -> str:
    pink, green = int(dice[0] + dice[1]), int(dice[2] + dice[3])
    low, high = sorted((pink, green))
    return f"{low}x{high}"


def planted_study(truth: PlantedTruth, testers: int, seed: int = 0,
                  study_id: str = "planted") -> tuple[StudyData, pd.DataFrame]:
    """A study of ``testers`` simulated testers and its ``scores`` frame (SUS, post)."""
    rng = np.random.default_rng(seed)
    arms = np.array(["A", "B"] * ((testers + 1) // 2))[:testers]
    rng.shuffle(arms)
    participants: list[list[Any]] = []
    assignments: list[list[Any]] = []
    events: list[list[Any]] = []
    scores: list[list[Any]] = []
    for index in range(testers):
        pid = f"P{index:05d}"
        arm = str(arms[index])
        in_b = arm == "B"
        joined = START + pd.Timedelta(minutes=10 * index)
        participants.append([study_id, pid, joined, joined])
        assignments.append([pid, EXPERIMENT["key"], arm, joined])
        pace = float(np.exp(rng.normal(0.0, truth.pace_sd)))
        clock = 0.0
        seq = 0
        game = f"{pid}-g1"

        def emit(kind: str, props: dict[str, Any], seconds: float, with_game: bool = True,
                 pid: str = pid, game: str = game, joined: pd.Timestamp = joined) -> None:
            nonlocal clock, seq
            clock += seconds
            seq += 1
            events.append([pid, f"s-{pid}", seq, joined.value / 1e9 + clock, kind, props,
                           game if with_game else None])

        emit("page", {"page": "consent"}, 0.0, False)
        emit("page", {"page": "play"}, 30.0, False)
        emit("game_start", {"game_id": game, "seats": ["human", "ai:easy"], "seed": index},
             1.0)
        after_message = False
        wait = 1.0
        for _turn in range(truth.turns):
            dice = rng.integers(1, 7, size=4)
            pink, green = int(dice[0] + dice[1]), int(dice[2] + dice[3])
            emit("roll", {"seat": 1, "dice": dice.tolist(),
                          "options": [[pink, green], [green, pink]]}, wait)
            think = truth.think_s * pace * float(rng.lognormal(0.0, 0.4))
            if after_message:
                slip = truth.slip_after_b if in_b else truth.slip_after
            elif _fact(dice) in truth.hard_facts:
                slip = truth.hard_fact_wrong
            else:
                slip = truth.slip
            ms = int(think * 1000)
            if rng.random() < slip:
                emit("click", {"seat": 1, "c": pink, "r": min(green + 1, 12), "ok": False,
                               "wrong_kind": "arithmetic", "expected": pink * green,
                               "clicked": pink * min(green + 1, 12), "ms": ms}, think)
                think = 1.5
                ms += 1500
            emit("click", {"seat": 1, "c": pink, "r": green, "ok": True,
                           "expected": pink * green, "clicked": pink * green, "ms": ms}, think)
            after_message = bool(rng.random() < truth.message_rate)
            if after_message:
                emit("message", {"key": "extra_turn", "variant": arm, "text": "Roll again!",
                                 "ms_visible": 3000}, 0.05)
                wait = truth.response_s * pace * float(rng.lognormal(0.0, truth.response_sd))
                if in_b:
                    wait *= truth.response_ratio
                if rng.random() < (truth.lookup_b if in_b else truth.lookup):
                    emit("rules_open", {"context": "extra_turn"}, wait * 0.5)
                    emit("rules_close", {"context": "extra_turn"}, 6.0)
                    wait *= 0.5
            else:
                emit("roll", {"seat": 2, "dice": rng.integers(1, 7, size=4).tolist(),
                              "options": []}, 1.0)
                wait = 1.5 + pace * float(rng.lognormal(0.0, 0.4))
        emit("game_end", {"game_id": game, "winner": int(rng.integers(1, 3)),
                          "reason": "line", "turns": 2 * truth.turns}, 1.0)
        if rng.random() < (truth.completion_b if in_b else truth.completion):
            emit("page", {"page": "post_survey"}, 5.0, False)
            emit("page", {"page": "done"}, 60.0, False)
            sus = float(np.clip(rng.normal(68.0, 12.5) + (truth.sus_shift_b if in_b
                                                           else 0.0), 0, 100))
            scores.append([pid, "post", "sus", "total", sus, None])
    frame = pd.DataFrame(events, columns=EVENT_COLUMNS)
    frame["at"] = pd.to_datetime(frame["at"].astype(float), unit="s", utc=True)
    data = StudyData(
        study={"study_id": study_id, "title": "Planted study", "game": default_game(),
               "rules": "standard", "experiments": [dict(EXPERIMENT)]},
        participants=pd.DataFrame(participants, columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(assignments, columns=ASSIGNMENT_COLUMNS),
        events=frame,
        responses=pd.DataFrame(columns=RESPONSE_COLUMNS),
    )
    return data, pd.DataFrame(scores, columns=SCORE_COLUMNS)


def first_testers(data: StudyData, scores: pd.DataFrame, count: int
                  ) -> tuple[StudyData, pd.DataFrame]:
    """The study as it stood when its first ``count`` testers had taken part (a look).

    >>> data, scores = planted_study(PlantedTruth(), testers=6, seed=2)
    >>> len(first_testers(data, scores, 4)[0].participants)
    4
    """
    ids = set(data.participants["participant_id"].iloc[:count])

    def keep(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[frame["participant_id"].isin(ids)].reset_index(drop=True)

    subset = StudyData(study=data.study, participants=keep(data.participants),
                       assignments=keep(data.assignments), events=keep(data.events),
                       responses=keep(data.responses))
    # A prepared study hands its derived tables down: a look costs no re-derivation.
    derive.carry_over(data, subset, ids)
    return subset, keep(scores)
