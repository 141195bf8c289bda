"""What the app's tests do again and again with a tester: put one at the play page,
open the app as that tester, read the events stored for them.

Import it by its package path, as the tests import ``tests.app.conftest``::

    from tests.app.tester_support import open_as, playing_tester, stored_events
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.models import EventRow
from tests.app.conftest import APP


def playing_tester(db: Engine, study: repo.Study) -> str:
    """A new tester of ``study`` who consented (as an adult) and reached the play page;
    their code."""
    code = services.consent(db, study, {"child": False}).participant_id
    repo.advance_stage(db, code, "consent", "pre_survey")
    repo.advance_stage(db, code, "pre_survey", "play")
    return code


def open_as(code: str, timeout: float = 30) -> AppTest:
    """The app run once as the tester ``code`` (their link ``?p=<code>``)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params["p"] = code
    return at.run()


def stored_events(db: Engine, code: str) -> list[tuple[str, dict[str, Any]]]:
    """The tester's stored events as ``(type, props)``, in the order they were stored."""
    table = EventRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.type, table.c.props)
                            .where(table.c.participant_id == code)
                            .order_by(table.c.event_id)).all()
    return [(r.type, r.props) for r in rows]
