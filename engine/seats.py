"""Who plays a seat: a person or the computer at a named level, parsed once.

A study lists its seats as text (``"human"``, ``"ai:<level>"``), and so does every
``game_start`` event (telemetry-format.md). Every layer reads them through
:meth:`Seat.parse` and writes them back with ``str()``; nothing else compares the text.

>>> seat = Seat.parse("ai:hard")
>>> seat.is_computer, seat.level, str(seat)
(True, 'hard', 'ai:hard')
>>> Seat.parse("human").is_human, str(Seat.human())
(True, 'human')
>>> [str(s) for s in parse_seats(["human", "ai:easy"])]
['human', 'ai:easy']
>>> Seat.parse("ai:")
Traceback (most recent call last):
...
engine.seats.SeatError: seat 'ai:' names no computer level: a seat is 'human' or 'ai:<level>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

__all__ = ["HUMAN", "Seat", "SeatError", "parse_seats"]

HUMAN: Final = "human"
_LEVEL: Final = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_USE: Final = "a seat is 'human' or 'ai:<level>'"


class SeatError(ValueError):
    """A seat text that is not ``human`` or ``ai:<level>``."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: a person (``level is None``) or the computer at ``level``."""

    level: str | None = None

    @classmethod
    def parse(cls, text: object) -> Seat:
        """The seat written ``text`` (raises :class:`SeatError` saying why not)."""
        if text == HUMAN:
            return cls()
        if isinstance(text, str) and text.startswith("ai:"):
            level = text[3:]
            if not level:
                raise SeatError(f"seat {text!r} names no computer level: {_USE}")
            if not _LEVEL.match(level):
                raise SeatError(f"seat {text[:40]!r}: a computer level is 1 to 32 lower-case "
                                "letters, digits or '_'")
            return cls(level)
        raise SeatError(f"unknown seat {str(text)[:40]!r}: {_USE}")

    @classmethod
    def human(cls) -> Seat:
        return cls()

    @classmethod
    def computer(cls, level: str) -> Seat:
        return cls.parse(f"ai:{level}")

    @property
    def is_human(self) -> bool:
        return self.level is None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def __str__(self) -> str:
        return HUMAN if self.level is None else f"ai:{self.level}"


def parse_seats(texts: Iterable[object]) -> tuple[Seat, ...]:
    """Every seat of a list written as text, in order."""
    return tuple(Seat.parse(t) for t in texts)
