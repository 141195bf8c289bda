"""Configuration is read in one place (playtest.settings) and every reader follows it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import make_url

from playtest import auth, runtime
from playtest.settings import DEFAULT_URL, load_settings
from playtest.storage.db import database_url, make_engine
from playtest.study_snapshot import snapshot_folder

NAMES = ("DATABASE_URL", "PLAYTEST_DESIGNER_PASSWORD_HASH", "PLAYTEST_CACHE_DIR", "PLAYTEST_LOG_DIR")


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def test_defaults_when_nothing_is_set(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.database_url == DEFAULT_URL == database_url()
    assert settings.designer_password_hash is None and auth.stored_hash() is None
    assert settings.cache_dir is None and settings.log_dir is None
    assert runtime.log_file() == tmp_path / "playtest-logs" / "app.log"


def test_the_environment_sets_each_reader(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/lab.sqlite"
    clean.setenv("DATABASE_URL", f"  {url} ")
    clean.setenv("PLAYTEST_DESIGNER_PASSWORD_HASH", "scrypt$abc$def")
    clean.setenv("PLAYTEST_CACHE_DIR", str(tmp_path / "cache"))
    clean.setenv("PLAYTEST_LOG_DIR", str(tmp_path / "logs"))
    assert database_url() == url
    assert auth.stored_hash() == "scrypt$abc$def"
    assert runtime.log_file() == tmp_path / "logs" / "app.log"
    engine = make_engine(url)
    folder = snapshot_folder(engine)
    assert folder is not None and folder.parent == tmp_path / "cache"
    engine.dispose()
    # a change of the environment is seen at once (nothing is cached past it)
    clean.setenv("DATABASE_URL", "")
    assert database_url() == DEFAULT_URL


def test_password_hash_from_the_secrets_file_unless_the_environment_has_one(
    clean: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = auth.write_hash("scrypt$from$file", tmp_path)
    assert path == tmp_path / ".streamlit" / "secrets.toml"
    assert auth.stored_hash(tmp_path) == "scrypt$from$file"
    assert auth.stored_hash() == "scrypt$from$file"  # the working folder is tmp_path
    clean.setenv("PLAYTEST_DESIGNER_PASSWORD_HASH", "scrypt$from$env")
    assert auth.stored_hash(tmp_path) == "scrypt$from$env"
    clean.delenv("PLAYTEST_DESIGNER_PASSWORD_HASH")
    # a rewritten file is read again; a broken one configures nothing
    auth.write_hash("scrypt$second$one", tmp_path)
    assert auth.stored_hash(tmp_path) == "scrypt$second$one"
    path.write_text("designer_password_hash = [unclosed\n", encoding="utf-8")
    assert auth.stored_hash(tmp_path) is None


def test_sqlite_log_goes_next_to_the_database(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/data/lab.sqlite")
    assert runtime.log_file() == tmp_path / "data" / "playtest-logs" / "app.log"
    assert make_url(database_url()).database == f"{tmp_path}/data/lab.sqlite"
    assert os.environ["DATABASE_URL"].endswith("lab.sqlite")
