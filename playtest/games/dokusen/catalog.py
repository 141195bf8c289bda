"""The Dokusen message catalog (``messages.yaml`` beside this file), checked by the lab's
catalog checker when loaded.

>>> catalog = load_catalog()
>>> catalog.render("stage_won", count=13, total=25).text
'You have 13 of the 25 squares: over half!'
>>> refusal_key("void"), refusal_key("no_such_reason")
('refused_void', 'refused_other')
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from playtest.messages.catalog import GameCatalog

#: The catalog beside this module: the keys its screen needs, and a ``refused_<reason>``
#: message for each of the engine's click refusals (engine/dokusen/state.py ``click``).
CATALOG: Final = GameCatalog(
    Path(__file__).resolve().parent / "messages.yaml",
    frozenset({"your_turn", "computer_turn", "meteor_falling", "grew", "grew_against_you",
               "meteor_hit", "stage_won", "stage_lost", "rival_placed"}),
    refusals=("own_square", "void", "not_your_turn", "game_over"))
REFUSAL_REASONS: Final = CATALOG.refusals
REQUIRED_KEYS: Final = CATALOG.required_keys
load_catalog = CATALOG.load
refusal_key = CATALOG.refusal_key
