"""Vapoosh!'s message catalog (``catalog.yaml`` beside this file): the keys its screen must
have, and the catalog key of each wrong click the engine classifies (``classify_click``).

>>> catalog = load_catalog()
>>> catalog.render("extra_turn", seat=2).text
'Extra go!'
>>> catalog.render("extra_turn", "formal", seat=2).text
"Player 2's EXTRA turn"
>>> wrong_click_key("rule", "empty_priority"), wrong_click_key("arithmetic", None)
('wrong_rule_empty_priority', 'wrong_arithmetic')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from playtest.messages.catalog import MessageCatalog, UnknownKeyError
from playtest.messages.catalog import load_catalog as load_catalog_file

CATALOG_PATH: Final = Path(__file__).resolve().parent / "catalog.yaml"

# Every situation the game screen must be able to announce (issue 5).
REQUIRED_KEYS: Final[frozenset[str]] = frozenset(
    {
        "turn",
        "turn_computer",
        "place_prompt",
        "computer_moved",
        "placed",
        "extra_turn",
        "square_roll",
        "quad",
        "miss_turn",
        "skip",
        "blocked_own",
        "blocked",
        "reroll",
        "suicide",
        "vapooh",
        "vapooh_compulsory",
        "brown",
        "vapoosh",
        "capture",
        "surround",
        "win_row",
        "win_square",
        "draw",
        "wrong_rule_empty_priority",
        "wrong_rule_suicide",
        "wrong_rule_own_tile",
        "wrong_rule_brown",
        "wrong_same_product",
        "wrong_near_miss",
        "wrong_arithmetic",
    }
)
# classify_click's (kind, rule_reason) -> catalog key
WRONG_CLICK_KEYS: Final[Mapping[tuple[str, str | None], str]] = {
    ("rule", "empty_priority"): "wrong_rule_empty_priority",
    ("rule", "suicide"): "wrong_rule_suicide",
    ("rule", "own_tile"): "wrong_rule_own_tile",
    ("rule", "brown"): "wrong_rule_brown",
    ("same_product", None): "wrong_same_product",
    ("near_miss", None): "wrong_near_miss",
    ("arithmetic", None): "wrong_arithmetic",
}


def load_catalog() -> MessageCatalog:
    """The game's catalog (checked for :data:`REQUIRED_KEYS`; parsed once per process)."""
    return load_catalog_file(CATALOG_PATH, REQUIRED_KEYS)


def wrong_click_key(kind: str, rule_reason: str | None) -> str:
    """The catalog key of a wrong click the engine classified (UnknownKeyError if none)."""
    try:
        return WRONG_CLICK_KEYS[(kind, rule_reason if kind == "rule" else None)]
    except KeyError:
        raise UnknownKeyError(
            f"no wrong-click message for kind {kind!r}, reason {rule_reason!r}") from None
