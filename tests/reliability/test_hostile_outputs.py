"""``--out`` of ``playtest export`` and ``playtest report`` (issue 11 item 8, issue 10 item 15).

Existing files are replaced only with ``--force``; a relative path may not climb out of
the current folder; a failed command leaves nothing behind (no ``.part`` file, no ``.md``
without its ``.html``); ``export`` says what it wrote, with counts per record kind.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playtest import demo  # noqa: E402
from playtest.cli import main  # noqa: E402
from playtest.storage.db import dispose_engines, make_engine, upgrade  # noqa: E402
from playtest.storage.exchange import export_jsonl, export_tables  # noqa: E402

STUDY = demo.DEMO_STUDY_ID


@pytest.fixture(scope="module")
def source_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with the demo study and 3 simulated testers (made once)."""
    path = tmp_path_factory.mktemp("source") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    demo.generate(engine, 3, seed=3)
    engine.dispose()
    return path


@pytest.fixture
def work(tmp_path: Path, source_db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working folder (the current folder) with DATABASE_URL on the demo study."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{source_db}")
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(tmp_path / "cache"))
    yield folder
    dispose_engines()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_export_says_what_it_wrote_with_counts_per_kind(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(capsys, "export", "--study", STUDY, "--out", "s.jsonl")
    assert status == 0, err
    first = out.splitlines()[0]
    assert first.startswith("wrote s.jsonl (") and "1 study, 3 participants, " in first
    assert " events, " in first and first.rstrip().endswith("responses")
    status, out, err = _run(capsys, "export", "--study", STUDY, "--out", "t.csv")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("wrote 5 csv files: 1 study, 3 participants")
    assert any(line.strip().startswith("t.events.csv (") and " events" in line for line in lines)
    assert _files(work) == ["s.jsonl", "t.assignments.csv", "t.events.csv",
                            "t.participants.csv", "t.responses.csv", "t.study.csv"]


def test_export_refuses_to_overwrite_without_force(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "s.jsonl").write_text("precious\n")
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", "s.jsonl")
    assert status == 2 and "the file exists (add --force to replace it)" in err
    assert (work / "s.jsonl").read_text() == "precious\n"
    (work / "t.events.parquet").write_text("precious\n")
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", "t.parquet")
    assert status == 2 and "t.events.parquet: the file exists" in err
    assert _files(work) == ["s.jsonl", "t.events.parquet"]  # no other table written
    status, out, err = _run(capsys, "export", "--study", STUDY, "--out", "s.jsonl", "--force")
    assert status == 0, err
    assert (work / "s.jsonl").read_text().startswith('{"record":"study"')


def test_export_refuses_paths_out_of_the_current_folder_unless_absolute(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = work.parent
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", "../s.jsonl")
    assert status == 2 and "outside the current folder" in err
    (work / "link").symlink_to(outside)
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", "link/s.jsonl")
    assert status == 2 and "outside the current folder" in err
    assert not (outside / "s.jsonl").exists()
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", str(outside / "s.jsonl"))
    assert status == 0, err
    assert (outside / "s.jsonl").is_file()
    status, _, err = _run(capsys, "export", "--study", STUDY, "--out", "no/such/dir/s.jsonl")
    assert status == 2 and "there is no folder no/such/dir" in err
    assert _files(work) == ["link"]


def test_a_failed_export_leaves_nothing_behind(
    work: Path, source_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(capsys, "export", "--study", "no-such-study", "--out", "s.jsonl")
    assert status == 2 and "no study 'no-such-study'" in err
    # A database that fails half-way through (its events table is gone): the study and
    # participant records were written already, and still nothing stays.
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(source_db.read_bytes())
    engine = make_engine(f"sqlite:///{broken}")
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE events"))
    with pytest.raises(Exception, match="events"):
        export_jsonl(engine, STUDY, work / "s.jsonl")
    with pytest.raises(Exception, match="events"):
        export_tables(engine, STUDY, work / "t.csv", "csv")
    engine.dispose()
    assert _files(work) == []


def test_report_writes_all_three_files_or_none(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(capsys, "report", "--study", STUDY, "--out", "plan.md",
                          "--json", "plan.json", "--html", "missing/plan.html")
    assert status == 2 and "--html missing/plan.html: there is no folder missing" in err
    assert _files(work) == []  # the .md was written before the HTML failed, once
    status, out, err = _run(capsys, "report", "--study", STUDY, "--out", "plan.md",
                            "--json", "plan.json")
    assert status == 0, err
    assert _files(work) == ["plan.html", "plan.json", "plan.md"]
    before = {name: (work / name).read_bytes() for name in _files(work)}
    status, _, err = _run(capsys, "report", "--study", STUDY, "--out", "plan.md",
                          "--json", "plan.json")
    assert status == 2 and "plan.md: the file exists" in err
    status, _, err = _run(capsys, "report", "--study", STUDY, "--out", "new.md",
                          "--json", "plan.json")
    assert status == 2 and "--json plan.json: the file exists" in err
    assert {name: (work / name).read_bytes() for name in _files(work)} == before
    status, _, err = _run(capsys, "report", "--study", STUDY, "--out", "plan.md",
                          "--json", "plan.json", "--force")
    assert status == 0, err
    assert _files(work) == ["plan.html", "plan.json", "plan.md"]
    assert not [p for p in os.listdir(work) if p.endswith(".part")]
