"""Streamlit's installed-component scan, once per test process.

Every new ``AppTest`` scans the metadata of every installed distribution for Streamlit
components (``streamlit.components.v2.manifest_scanner.scan_component_manifests``: about
0.1 s of CPU, a third of some page tests' time). A served app scans once, when its
runtime starts; the installed packages do not change while the tests run, so the tests'
process scans once too and every ``AppTest`` registers the same manifests.

The root ``conftest.py`` calls :func:`scan_installed_components_once`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from streamlit.components.v2 import manifest_scanner
from streamlit.components.v2.manifest_scanner import ComponentManifest


def scan_installed_components_once() -> None:
    """Make the scan remember its answer (idempotent)."""
    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "scans_once", False):
        return
    found = functools.cache(scan)

    @functools.wraps(scan)
    def once(max_workers: int | None = None) -> list[tuple[ComponentManifest, Path]]:
        return list(found(max_workers))  # a list of its own for each caller, as before

    once.scans_once = True  # type: ignore[attr-defined]
    manifest_scanner.scan_component_manifests = once
