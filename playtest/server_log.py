"""The server's log without tester data: what an error says is kept, what a tester wrote is not.

A database error's text can hold what a tester typed: SQLAlchemy appends the statement's
parameters (``[parameters: ('<code>', …, '"<answer>"')]``), PostgreSQL adds the failing
row (``DETAIL: Failing row contains (…)``) or a key (``Key (participant_id)=(…)``), and
our own errors quote the code they did not find (``no participant '…'``). So no
exception's text reaches a log as it is, whichever logger writes it (ours, Streamlit's,
uvicorn's) and wherever it goes (``app.log``, standard error):

- engines are made with ``hide_parameters=True`` (:mod:`playtest.storage.db`);
- :func:`install` replaces how every log record renders its exception
  (:func:`safe_traceback`: the frames as Python prints them, and for each exception its
  type and :func:`safe_message`: the first line of its text, with every quoted value
  replaced by ``'…'`` unless it names a database object, and a statement's SQL, which
  holds ``?``/``%(name)s`` placeholders, never values); exceptions passed as a log
  argument are rendered the same way, and so are uncaught ones (``sys.excepthook``,
  ``threading.excepthook``);
- :class:`LogFile` writes ``app.log`` (created readable by its owner only) and, when the
  file cannot be written (a full disk, a folder gone), writes the record to standard
  error instead, with one line saying so, never Python's "--- Logging error ---" block.

>>> safe_message(KeyError("eZn9Excx_DE7yL3HXq6Crg"))
"'…'"
>>> safe_message(ValueError('duplicate key value violates unique constraint "events_pkey"\\n'
...                         'DETAIL:  Key (participant_id)=(eZn9Excx) already exists.'))
'duplicate key value violates unique constraint "events_pkey"'
>>> safe_message(ValueError('invalid input syntax for type integer: "my secret"'))
'invalid input syntax for type integer: "…"'
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

#: Words after which a quoted name is a database object's (kept), not a value (hidden).
_OBJECT_WORDS = ("constraint", "relation", "table", "column", "index", "type", "schema",
                 "database", "role", "function", "sequence", "savepoint", "view",
                 "trigger", "extension", "operator", "collation", "domain")
_QUOTED = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
_OBJECT_BEFORE = re.compile("(?:" + "|".join(_OBJECT_WORDS) + ") $", re.IGNORECASE)
_MAX_LINE = 500
_MAX_SQL = 2000
HIDDEN = "…"


def _hide_values(line: str) -> str:
    """Quoted values replaced by ``'…'``; quoted database object names kept.

    >>> _hide_values('null value in column "x" of relation "responses" violates not-null constraint')
    'null value in column "x" of relation "responses" violates not-null constraint'
    >>> _hide_values("no participant 'AbC-123' in study 's1'")
    "no participant '…' in study '…'"
    """
    def replace(match: re.Match[str]) -> str:
        quote = match.group(0)[0]
        if _OBJECT_BEFORE.search(line, 0, match.start()) and \
                re.fullmatch(r"[\"'][A-Za-z_][A-Za-z0-9_$.]{0,62}[\"']", match.group(0)):
            return match.group(0)
        return f"{quote}{HIDDEN}{quote}"

    return _QUOTED.sub(replace, line)


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= _MAX_LINE else line[:_MAX_LINE] + HIDDEN


def safe_message(exc: BaseException) -> str:
    """What may be logged of ``exc``'s own text (see the module docstring).

    >>> from sqlalchemy.exc import OperationalError
    >>> err = OperationalError("INSERT INTO responses (value) VALUES (?)", ("my answer",),
    ...                        Exception("database is locked"))
    >>> print(safe_message(err))
    (Exception) database is locked
    [SQL: INSERT INTO responses (value) VALUES (?)]
    """
    try:
        from sqlalchemy.exc import StatementError
    except ImportError:  # pragma: no cover - SQLAlchemy is a dependency
        StatementError = ()  # type: ignore[assignment,misc]  # noqa: N806
    if isinstance(exc, StatementError):
        orig = exc.orig
        head = (f"({type(orig).__module__.split('.')[0]}.{type(orig).__name__}) "
                if orig is not None and type(orig).__module__ != "builtins"
                else f"({type(orig).__name__}) " if orig is not None else "")
        inner = _hide_values(_first_line(str(orig))) if orig is not None else ""
        statement = (exc.statement or "").strip()
        if len(statement) > _MAX_SQL:
            statement = statement[:_MAX_SQL] + HIDDEN
        return f"{head}{inner}" + (f"\n[SQL: {statement}]" if statement else "")
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - an exception whose str() fails
        return ""
    return _hide_values(_first_line(text))


def _exception_line(exc: BaseException) -> str:
    kind = type(exc)
    name = kind.__qualname__ if kind.__module__ in ("builtins", "__main__") \
        else f"{kind.__module__}.{kind.__qualname__}"
    message = safe_message(exc)
    return f"{name}: {message}" if message else name


def safe_traceback(exc: BaseException) -> str:
    """The traceback Python would print for ``exc`` (its causes first), with each
    exception's text as :func:`safe_message` gives it.

    >>> try:
    ...     raise LookupError("no participant 'AbC-123'")
    ... except LookupError as err:
    ...     text = safe_traceback(err)
    >>> text.splitlines()[0], text.splitlines()[-1]
    ('Traceback (most recent call last):', "LookupError: no participant '…'")
    """
    chain: list[tuple[BaseException, str]] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    link = ""
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append((current, link))
        if current.__cause__ is not None:
            current, link = current.__cause__, (
                "\nThe above exception was the direct cause of the following exception:\n")
        elif current.__context__ is not None and not current.__suppress_context__:
            current, link = current.__context__, (
                "\nDuring handling of the above exception, another exception occurred:\n")
        else:
            current = None
    parts: list[str] = []
    for index, (error, _link) in enumerate(reversed(chain)):
        if index:
            parts.append(chain[len(chain) - index][1])
        if error.__traceback__ is not None:
            parts.append("Traceback (most recent call last):\n"
                         + "".join(traceback.format_tb(error.__traceback__)).rstrip("\n"))
        parts.append(_exception_line(error))
    return "\n".join(parts)


# -- every log record, every uncaught exception ------------------------------------------

_installed: list[Callable[..., logging.LogRecord]] = []
_install_lock = threading.Lock()


def _safe_record_factory(previous: Callable[..., logging.LogRecord]
                         ) -> Callable[..., logging.LogRecord]:
    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        info = record.exc_info
        if info and info[1] is not None:
            # Formatters use exc_text as it is when it is set: the safe rendering.
            record.exc_text = safe_traceback(info[1])
        if isinstance(record.args, tuple) and any(isinstance(a, BaseException)
                                                  for a in record.args):
            record.args = tuple(_exception_line(a) if isinstance(a, BaseException) else a
                                for a in record.args)
        return record

    return make


def _print_uncaught(kind: type[BaseException], value: BaseException | None,
                    tb: TracebackType | None, stream: TextIO | None = None) -> None:
    if value is None:
        value = kind()
    if value.__traceback__ is None and tb is not None:
        value = value.with_traceback(tb)
    out = stream or sys.stderr
    if out is not None:
        out.write(safe_traceback(value) + "\n")
        out.flush()


def _thread_hook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    if sys.stderr is not None:
        sys.stderr.write(f"Exception in thread {name}:\n")
    _print_uncaught(args.exc_type, args.exc_value, args.exc_traceback)


def install() -> None:
    """Make every log record and uncaught exception of this process render its
    exception safely (idempotent; see the module docstring)."""
    with _install_lock:
        if _installed:
            return
        previous = logging.getLogRecordFactory()
        logging.setLogRecordFactory(_safe_record_factory(previous))
        _installed.append(previous)
        sys.excepthook = _print_uncaught
        threading.excepthook = _thread_hook


def installed() -> bool:
    return bool(_installed)


# -- the log file, and standard error when it cannot be written ------------------------------

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class LogFile(logging.handlers.RotatingFileHandler):
    """``app.log``, rotated; records it cannot write go to standard error instead.

    The file is opened when the first record comes (a folder that cannot be made or
    written is no error at start) and made readable by its owner only. A record that
    fails (``OSError``: no space left, a read-only or vanished folder) is written to
    standard error, after one line saying the file cannot be written; the next record
    tries the file again, and a line says when it works again.
    """

    def __init__(self, path: Path, *, max_bytes: int = 5_000_000, backups: int = 3) -> None:
        super().__init__(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8",
                         delay=True)
        self.setFormatter(logging.Formatter(FORMAT))
        self._failing = False

    def _open(self) -> Any:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        return os.fdopen(descriptor, "a", encoding=self.encoding, errors=self.errors)

    def emit(self, record: logging.LogRecord) -> None:
        super().emit(record)  # its failures come to handleError
        if self._failing and self.stream is not None:
            self._failing = False
            _to_stderr(f"playtest: writing the log {self.baseFilename} again")

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        error = sys.exc_info()[1]
        stream, self.stream = self.stream, None  # the next record opens the file afresh
        if stream is not None:
            # its unwritten buffer is what failed: that record goes to standard error below
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        if not self._failing:
            self._failing = True
            reason = _exception_line(error) if error is not None else "unknown error"
            _to_stderr(f"playtest: cannot write the log {self.baseFilename} ({reason}); "
                       "writing it to standard error until it can")
        with contextlib.suppress(Exception):  # logging must never raise into the app
            _to_stderr(self.format(record))


def say(line: str) -> None:
    """One line to standard error (the server's terminal or journal), flushed."""
    _to_stderr(line)


def _to_stderr(line: str) -> None:
    if sys.stderr is not None:
        try:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
