"""Planted follow-up experiments on a game's real testers, for the trouble metric.

The pool is a game's demo study filled with simulated testers (``playtest demo``: real
engine games, logged as the app logs them). A tester of the pool who met the point
either had trouble on it (1) or not (0), read by the trouble metric itself. A planted
study draws ``per_arm`` testers per arm, with replacement, each a copy of a pool tester
under a new id: in arm ``today`` a troubled one with probability ``rate``, in arm
``remedy`` with probability ``remedy_rate``; so each arm's true trouble rate is known.
A copy keeps every event, answer and game of its original (ids made its own).
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics.data import StudyData
from analytics.metrics import MetricInputs, trouble_metric
from tests.demo_studies import demo_study_data

ARMS = ("today", "remedy")


@dataclass(frozen=True)
class Pool:
    """A study's testers split by whether they had trouble on ``point``."""

    data: StudyData
    point: str
    troubled: tuple[str, ...]
    untroubled: tuple[str, ...]

    @property
    def rate(self) -> float:
        """The share of the testers who met the point who had trouble on it."""
        return len(self.troubled) / (len(self.troubled) + len(self.untroubled))


@functools.cache
def demo_data(game: str) -> StudyData:
    """``game``'s demo study with 10 simulated testers (:func:`tests.demo_studies.
    demo_study_data`, read back from its SQLite file), made once per process: the
    trouble metric's and Did it work's planted tests start from the same studies, which
    nothing changes (a planted study copies their rows; their derived tables are kept
    on them and serve both)."""
    with tempfile.TemporaryDirectory() as folder:
        return demo_study_data(Path(folder) / "playtest.sqlite", game)


def pool_of(data: StudyData, point: str) -> Pool:
    values = trouble_metric(point).values(MetricInputs(data, None, pd.DataFrame(),
                                                       pd.DataFrame()))
    return Pool(data, point, tuple(str(p) for p in values.index[values > 0]),
                tuple(str(p) for p in values.index[values == 0]))


def _copies(frame: pd.DataFrame, chosen: list[tuple[str, str]]) -> pd.DataFrame:
    """``frame``'s rows of each original tester, once per copy, under the copy's id (one
    take of all the rows, copies in the order chosen, each original's rows in order)."""
    positions = _rows_by_tester(frame)
    found = [(positions[original], copy) for original, copy in chosen if original in positions]
    if not found:
        return frame.iloc[0:0]
    rows = frame.take(np.concatenate([p for p, _ in found])).reset_index(drop=True)
    copies = np.repeat(np.array([c for _, c in found], dtype=object), [len(p) for p, _ in found])
    rows["participant_id"] = pd.Series(copies, dtype="str")  # as assigning one id gives
    for column in ("session_id", "game_id"):
        if column in rows:
            rows[column] = [v if v is None or v != v else f"{v}~{c}"
                            for v, c in zip(rows[column], copies, strict=True)]
    if "props" in rows:
        rows["props"] = [_own_game(p, c) for p, c in zip(rows["props"], copies, strict=True)]
    return rows


#: Each frame's row positions per tester (a pool's frames are read for every planted
#: study; the frames of a StudyData never change).
_POSITIONS: dict[int, tuple[pd.DataFrame, dict[str, np.ndarray]]] = {}


def _rows_by_tester(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    kept = _POSITIONS.get(id(frame))
    if kept is None or kept[0] is not frame:
        if len(_POSITIONS) > 32:
            _POSITIONS.clear()  # a few pools a process: kept small
        grouped = frame.groupby("participant_id", sort=False).indices if len(frame) else {}
        kept = _POSITIONS[id(frame)] = (frame, {str(k): np.asarray(v)
                                                for k, v in grouped.items()})
    return kept[1]


def _own_game(props: Any, copy: str) -> Any:
    if isinstance(props, dict) and props.get("game_id") is not None:
        return {**props, "game_id": f"{props['game_id']}~{copy}"}
    return props


def planted(pool: Pool, per_arm: int, rate: float, remedy_rate: float,
            seed: int) -> StudyData:
    """A study of ``2 · per_arm`` copied testers in the experiment ``fu`` (see the module
    docstring)."""
    rng = np.random.default_rng(seed)
    chosen: list[tuple[str, str]] = []
    arms: list[tuple[str, str]] = []
    for arm, share in zip(ARMS, (rate, remedy_rate), strict=True):
        for number in range(per_arm):
            source = pool.troubled if rng.random() < share else pool.untroubled
            copy = f"{arm}-{number}"
            chosen.append((str(source[rng.integers(len(source))]), copy))
            arms.append((copy, arm))
    data = pool.data
    at = data.participants["created_at"].iloc[0]
    participants = _copies(data.participants, chosen)
    return StudyData(
        study={**data.study, "experiments": [
            {"key": "fu", "variants": list(ARMS), "target": "rules",
             "primary_metric": f"trouble:{pool.point}"}]},
        participants=participants,
        assignments=pd.DataFrame({"participant_id": [c for c, _ in arms], "experiment": "fu",
                                  "variant": [a for _, a in arms], "at": at}),
        events=_copies(data.events, chosen), responses=_copies(data.responses, chosen),
        attributes=_copies(data.attributes, chosen))


@dataclass(frozen=True)
class Calibration:
    """How often the follow-up of ``point`` read "remedy better": with equal arms
    (``false_better`` of ``studies``) and with the remedy halving the rate
    (``found``), at ``per_arm`` testers per arm."""

    point: str
    rate: float
    per_arm: int
    studies: int
    false_better: int
    found: int


def calibrate(pool: Pool, per_arm: int, studies: int, seed: int = 0) -> Calibration:
    """The verdict machinery of :mod:`analytics.experiments` (always-valid interval,
    ``decide``) on the trouble metric's per-tester values of planted studies: a copy's
    value is its original's (tests check it on whole copied studies), so each study
    draws values, not events. Equal arms at the pool's rate; then the remedy's arm at
    half of it."""
    from analytics.experiments import MetricValues, analyze_metrics, decide

    metric = trouble_metric(pool.point)
    rate, effect = pool.rate, pool.rate / 2

    def verdict(remedy_rate: float, number: int) -> str:
        rng = np.random.default_rng([seed, number, int(remedy_rate * 1e6)])
        values = {arm: (rng.random(per_arm) < share).astype(float)
                  for arm, share in zip(ARMS, (rate, remedy_rate), strict=True)}
        (primary,) = analyze_metrics([MetricValues(metric, values)], seed=number,
                                     draws=500)
        return decide(primary, effect)[0]

    false_better = sum(verdict(rate, n).endswith(" better") for n in range(studies))
    found = sum(verdict(rate - effect, n) == "remedy better" for n in range(studies))
    return Calibration(pool.point, rate, per_arm, studies, false_better, found)
