"""The playtest tables (SQLModel).

Times are integer milliseconds since the Unix epoch (UTC) in ``*_ms`` columns: exact to
the millisecond, the same on SQLite and PostgreSQL, and cheap to load by the million.
JSON columns hold rule objects, settings, event props and answers; ``extra`` columns keep
unknown keys of imported records so that an export gives them back.

Nothing is stored before consent: a participant row is created at consent
(``consented_at_ms`` may be NULL only for rows brought in by ``playtest import``, and such
participants may have nothing else stored).

>>> sorted(SQLModel.metadata.tables)[:3]
['app_secrets', 'assignments', 'events']
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

from analytics.data import UNNAMED_GAME

# JSONB on PostgreSQL (indexable, compact), JSON text elsewhere.
JsonType = JSON().with_variant(JSONB(), "postgresql")

# SQLite makes only an INTEGER PRIMARY KEY the fast rowid alias.
RowIdType = BigInteger().with_variant(Integer(), "sqlite")

STAGES = ("consent", "pre_survey", "play", "post_survey", "done")


def _json(nullable: bool = False) -> Any:
    return Field(default=None, sa_type=JsonType, nullable=nullable)


def _fk(target: str, *, nullable: bool = False, index: bool = False) -> Any:
    return Field(
        default=None,
        sa_column_args=[ForeignKey(target, ondelete="CASCADE")],
        nullable=nullable,
        index=index,
    )


class StudyRow(SQLModel, table=True):
    """A study: its game and its settings (rules, seats, surveys, experiments …)."""

    __tablename__ = "studies"

    study_id: str = Field(primary_key=True, max_length=64)
    title: str = ""
    game: str = UNNAMED_GAME
    # Everything the study sets for its testers, as one document: the fields of
    # playtest.study_config.StudyConfig but its game (the column above). JSON text, not
    # JSONB: an experiment's variants are a dict whose order the assignment follows.
    config: Any = Field(default=None, sa_type=JSON, nullable=False,
                        sa_column_kwargs={"server_default": "{}"})
    open: bool = True
    created_at_ms: int = Field(sa_type=BigInteger)
    extra: Any = _json(nullable=True)


class ParticipantRow(SQLModel, table=True):
    """A tester, known only by an unguessable pseudonymous code."""

    __tablename__ = "participants"
    __table_args__ = (Index("ix_participants_study_created", "study_id", "created_at_ms"),)

    participant_id: str = Field(primary_key=True, max_length=64)
    study_id: str = Field(foreign_key="studies.study_id", max_length=64)
    created_at_ms: int = Field(sa_type=BigInteger)
    consented_at_ms: int | None = Field(default=None, sa_type=BigInteger, nullable=True)
    consent: Any = _json(nullable=True)
    stage: str = Field(default="consent", max_length=32)
    games_completed: int = 0
    completion_code: str | None = Field(default=None, max_length=64)
    attributes: Any = _json(nullable=True)
    extra: Any = _json(nullable=True)


class SessionRow(SQLModel, table=True):
    """One browser session (one tab); ``last_seq`` is the counter behind event ``seq``."""

    __tablename__ = "sessions"

    session_id: str = Field(primary_key=True, max_length=64)
    participant_id: str = _fk("participants.participant_id", index=True)
    started_at_ms: int = Field(sa_type=BigInteger)
    user_agent: str | None = None
    meta: Any = _json(nullable=True)
    last_seq: int = 0


class GameRow(SQLModel, table=True):
    """A game's record: which game, its rules, seats and seed; its actions are rows of ``game_actions``."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_participant_created", "participant_id", "created_at_ms"),)

    game_id: str = Field(primary_key=True, max_length=64)
    participant_id: str = _fk("participants.participant_id")
    session_id: str | None = Field(default=None, max_length=64)
    # The registry's name of the game (engine.core.make_game); older rows: UNNAMED_GAME.
    game: str = Field(default=UNNAMED_GAME, max_length=40,
                      sa_column_kwargs={"server_default": UNNAMED_GAME})
    rules: Any = _json()
    seats: Any = _json()
    seed: int | None = Field(default=None, sa_type=BigInteger)
    created_at_ms: int = Field(sa_type=BigInteger)
    finished_at_ms: int | None = Field(default=None, sa_type=BigInteger)
    winner: Any = _json(nullable=True)
    reason: str | None = None
    turns: int | None = None
    action_count: int = 0


class GameActionRow(SQLModel, table=True):
    """Action number ``idx`` (0, 1, 2 …) of a game, as the engine's JSON form of it."""

    __tablename__ = "game_actions"

    game_id: str = Field(
        primary_key=True, sa_column_args=[ForeignKey("games.game_id", ondelete="CASCADE")]
    )
    idx: int = Field(primary_key=True)
    action: Any = _json()
    at_ms: int = Field(sa_type=BigInteger)


class EventRow(SQLModel, table=True):
    """One telemetry event; append-only. ``seq`` runs 1, 2, 3 … per session, no gaps."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("session_id", "seq", name="uq_events_session_seq"),
        UniqueConstraint("client_event_id", name="uq_events_client_event_id"),
        # with the time: a study's page events of the last hour are one range (0006)
        Index("ix_events_study_type_at", "study_id", "type", "at_ms"),
        Index("ix_events_participant", "participant_id"),
        Index("ix_events_game", "game_id"),
    )

    event_id: int | None = Field(default=None, primary_key=True, sa_type=RowIdType)
    study_id: str = Field(max_length=64)
    participant_id: str = _fk("participants.participant_id")
    session_id: str = _fk("sessions.session_id")
    seq: int
    at_ms: int = Field(sa_type=BigInteger)
    type: str = Field(max_length=64)
    props: Any = _json()
    game_id: str | None = Field(default=None, max_length=64)
    client_event_id: str | None = Field(default=None, max_length=128)
    extra: Any = _json(nullable=True)


class ResponseRow(SQLModel, table=True):
    """One answer to one survey item; a resubmit of the page updates it in place."""

    __tablename__ = "responses"
    __table_args__ = (
        Index("ix_responses_study", "study_id", "survey"),
        # each tester's answer count and latest time, from the index alone (0005)
        Index("ix_responses_study_participant_at", "study_id", "participant_id", "at_ms"),
    )

    participant_id: str = Field(
        primary_key=True,
        sa_column_args=[ForeignKey("participants.participant_id", ondelete="CASCADE")],
    )
    survey: str = Field(primary_key=True, max_length=64)
    item: str = Field(primary_key=True, max_length=128)
    study_id: str = Field(max_length=64)
    survey_version: str = Field(max_length=32)
    survey_hash: str | None = Field(default=None, max_length=128)
    phase: str = Field(max_length=8)
    page_id: str | None = Field(default=None, max_length=64)
    value: Any = _json(nullable=True)
    seconds_on_page: float | None = None
    at_ms: int = Field(sa_type=BigInteger)
    extra: Any = _json(nullable=True)


class AssignmentRow(SQLModel, table=True):
    """The variant of one experiment a participant got (sticky: one row per experiment)."""

    __tablename__ = "assignments"
    __table_args__ = (Index("ix_assignments_study_experiment", "study_id", "experiment"),)

    participant_id: str = Field(
        primary_key=True,
        sa_column_args=[ForeignKey("participants.participant_id", ondelete="CASCADE")],
    )
    experiment: str = Field(primary_key=True, max_length=64)
    study_id: str = Field(max_length=64)
    variant: str = Field(max_length=64)
    at_ms: int = Field(sa_type=BigInteger)
    extra: Any = _json(nullable=True)


class ExposureRow(SQLModel, table=True):
    """A variant actually shown to a participant (a message seen, a rule applied …)."""

    __tablename__ = "exposures"
    __table_args__ = (Index("ix_exposures_participant_experiment", "participant_id", "experiment"),)

    exposure_id: int | None = Field(default=None, primary_key=True, sa_type=RowIdType)
    participant_id: str = _fk("participants.participant_id")
    study_id: str = Field(max_length=64)
    experiment: str = Field(max_length=64)
    variant: str = Field(max_length=64)
    context: Any = _json(nullable=True)
    at_ms: int = Field(sa_type=BigInteger)


class PanelIdRow(SQLModel, table=True):
    """The recruitment panel's ids of a tester who arrived from one (Prolific's
    ``PROLIFIC_PID`` …): personal data, kept apart from the tester's pseudonymous code,
    exported only on request (``playtest export --with-panel-ids``) and deleted with the
    tester. One tester per panel id and study: the same link again resumes them."""

    __tablename__ = "panel_ids"
    __table_args__ = (
        UniqueConstraint("study_id", "panel_id", name="uq_panel_ids_study_panel_id"),
        Index("ix_panel_ids_panel_id", "panel_id"),
    )

    participant_id: str = Field(
        primary_key=True, max_length=64,
        sa_column_args=[ForeignKey("participants.participant_id", ondelete="CASCADE")],
    )
    study_id: str = Field(max_length=64)
    panel: str = Field(max_length=16)
    panel_id: str = Field(max_length=64)
    panel_study: str | None = Field(default=None, max_length=64)
    panel_session: str | None = Field(default=None, max_length=64)
    at_ms: int = Field(sa_type=BigInteger)


class SignInAttemptRow(SQLModel, table=True):
    """One designer sign-in attempt (for the rate limit shared by every app process)."""

    __tablename__ = "sign_in_attempts"

    attempt_id: int | None = Field(default=None, primary_key=True, sa_type=RowIdType)
    client: str = Field(max_length=128, index=True)
    ok: bool = False
    at_ms: int = Field(sa_type=BigInteger, index=True)


class AppSecretRow(SQLModel, table=True):
    """A server-side secret (the key that signs designer sign-in cookies)."""

    __tablename__ = "app_secrets"

    name: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=256)
    created_at_ms: int = Field(sa_type=BigInteger)


ALL_TABLES = (
    StudyRow,
    ParticipantRow,
    SessionRow,
    GameRow,
    GameActionRow,
    EventRow,
    ResponseRow,
    AssignmentRow,
    ExposureRow,
    PanelIdRow,
)


# The tables as SQLAlchemy Core objects, for the storage code's queries (one place).
studies = StudyRow.__table__  # type: ignore[attr-defined]
participants = ParticipantRow.__table__  # type: ignore[attr-defined]
sessions = SessionRow.__table__  # type: ignore[attr-defined]
games = GameRow.__table__  # type: ignore[attr-defined]
game_actions = GameActionRow.__table__  # type: ignore[attr-defined]
events = EventRow.__table__  # type: ignore[attr-defined]
responses = ResponseRow.__table__  # type: ignore[attr-defined]
assignments = AssignmentRow.__table__  # type: ignore[attr-defined]
exposures = ExposureRow.__table__  # type: ignore[attr-defined]
panel_ids = PanelIdRow.__table__  # type: ignore[attr-defined]
