"""`playtest up` passes every setting of .streamlit/config.toml on the command line, so a
folder without that file (an installed package started anywhere) runs the app the same
way: above all, no traceback shown to a visitor (``client.showErrorDetails``)."""

from __future__ import annotations

import tomllib

from benchmarks.devserver import ROOT
from playtest.commands import STREAMLIT_FLAGS


def test_every_config_toml_setting_is_also_a_flag_of_playtest_up() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    flags = dict(zip(STREAMLIT_FLAGS[::2], STREAMLIT_FLAGS[1::2], strict=True))
    for section, options in config.items():
        for option, value in options.items():
            if (section, option) == ("server", "address"):
                continue  # `playtest up --address`, 127.0.0.1 unless told
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            assert flags.get(f"--{section}.{option}") == shown, (section, option)
    assert flags["--client.showErrorDetails"] == "none"
