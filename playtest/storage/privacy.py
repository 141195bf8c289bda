"""Privacy operations: removing a tester entirely.

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {})
>>> delete_participant(engine, tester.participant_id)["participants"]
1
>>> repo.get_participant(engine, tester.participant_id) is None
True
"""

from __future__ import annotations

from sqlalchemy import Engine, delete, select

from playtest.storage.db import write_lock
from playtest.storage.errors import NotFound
from playtest.storage.models import (
    AssignmentRow,
    EventRow,
    ExposureRow,
    GameActionRow,
    GameRow,
    ParticipantRow,
    ResponseRow,
    SessionRow,
)


def delete_participant(engine: Engine, participant_id: str) -> dict[str, int]:
    """Delete everything of one tester in one transaction; returns rows deleted per table.

    Events, game actions, games, sessions, responses, assignments, exposures and the
    participant row go together or not at all. Unknown codes raise :class:`NotFound`.
    """
    tables = {
        "events": EventRow.__table__,  # type: ignore[attr-defined]
        "game_actions": GameActionRow.__table__,  # type: ignore[attr-defined]
        "games": GameRow.__table__,  # type: ignore[attr-defined]
        "sessions": SessionRow.__table__,  # type: ignore[attr-defined]
        "responses": ResponseRow.__table__,  # type: ignore[attr-defined]
        "assignments": AssignmentRow.__table__,  # type: ignore[attr-defined]
        "exposures": ExposureRow.__table__,  # type: ignore[attr-defined]
        "participants": ParticipantRow.__table__,  # type: ignore[attr-defined]
    }
    deleted: dict[str, int] = {}
    with write_lock(engine), engine.begin() as conn:
        for name, table in tables.items():
            if name == "game_actions":
                game_ids = select(tables["games"].c.game_id).where(
                    tables["games"].c.participant_id == participant_id
                )
                statement = delete(table).where(table.c.game_id.in_(game_ids))
            else:
                statement = delete(table).where(table.c.participant_id == participant_id)
            deleted[name] = conn.execute(statement).rowcount
        if deleted["participants"] == 0:
            raise NotFound(f"no participant {participant_id!r}")
    return deleted
