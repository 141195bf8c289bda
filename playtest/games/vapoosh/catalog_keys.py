"""The keys the dice-and-tiles game screen's catalog must have, and the catalog key of
each wrong click the engine classifies (``classify_click``): what
:mod:`playtest.messages.catalog` checks the first game's catalog against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

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
