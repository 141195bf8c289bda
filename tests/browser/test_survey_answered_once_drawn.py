"""The end-to-end runs' survey helper answers what the tester sees, on a slow machine too.

The CI flake of the Bricks & Walls run (after consent: "Continue never came", the page
wide with one empty grey box) was the helper, not the app. In a new browser Streamlit
draws each radio group as a grey skeleton box until the browser has loaded the radio's
code, which took up to 3 s with the CPU four times slower. The helper answered the page
before the questions were there (no radio to click), pressed Continue, got "Please
check 3 marked questions", answered again, and then read the survey form that Streamlit
leaves on screen while the next stage's page is drawn as if it were still the current
page: it clicked an old radio and waited in vain. The play page (wide, its board still
a skeleton) was what the screenshot showed.

Here Chromium runs four times slower and the websocket frames the browser sends are
read: the one page of the pre-survey must be sent once, with its answers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.proto.BackMsg_pb2 import BackMsg
from study_flow import AppDatabase, consent, fill_survey, new_study, participant_code

from playtest.storage import repository as repo

pytestmark = pytest.mark.browser

SLOWDOWN = 4


def _submits(sent: list[dict[str, Any]]) -> list[list[str]]:
    """The widgets of every survey form submit the browser sent (ids without their hash)."""
    found = []
    for message in sent:
        widgets = [w["id"].split("-", 2)[-1]
                   for w in message.get("rerunScript", {}).get("widgetStates", {})
                   .get("widgets", [])]
        if any("FormSubmitter:pre-" in w for w in widgets):
            found.append(widgets)
    return found


def test_the_pre_survey_is_answered_once_its_questions_are_drawn(
    app_server: Any, app_db: AppDatabase, open_study: Callable[..., Any],
    screenshot: Callable[[Any, str], Path],
) -> None:
    study = new_study(app_db, title="Drawn", game="morris", games_per_tester=1,
                      allow_more_games=False, audience="adults")
    page = open_study(app_server, study, "wide")
    sent: list[dict[str, Any]] = []

    def listen(ws: Any) -> None:
        def frame(payload: bytes | str) -> None:
            message = BackMsg()
            message.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
            sent.append(MessageToDict(message))

        ws.on("framesent", frame)

    # The websocket is open already: a reload opens the one the test listens to, on the
    # same consent page (nothing is stored before "I agree").
    page.on("websocket", listen)
    page.reload()
    page.get_by_text("I have read the above and I agree to take part.").wait_for(
        timeout=30_000)
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                            {"rate": SLOWDOWN})
    consent(page)
    code = participant_code(page)
    assert fill_survey(page, screenshot, "drawn-pre-survey") == 1
    page.locator("[data-testid=morris-board]").wait_for(timeout=30_000)

    submits = _submits(sent)
    assert len(submits) == 1, submits  # no "Please check": the first press was enough
    answered = {w.rsplit("::", 1)[-1] for w in submits[0] if "FormSubmitter" not in w}
    # The adults' form (an adults-only study): morris_pre's one page and the age band.
    assert answered == {"demo.age_band", "habits.boardgame_freq", "habits.morris_before",
                        "expect.fun_0_10"}
    participant = repo.get_participant(app_db.engine, code)
    assert participant is not None and participant.stage == "play"
    stored = repo.load_responses(app_db.engine, code, "morris_pre_adult")
    assert set(stored) == answered
