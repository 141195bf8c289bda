"""A tester let in at consent: the study's quota and the recruitment panel's id, kept in
one transaction, and the panel ids found again, exported on request and deleted.

:func:`admit` locks the study's row first (a PostgreSQL row lock, SQLite's write lock),
so two arrivals for the last place are counted one after the other: at most one gets
in. A panel id is unique per study (``uq_panel_ids_study_panel_id``): an arrival with a
panel id already stored gets that tester back, and two tabs agreeing at once make one
tester, never two.

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> first = admit(engine, "demo", {}, panel=PanelIds("prolific", "5f1e2d"), quota=None)
>>> again = admit(engine, "demo", {}, panel=PanelIds("prolific", "5f1e2d"), quota=None)
>>> again.participant.participant_id == first.participant.participant_id, again.resumed
(True, True)
>>> admit(engine, "demo", {}, panel=None, quota=Quota(completes=1, hold_ms=60_000))
Traceback (most recent call last):
...
playtest.storage.admission.StudyFull: study 'demo' is full (1 of 1 places taken)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from playtest.storage import repository as repo
from playtest.storage.db import write_lock
from playtest.storage.errors import NotFound, StorageError
from playtest.storage.models import panel_ids, participants, studies
from playtest.storage.places import places_taken
from playtest.storage.timeutil import now_ms

#: A panel's participant, study or session id: letters, digits, ``.``, ``_`` and ``-``,
#: at most 64 (Prolific's are 24 hexadecimal digits; SONA's numbers; MTurk's worker ids
#: capitals and digits).
PANEL_ID: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class StudyFull(StorageError):
    """Every place of the study's quota is taken: a new tester cannot start."""


class AmbiguousPanelId(StorageError):
    """A panel id that belongs to testers of several studies: name the study."""


@dataclass(frozen=True)
class PanelIds:
    """A recruitment panel's ids of one tester (personal data)."""

    panel: str
    panel_id: str
    panel_study: str | None = None
    panel_session: str | None = None


@dataclass(frozen=True)
class Quota:
    """Places a study has (``completes``), and how long a starter holds one."""

    completes: int
    hold_ms: int


@dataclass(frozen=True)
class Admission:
    """The tester let in; ``resumed`` when their panel id was stored already."""

    participant: repo.Participant
    resumed: bool = False


def _lock_study(conn: Any, study_id: str) -> None:
    locked = conn.execute(update(studies).where(studies.c.study_id == study_id)
                          .values(study_id=studies.c.study_id))
    if locked.rowcount == 0:
        raise NotFound(f"no study {study_id!r}")


def _owner(conn: Any, study_id: str, panel_id: str) -> str | None:
    return conn.execute(select(panel_ids.c.participant_id)
                        .where(panel_ids.c.study_id == study_id,
                               panel_ids.c.panel_id == panel_id)).scalar_one_or_none()


def admit(engine: Engine, study_id: str, consent: Mapping[str, Any], *,
          panel: PanelIds | None, quota: Quota | None) -> Admission:
    """Create the tester at consent, within the quota, with their panel ids.

    A panel id stored already returns its tester (``resumed``), quota or not. Raises
    :class:`StudyFull` when the quota's places are all taken
    (:func:`playtest.storage.places.places_taken`), storing nothing.
    """
    code = repo.new_participant_code()
    moment = now_ms()
    try:
        with write_lock(engine), engine.begin() as conn:
            _lock_study(conn, study_id)
            if panel is not None and (known := _owner(conn, study_id, panel.panel_id)):
                return _admitted(engine, known, resumed=True)
            if quota is not None:
                taken = places_taken(conn, study_id, now_ms=moment, hold_ms=quota.hold_ms)
                if taken >= quota.completes:
                    raise StudyFull(f"study {study_id!r} is full ({taken} of "
                                    f"{quota.completes} places taken)")
            conn.execute(insert(participants).values(
                participant_id=code, study_id=study_id, created_at_ms=moment,
                consented_at_ms=moment, consent=dict(consent), stage="consent",
                games_completed=0))
            if panel is not None:
                conn.execute(insert(panel_ids).values(
                    participant_id=code, study_id=study_id, panel=panel.panel,
                    panel_id=panel.panel_id, panel_study=panel.panel_study,
                    panel_session=panel.panel_session, at_ms=moment))
    except IntegrityError:
        # Another process stored this panel id between our look and our insert (the
        # study lock makes it rare; the unique constraint makes it harmless).
        known = _owner_now(engine, study_id, panel)
        if known is None:
            raise
        return _admitted(engine, known, resumed=True)
    return _admitted(engine, code, resumed=False)


def _owner_now(engine: Engine, study_id: str, panel: PanelIds | None) -> str | None:
    if panel is None:
        return None
    with engine.connect() as conn:
        return _owner(conn, study_id, panel.panel_id)


def _admitted(engine: Engine, code: str, *, resumed: bool) -> Admission:
    participant = repo.get_participant(engine, code)
    assert participant is not None
    return Admission(participant, resumed)


def is_full(engine: Engine, study_id: str, quota: Quota) -> bool:
    """Whether every place is taken now (what a new arrival is told before consent;
    :func:`admit` decides for good)."""
    with engine.connect() as conn:
        return places_taken(conn, study_id, now_ms=now_ms(),
                            hold_ms=quota.hold_ms) >= quota.completes


def code_of_panel_id(engine: Engine, study_id: str, panel_id: str) -> str | None:
    """The code of the study's tester who came with this panel id, or None."""
    with engine.connect() as conn:
        return _owner(conn, study_id, panel_id)


def panel_ids_of(engine: Engine, participant_id: str) -> PanelIds | None:
    """The panel ids a tester came with, or None (they came without)."""
    with engine.connect() as conn:
        row = conn.execute(select(panel_ids).where(
            panel_ids.c.participant_id == participant_id)).first()
    return None if row is None else PanelIds(row.panel, row.panel_id, row.panel_study,
                                             row.panel_session)


def panel_ids_of_study(engine: Engine, study_id: str) -> dict[str, PanelIds]:
    """Every tester's panel ids in a study (participant id → ids), for an export that
    asks for them."""
    with engine.connect() as conn:
        rows = conn.execute(select(panel_ids).where(panel_ids.c.study_id == study_id)).all()
    return {str(r.participant_id): PanelIds(r.panel, r.panel_id, r.panel_study,
                                            r.panel_session) for r in rows}


def participant_of_panel_id(engine: Engine, panel_id: str, study_id: str | None = None) -> str:
    """The tester behind a panel id (for a deletion request): :class:`NotFound` for
    none, :class:`AmbiguousPanelId` when testers of several studies share it and no
    ``study_id`` says which."""
    query = select(panel_ids.c.participant_id, panel_ids.c.study_id).where(
        panel_ids.c.panel_id == panel_id.strip())
    if study_id is not None:
        query = query.where(panel_ids.c.study_id == study_id)
    with engine.connect() as conn:
        rows = conn.execute(query).all()
        total = conn.execute(select(func.count()).select_from(panel_ids)
                             .where(panel_ids.c.panel_id == panel_id.strip())).scalar_one()
    if not rows:
        raise NotFound(f"no tester with the panel id {panel_id!r}"
                       + (f" in study {study_id!r}" if study_id and total else ""))
    if len(rows) > 1:
        studies_named = ", ".join(sorted(str(r.study_id) for r in rows))
        raise AmbiguousPanelId(f"panel id {panel_id!r} is a tester of {len(rows)} studies "
                               f"({studies_named}): add --study to say which")
    return str(rows[0].participant_id)
