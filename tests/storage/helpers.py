"""Builders of realistic study data through the public storage API (no raw SQL)."""

from __future__ import annotations

import random
import uuid

from sqlalchemy import Engine

from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from playtest.study_config import raw_config

# Settings a study can really play with (imports check them as the Studies page does).
EXPERIMENTS = [
    {"key": "extra_turn_msg", "variants": ["A", "B"], "target": "message:extra_turn",
     "payloads": {"A": "default", "B": "formal"}},
    {"key": "highlight", "variants": ["on", "off"], "target": "ui:highlight_options",
     "payloads": {"on": True, "off": False}},
]


def populate(engine: Engine, study_id: str = "s1", testers: int = 3) -> list[str]:
    """A study with testers who played, answered surveys and were assigned; returns codes."""
    repo.create_study(
        engine,
        title="Vapoosh pilot",
        study_id=study_id,
        config=raw_config(rules={"base": "standard", "surround": "group"},
                          surveys={},
                          experiments=EXPERIMENTS, games_per_tester=2, allow_more_games=False,
                          settings={"highlight_options": True, "speed": 2}, game=None),
    )
    rng = random.Random(7)
    logger = EventLogger(engine)
    codes = []
    for number in range(testers):
        tester = repo.create_consented_participant(
            engine, study_id, {"child_with_parent": number % 2 == 0}, {"age_band": "8-10"}
        )
        pid = tester.participant_id
        codes.append(pid)
        for experiment in EXPERIMENTS:
            repo.assign_balanced(
                engine, study_id, pid, experiment["key"], experiment["variants"], rng
            )
        session = repo.start_session(engine, pid, user_agent="pytest")
        logger.log(session, pid, "page", {"page": "play"}, uuid.uuid4().hex)
        game = repo.create_game(engine, pid, session, "standard", ["human", "ai:easy"], 42 + number)
        logger.log(
            session,
            pid,
            "game_start",
            {"game_id": game, "rules": "standard", "seats": ["human", "ai:easy"], "seed": 42},
            uuid.uuid4().hex,
            game_id=game,
        )
        for turn in range(4):
            logger.log(
                session,
                pid,
                "click",
                {
                    "seat": 0,
                    "c": turn,
                    "r": 2,
                    "ok": turn % 2 == 0,
                    "expected": 12,
                    "ms": 800 + turn,
                },
                uuid.uuid4().hex,
                game_id=game,
            )
        repo.save_responses(
            engine, pid, "umux_lite", "1.0", "h1", "post", "page1",
            {"umux_1": 5, "umux_2": 6, "free_text": "fun", "likes": ["dice", "board"], "skip": None},
            12.5,
        )  # fmt: skip
    return codes
