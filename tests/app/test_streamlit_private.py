"""What the app asks of Streamlit beyond its public API lives in one module
(playtest/streamlit_private.py), checked on one Streamlit version: an upgrade fails this
test until each private use is checked again and CHECKED_ON moved on."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import streamlit as st

from playtest import streamlit_private

ROOT = Path(__file__).resolve().parents[2]
#: What only that module may use: Streamlit's private modules and members.
PRIVATE = re.compile(r"streamlit\.(runtime\.scriptrunner|components\.v2\.(component_manager|"
                     r"manifest_scanner|get_bidi_component_manager))|get_script_run_ctx|"
                     r"\bst\._\w+")


def test_the_private_uses_were_checked_on_the_installed_streamlit() -> None:
    assert version("streamlit") == streamlit_private.CHECKED_ON
    pinned = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'streamlit=={streamlit_private.CHECKED_ON}' in pinned.replace(" ", "")


def test_each_private_use_still_exists_on_this_version() -> None:
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    assert callable(get_bidi_component_manager) and callable(get_script_run_ctx)
    assert {"name", "asset_dir"} <= set(ComponentConfig.__dataclass_fields__)
    assert {"name", "version", "components"} <= set(ComponentManifest.__dataclass_fields__)
    assert callable(st._event.html)


def test_no_other_module_of_the_app_uses_streamlit_internals() -> None:
    offenders = []
    for path in sorted((ROOT / "playtest").rglob("*.py")):
        if path.name == "streamlit_private.py":
            continue
        if PRIVATE.search(path.read_text(encoding="utf-8")):
            offenders.append(path.relative_to(ROOT).as_posix())
    assert offenders == []
