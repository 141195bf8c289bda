"""The Dokusen message catalog (``messages.yaml`` beside this file), checked by the lab's
catalog checker when loaded.

>>> catalog = load_catalog()
>>> catalog.render("stage_won", count=13, total=25).text
'Stage won! You own 13 of 25 squares.'
>>> refusal_key("void"), refusal_key("no_such_reason")
('refused_void', 'refused_other')
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from playtest.messages.catalog import MessageCatalog, refused_key
from playtest.messages.catalog import load_catalog as load_catalog_file

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
    return refused_key(reason, REFUSAL_REASONS)


def load_catalog() -> MessageCatalog:
    """The catalog shipped beside this module (checked; parsed once per process)."""
    return load_catalog_file(CATALOG_PATH, REQUIRED_KEYS)
