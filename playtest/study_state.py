"""A study's *state*: one digest of everything a dashboard page's results depend on.

Two loads of a study with the same state give the same page results, so results kept
under a state's name (:mod:`playtest.page_results`) are valid exactly as long as it.
The state covers:

- every tester's change mark (:func:`playtest.study_snapshot.participant_marks`: the
  marks that decide which testers the snapshot re-derives, so the tester data behind a
  page is as current as the snapshot is);
- the records read fresh on every load: participants, assignments, attributes and the
  study record (its settings, experiments, stored survey definitions);
- the code (:func:`code_signature`): THE one code version of every cached table and
  page result (the snapshot's tables are keyed on it too): all of analytics (each
  game's folder and ``TurnRule`` included), the engine, the surveys and their scoring,
  every game's plug-in (its catalog's words, the analytics plug-in the app hands over),
  the app modules that read and shape the data, and the library versions a kept
  result's pickle depends on.

>>> from analytics.data import StudyData
>>> data = StudyData.empty("s1")
>>> state_digest({}, data) == state_digest({}, data)
True
>>> state_digest({"p1": (3, 1, 5)}, data) == state_digest({"p1": (3, 1, 6)}, data)
False
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics.data import StudyData

#: Bumped whenever what a kept page result holds changes shape.
STATE_FORMAT = 1
#: Everything a cached table or page result is computed from (relative to the project's
#: root). Broad on purpose: a stale result after an upgrade would be a wrong number; a
#: needless recomputation costs one slow first visit.
CODE_SOURCES: tuple[str, ...] = (
    "analytics/**/*.py", "analytics/**/*.yaml", "analytics/templates/*",
    "engine/**/*.py", "engine/**/*.json",
    "surveys/**/*.py", "surveys/**/*.yaml", "surveys/**/*.json",
    "playtest/games/**/*.py", "playtest/games/**/*.yaml", "playtest/games/**/*.json",
    "playtest/messages/*.py",
    "playtest/page_results.py", "playtest/study_data.py", "playtest/study_snapshot.py",
    "playtest/study_state.py", "playtest/survey_items.py",
    "playtest/storage/exchange.py", "playtest/storage/survey_records.py",
)
#: The project's root: the folder holding ``analytics/``, ``playtest/`` …
ROOT = Path(__file__).resolve().parent.parent


def code_files(root: Path = ROOT) -> list[Path]:
    """The files of :data:`CODE_SOURCES` under ``root``, each once, in a fixed order."""
    found: dict[Path, None] = {}
    for pattern in CODE_SOURCES:
        for path in sorted(root.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                found[path] = None
    return list(found)


def code_version(root: Path = ROOT) -> str:
    """A digest of the files of :func:`code_files` (names and contents) and the library
    versions: what :func:`code_signature` caches for this process."""
    import plotly

    digest = hashlib.sha256(f"{STATE_FORMAT}|{sys.version}|{pd.__version__}|"
                            f"{np.__version__}|{plotly.__version__}".encode())
    for path in code_files(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def code_signature() -> str:
    """The one code version of the dashboard's caches (:func:`code_version`, read once
    per process): the snapshot's tables (:mod:`playtest.study_snapshot`) and every page
    result (:mod:`playtest.page_results`) are kept under it."""
    return code_version()


def _plain(value: Any) -> Any:
    """A value ``hash_pandas_object`` can hash (dicts and lists as their JSON text)."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, sort_keys=True, default=str)
    return value


def frame_digest(frame: pd.DataFrame) -> str:
    """The content of a frame as a digest: values in order, column names, dtypes.

    >>> a = pd.DataFrame({"x": [1, 2], "d": [{"k": 1}, None]})
    >>> frame_digest(a) == frame_digest(a.copy())
    True
    >>> frame_digest(a) == frame_digest(a.iloc[::-1])
    False
    """
    digest = hashlib.sha256(json.dumps([[str(name), str(dtype)]
                                        for name, dtype in frame.dtypes.items()]).encode())
    digest.update(str(len(frame)).encode())
    if len(frame):
        rows = frame.reset_index(drop=True)  # positions, not labels: order counts
        plain = pd.DataFrame({name: (rows[name].map(_plain) if rows[name].dtype == object
                                     else rows[name]) for name in rows.columns})
        digest.update(pd.util.hash_pandas_object(plain, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def records_digest(data: StudyData) -> str:
    """The digest of the records read fresh on every load: participants, assignments,
    attributes and the study record."""
    digest = hashlib.sha256()
    for frame in (data.participants, data.assignments, data.attributes):
        digest.update(frame_digest(frame).encode())
    digest.update(json.dumps(data.study, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def state_digest(marks: Mapping[str, tuple[int, int, int]], data: StudyData) -> str:
    """The study's state (see the module docstring).

    ``marks`` are the testers' change marks the study's tester data was read at;
    ``data`` supplies the records read fresh on every load.
    """
    return digest_of(marks, records_digest(data))


def digest_of(marks: Mapping[str, tuple[int, int, int]], records: str) -> str:
    """The state of ``marks`` and records whose :func:`records_digest` is ``records``."""
    digest = hashlib.sha256(code_signature().encode())
    digest.update(json.dumps(sorted((pid, list(mark)) for pid, mark in marks.items()))
                  .encode())
    digest.update(records.encode())
    return digest.hexdigest()[:32]
