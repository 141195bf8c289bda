"""Speed settings (seed 000): how long the computer "thinks" and messages stay up.

>>> SPEEDS[3].think_s, SPEEDS[3].message_s, SPEEDS[3].message_ms
(2.0, 3.0, 3000)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from playtest.i18n import N_


@dataclass(frozen=True)
class Speed:
    """One speed setting of the single-player game."""

    level: int
    name: str
    think_s: float
    message_s: float

    @property
    def message_ms(self) -> int:
        """Message duration for `board_view(message_ms=...)`."""
        return int(self.message_s * 1000)


SPEEDS: Final[dict[int, Speed]] = {
    1: Speed(1, N_("slow"), 3.0, 7.0),
    2: Speed(2, N_("medium"), 3.0, 5.0),
    3: Speed(3, N_("fast"), 2.0, 3.0),
}


def speed(level: int) -> Speed:
    """The setting for speed 1, 2 or 3 (ValueError otherwise)."""
    try:
        return SPEEDS[level]
    except KeyError:
        raise ValueError(f"speed must be 1, 2 or 3, got {level!r}") from None
