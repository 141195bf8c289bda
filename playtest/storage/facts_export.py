"""``playtest export --format facts-csv|facts-parquet``: every answer to a times-table fact.

One tidy table, one row per answer (:func:`analytics.learning_facts.fact_table`):

| column | what |
|---|---|
| ``tester`` | the participant id |
| ``fact`` | ``7x8`` (smaller factor first) |
| ``attempt`` | 1, 2, … the tester's answers to that fact through the study |
| ``phase`` | ``pre`` (fluency probe before play), ``play`` (a turn that rolled it), ``post`` |
| ``correct`` | true or false (in play: no maths slip in the turn) |
| ``ms`` | the answer's time (probe: question shown → OK; play: options shown → first click) |

It loads in one line: ``pd.read_csv("study.facts.csv")`` or ``read.csv("study.facts.csv")``
(``pd.read_parquet`` / ``arrow::read_parquet`` for Parquet). It is written next to
``--out`` as ``<stem>.facts.csv`` (or ``.parquet``), whole or not at all, like the other
table exports (:func:`playtest.storage.exchange.export_tables`), and like them its text
cells go through :func:`playtest.storage.exchange.neutralised` (a tester id a spreadsheet
would run as a formula gets a ``'`` before it) and its CSV quotes every cell.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
from sqlalchemy import Engine

from analytics import game_analytics
from analytics.data import StudyData
from analytics.learning_facts import fact_table
from playtest.storage.exchange import neutralised

FORMATS = {"facts-csv": "csv", "facts-parquet": "parquet"}


def facts_path(out: str | Path, fmt: str) -> Path:
    """``<out stem>.facts.<csv|parquet>`` beside ``out``.

    >>> facts_path("runs/study1.csv", "facts-csv").as_posix()
    'runs/study1.facts.csv'
    """
    base = Path(out)
    stem = base.name[: -len(base.suffix)] if base.suffix in (".csv", ".parquet", ".jsonl") \
        else base.name
    return base.parent / f"{stem}.facts.{FORMATS[fmt]}"


def export_facts(engine: Engine, study_id: str, out: str | Path, fmt: str,
                 game: game_analytics.GameAnalytics | None = None) -> tuple[Path, int]:
    """Write the study's per-fact table (module docstring); returns the file and rows.
    ``game``: the analytics of the study's game (its caller's registry entry; None: found
    by the game's name, :func:`analytics.game_analytics.load`)."""
    from playtest.storage.exchange import load_study_data
    from playtest.storage.outfiles import written_together

    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    table = facts_of(game_analytics.use(load_study_data(engine, study_id), game))
    target = facts_path(out, fmt)
    target.parent.mkdir(parents=True, exist_ok=True)
    with written_together([target]) as (temporary,):
        if FORMATS[fmt] == "csv":
            temporary.write_bytes(csv_bytes(table))
        else:
            table.to_parquet(temporary, index=False)
    return target, len(table)


def facts_of(data: StudyData) -> pd.DataFrame:
    """The study's per-fact table (module docstring)."""
    return fact_table(data, _play(data))


def csv_bytes(table: pd.DataFrame) -> bytes:
    """The per-fact table as CSV (UTF-8), every text cell safe in a spreadsheet, as the
    other CSV exports write it (:func:`playtest.storage.exchange.export_tables`).

    >>> table = pd.DataFrame({"tester": ["=1+1"], "fact": ["7x8"], "attempt": [1]})
    >>> print(csv_bytes(table).decode(), end="")
    "tester","fact","attempt"
    "'=1+1","7x8","1"
    """
    safe = table.copy()
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(neutralised)
    return safe.to_csv(index=False, quoting=csv.QUOTE_ALL).encode("utf-8")


def _play(data: StudyData) -> pd.DataFrame | None:
    """The game's tries at facts in play (None for a game without facts)."""
    tries = game_analytics.for_study(data).fact_attempts
    return None if tries is None else tries(data)
