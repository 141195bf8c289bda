"""What the designer's live monitor reads (:mod:`analytics.live` computes from it): a
study's page events of the last hours, one index range of ``ix_events_study_type_at``,
and the last event of each tester not finished, one aggregate over
``ix_events_participant`` for those testers only.

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> pages, last = live_rows(engine, "demo", now_ms=repo.now_ms(), window_ms=3_600_000)
>>> list(pages.columns), last
(['participant_id', 'at_ms', 'page'], {})
"""

from __future__ import annotations

import pandas as pd
from sqlalchemy import Engine, func, select

from playtest.storage.models import events

CHUNK = 500


def live_rows(engine: Engine, study_id: str, *, now_ms: int,
              window_ms: int) -> tuple[pd.DataFrame, dict[str, int]]:
    """The study's ``page`` events since ``now_ms - window_ms`` (``participant_id``,
    ``at_ms``, ``page``), and the time of the last event of each of those testers whose
    last page is not ``done``."""
    page = events.c.props["page"].as_string()
    with engine.connect() as conn:
        rows = conn.execute(
            select(events.c.participant_id, events.c.at_ms, page)
            .where(events.c.study_id == study_id, events.c.type == "page",
                   events.c.at_ms >= now_ms - window_ms)).all()
        pages = pd.DataFrame(rows, columns=["participant_id", "at_ms", "page"])
        latest: dict[str, tuple[int, str]] = {}
        for pid, at, reached in rows:
            if pid not in latest or at >= latest[pid][0]:
                latest[pid] = (at, reached)
        open_ = [str(p) for p, (_, reached) in latest.items() if reached != "done"]
        last: dict[str, int] = {}
        for start in range(0, len(open_), CHUNK):
            chunk = open_[start:start + CHUNK]
            last.update({str(p): int(at) for p, at in conn.execute(
                select(events.c.participant_id, func.max(events.c.at_ms))
                .where(events.c.participant_id.in_(chunk))
                .group_by(events.c.participant_id))})
    return pages, last
