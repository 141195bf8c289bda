"""A simple seeded generator of StudyData for benchmarks (not the demo-data feature).

Each tester consents, answers a pre-survey, plays one game of ``turns`` human turns
against ``ai:easy`` (a roll, one or two clicks, an AI roll, sometimes a message and a
rules lookup), answers a post-survey and (mostly) reaches ``done``. Variant ``B`` of
experiment ``extra_turn_copy`` makes wrong clicks after the ``extra_turn`` message rarer.

>>> data = synthesize_study(testers=3, seed=1)
>>> sorted(data.events["type"].unique())[:3]
['click', 'game_end', 'game_start']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    QUIZ_COLUMNS,
    RESPONSE_COLUMNS,
    SCORE_COLUMNS,
    StudyData,
)
from analytics.game_analytics import default_game

EXPERIMENT = "extra_turn_copy"
KINDS = ["rule", "same_product", "near_miss", "arithmetic"]
REASONS = ["empty_priority", "suicide", "own_tile", "brown"]


def synthesize_study(testers: int, seed: int = 0, turns: int = 20,
                     study_id: str = "bench") -> StudyData:
    """About ``testers × (8 + 5 × turns)`` events (≈100 per tester by default)."""
    rng = np.random.default_rng(seed)
    start = pd.Timestamp("2026-01-01T09:00:00Z")
    participants: list[list[Any]] = []
    assignments: list[list[Any]] = []
    events: list[list[Any]] = []
    responses: list[list[Any]] = []
    variants = np.where(rng.random(testers) < 0.5, "A", "B")
    for index in range(testers):
        pid = f"T{index:06d}"
        sid = f"S{index:06d}"
        t0 = start + pd.Timedelta(minutes=int(index))
        participants.append([study_id, pid, t0, t0])
        assignments.append([pid, EXPERIMENT, variants[index], t0])
        seq = 0
        # Seconds since ``start`` (floats: Timestamp arithmetic per event is slow).
        clock = 60.0 * index

        def emit(kind: str, props: dict[str, Any], game: str | None = None,
                 pid: str = pid, sid: str = sid) -> None:
            nonlocal seq, clock
            seq += 1
            clock += float(rng.exponential(4.0))
            events.append([pid, sid, seq, clock, kind, props, game])

        emit("page", {"page": "consent"})
        emit("page", {"page": "pre_survey"})
        responses.append([pid, "pre", 1, "pre", "age_band", str(rng.choice(["child", "adult"])),
                          clock])
        emit("page", {"page": "play"})
        game = f"{pid}-g1"
        emit("game_start", {"game_id": game, "rules": "standard",
                            "seats": ["human", "ai:easy"], "seed": index}, game)
        skill = rng.normal(0.0, 0.5)
        show_message = False
        for _ in range(turns):
            dice = rng.integers(1, 7, size=4).tolist()
            pink, green = dice[0] + dice[1], dice[2] + dice[3]
            emit("roll", {"seat": 1, "dice": dice, "options": [[pink, green], [green, pink]]},
                 game)
            hard = (pink * green) / 144
            p_wrong = 1 / (1 + np.exp(-(-2.0 + 2.0 * hard - skill)))
            if show_message:
                p_wrong *= 0.6 if variants[index] == "B" else 1.4
            wrong = rng.random() < p_wrong
            ms = int(rng.lognormal(8.0 + hard, 0.4))
            if wrong:
                kind = str(rng.choice(KINDS, p=[0.25, 0.2, 0.35, 0.2]))
                props: dict[str, Any] = {
                    "seat": 1, "c": int(rng.integers(1, 13)), "r": int(rng.integers(1, 13)),
                    "ok": False, "wrong_kind": kind, "expected": pink * green,
                    "clicked": int(rng.integers(1, 145)), "ms": ms}
                if kind == "rule":
                    props["rule_reason"] = str(rng.choice(REASONS))
                emit("click", props, game)
                ms += int(rng.lognormal(7.0, 0.3))
            emit("click", {"seat": 1, "c": pink, "r": green, "ok": True,
                           "expected": pink * green, "clicked": pink * green, "ms": ms}, game)
            show_message = rng.random() < 0.2
            if show_message:
                emit("message", {"key": "extra_turn", "variant": variants[index],
                                 "text": "Roll again!", "ms_visible": 3000}, game)
                if rng.random() < 0.1:
                    emit("rules_open", {"context": "extra_turn"}, game)
            emit("roll", {"seat": 2, "dice": rng.integers(1, 7, size=4).tolist(),
                          "options": []}, game)
        emit("game_end", {"game_id": game, "winner": None, "reason": "max_turns",
                          "turns": turns}, game)
        if rng.random() < 0.9:
            emit("page", {"page": "post_survey"})
            responses.append([pid, "post", 1, "post", "open_feedback",
                              str(rng.choice(["fun game", "rules were confusing",
                                              "too slow", "maths is hard"])), clock])
            if rng.random() < 0.95:
                emit("page", {"page": "done"})
    event_frame = pd.DataFrame(events, columns=EVENT_COLUMNS)
    event_frame["at"] = start + pd.to_timedelta(event_frame["at"].astype(float), unit="s")
    response_frame = pd.DataFrame(responses, columns=RESPONSE_COLUMNS)
    response_frame["at"] = start + pd.to_timedelta(response_frame["at"].astype(float),
                                                   unit="s")
    return StudyData(
        study={"study_id": study_id, "title": "Benchmark", "game": default_game(),
               "rules": "standard",
               "experiments": [{"key": EXPERIMENT, "variants": ["A", "B"],
                                "target": "message:extra_turn"}]},
        participants=pd.DataFrame(participants, columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(assignments, columns=ASSIGNMENT_COLUMNS),
        events=event_frame,
        responses=response_frame,
    )


def synthesize_scores_and_quiz(data: StudyData, seed: int = 0) -> tuple[pd.DataFrame,
                                                                        pd.DataFrame]:
    """``scores`` (SUS total, post) and ``quiz`` (3 items) frames for the testers."""
    rng = np.random.default_rng(seed)
    ids = data.participants["participant_id"].to_numpy()
    sus = np.clip(rng.normal(68, 12.5, size=len(ids)), 0, 100)
    scores = pd.DataFrame({"participant_id": ids, "phase": "post", "instrument": "sus",
                           "scale": "total", "value": sus, "grade": None},
                          columns=SCORE_COLUMNS)
    quiz = pd.DataFrame({
        "participant_id": np.repeat(ids, 3),
        "item": np.tile(["q1", "q2", "q3"], len(ids)),
        "correct": rng.random(3 * len(ids)) < 0.7,
    }, columns=QUIZ_COLUMNS)
    return scores, quiz
