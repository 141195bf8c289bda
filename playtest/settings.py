"""The lab's configuration, read in one place (pydantic-settings).

Every setting comes from an environment variable; the designer's password hash may also
come from ``.streamlit/secrets.toml`` of the working folder (what ``playtest designer
set-password`` writes). The environment wins; an empty or blank variable counts as unset.

=================================== ============================================================
variable                            what it sets
=================================== ============================================================
``DATABASE_URL``                    the database (default ``sqlite:///playtest.sqlite`` in the
                                    working folder; ``postgresql://…`` uses psycopg 3)
``PLAYTEST_DESIGNER_PASSWORD_HASH`` the designer's password hash (else ``designer_password_hash``
                                    in ``.streamlit/secrets.toml``)
``PLAYTEST_CACHE_DIR``              the folder of the dashboard's Parquet snapshots (default:
                                    next to a SQLite file, else ``~/.cache/playtest-lab``)
``PLAYTEST_LOG_DIR``                the folder of the server log ``app.log`` (default:
                                    ``playtest-logs/`` next to a SQLite file, else the
                                    working folder)
``PLAYTEST_INPUT_LIMIT``            a tester's input limit, ``<burst>,<per second>`` (default
                                    ``40,5``: :mod:`playtest.storage.rate_limit`)
``PLAYTEST_TRUSTED_PROXIES``        the proxies whose ``X-Forwarded-For`` is believed
                                    (:mod:`playtest.forwarded`; default none)
=================================== ============================================================

:func:`load_settings` reads them afresh on every call (a test or a command may change the
environment).

>>> s = Settings(DATABASE_URL="  ", PLAYTEST_LOG_DIR="/var/log/lab")  # as if from the environment
>>> s.database_url, s.log_dir
('sqlite:///playtest.sqlite', PosixPath('/var/log/lab'))
"""

from __future__ import annotations

import functools
import os
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final

from pydantic import Field, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_URL: Final = "sqlite:///playtest.sqlite"
DATABASE_URL_ENV: Final = "DATABASE_URL"
PASSWORD_HASH_ENV: Final = "PLAYTEST_DESIGNER_PASSWORD_HASH"
CACHE_DIR_ENV: Final = "PLAYTEST_CACHE_DIR"
LOG_DIR_ENV: Final = "PLAYTEST_LOG_DIR"
INPUT_LIMIT_ENV: Final = "PLAYTEST_INPUT_LIMIT"
SECRETS_KEY: Final = "designer_password_hash"


def secrets_path(folder: Path | None = None) -> Path:
    """``.streamlit/secrets.toml`` of ``folder`` (default: the working folder)."""
    return (folder or Path.cwd()) / ".streamlit" / "secrets.toml"


# The secrets file's text for the one Settings() being built (set by _load).
_secrets_text: ContextVar[str | None] = ContextVar("secrets_text", default=None)


class SecretsFileSource(PydanticBaseSettingsSource):
    """The designer's password hash from ``.streamlit/secrets.toml`` (a broken file: none)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ answers for the whole file

    def __call__(self) -> dict[str, Any]:
        text = _secrets_text.get()
        if text is None:
            return {}
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return {}
        value = data.get(SECRETS_KEY)
        return {PASSWORD_HASH_ENV: str(value)} if value else {}


class Settings(BaseSettings):
    """What the environment (and the secrets file) configure; see the module docstring."""

    model_config = SettingsConfigDict(
        frozen=True, extra="ignore", case_sensitive=True, env_ignore_empty=True
    )

    database_url: str = Field(default=DEFAULT_URL, validation_alias=DATABASE_URL_ENV)
    designer_password_hash: str | None = Field(default=None, validation_alias=PASSWORD_HASH_ENV)
    cache_dir: Path | None = Field(default=None, validation_alias=CACHE_DIR_ENV)
    log_dir: Path | None = Field(default=None, validation_alias=LOG_DIR_ENV)
    input_limit: str | None = Field(default=None, validation_alias=INPUT_LIMIT_ENV)

    @field_validator("database_url", mode="before")
    @classmethod
    def _blank_url_is_the_default(cls, value: Any) -> Any:
        return value.strip() or DEFAULT_URL if isinstance(value, str) else value

    @field_validator("designer_password_hash", "cache_dir", "log_dir", "input_limit",
                     mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return (value.strip() or None) if isinstance(value, str) else value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # first wins: explicit values, the environment, then the secrets file (no .env)
        return init_settings, env_settings, SecretsFileSource(settings_cls)


def load_settings(folder: Path | None = None) -> Settings:
    """The settings now: the environment, then ``folder``'s (default: the working folder's)
    ``.streamlit/secrets.toml`` for the password hash."""
    try:
        text: str | None = secrets_path(folder).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    return _load(tuple(os.environ.get(name) for name in _ENV_NAMES), text)


def database_url_now() -> str:
    """``load_settings().database_url`` without reading the secrets file (the URL never
    comes from there): every rerun asks for it several times.

    >>> import os; os.environ[DATABASE_URL_ENV] = "  "; database_url_now()
    'sqlite:///playtest.sqlite'
    >>> os.environ[DATABASE_URL_ENV] = " postgresql://lab@db/lab "; database_url_now()
    'postgresql://lab@db/lab'
    >>> del os.environ[DATABASE_URL_ENV]
    """
    value = os.environ.get(DATABASE_URL_ENV)
    return (value.strip() if value else "") or DEFAULT_URL


_ENV_NAMES: Final = (DATABASE_URL_ENV, PASSWORD_HASH_ENV, CACHE_DIR_ENV, LOG_DIR_ENV,
                     INPUT_LIMIT_ENV)


@functools.lru_cache(maxsize=32)
def _load(env: tuple[str | None, ...], secrets_text: str | None) -> Settings:
    # Keyed on everything the settings are read from (the variables and the secrets file's
    # text): a Streamlit rerun asks several times, and building one takes half a millisecond.
    del env  # Settings() reads the same variables from os.environ itself
    token = _secrets_text.set(secrets_text)
    try:
        return Settings()
    finally:
        _secrets_text.reset(token)
