"""Everything the app asks of Streamlit beyond its public API, in ONE module.

Checked on Streamlit :data:`CHECKED_ON` (``tests/app/test_streamlit_private.py`` fails on
another version, so an upgrade re-checks each of these). The rest of the app uses public
APIs only (``st.context``, ``st.runtime.exists()``, ``st.components.v2.component``).

- :func:`register_asset_dir`: a Components v2 component's files served from a folder of
  ours. Streamlit serves a packaged component's files from the ``asset_dir`` of a
  ``[tool.streamlit.component]`` manifest found in an installed distribution's
  pyproject.toml; its scanner cannot find ours (it looks the manifest up through the
  import name derived from the distribution name, which is not a package here, or a
  pyproject.toml listed in the installed files: never the case for an editable
  install). So the same manifest entry is registered on the runtime's component
  manager (AppTest makes one per test), before the component is mounted.
- :func:`fragment_run`: whether this run is a fragment's own rerun (no public API says).
- :func:`event_html`: HTML with a script, drawn in Streamlit's event container (outside
  the page's layout, so it takes no space): the cookies' writer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

#: The Streamlit version these were checked on (pyproject.toml pins it).
CHECKED_ON: Final = "1.67.0"


def script_running() -> bool:
    """Whether a Streamlit runtime runs this code (False in bare mode: a doctest, a
    command): public API.

    >>> script_running()
    False
    """
    import streamlit as st

    return bool(st.runtime.exists())


def register_asset_dir(project: str, component: str, static_dir: Path) -> None:
    """Serve component ``<project>.<component>``'s files from ``static_dir`` (once per
    runtime; see the module docstring)."""
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest

    manager = get_bidi_component_manager()
    if manager.get_component_asset_root(f"{project}.{component}") is not None:
        return
    manifest = ComponentManifest(
        name=project, version="0",
        components=[ComponentConfig(name=component, asset_dir=static_dir.name)])
    manager.register_from_manifest(manifest, static_dir.parent)


def in_a_script_run() -> bool:
    """Whether this thread runs a visitor's page: a Streamlit script run, its callbacks
    included (a command, a test's or a benchmark's own game is none).

    >>> in_a_script_run()
    False
    """
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True) is not None


def fragment_run() -> bool:
    """Whether this run is a fragment's own rerun (a widget inside it), not the app's.

    >>> fragment_run()  # no Streamlit run at all
    False
    """
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def event_html(body: str) -> Any:
    """``st.html`` in the event container (no room taken in the page), scripts allowed."""
    import streamlit as st

    return st._event.html(body, unsafe_allow_javascript=True)
