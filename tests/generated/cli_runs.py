"""``playtest import`` and ``playtest report`` run as a designer runs them (the CLI's own
``main``, in this process), with what they printed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from playtest.cli import main as cli_main


@dataclass(frozen=True)
class Run:
    """A CLI run: exit status and what it printed."""

    status: int
    out: str
    err: str


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    capsys.readouterr()  # what came before is not this run's
    status = cli_main(list(args))
    printed = capsys.readouterr()
    return Run(status, printed.out, printed.err)


def import_clean(capsys: pytest.CaptureFixture[str], path: Path) -> Run:
    """``playtest import path``: exit 0 and nothing on stderr (no warning, no traceback)."""
    run = run_cli(capsys, "import", str(path))
    assert run.status == 0, run
    assert run.err == "", run.err
    return run


def report_files(capsys: pytest.CaptureFixture[str], study_id: str, folder: Path
                 ) -> dict[str, Any]:
    """``playtest report`` of the study into ``folder``: exit 0, the three files written;
    the report JSON."""
    out, html, data = folder / "plan.md", folder / "plan.html", folder / "plan.json"
    run = run_cli(capsys, "report", "--study", study_id, "--out", str(out), "--json",
                  str(data), "--force")
    assert run.status == 0, run
    assert run.err == "", run.err
    for path in (out, html, data):
        assert path.is_file() and path.stat().st_size > 0, path
    report: dict[str, Any] = json.loads(data.read_text(encoding="utf-8"))
    return report
