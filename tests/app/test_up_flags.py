"""The app's Streamlit settings are stated once (``playtest.serving.SETTINGS``) and read
the same three ways: from ``playtest/.streamlit/config.toml`` (Streamlit reads it next to
``playtest/app.py`` whatever the working folder), as the flags ``playtest serve`` and
``playtest up`` pass (so a ``STREAMLIT_*`` variable cannot change them either), and from
the checkout's own ``.streamlit/config.toml`` (the same file, for the harness apps run
from the checkout). Above all: no traceback shown to a visitor, this machine only."""

from __future__ import annotations

import tomllib

from benchmarks.devserver import ROOT
from playtest import serving


def _file_settings() -> dict[str, object]:
    config = tomllib.loads(serving.CONFIG_FILE.read_text())
    return {f"{section}.{option}": value
            for section, options in config.items() for option, value in options.items()}


def test_the_config_file_next_to_the_app_holds_every_setting() -> None:
    assert serving.CONFIG_FILE == ROOT / "playtest" / ".streamlit" / "config.toml"
    assert _file_settings() == serving.SETTINGS
    assert serving.SETTINGS["client.showErrorDetails"] == "none"
    assert serving.SETTINGS["server.address"] == "127.0.0.1"
    assert serving.SETTINGS["browser.gatherUsageStats"] is False


def test_every_setting_is_also_a_flag_of_playtest_serve() -> None:
    flags = serving.flags()
    given = dict(zip(flags[::2], flags[1::2], strict=True))
    for key, value in serving.SETTINGS.items():
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        assert given[f"--{key}"] == shown, key
    assert dict(zip(serving.flags("0.0.0.0")[::2], serving.flags("0.0.0.0")[1::2],
                    strict=True))["--server.address"] == "0.0.0.0"


def test_the_checkouts_config_file_is_the_apps() -> None:
    assert (ROOT / ".streamlit" / "config.toml").resolve() == serving.CONFIG_FILE
