"""What the game screen says: a checked YAML catalog of wordings per game, and the speed
table."""

from __future__ import annotations

from playtest.messages.catalog import (
    CatalogError,
    Message,
    MessageCatalog,
    MessageError,
    MissingValueError,
    UnknownKeyError,
    UnknownVariantError,
    load_catalog,
)
from playtest.messages.speeds import SPEEDS, Speed, speed

__all__ = [
    "SPEEDS",
    "CatalogError",
    "Message",
    "MessageCatalog",
    "MessageError",
    "MissingValueError",
    "Speed",
    "UnknownKeyError",
    "UnknownVariantError",
    "load_catalog",
    "speed",
]
