"""No tester data in any log or output stream, under every fault the suite injects (issue
25 items 1 and 7), and nothing of the tester left once they are deleted.

Before: when a database fault hit a survey save, ``app.log`` recorded the SQL parameters,
the tester's code and answers, and ``playtest participant delete`` left them there; with
the log on a full disk, ``app.log`` stayed empty and Python's "--- Logging error ---"
blocks went to standard output. Here a tester at the last page of the post-play survey
types a recognisable answer and submits it under each fault: a writer holding SQLite's
``BEGIN IMMEDIATE`` (or PostgreSQL's table locks) past the 5 s timeout, a PostgreSQL
server that is down, a full disk that holds the database and the log. The tester is told
that nothing was saved; once the fault is gone they submit again; then the designer
deletes them with the command line. Every file of the lab's folder (the database and its
``-wal``/``-shm``, the dashboard's cache, ``app.log``) and everything the process wrote to
its standard output and error are searched for the answer and the code.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from faults_support import APP, fault_postgres_server, fill, small_disk, write_lock_held
from served_app import Shown, pressed, serve, typed, visit
from sqlalchemy import Engine
from streamlit import logger as streamlit_logger
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

from playtest import runtime, services
from playtest.app_pages import trouble
from playtest.cli import main
from playtest.storage import repository as repo
from playtest.storage.db import dispose_engines, make_engine, upgrade
from playtest.storage.events import EventLogger
from playtest.study_config import StudyConfig
from tests.pg_server import PostgresServer, PostgresUnavailable, create_database

__all__ = ["fault_postgres_server", "small_disk"]

ANSWER = "my-recognisable-answer-QXZW-about-the-purple-dice"
SURVEY_ITEM = "open.confused"


def a_tester_at_the_last_survey_page(engine: Engine) -> str:
    """A tester of a new study who answered every page of the post-play survey but the
    last (free text); their code."""
    config = StudyConfig(ai_think_ms=0, pre_survey=None, post_survey="vapoosh_post_short",
                         audience="adults")
    study = services.create_study(engine, title="Log study", config=config, study_id="logs")
    code = services.consent(engine, study, {"child": False}).participant_id
    for stage, after in (("consent", "pre_survey"), ("pre_survey", "play"),
                         ("play", "post_survey")):
        repo.advance_stage(engine, code, stage, after)
    tester = services.load_tester(engine, code)
    assert tester is not None
    survey = services.survey_for(tester, "post", engine)
    assert survey is not None and survey.pages[-1].id == "open"
    store = services.DbResponseStore(engine, tester, survey, "post", EventLogger(engine),
                                     repo.start_session(engine, code))
    for page in survey.pages[:-1]:
        store.save_page(page.id, {}, 1.0)
    return code


def _shown(at: AppTest) -> str:
    parts = [*at.title, *at.markdown, *at.text, *at.error, *at.warning, *at.info,
             *at.exception, *at.code, *at.success]
    return "\n".join(str(getattr(e, "value", "") or getattr(e, "message", "")) for e in parts)


def _answer_box(at: AppTest) -> str:
    (key,) = [box.key for box in at.text_area if str(box.key).endswith(f"::{SURVEY_ITEM}")]
    return str(key)


def _submit(at: AppTest) -> None:
    at.text_area(key=_answer_box(at)).input(ANSWER)
    at.button[0].click().run()


def _recover(at: AppTest) -> None:
    """The page's own retry (its clock) until the database answers again."""
    for _ in range(5):
        at.run()
        if trouble.TROUBLE not in at.session_state:
            return
    raise AssertionError(f"still in trouble: {_shown(at)}")


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def _found(haystack: dict[str, bytes], *needles: str) -> list[tuple[str, str]]:
    return [(name, needle) for name, data in haystack.items() for needle in needles
            if needle.encode() in data]


# -- the faults -----------------------------------------------------------------------------


Fault = Callable[[], contextlib.AbstractContextManager[None]]


@pytest.fixture
def lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The lab's folder, the working folder of the app under test."""
    folder = tmp_path / "lab"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PLAYTEST_CACHE_DIR", raising=False)
    monkeypatch.delenv(runtime.LOG_DIR_ENV, raising=False)
    yield folder
    dispose_engines()


def _sqlite_locked(folder: Path, _request: pytest.FixtureRequest) -> tuple[str, Fault]:
    url = f"sqlite:///{folder / 'playtest.sqlite'}"
    return url, lambda: write_lock_held(make_engine(url), url)


def _postgresql_locked(folder: Path, request: pytest.FixtureRequest) -> tuple[str, Fault]:
    url = create_database(request.getfixturevalue("fault_postgres_server"))
    return url, lambda: write_lock_held(make_engine(url), url)


def _postgresql_down(folder: Path, request: pytest.FixtureRequest) -> tuple[str, Fault]:
    server = PostgresServer()
    try:
        server.start()
    except PostgresUnavailable as err:
        pytest.skip(str(err))
    request.addfinalizer(server.stop)

    @contextlib.contextmanager
    def down() -> Iterator[None]:
        server.pause()
        try:
            yield
        finally:
            server.resume()

    return create_database(server.url), down


def _full_disk(folder: Path, request: pytest.FixtureRequest) -> tuple[str, Fault]:
    disk = request.getfixturevalue("small_disk")
    url = f"sqlite:///{disk / 'playtest.sqlite'}"  # app.log beside it, on the same disk

    @contextlib.contextmanager
    def full() -> Iterator[None]:
        filler = fill(disk)
        try:
            yield
        finally:
            filler.unlink()

    return url, full


FAULTS = {
    "sqlite-locked": _sqlite_locked,
    "postgresql-locked": pytest.param(_postgresql_locked, marks=pytest.mark.postgres),
    "postgresql-down": pytest.param(_postgresql_down, marks=pytest.mark.postgres),
    "full-disk": _full_disk,
}


@pytest.mark.parametrize("make_fault", list(FAULTS.values()), ids=list(FAULTS))
def test_a_fault_under_a_survey_answer_logs_no_tester_data_and_deletion_leaves_none(
    lab: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str], make_fault: Callable[..., tuple[str, Fault]],
) -> None:
    # Streamlit's console handlers write to the standard error they were made with: made
    # in an earlier test, that is an earlier test's capture, closed by now.
    streamlit_logger.update_formatter()
    url, fault = make_fault(lab, request)
    monkeypatch.setenv("DATABASE_URL", url)
    engine = make_engine(url)
    upgrade(engine)
    code = a_tester_at_the_last_survey_page(engine)
    engine.dispose()
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.query_params["p"] = code
    at.run()
    with fault():
        for _ in range(3):  # a full disk may take a page or two of writes to refuse one
            _submit(at)
            if trouble.TROUBLE in at.session_state:
                break
    # The tester is told that it was not saved (a database server that is down shows
    # the page that waits for it instead of the page)
    shown = _shown(at)
    assert not at.exception and (trouble.CALM in shown or trouble.UNREACHABLE in shown), shown
    assert "it was not saved" in trouble.CALM and "nothing was saved" in trouble.UNREACHABLE
    _recover(at)
    _submit(at)
    assert not at.exception and "Thank you!" in _shown(at)
    db = make_engine(url)
    assert repo.load_responses(db, code, "vapoosh_post_short")[SURVEY_ITEM] == ANSWER
    db.dispose()
    runtime._database(url).dispose()

    streams = capfd.readouterr()
    output = {"stdout": streams.out.encode(), "stderr": streams.err.encode()}
    files = _files(lab) | (_files(Path(url.removeprefix("sqlite:///")).parent)
                           if url.startswith("sqlite") else {})
    logged = {name: data for name, data in {**files, **output}.items()
              if name.endswith(("app.log", "stdout", "stderr"))}
    assert b"database fault" in b"".join(logged.values())  # the fault was logged ...
    assert _found({**files, **output}, "Logging error") == []  # ... and written somewhere
    assert [name for name in files if name.endswith("app.log")] or \
        b"cannot write the log" in output["stderr"]
    # ... without the tester's code or answer, in any log or stream
    assert _found(logged, ANSWER, code) == []

    assert main(["participant", "delete", code]) == 0
    capfd.readouterr()  # the command's own output names the code it was given
    files = _files(lab) | (_files(Path(url.removeprefix("sqlite:///")).parent)
                           if url.startswith("sqlite") else {})
    assert _found(files, ANSWER, code) == []
    at.run()  # the tester's tab, on its next click
    assert trouble.GONE_TITLE in _shown(at) and not at.exception


def test_the_issues_steps_on_a_served_app_leave_nothing_of_the_tester(tmp_path: Path) -> None:
    """Issue 25's reproduction on a real ``streamlit run``: hold ``BEGIN IMMEDIATE`` on
    ``playtest.sqlite`` past the busy timeout, submit the last survey page with a
    recognisable text, then ``playtest participant delete CODE``: nothing of it may
    remain in any file of the lab's folder, ``app.log`` and the server's output included.
    """
    folder = tmp_path / "lab"
    folder.mkdir()
    path = folder / "playtest.sqlite"
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    upgrade(engine)
    code = a_tester_at_the_last_survey_page(engine)
    engine.dispose()
    served = serve(folder, {"DATABASE_URL": url})

    holder = sqlite3.connect(path, isolation_level=None)

    def answer(page: Shown) -> list[WidgetState]:
        """The page is shown: another writer takes the database, the tester submits."""
        holder.execute("BEGIN IMMEDIATE")  # held until the submit has failed
        return [typed(page.widget(f"post-{code}::open::{SURVEY_ITEM}"), ANSWER),
                pressed(page.widget("FormSubmitter:"))]

    try:
        try:
            pages = visit(served.url, f"p={code}", [answer])
        finally:
            if holder.in_transaction:
                holder.execute("ROLLBACK")
            holder.close()
        assert trouble.CALM in pages[-1].text() and not pages[-1].exceptions
        done = subprocess.run([sys.executable, "-m", "playtest", "participant", "delete", code],
                              cwd=folder, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "DATABASE_URL": url})
        assert done.returncode == 0, done.stderr
    finally:
        served.stop()
    files = _files(folder)
    assert "playtest-logs/app.log" in files and b"database fault" in files["playtest-logs/app.log"]
    assert _found(files, ANSWER, code) == []
