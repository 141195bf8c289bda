"""What the designer-page AppTests share: a signed-in run of one page of one study, on a
copy of a filled database (so a module's fixture database is made once and no test
changes another's)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def demo_databases(tmp_path_factory: pytest.TempPathFactory, games: Iterable[str], *,
                   testers: int, seed: int) -> dict[str, Path]:
    """Per game a migrated SQLite file holding its demo study and ``testers`` simulated
    testers (``playtest demo``; :func:`tests.demo_studies.fill_demo_study`)."""
    from tests.demo_studies import fill_demo_study

    made: dict[str, Path] = {}
    for game in games:
        made[game] = tmp_path_factory.mktemp(game) / "playtest.sqlite"
        fill_demo_study(made[game], game, testers, seed)
    return made


def use_copy(database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the app at a fresh copy of the SQLite file ``database`` (returned)."""
    copy = tmp_path / "playtest.sqlite"
    copy.write_bytes(database.read_bytes())
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{copy}")
    monkeypatch.chdir(tmp_path)
    return copy


def designer_page(page: str, study_id: str, *, timeout: float = 90) -> AppTest:
    """The designer's page ``page`` of study ``study_id``, signed in and run once without
    an exception, on the database ``DATABASE_URL`` names."""
    at = AppTest.from_file(PAGE_APP, default_timeout=timeout)
    at.query_params["page"] = page
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = study_id
    at.run()
    assert not at.exception, at.exception
    return at
