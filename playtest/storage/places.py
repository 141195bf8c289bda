"""Who completed a study, and who holds a place in it, counted in SQL.

*Completed* is the project's one definition
(:data:`analytics.metrics.COMPLETED_DEFINITION`): a consented tester with a ``page``
event whose page is ``done``. :func:`completed_ids` is that definition as a query, the
one every count of completers here and on the Studies page uses.

A tester *holds a place* when they completed, or agreed less than ``hold_ms`` ago and
have not completed yet (*in progress*); a tester who agreed earlier and has not
completed has *dropped out* (they may still come back and complete: then they count as
completed). A quota counts places (:func:`places_taken`); the experiment balance counts
each arm's completers, testers in progress and drop-outs (:func:`arm_tallies`).

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> _ = repo.create_consented_participant(engine, "demo", {})
>>> with engine.connect() as conn:
...     places_taken(conn, "demo", now_ms=repo.now_ms(), hold_ms=3_600_000)
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, case, func, literal, select

from playtest.storage.models import assignments, events, participants


def completed_ids(study_id: str) -> Select[Any]:
    """The participant ids of the study's completers (:mod:`module docstring <.places>`),
    one row each: consented testers with a ``page`` event of page ``done``."""
    return (
        select(events.c.participant_id)
        .select_from(events.join(
            participants, participants.c.participant_id == events.c.participant_id))
        .where(events.c.study_id == study_id, events.c.type == "page",
               events.c.props["page"].as_string() == "done",
               participants.c.consented_at_ms.is_not(None))
        .distinct()
    )


def count_completed(conn: Any, study_id: str) -> int:
    """How many testers completed the study (:func:`completed_ids`)."""
    done = completed_ids(study_id).subquery()
    return int(conn.execute(select(func.count()).select_from(done)).scalar_one())


def places_taken(conn: Any, study_id: str, *, now_ms: int, hold_ms: int) -> int:
    """Completers plus testers in progress (agreed within ``hold_ms`` of ``now_ms``, not
    completed): the places a quota counts."""
    done = completed_ids(study_id).subquery()
    in_progress = conn.execute(
        select(func.count()).select_from(participants)
        .where(participants.c.study_id == study_id,
               participants.c.consented_at_ms >= now_ms - hold_ms,
               participants.c.participant_id.not_in(select(done.c.participant_id)))
    ).scalar_one()
    return count_completed(conn, study_id) + int(in_progress)


@dataclass(frozen=True)
class ArmTally:
    """One experiment arm's testers: completed, in progress, dropped out."""

    completed: int = 0
    in_progress: int = 0
    dropped: int = 0


def arm_tallies(conn: Any, study_id: str, experiment: str, *, now_ms: int,
                hold_ms: int) -> dict[str, ArmTally]:
    """Each assigned variant of ``experiment``: its completers, testers in progress and
    drop-outs (consented testers only), in one query."""
    done = completed_ids(study_id).subquery()
    finished = done.c.participant_id.is_not(None)
    recent = participants.c.consented_at_ms >= now_ms - hold_ms
    one, zero = literal(1), literal(0)
    rows = conn.execute(
        select(assignments.c.variant,
               func.sum(case((finished, one), else_=zero)),
               func.sum(case((and_(~finished, recent), one), else_=zero)),
               func.sum(case((and_(~finished, ~recent), one), else_=zero)))
        .select_from(assignments
                     .join(participants,
                           participants.c.participant_id == assignments.c.participant_id)
                     .outerjoin(done, done.c.participant_id == assignments.c.participant_id))
        .where(assignments.c.study_id == study_id, assignments.c.experiment == experiment,
               participants.c.consented_at_ms.is_not(None))
        .group_by(assignments.c.variant)
    ).all()
    return {str(v): ArmTally(int(c or 0), int(i or 0), int(d or 0)) for v, c, i, d in rows}
