"""The ``playtest`` command line on Click: ``python -m playtest``, exit statuses, one-line
usage errors (the commands themselves are tested where they are used)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from playtest.cli import build_cli, load_command_modules, main

EXPECTED = {
    ("up",), ("demo",), ("report",), ("export",), ("import",), ("bench-db",),
    ("db", "upgrade"), ("participant", "delete"), ("designer", "set-password"),
}  # fmt: skip


def _paths(group: click.Group, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for name, sub in group.commands.items():
        if isinstance(sub, click.Group):
            found |= _paths(sub, (*prefix, name))
        else:
            found.add((*prefix, name))
    return found


def test_every_command_is_a_click_command() -> None:
    load_command_modules()
    assert _paths(build_cli()) >= EXPECTED


def test_python_dash_m_playtest_runs_the_same_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"}
    result = subprocess.run(
        [sys.executable, "-m", "playtest", "db", "upgrade"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("database sqlite:///") and "is at revision" in result.stdout


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["nope"], "No such command 'nope'"),
        (["demo", "--testers", "many"], "'many' is not a valid integer"),
        (["export", "--out", "x.jsonl"], "Missing option '--study'"),
        (["bench-db", "--only", "everything"], "'everything' is not one of"),
        (["import"], "Missing argument 'FILE'"),
    ],
)
def test_usage_errors_are_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("playtest: error: ") and words in err


def test_no_command_prints_the_help_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out = capsys.readouterr().out
    assert "playtest participant delete" in out and "Usage: playtest" in out
    assert main(["participant"]) == 2
    assert "delete" in capsys.readouterr().out


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--format [jsonl|csv|parquet|facts-csv|facts-parquet]" in out and "--force" in out
