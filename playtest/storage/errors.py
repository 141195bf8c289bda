"""Typed errors of the storage layer; every one carries a one-line, user-facing message.

>>> str(DatabaseUnavailable("cannot reach the database at sqlite:///x.sqlite: disk I/O error"))
'cannot reach the database at sqlite:///x.sqlite: disk I/O error'
"""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error this package raises on purpose (the CLI prints it as one line)."""


class DatabaseUnavailable(StorageError):
    """The database behind ``DATABASE_URL`` cannot be reached or opened."""


class WriteFailed(StorageError):
    """The database refused a write (locked past the busy timeout, disk full, gone);
    nothing of that write is stored."""


class TooFast(WriteFailed):
    """A tester's input came faster than the per-tester limit (:mod:`playtest.rate_limit`);
    nothing of it is stored."""


class NotFound(StorageError):
    """A study, participant, session or game that does not exist."""


class ConflictError(StorageError):
    """A write that contradicts what is already stored (e.g. another action at an index)."""


class ImportRejected(StorageError):
    """An import file failed validation; nothing of it was stored.

    ``problems`` lists ``(line_number, message)`` pairs, line numbers starting at 1.
    """

    def __init__(self, path: str, problems: list[tuple[int, str]]) -> None:
        self.path = path
        self.problems = problems
        first_line, first_message = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(
            f"{path}:{first_line}: {first_message}{more}; nothing of this file was stored"
        )
