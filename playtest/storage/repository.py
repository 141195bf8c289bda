"""Studies, participants, sessions, games, survey responses and experiment assignments.

Every function takes the engine first and returns frozen value objects, never live ORM
rows. Writes are short transactions; each one that must be safe under concurrency starts
with the UPDATE that takes the lock it needs (a SQLite write lock, a PostgreSQL row lock),
so two tabs or two server threads cannot interleave badly.

>>> from playtest.storage.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")  # in memory, for the example
>>> upgrade(engine)
>>> study = create_study(engine, title="Demo", study_id="demo", config={"rules": "standard"})
>>> tester = create_consented_participant(engine, "demo", {"adult": True})
>>> get_participant(engine, tester.participant_id).stage
'consent'
>>> advance_stage(engine, tester.participant_id, "consent", "pre_survey")
'pre_survey'
>>> get_participant(engine, "tampered-code") is None
True
"""

from __future__ import annotations

import random
import re
import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Engine, bindparam, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from analytics.data import UNNAMED_GAME
from playtest.storage.allocation import choose_arm
from playtest.storage.db import write_lock
from playtest.storage.errors import ConflictError, NotFound
from playtest.storage.models import (
    STAGES,
    assignments,
    events,
    exposures,
    game_actions,
    games,
    participants,
    responses,
    sessions,
    studies,
)
from playtest.storage.places import arm_tallies, count_completed
from playtest.storage.timeutil import datetime_from_ms, ms_from, now_ms

CODE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: How long after consent a tester counts as in progress when nothing else is said
#: (``playtest.panels.DEFAULT_HOLD_MINUTES``; a study's quota sets its own).
DEFAULT_HOLD_MS = 60 * 60 * 1000
PHASES = ("pre", "post")


def upsert_insert(engine: Engine, table: Any) -> Any:
    """``INSERT`` with ``on_conflict_do_nothing``/``do_update`` for this engine's dialect."""
    if engine.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


# ---------------------------------------------------------------- studies


@dataclass(frozen=True)
class Study:
    """A study as designers configure it (``study_id`` is the short code in links).

    ``config`` is the study's settings document as stored (the fields of
    :class:`playtest.study_config.StudyConfig` but ``game``); ``services.study_config``
    validates it.
    """

    study_id: str
    title: str
    game: str
    config: dict[str, Any]
    open: bool
    created_at: datetime
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def experiment_records(self) -> list[dict[str, Any]]:
        """The stored experiments' keys, targets and variant names (valid or not)."""
        stored = self.config.get("experiments")
        return [
            {"key": e.get("key"), "target": e.get("target"),
             "variants": list(v) if isinstance(v := e.get("variants"), dict) else v}
            for e in (stored if isinstance(stored, list) else []) if isinstance(e, dict)
        ]


@dataclass(frozen=True)
class StudyCounts:
    """How far a study's testers got."""

    study_id: str
    participants: int
    completed: int
    by_stage: dict[str, int]
    events: int
    games_started: int
    games_finished: int


STUDY_FIELDS = ("title", "game", "config", "open")


def new_study_code() -> str:
    """A short, readable, unguessable-enough link code: 8 lowercase letters and digits."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def _study_from_row(row: Any) -> Study:
    return Study(
        study_id=row.study_id,
        title=row.title,
        game=row.game,
        config=row.config if isinstance(row.config, dict) else {},
        open=bool(row.open),
        created_at=datetime_from_ms(row.created_at_ms),  # type: ignore[arg-type]
        extra=row.extra or {},
    )


def study_id_problem(code: str) -> str | None:
    """Why ``code`` cannot be a study id (None: it can).

    >>> study_id_problem("x" * 65)
    'the study id is too long: 65 characters, at most 64'
    >>> study_id_problem("a b")
    "the study id may hold only letters, digits, '-' and '_'"
    """
    if not code:
        return "the study id must not be empty"
    if len(code) > 64:
        return f"the study id is too long: {len(code):,} characters, at most 64"
    if not CODE_PATTERN.match(code):
        return "the study id may hold only letters, digits, '-' and '_'"
    return None


def create_study(
    engine: Engine,
    *,
    title: str,
    study_id: str | None = None,
    game: str = UNNAMED_GAME,
    config: Mapping[str, Any] | None = None,
    open: bool = True,
    extra: Mapping[str, Any] | None = None,
) -> Study:
    """Store a new study; ``study_id`` defaults to a fresh 8-character code.

    ``config`` is the settings document (``services.create_study`` stores a validated
    :class:`~playtest.study_config.StudyConfig`); empty means every default.
    """
    code = study_id or new_study_code()
    problem = study_id_problem(code)
    if problem is not None:
        raise ValueError(problem)
    values = {
        "study_id": code,
        "title": title,
        "game": game,
        "config": dict(config or {}),
        "open": open,
        "created_at_ms": now_ms(),
        "extra": dict(extra) if extra else None,
    }
    try:
        with write_lock(engine), engine.begin() as conn:
            conn.execute(insert(studies).values(**values))
    except IntegrityError:
        raise ConflictError(f"a study with id {code!r} exists already") from None
    study = get_study(engine, code)
    assert study is not None
    return study


def update_study(engine: Engine, study_id: str, **changes: Any) -> Study:
    """Change some of :data:`STUDY_FIELDS` of a study."""
    unknown = set(changes) - set(STUDY_FIELDS)
    if unknown:
        raise ValueError(f"cannot change {sorted(unknown)} of a study")
    if "config" in changes:
        changes["config"] = dict(changes["config"] or {})
    with write_lock(engine), engine.begin() as conn:
        result = conn.execute(
            update(studies).where(studies.c.study_id == study_id).values(**changes)
        )
    if result.rowcount == 0:
        raise NotFound(f"no study {study_id!r}")
    study = get_study(engine, study_id)
    assert study is not None
    return study


def get_study(engine: Engine, study_id: str) -> Study | None:
    with engine.connect() as conn:
        row = conn.execute(select(studies).where(studies.c.study_id == study_id)).first()
    return None if row is None else _study_from_row(row)


def list_studies(engine: Engine) -> list[Study]:
    """All studies, newest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(studies).order_by(studies.c.created_at_ms.desc())).all()
    return [_study_from_row(row) for row in rows]


def study_fingerprint(engine: Engine, study_id: str) -> tuple[int, ...]:
    """Changes whenever a study gains participants, events or survey pages.

    ``sum(last_seq)`` over the study's sessions is its event count (every logged event
    raises its session's counter, survey pages included); with the participant and
    response counts it tells a cached copy of the study's data apart from new data
    without reading the events.
    """
    with engine.connect() as conn:
        row = conn.execute(
            select(func.count(func.distinct(participants.c.participant_id)),
                   func.coalesce(func.sum(sessions.c.last_seq), 0))
            .select_from(participants.outerjoin(
                sessions, sessions.c.participant_id == participants.c.participant_id))
            .where(participants.c.study_id == study_id)
        ).one()
        answers = conn.execute(
            select(func.count(), func.coalesce(func.max(responses.c.at_ms), 0))
            .select_from(responses)
            .where(responses.c.study_id == study_id)
        ).one()
    # the latest answer time too: a resubmitted page changes answers, not their count
    return (int(row[0]), int(row[1]), int(answers[0]), int(answers[1]))


def study_counts(engine: Engine, study_id: str) -> StudyCounts:
    """Participants per stage, completions, events and games of one study (aggregated in SQL)."""
    with engine.connect() as conn:
        stage_rows = conn.execute(
            select(participants.c.stage, func.count())
            .where(participants.c.study_id == study_id)
            .group_by(participants.c.stage)
        ).all()
        event_count = conn.execute(
            select(func.count()).select_from(events).where(events.c.study_id == study_id)
        ).scalar_one()
        game_row = conn.execute(
            select(func.count(), func.count(games.c.finished_at_ms))
            .select_from(games.join(participants))
            .where(participants.c.study_id == study_id)
        ).one()
        # analytics.metrics.COMPLETED_DEFINITION, counted in SQL (places.completed_ids)
        completed = count_completed(conn, study_id)
    by_stage = {stage: 0 for stage in STAGES}
    by_stage.update({stage: count for stage, count in stage_rows})
    return StudyCounts(
        study_id=study_id,
        participants=sum(by_stage.values()),
        completed=int(completed),
        by_stage=by_stage,
        events=event_count,
        games_started=game_row[0],
        games_finished=game_row[1],
    )


# ---------------------------------------------------------------- participants


@dataclass(frozen=True)
class Participant:
    """A tester. ``participant_id`` is the pseudonymous code in resume links (``?p=``)."""

    participant_id: str
    study_id: str
    created_at: datetime
    consented_at: datetime | None
    consent: dict[str, Any]
    stage: str
    games_completed: int
    completion_code: str | None
    attributes: dict[str, Any]


def new_participant_code() -> str:
    """128 random bits, URL-safe: unguessable, so the code alone can resume a tester.

    It begins with a letter or digit: a code that began with "-" (1 in 32 did) read as
    an option to ``playtest participant delete``, and "_" is lost when a person
    double-clicks the code to copy it.

    >>> all(new_participant_code()[0].isalnum() for _ in range(500))
    True
    """
    while True:
        code = secrets.token_urlsafe(16)
        if code[0].isalnum():
            return code


def _participant_from_row(row: Any) -> Participant:
    return Participant(
        participant_id=row.participant_id,
        study_id=row.study_id,
        created_at=datetime_from_ms(row.created_at_ms),  # type: ignore[arg-type]
        consented_at=datetime_from_ms(row.consented_at_ms),
        consent=row.consent or {},
        stage=row.stage,
        games_completed=row.games_completed,
        completion_code=row.completion_code,
        attributes=row.attributes or {},
    )


def create_consented_participant(
    engine: Engine,
    study_id: str,
    consent_details: Mapping[str, Any],
    attributes: Mapping[str, Any] | None = None,
    at: datetime | int | None = None,
) -> Participant:
    """Create a tester at the moment of consent (nothing is stored before it)."""
    moment = ms_from(at)
    code = new_participant_code()
    with write_lock(engine), engine.begin() as conn:
        study_exists = conn.execute(
            select(studies.c.study_id).where(studies.c.study_id == study_id)
        ).first()
        if study_exists is None:
            raise NotFound(f"no study {study_id!r}")
        conn.execute(
            insert(participants).values(
                participant_id=code,
                study_id=study_id,
                created_at_ms=moment,
                consented_at_ms=moment,
                consent=dict(consent_details),
                stage="consent",
                games_completed=0,
                attributes=dict(attributes) if attributes else None,
            )
        )
    participant = get_participant(engine, code)
    assert participant is not None
    return participant


def get_participant(engine: Engine, participant_id: str) -> Participant | None:
    """The tester with this code, or None (unknown, malformed or tampered codes)."""
    if not isinstance(participant_id, str) or not CODE_PATTERN.match(participant_id):
        return None
    with engine.connect() as conn:
        row = conn.execute(
            select(participants).where(participants.c.participant_id == participant_id)
        ).first()
    return None if row is None else _participant_from_row(row)


def _columns(mapping: Any, table: Any) -> SimpleNamespace:
    return SimpleNamespace(**{column.name: mapping[column] for column in table.c})


_PARTICIPANT_WITH_STUDY = (
    select(participants, studies)
    .join_from(participants, studies, participants.c.study_id == studies.c.study_id,
               isouter=True)
    .where(participants.c.participant_id == bindparam("participant_id"))
)


def get_participant_with_study(
    engine: Engine, participant_id: str
) -> tuple[Participant, Study | None] | None:
    """The tester with this code and their study, in one query (what every run of a
    tester's page reads); None for an unknown, malformed or tampered code."""
    if not isinstance(participant_id, str) or not CODE_PATTERN.match(participant_id):
        return None
    with engine.connect() as conn:
        row = conn.execute(_PARTICIPANT_WITH_STUDY, {"participant_id": participant_id}).first()
    if row is None:
        return None
    mapping = row._mapping
    participant = _participant_from_row(_columns(mapping, participants))
    if mapping[studies.c.study_id] is None:
        return participant, None
    return participant, _study_from_row(_columns(mapping, studies))


def _stamp_query(mark: str) -> str:
    columns = [f"p.{c.name}" for c in participants.c] + [f"s.{c.name}" for c in studies.c]
    return (f"SELECT {', '.join(columns)} FROM participants p LEFT JOIN studies s "
            f"ON s.study_id = p.study_id WHERE p.participant_id = {mark}")


_STAMP_QUERIES = {"sqlite": _stamp_query("?"), "postgresql": _stamp_query("%s")}


def participant_with_study_stamp(engine: Engine, participant_id: str) -> tuple[Any, ...] | None:
    """The tester's row and their study's as the database driver returns them: equal
    stamps mean neither row changed (a stage, a finished game, a study closed or edited).

    What every run of a tester's page reads: one fixed query, run on the driver
    directly, nothing decoded or built (the JSON columns stay text on SQLite), so it
    costs a fraction of :func:`get_participant_with_study`. None for an unknown,
    malformed or tampered code.

    >>> from playtest.storage.db import make_engine, upgrade
    >>> engine = make_engine("sqlite://"); upgrade(engine)
    >>> _ = create_study(engine, title="Demo", study_id="demo")
    >>> code = create_consented_participant(engine, "demo", {"adult": True}).participant_id
    >>> first = participant_with_study_stamp(engine, code)
    >>> first == participant_with_study_stamp(engine, code)
    True
    >>> _ = update_study(engine, "demo", open=False)
    >>> first == participant_with_study_stamp(engine, code)
    False
    >>> participant_with_study_stamp(engine, "tampered-code") is None
    True
    """
    if not isinstance(participant_id, str) or not CODE_PATTERN.match(participant_id):
        return None
    query = _STAMP_QUERIES.get(engine.dialect.name)
    if query is None:  # another database: the full read is the stamp
        found = get_participant_with_study(engine, participant_id)
        return None if found is None else tuple(found)
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        try:
            cursor.execute(query, (participant_id,))
            row = cursor.fetchone()
        finally:
            cursor.close()
    finally:
        raw.close()
    return None if row is None else tuple(row)


def list_participants(engine: Engine, study_id: str) -> list[Participant]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(participants)
            .where(participants.c.study_id == study_id)
            .order_by(participants.c.created_at_ms)
        ).all()
    return [_participant_from_row(row) for row in rows]


def list_participant_ids(engine: Engine, study_id: str) -> list[str]:
    """The study's participant codes, oldest first (no other columns: a picker's list)."""
    with engine.connect() as conn:
        return list(conn.execute(
            select(participants.c.participant_id)
            .where(participants.c.study_id == study_id)
            .order_by(participants.c.created_at_ms)
        ).scalars())


def advance_stage(
    engine: Engine, participant_id: str, expected_current_stage: str, new_stage: str
) -> str:
    """Move a tester forward from ``expected_current_stage`` to ``new_stage``; return the stage.

    Idempotent and forward-only: a repeated call (a double click, a second tab) finds the
    tester already at or past ``new_stage`` and changes nothing. A tester behind
    ``expected_current_stage`` is a :class:`ConflictError` (a stage would be skipped).
    """
    order = {stage: number for number, stage in enumerate(STAGES)}
    if expected_current_stage not in order or new_stage not in order:
        raise ValueError(f"stages are {STAGES}")
    if order[new_stage] <= order[expected_current_stage]:
        raise ValueError(f"{expected_current_stage!r} → {new_stage!r} is not forward")
    with write_lock(engine), engine.begin() as conn:
        result = conn.execute(
            update(participants)
            .where(participants.c.participant_id == participant_id)
            .where(participants.c.stage == expected_current_stage)
            .values(stage=new_stage)
        )
        if result.rowcount == 1:
            return new_stage
        current = conn.execute(
            select(participants.c.stage).where(participants.c.participant_id == participant_id)
        ).scalar_one_or_none()
    if current is None:
        raise NotFound(f"no participant {participant_id!r}")
    if order[current] < order[expected_current_stage]:
        raise ConflictError(
            f"participant is at {current!r}, not {expected_current_stage!r}: cannot go to "
            f"{new_stage!r}"
        )
    return str(current)


def set_completion_code(engine: Engine, participant_id: str, code: str | None = None) -> str:
    """Give the tester a completion code once; later calls return the same code."""
    candidate = code or secrets.token_hex(4).upper()
    with write_lock(engine), engine.begin() as conn:
        conn.execute(
            update(participants)
            .where(participants.c.participant_id == participant_id)
            .where(participants.c.completion_code.is_(None))
            .values(completion_code=candidate)
        )
        stored = conn.execute(
            select(participants.c.completion_code).where(
                participants.c.participant_id == participant_id
            )
        ).first()
    if stored is None:
        raise NotFound(f"no participant {participant_id!r}")
    return str(stored[0])


def set_attributes(engine: Engine, participant_id: str, **attributes: Any) -> dict[str, Any]:
    """Merge attributes (e.g. ``age_band``) into the tester's attributes; return them all."""
    with write_lock(engine), engine.begin() as conn:
        conn.execute(
            update(participants)
            .where(participants.c.participant_id == participant_id)
            .values(stage=participants.c.stage)
        )
        row = conn.execute(
            select(participants.c.attributes).where(participants.c.participant_id == participant_id)
        ).first()
        if row is None:
            raise NotFound(f"no participant {participant_id!r}")
        merged = {**(row[0] or {}), **attributes}
        conn.execute(
            update(participants)
            .where(participants.c.participant_id == participant_id)
            .values(attributes=merged)
        )
    return merged


# ---------------------------------------------------------------- sessions


def start_session(
    engine: Engine,
    participant_id: str,
    user_agent: str | None = None,
    meta: Mapping[str, Any] | None = None,
    at: datetime | int | None = None,
) -> str:
    """A new session for one browser tab; returns its id. Event ``seq`` counts per session."""
    session_id = uuid.uuid4().hex
    try:
        with write_lock(engine), engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    session_id=session_id,
                    participant_id=participant_id,
                    started_at_ms=ms_from(at),
                    user_agent=user_agent,
                    meta=dict(meta) if meta else None,
                    last_seq=0,
                )
            )
    except IntegrityError:
        raise NotFound(f"no participant {participant_id!r}") from None
    return session_id


# ---------------------------------------------------------------- games


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to rebuild a game: replay ``actions`` from the rules and seats."""

    game_id: str
    participant_id: str
    session_id: str | None
    rules: Any
    seats: list[str]
    seed: int | None
    actions: tuple[Any, ...]
    created_at: datetime
    finished: bool
    winner: Any = None
    reason: str | None = None
    turns: int | None = None
    #: The registry's name of the game (``playtest.games.registry``).
    game: str = UNNAMED_GAME


def create_game(
    engine: Engine,
    participant_id: str,
    session_id: str | None,
    rules: Any,
    seats: Sequence[str],
    seed: int | None,
    game_id: str | None = None,
    game: str = UNNAMED_GAME,
) -> str:
    """Start a game record of ``game`` (a registry name); returns its id."""
    code = game_id or uuid.uuid4().hex
    try:
        with write_lock(engine), engine.begin() as conn:
            conn.execute(
                insert(games).values(
                    game_id=code,
                    participant_id=participant_id,
                    session_id=session_id,
                    game=game,
                    rules=rules,
                    seats=list(seats),
                    seed=seed,
                    created_at_ms=now_ms(),
                    action_count=0,
                )
            )
    except IntegrityError:
        raise ConflictError(f"no participant {participant_id!r} or game {code!r} exists") from None
    return code


# Built once: every click stores an action, and building the statements each time cost
# more CPU than running them.
_CLAIM_ACTION = (
    update(games)
    .where(games.c.game_id == bindparam("b_game_id"))
    .where(games.c.action_count == bindparam("b_index"))
    .where(games.c.finished_at_ms.is_(None))
    .values(action_count=games.c.action_count + 1)
)
_INSERT_ACTION = insert(game_actions)


def append_game_action(engine: Engine, game_id: str, index: int, action: Any) -> bool:
    """Store action number ``index`` (0-based) of a game; True if stored by this call.

    Idempotent on the index: sending the same action again returns False and changes
    nothing, so a double-sent click cannot apply twice. A different action at a stored
    index, a gap, or a finished game is a :class:`ConflictError`.
    """
    with write_lock(engine), engine.begin() as conn:
        claimed = conn.execute(_CLAIM_ACTION, {"b_game_id": game_id, "b_index": index})
        if claimed.rowcount == 1:
            conn.execute(_INSERT_ACTION, {"game_id": game_id, "idx": index, "action": action,
                                          "at_ms": now_ms()})
            return True
        state = conn.execute(
            select(games.c.action_count, games.c.finished_at_ms).where(games.c.game_id == game_id)
        ).first()
        if state is None:
            raise NotFound(f"no game {game_id!r}")
        stored = conn.execute(
            select(game_actions.c.action)
            .where(game_actions.c.game_id == game_id)
            .where(game_actions.c.idx == index)
        ).first()
    if stored is not None:
        if stored[0] == action:
            return False
        raise ConflictError(f"game {game_id}: action {index} is stored already and differs")
    if state.finished_at_ms is not None:
        raise ConflictError(f"game {game_id} is finished")
    raise ConflictError(f"game {game_id}: action {index} would leave a gap after {state[0]}")


def finish_game(engine: Engine, game_id: str, winner: Any, reason: str, turns: int) -> bool:
    """Mark a game finished (once) and count it for its tester; True if this call did."""
    with write_lock(engine), engine.begin() as conn:
        result = conn.execute(
            update(games)
            .where(games.c.game_id == game_id)
            .where(games.c.finished_at_ms.is_(None))
            .values(finished_at_ms=now_ms(), winner=winner, reason=reason, turns=turns)
        )
        if result.rowcount == 0:
            exists = conn.execute(select(games.c.game_id).where(games.c.game_id == game_id))
            if exists.first() is None:
                raise NotFound(f"no game {game_id!r}")
            return False
        participant_id = conn.execute(
            select(games.c.participant_id).where(games.c.game_id == game_id)
        ).scalar_one()
        conn.execute(
            update(participants)
            .where(participants.c.participant_id == participant_id)
            .values(games_completed=participants.c.games_completed + 1)
        )
    return True


def _game_from_row(conn: Any, row: Any) -> GameRecord:
    actions = conn.execute(
        select(game_actions.c.action)
        .where(game_actions.c.game_id == row.game_id)
        .order_by(game_actions.c.idx)
    ).scalars()
    return GameRecord(
        game_id=row.game_id,
        participant_id=row.participant_id,
        session_id=row.session_id,
        rules=row.rules,
        seats=list(row.seats),
        seed=row.seed,
        actions=tuple(actions),
        created_at=datetime_from_ms(row.created_at_ms),  # type: ignore[arg-type]
        finished=row.finished_at_ms is not None,
        winner=row.winner,
        reason=row.reason,
        turns=row.turns,
        game=row.game,
    )


def load_game(engine: Engine, game_id: str) -> GameRecord | None:
    with engine.connect() as conn:
        row = conn.execute(select(games).where(games.c.game_id == game_id)).first()
        return None if row is None else _game_from_row(conn, row)


def latest_unfinished_game(engine: Engine, participant_id: str) -> GameRecord | None:
    """The tester's newest game in progress (to resume after a reload or restart)."""
    with engine.connect() as conn:
        row = conn.execute(
            select(games)
            .where(games.c.participant_id == participant_id)
            .where(games.c.finished_at_ms.is_(None))
            .order_by(games.c.created_at_ms.desc(), games.c.game_id.desc())
            .limit(1)
        ).first()
        return None if row is None else _game_from_row(conn, row)


def list_games(engine: Engine, participant_id: str) -> list[GameRecord]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(games)
            .where(games.c.participant_id == participant_id)
            .order_by(games.c.created_at_ms)
        ).all()
        return [_game_from_row(conn, row) for row in rows]


def count_finished_games(
    engine: Engine, participant_id: str, *, except_reasons: Sequence[str] = ()
) -> int:
    """How many of the tester's games are finished (not counting ``except_reasons``)."""
    query = (
        select(func.count())
        .select_from(games)
        .where(games.c.participant_id == participant_id)
        .where(games.c.finished_at_ms.is_not(None))
    )
    if except_reasons:
        query = query.where(
            or_(games.c.reason.is_(None), games.c.reason.not_in(list(except_reasons)))
        )
    with engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


# ---------------------------------------------------------------- survey responses


def save_responses(
    engine: Engine,
    participant_id: str,
    survey_id: str,
    survey_version: str,
    survey_hash: str | None,
    phase: str,
    page_id: str | None,
    answers: Mapping[str, Any],
    seconds_on_page: float | None,
    at: datetime | int | None = None,
    language: str | None = None,
) -> int:
    """Store one survey page's answers (one row per item); returns how many items.

    Idempotent per participant + survey + item: a resubmitted page updates its rows.
    The page's time goes with each of its rows (``seconds_on_page``), and the language
    the questions were asked in when it is not English (the exchange format's response
    record's ``language``; absent: ``en``).
    """
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, not {phase!r}")
    if not answers:
        return 0
    moment = ms_from(at)
    participant = get_participant(engine, participant_id)
    if participant is None:
        raise NotFound(f"no participant {participant_id!r}")
    rows = [
        {
            "participant_id": participant_id,
            "survey": survey_id,
            "item": item,
            "study_id": participant.study_id,
            "survey_version": survey_version,
            "survey_hash": survey_hash,
            "phase": phase,
            "page_id": page_id,
            "value": value,
            "seconds_on_page": seconds_on_page,
            "at_ms": moment,
            "extra": {"language": language} if language and language != "en" else None,
        }
        for item, value in answers.items()
    ]
    statement = upsert_insert(engine, responses)
    statement = statement.on_conflict_do_update(
        index_elements=["participant_id", "survey", "item"],
        set_={
            name: statement.excluded[name]
            for name in (
                "survey_version",
                "survey_hash",
                "phase",
                "page_id",
                "value",
                "seconds_on_page",
                "at_ms",
                "extra",
            )
        },
    )
    with write_lock(engine), engine.begin() as conn:
        conn.execute(statement, rows)
    return len(rows)


def load_responses(engine: Engine, participant_id: str, survey_id: str) -> dict[str, Any]:
    """The tester's answers to one survey: item → value."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(responses.c.item, responses.c.value)
            .where(responses.c.participant_id == participant_id)
            .where(responses.c.survey == survey_id)
        ).all()
    return {item: value for item, value in rows}


def page_timings(engine: Engine, participant_id: str, survey_id: str) -> dict[str, float]:
    """Seconds spent on each page of a survey (page_id → seconds), as last submitted."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(responses.c.page_id, func.max(responses.c.seconds_on_page))
            .where(responses.c.participant_id == participant_id)
            .where(responses.c.survey == survey_id)
            .where(responses.c.page_id.is_not(None))
            .group_by(responses.c.page_id)
        ).all()
    return {page: float(seconds) for page, seconds in rows if seconds is not None}


# ---------------------------------------------------------------- experiments


def get_assignment(engine: Engine, participant_id: str, experiment_key: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(
            select(assignments.c.variant)
            .where(assignments.c.participant_id == participant_id)
            .where(assignments.c.experiment == experiment_key)
        ).scalar_one_or_none()


def get_assignments(engine: Engine, participant_id: str) -> dict[str, str]:
    """Every experiment's variant assigned to this tester (experiment key -> variant)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(assignments.c.experiment, assignments.c.variant)
            .where(assignments.c.participant_id == participant_id)
        ).all()
    return {str(row.experiment): str(row.variant) for row in rows if row.variant}


def assign_balanced(
    engine: Engine,
    study_id: str,
    participant_id: str,
    experiment_key: str,
    variants: Sequence[str],
    rng: random.Random | None = None,
    *,
    hold_ms: int = DEFAULT_HOLD_MS,
) -> str:
    """The tester's variant of an experiment: sticky, and balanced among completers.

    A new tester gets the arm with the fewest expected completers
    (:mod:`playtest.storage.allocation`: completers plus testers in progress weighted
    by the arm's completion rate; a tester is in progress for ``hold_ms`` after
    consent); ties are split by a hash of the experiment and the tester's code, so the
    choice is deterministic. The rule and the tallies it saw are stored with the
    assignment (``extra.allocation``). The study row is locked first, so concurrent
    assignments count each other. ``rng`` is not used any more (kept for callers).
    """
    del rng  # the tie-break is deterministic (allocation.tie_break)
    if len(variants) < 1:
        raise ValueError("an experiment needs variants")
    existing = get_assignment(engine, participant_id, experiment_key)
    if existing is not None:
        return existing
    with write_lock(engine), engine.begin() as conn:
        locked = conn.execute(
            update(studies)
            .where(studies.c.study_id == study_id)
            .values(study_id=studies.c.study_id)
        )
        if locked.rowcount == 0:
            raise NotFound(f"no study {study_id!r}")
        existing = conn.execute(
            select(assignments.c.variant)
            .where(assignments.c.participant_id == participant_id)
            .where(assignments.c.experiment == experiment_key)
        ).scalar_one_or_none()
        if existing is not None:
            return str(existing)
        tallies = arm_tallies(conn, study_id, experiment_key, now_ms=now_ms(), hold_ms=hold_ms)
        chosen = choose_arm(list(variants), tallies, participant_id, experiment_key)
        conn.execute(
            insert(assignments).values(
                participant_id=participant_id,
                experiment=experiment_key,
                study_id=study_id,
                variant=chosen.variant,
                at_ms=now_ms(),
                extra={"allocation": chosen.record()},
            )
        )
    return chosen.variant


def log_exposure(
    engine: Engine,
    participant_id: str,
    experiment_key: str,
    variant: str,
    context: Mapping[str, Any] | None = None,
    at: datetime | int | None = None,
) -> None:
    """Record that a variant was actually shown (a message on screen, a rule in play)."""
    participant = get_participant(engine, participant_id)
    if participant is None:
        raise NotFound(f"no participant {participant_id!r}")
    with write_lock(engine), engine.begin() as conn:
        conn.execute(
            insert(exposures).values(
                participant_id=participant_id,
                study_id=participant.study_id,
                experiment=experiment_key,
                variant=variant,
                context=dict(context) if context else None,
                at_ms=ms_from(at),
            )
        )


