"""One tester sending input as fast as the websocket carries it (issue 25, "Also").

Before: 500 events in 14 s, each stored, each taking the database's write lock from every
other tester. Now each tester's input is admitted by a token bucket
(:mod:`playtest.storage.rate_limit`): a burst, then a few a second; past it nothing is
stored and the page says to slow down. A real server, a tester's websocket, the board's
own "mute" event (one stored ``setting`` event each) sent back to back.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path

from faults_support import make_study
from served_app import Shown, pressed, serve, visit
from sqlalchemy import func, select
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.loadtest import _trigger
from playtest.app_pages import trouble
from playtest.settings import INPUT_LIMIT_ENV
from playtest.storage.db import make_engine, upgrade
from playtest.storage.models import EventRow

EVENTS = EventRow.__table__  # type: ignore[attr-defined]
SENT = 60
# A burst of 20, then one per 100 s: what the test sends takes far less, so what may be
# stored does not depend on this machine's speed (the defaults are 40 and 5 a second).
BURST, PER_SECOND = 20, 0.01


def _consent(page: Shown) -> list[WidgetState]:
    return [WidgetState(id=page.widget("consent_agree"), bool_value=True),
            pressed(page.widget("FormSubmitter:consent"))]


def _mute_on(board: list[str]) -> Callable[[Shown], list[WidgetState]]:
    """A step that sends the board's "mute" event (to the last board seen: an attacker
    does not wait for the page to show it again)."""

    def mute(page: Shown) -> list[WidgetState]:
        board[:] = [ident for key, ident in page.widgets.items() if key.startswith("board-")] \
            or board
        return [_trigger(board[0], "mute", {"value": True, "nonce": uuid.uuid4().hex})]

    return mute


def test_a_flood_of_one_testers_input_is_cut_to_the_limit_with_a_notice(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    url = f"sqlite:///{folder / 'p.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    study = make_study(engine, audience="adults", pre_survey=None)
    served = serve(folder, {"DATABASE_URL": url,
                            INPUT_LIMIT_ENV: f"{BURST},{PER_SECOND}"})
    try:
        started = time.monotonic()
        mute = _mute_on([])
        pages = visit(served.url, f"study={study.study_id}", [_consent, *[mute] * SENT])
        elapsed = time.monotonic() - started
        with engine.connect() as conn:
            stored = conn.execute(select(func.count()).select_from(EVENTS)
                                  .where(EVENTS.c.type == "setting")).scalar_one()
    finally:
        served.stop()
        engine.dispose()
    # The burst, then the rate: never all of them.
    assert 0 < stored <= BURST + PER_SECOND * elapsed + 1 < SENT, (stored, elapsed)
    assert any(trouble.TOO_FAST in page.text() for page in pages[1:])
    assert not [page.exceptions for page in pages if page.exceptions]
    print(f"\nflood: {SENT} inputs in {elapsed:.1f} s, {stored} stored")
