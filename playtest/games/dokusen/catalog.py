"""The Dokusen message catalog (``messages.yaml`` beside this file), checked by the lab's
catalog checker when loaded.

>>> catalog = load_catalog()
>>> catalog.render("stage_won", count=13, total=25).text
'Stage won! You own 13 of 25 squares.'
>>> refusal_key("void"), refusal_key("no_such_reason")
('refused_void', 'refused_other')
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import yaml

from playtest.messages.catalog import MessageCatalog

CATALOG_PATH: Final = Path(__file__).resolve().parent / "messages.yaml"

#: The engine's click refusals (engine/dokusen/state.py ``click``) with their own message.
REFUSAL_REASONS: Final = ("own_square", "void", "not_your_turn", "game_over")
REQUIRED_KEYS: Final = frozenset(
    {
        "your_turn",
        "computer_turn",
        "meteor_falling",
        "grew",
        "grew_against_you",
        "meteor_hit",
        "stage_won",
        "stage_lost",
        "refused_other",
        *(f"refused_{r}" for r in REFUSAL_REASONS),
    }
)


def refusal_key(reason: str) -> str:
    """The catalog key of an engine refusal reason (``refused_other`` for the rest)."""
    return f"refused_{reason}" if reason in REFUSAL_REASONS else "refused_other"


def read_catalog(path: Path) -> MessageCatalog:
    """Load and check a catalog file (raises ``CatalogError`` naming file, key and field)."""
    with path.open(encoding="utf-8") as fh:
        obj = yaml.safe_load(fh)
    return MessageCatalog.from_obj(obj, source=path.name, required=REQUIRED_KEYS)


@functools.cache
def load_catalog() -> MessageCatalog:
    """The catalog shipped beside this module (loaded once per process)."""
    return read_catalog(CATALOG_PATH)
