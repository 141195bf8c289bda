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
from sqlalchemy.engine import Engine
from streamlit.proto.BackMsg_pb2 import BackMsg
from study_flow import APP, consent, fill_survey, participant_code, study_db

from playtest.storage import repository as repo
from playtest.study_config import StudyConfig

pytestmark = pytest.mark.browser

SLOWDOWN = 4


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Engine]:
    config = StudyConfig(game="morris", games_per_tester=1, allow_more_games=False,
                         audience="adults")
    return study_db(tmp_path_factory, "drawn", study_id="drawn", title="Drawn", config=config)


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
    streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    app_db: tuple[str, Engine], screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = app_db
    page = new_page(streamlit_app(APP, {"DATABASE_URL": url}), "?study=drawn",
                    width=1280, height=800)
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
    participant = repo.get_participant(engine, code)
    assert participant is not None and participant.stage == "play"
    stored = repo.load_responses(engine, code, "morris_pre_adult")
    assert set(stored) == answered
