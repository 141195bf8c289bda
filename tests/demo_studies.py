"""A game's demo study filled with simulated testers, in a real SQLite file: the starting
point of the tests that read what a designer's pages read from a study with data."""

from __future__ import annotations

from pathlib import Path

from analytics.data import StudyData
from playtest import demo
from playtest.storage.db import make_engine, upgrade
from playtest.study_data import load_bundle


def fill_demo_study(database: Path, game: str, testers: int = 10, seed: int = 3) -> str:
    """Create ``game``'s demo study in the SQLite file ``database``, add ``testers``
    simulated testers (drawn from ``seed``, one worker: the same data every run) and
    return the study's id."""
    engine = make_engine(f"sqlite:///{database}")
    try:
        upgrade(engine)
        study = demo.ensure_demo_study(engine) if game == demo.DEMO_GAME else {
            s.game: s for s in demo.ensure_game_demo_studies(engine)}[game]
        demo.generate(engine, testers, seed=seed, study=study, workers=1)
        return study.study_id
    finally:
        engine.dispose()


def demo_study_data(database: Path, game: str, testers: int = 10,
                    seed: int = 3) -> StudyData:
    """:func:`fill_demo_study`, then the study's data as the designer pages load it."""
    study_id = fill_demo_study(database, game, testers, seed)
    engine = make_engine(f"sqlite:///{database}")
    try:
        return load_bundle(engine, study_id).data
    finally:
        engine.dispose()
