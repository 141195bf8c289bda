"""The layers stay apart (import-linter's contracts in .importlinter), and the contracts
bite. (ruff and mypy are steps of their own in .ci/run, not tests: run them as
``.venv/bin/ruff check .`` and ``.venv/bin/python -m mypy``.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


CONTRACTS = 4  # in .importlinter


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    # --no-cache: nothing is written into the checkout; PYTHONPATH: the packages at root
    return subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=root,
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(root)})


def test_the_layers_hold() -> None:
    """The layers of design/README.md, checked by import-linter (contracts in .importlinter):
    engine <- surveys, analytics <- playtest.storage <- the app; games import no pages; no
    Streamlit below the app. Indirect imports count too."""
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {CONTRACTS} kept, 0 broken." in result.stdout, result.stdout


#: One import that breaks each contract, planted in a copy of the packages.
PLANTED = {
    "engine/core.py": "import analytics.data",  # engine imports nothing of ours
    "analytics/funnel.py": "import surveys.loader",  # analytics and surveys are independent
    "playtest/storage/timeutil.py": "import playtest.study_config",  # storage below the app
    "playtest/games/registry.py": "import playtest.app_pages.empty",  # games import no pages
    "analytics/figures.py": "import streamlit",  # no UI below the app
}


def test_the_layer_tool_refuses_an_import_against_each_contract(tmp_path: Path) -> None:
    """The contracts bite: a copy of the packages with one upward import per contract fails,
    naming each planted import."""
    for package in ("engine", "surveys", "analytics", "playtest"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.sqlite*"))
    shutil.copy(ROOT / ".importlinter", tmp_path)
    for path, line in PLANTED.items():
        target = tmp_path / path
        target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n",
                          encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert f"Contracts: 0 kept, {CONTRACTS} broken." in result.stdout, result.stdout
    for path, line in PLANTED.items():
        importer = path.removesuffix(".py").replace("/", ".")
        assert f"{importer} -> {line.removeprefix('import ')}" in result.stdout, (path, result.stdout)
