"""Process-wide resources of the Streamlit app: one database engine, one event logger, the log.

They are kept per process, keyed by ``DATABASE_URL`` so a changed URL (as in tests) gets
its own engine. The database is migrated to the latest
schema the first time, so a fresh install and an upgraded one both just start.

Server-side problems (database faults, failed designer sign-ins) are written to
:func:`log_file`: ``playtest-logs/app.log`` next to a SQLite database file, else in the
working folder, or in ``$PLAYTEST_LOG_DIR``. Visitors never see them.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from sqlalchemy.engine import Engine, make_url

from playtest import server_log, serving
from playtest.settings import LOG_DIR_ENV as LOG_DIR_ENV  # re-exported (tests, docs)
from playtest.settings import database_url_now as database_url
from playtest.settings import load_settings
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger
from playtest.storage.privacy import deletion_mark
from playtest.storage.rate_limit import TesterRate

log = logging.getLogger("playtest.app")

# A tester's every rerun asks for these several times: a dict lookup keyed by the URL
# (``st.cache_resource`` took ~0.5 ms per call in hashing its argument and replaying its
# messages, measured under the load test). They are process-wide resources, the same for
# every session; nothing of a tester is kept here.
_resources_lock = threading.Lock()
_engines: dict[str, Engine] = {}
_loggers: dict[str, EventLogger] = {}


def _database(url: str) -> Engine:
    """The process's engine for ``url``, migrated to the newest schema the first time."""
    engine = _engines.get(url)
    if engine is not None:
        return engine
    with _resources_lock:  # one migration per URL, the other threads wait for it
        engine = _engines.get(url)
        if engine is None:
            engine = make_engine(url)
            upgrade(engine)
            _engines[url] = engine
        return engine


def _event_logger(url: str) -> EventLogger:
    logger = _loggers.get(url)
    if logger is not None:
        return logger
    engine = _database(url)
    with _resources_lock:
        logger = _loggers.get(url)
        if logger is None:
            # a tester's input, limited (PLAYTEST_INPUT_LIMIT)
            logger = EventLogger(engine, limit=TesterRate.from_setting(
                load_settings().input_limit, applies=_in_a_page_run))
            _loggers[url] = logger
        return logger


def _in_a_page_run() -> bool:
    """Whether this thread runs a visitor's page (a Streamlit script run, its callbacks
    included): what it stores is that visitor's input."""
    from playtest.streamlit_private import in_a_script_run

    return in_a_script_run()


def database() -> Engine:
    url = database_url()
    engine = _database(url)
    _forget_if_deleted(url, engine)
    return engine


def event_logger() -> EventLogger:
    return _event_logger(database_url())


#: How often a process asks whether a tester was deleted (by ``playtest participant
#: delete``, in another process): at most this long after it, the process drops what it
#: keeps of testers in memory.
DELETION_CHECK_S = 5.0
_deletion_seen: dict[str, tuple[float, str | None]] = {}  # url -> (asked at, mark)


def _forget_if_deleted(url: str, engine: Engine, now: float | None = None) -> bool:
    """Every :data:`DELETION_CHECK_S` at most, read the database's deletion mark
    (:func:`playtest.storage.privacy.deletion_mark`); when it changed since, drop this
    process's copies of tester data: the event logger's codes and input buckets, the
    dashboard's snapshots held in memory. True when it dropped them."""
    at = time.monotonic() if now is None else now
    seen = _deletion_seen.get(url)
    if seen is not None and at - seen[0] < DELETION_CHECK_S:
        return False
    try:
        mark = deletion_mark(engine)
    except Exception:  # noqa: BLE001 - a fault here is the page's to meet, not this check's
        return False
    _deletion_seen[url] = (at, mark)
    if seen is None or seen[1] == mark:
        return False
    logger = _loggers.get(url)
    if logger is not None:
        logger.forget()
    from playtest import study_snapshot  # pandas and pyarrow: only when needed

    study_snapshot.forget()
    log.info("a tester was deleted: this process dropped its copies of tester data")
    return True


def log_file(url: str | None = None) -> Path:
    """Where the app's server-side log goes (see the module docstring).

    >>> log_file("sqlite:////srv/lab/playtest.sqlite").as_posix()
    '/srv/lab/playtest-logs/app.log'
    """
    configured = load_settings().log_dir
    if configured is not None:
        return configured / "app.log"
    folder = Path.cwd()
    try:
        parsed = make_url(url or database_url())
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            folder = Path(parsed.database).resolve().parent
    except Exception:  # noqa: BLE001 - an unparseable URL: the working folder
        pass
    return folder / "playtest-logs" / "app.log"


_handler: list[logging.Handler] = []  # the one file handler this module installed
_where: list[tuple[tuple[str, str, str], Path]] = []  # what it was made for


def configure_logging() -> Path:
    """Send the ``playtest`` loggers to :func:`log_file` (one file at a time: when the
    database, and so the file, changes, the old handler is closed), and make every log
    record of this process free of tester data (:mod:`playtest.server_log`). A file that
    cannot be written sends its records to standard error instead."""
    # The variables themselves, not load_settings() (which reads the secrets file too).
    where = (database_url(), os.environ.get(LOG_DIR_ENV, ""), os.getcwd())
    if _where and _where[0][0] == where:  # every run asks: answer at once if nothing changed
        return _where[0][1]
    server_log.install()
    path = log_file()
    current = _handler[0] if _handler else None
    if isinstance(current, logging.FileHandler) and Path(current.baseFilename) == path.resolve():
        _where[:] = [(where, path)]
        return path
    handler = server_log.LogFile(path)
    logger = logging.getLogger("playtest")
    if current is not None:
        logger.removeHandler(current)
        current.close()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    _handler[:] = [handler]
    _where[:] = [(where, path)]
    return path


_served: list[tuple[str, ...]] = []  # this server process's refusals, once checked
_served_lock = threading.Lock()


def refusals_to_serve() -> tuple[str, ...]:
    """Once per process, inside a ``streamlit run`` server: make the files it creates
    its owner's only (umask 077: the database and its ``-wal``/``-shm``, the dashboard's
    cache, the log), and check its Streamlit settings (:mod:`playtest.serving`). Returns
    why it must not serve (empty: it may); each reason is logged and printed loudly
    once. Outside a server (``AppTest``, bare mode) it checks nothing."""
    if _served:
        return _served[0]
    with _served_lock:
        if _served:
            return _served[0]
        refused: tuple[str, ...] = ()
        if serving.under_server():
            os.umask(0o077)
            problems, notes = serving.streamlit_check()
            configure_logging()
            for note in notes:
                log.warning("%s", note)
                server_log.say(f"playtest: {note}")
            for problem in problems:
                log.error("refusing to serve: %s", problem)
                server_log.say(f"playtest: REFUSING TO SERVE: {problem} (start the app "
                               "with `playtest serve`)")
            refused = tuple(problems)
        _served.append(refused)
        return refused
