"""Remote studies in the app (AppTest on a real SQLite file): a panel's link, the same
link again, a full study, a declined consent, the way back to the panel, hostile ids;
each game's demo study recruited on Prolific."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.games.registry import games
from playtest.panels import PanelConfig, QuotaConfig
from playtest.storage import admission
from playtest.storage import repository as repo
from playtest.storage.models import AssignmentRow, PanelIdRow, ParticipantRow
from tests.app.conftest import APP

PROLIFIC = PanelConfig(kind="prolific", completion_code="C0MPL3TE", screenout_code="N0C0NSENT")
PID = "5f1e2d3c4b5a6978a1b2c3d4"
LINK = {"PROLIFIC_PID": PID, "STUDY_ID": "60aa0b1c2d3e4f5a6b7c8d9e",
        "SESSION_ID": "sess0123456789abcdef0123"}


def _open(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _texts(at: AppTest) -> str:
    parts = [e.value for e in at.title] + [e.value for e in at.markdown]
    parts += [e.value for e in at.text] + [e.value for e in at.error]
    parts += [e.value for e in at.subheader] + [e.value for e in at.code]
    return "\n".join(str(p) for p in parts)


def _links(at: AppTest) -> dict[str, str]:
    """Link buttons on the page: label → address."""
    return {e.proto.label: e.proto.url for e in at.get("link_button")}


def _code(at: AppTest) -> str:
    """The tester's code in the page's address (``?p=``)."""
    value = at.query_params["p"]
    return value if isinstance(value, str) else value[0]


def _agree(at: AppTest) -> AppTest:
    if any(radio.key == "consent_who" for radio in at.radio):  # a study of mixed audience
        at.radio(key="consent_who").set_value("An adult (18 or over)")
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at


def _finish(engine: Engine, code: str) -> None:
    """The tester jumps to the thank-you page (their play is not what is tested here)."""
    participant = repo.get_participant(engine, code)
    assert participant is not None
    repo.advance_stage(engine, code, participant.stage, "done")


def _count(engine: Engine, table: type) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


@pytest.fixture
def panel_study(make_study: Callable[..., repo.Study]) -> repo.Study:
    return make_study("panel", audience="adults", pre_survey=None, post_survey=None,
                      panel=PROLIFIC)


def test_a_prolific_link_makes_one_tester_with_the_panel_ids_kept_apart(
        db: Engine, panel_study: repo.Study) -> None:
    at = _agree(_open(study="panel", **LINK))
    code = _code(at)
    stored = admission.panel_ids_of(db, code)
    assert stored == admission.PanelIds("prolific", PID, LINK["STUDY_ID"], LINK["SESSION_ID"])
    participant = repo.get_participant(db, code)
    assert participant is not None and PID not in code and PID not in str(participant)
    # The same link again, in another browser: the same tester, on their own address.
    again = _open(study="panel", **LINK)
    assert not again.exception
    assert _code(again) == code
    assert "PROLIFIC_PID" not in again.query_params
    assert _count(db, ParticipantRow) == 1 and _count(db, PanelIdRow) == 1


def test_a_finished_panel_tester_is_sent_back_with_the_code(
        db: Engine, panel_study: repo.Study) -> None:
    at = _agree(_open(study="panel", **LINK))
    code = _code(at)
    _finish(db, code)
    done = _open(p=code)
    assert "Thank you!" in _texts(done)
    assert _links(done) == {
        "Back to Prolific": "https://app.prolific.com/submissions/complete?cc=C0MPL3TE"}
    assert "C0MPL3TE" in _texts(done)
    script = "".join(e.value for e in done.get("html"))
    assert "location.replace" in script and "cc=C0MPL3TE" in script


def test_a_tester_without_a_panel_id_gets_no_redirect(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    make_study("open", audience="adults", pre_survey=None, post_survey=None,
               panel=PROLIFIC.model_copy(update={"id_required": False}))
    at = _agree(_open(study="open"))
    code = _code(at)
    _finish(db, code)
    done = _open(p=code)
    assert "Thank you!" in _texts(done) and not _links(done)
    assert admission.panel_ids_of(db, code) is None


def test_declining_goes_to_the_screen_out_address_and_stores_nothing(
        db: Engine, panel_study: repo.Study) -> None:
    at = _open(study="panel", **LINK)
    assert _links(at) == {"I do not want to take part (back to Prolific)":
                          "https://app.prolific.com/submissions/complete?cc=N0C0NSENT"}
    assert _count(db, ParticipantRow) == 0


def test_a_panel_only_study_opened_without_an_id_says_where_to_open_it(
        db: Engine, panel_study: repo.Study) -> None:
    at = _open(study="panel")
    assert "Please open this study from Prolific" in _texts(at)
    assert not at.checkbox


@pytest.mark.parametrize("hostile", [
    "{{%PROLIFIC_PID%}}", "x" * 65, "<script>alert(1)</script>", "a b", "../etc/passwd",
    "javascript:alert(1)", "é" * 3, "5f1e\x00"])
def test_a_hostile_panel_id_is_refused_cleanly(
        db: Engine, panel_study: repo.Study, hostile: str) -> None:
    at = _open(study="panel", PROLIFIC_PID=hostile)
    assert not at.exception
    assert "This link is not complete" in _texts(at)
    assert hostile not in _texts(at)
    assert not at.checkbox and _count(db, ParticipantRow) == 0


def test_a_full_study_refuses_politely_and_lets_its_testers_resume(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    make_study("full", audience="adults", pre_survey=None, post_survey=None,
               quota=QuotaConfig(completes=1))
    first = _agree(_open(study="full"))
    code = _code(first)
    late = _open(study="full")
    assert "This study is full" in _texts(late)
    assert "not taking new players" in _texts(late)
    assert not late.checkbox and _count(db, ParticipantRow) == 1
    # The tester who holds the place carries on.
    back = _open(p=code)
    assert not back.exception and "This study is full" not in _texts(back)


def test_a_study_that_fills_while_the_consent_page_is_open_refuses_at_i_agree(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    make_study("last", audience="adults", pre_survey=None, post_survey=None,
               quota=QuotaConfig(completes=1))
    waiting = _open(study="last")  # a place was free when the page opened
    _agree(_open(study="last"))  # someone else took it
    waiting.checkbox(key="consent_agree").check()
    waiting.button[0].click().run()
    assert not waiting.exception
    assert "This study is full" in _texts(waiting)
    assert "p" not in waiting.query_params and _count(db, ParticipantRow) == 1


@pytest.mark.parametrize("game", [plugin.name for plugin in games()])
def test_every_game_s_demo_study_takes_a_prolific_tester_from_link_to_code(
        db: Engine, game: str) -> None:
    """Each game's demo study recruited on Prolific with one place: the link makes one
    tester (their arm chosen among completers), the same link resumes them, the next
    arrival finds the study full, and the end sends the tester back with the code."""
    config = demo.game_demo_config(game).model_copy(
        update={"panel": PROLIFIC, "quota": QuotaConfig(completes=1), "ai_think_ms": 0})
    study = services.create_study(db, title=f"{game} on Prolific", config=config,
                                  study_id=f"remote-{game}")
    at = _agree(_open(study=study.study_id, **LINK))
    code = _code(at)
    assert admission.panel_ids_of(db, code) == admission.PanelIds(
        "prolific", PID, LINK["STUDY_ID"], LINK["SESSION_ID"])
    with db.connect() as conn:
        stored = conn.execute(select(AssignmentRow.__table__.c.extra)  # type: ignore[attr-defined]
                              .where(AssignmentRow.__table__.c.participant_id == code)  # type: ignore[attr-defined]
                              ).scalars().all()
    assert len(stored) == len(config.experiments)
    assert all(extra["allocation"]["rule"] == "fewest_expected_completers" for extra in stored)
    assert _code(_open(study=study.study_id, **LINK)) == code
    late = _open(study=study.study_id, **{**LINK, "PROLIFIC_PID": "another0participant"})
    assert "This study is full" in _texts(late) and not late.checkbox
    assert _links(late) == {"Back to Prolific":
                            "https://app.prolific.com/submissions/complete?cc=N0C0NSENT"}
    _finish(db, code)
    done = _open(p=code)
    assert _links(done) == {
        "Back to Prolific": "https://app.prolific.com/submissions/complete?cc=C0MPL3TE"}
    assert _count(db, ParticipantRow) == 1
