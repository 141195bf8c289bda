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
from playtest.storage.models import EventRow, ResponseRow
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


def board_shown(at: AppTest) -> dict[str, Any]:
    """What the play page's board shows on the last run: the game's view data with the
    board shell's message (its text, tone, time on screen, sound), whether it takes input,
    its turn line and end screen."""
    import json

    shell = next(d["board"] for d in (json.loads(c.proto.json)
                                      for c in at.get("bidi_component"))
                 if isinstance(d.get("board"), dict) and d["board"].get("picture") is False)
    message = shell.get("message") or {}
    return {**shell["view"], "message": message.get("text", ""),
            "tone": message.get("tone"), "message_ms": message.get("ms"),
            "sound": message.get("sound"), "message_key": message.get("key"),
            "interactive": shell["interactive"], "end": shell.get("end"),
            "turn": shell.get("turn"), "muted": shell.get("muted")}


def consent_on_page(study_id: str, who: str | None, parent: bool = False) -> AppTest:
    """A new tester of ``study_id`` through the consent page: ``who`` chosen (child or
    adult, None: the study asks nothing), the parent's box ticked if ``parent``."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study_id
    at.run()
    if who is not None:
        at.radio(key="consent_who").set_value(who)
    if parent:
        at.checkbox(key="consent_parent").check()
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    return at.run()


def offered_texts(at: AppTest) -> list[str]:
    """Every question, option and text the page shows a tester."""
    out = [str(m.value) for m in at.markdown]
    for widget in [*at.radio, *at.selectbox]:
        out.append(str(widget.label))
        out.extend(str(option).replace("\\", "") for option in widget.options)
    return out


def stored_answers(db: Engine, code: str) -> dict[tuple[str, str], object]:
    """The tester's stored survey answers as ``{(survey, item): value}``."""
    table = ResponseRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.survey, table.c.item, table.c.value).where(
            table.c.participant_id == code)).all()
    return {(r.survey, r.item): r.value for r in rows}
