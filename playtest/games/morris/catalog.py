"""The Bricks & Walls message catalog (``messages.yaml`` beside this file), checked by the
lab's catalog checker when loaded.

>>> catalog = load_catalog()
>>> catalog.render("wall", name="White", enemy_of="Black's").text
"Wall! Take one of Black's bricks."
>>> catalog.render("refused_walled").text
'That brick is in a wall: take another one.'
>>> refusal_key("walled"), refusal_key("no_such_reason")
('refused_walled', 'refused_other')
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from playtest.messages.catalog import MessageCatalog, refused_key
from playtest.messages.catalog import load_catalog as load_catalog_file

CATALOG_PATH: Final = Path(__file__).resolve().parent / "messages.yaml"

#: The engine's refusal reasons (engine/morris/state.py) that have their own message.
REFUSAL_REASONS: Final = (
    "occupied",
    "not_adjacent",
    "no_moves",
    "walled",
    "remove_own",
    "remove_empty",
    "not_yours",
    "select_first",
    "removal_pending",
    "game_over",
)
#: Why a game ends (engine/morris/state.py), each with the end screen's words.
END_REASONS: Final = ("wall", "bricks", "blocked", "move_cap")
REQUIRED_KEYS: Final = frozenset(
    {
        "place_turn",
        "move_turn",
        "fly_turn",
        "selected",
        "wall",
        "wall_nothing",
        "computer_thinking",
        "placed",
        "moved",
        "removed",
        "skipped",
        "win",
        "draw",
        "refused_other",
        *(f"refused_{r}" for r in REFUSAL_REASONS),
        *(f"end_{r}" for r in END_REASONS),
    }
)


def refusal_key(reason: str) -> str:
    """The catalog key of an engine refusal reason (``refused_other`` for the rest)."""
    return refused_key(reason, REFUSAL_REASONS)


def load_catalog() -> MessageCatalog:
    """The catalog shipped beside this module (checked; parsed once per process)."""
    return load_catalog_file(CATALOG_PATH, REQUIRED_KEYS)
