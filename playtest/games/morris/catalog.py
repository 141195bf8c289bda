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

from playtest.messages.catalog import GameCatalog

#: Why a game ends (engine/morris/state.py), each with the end screen's words.
END_REASONS: Final = ("wall", "bricks", "blocked", "move_cap")
#: The catalog beside this module: the keys its screen needs, the end screen's reasons, and
#: a ``refused_<reason>`` message for each refusal the engine gives a click.
CATALOG: Final = GameCatalog(
    Path(__file__).resolve().parent / "messages.yaml",
    frozenset({"place_turn", "move_turn", "fly_turn", "selected", "wall", "wall_nothing",
               "computer_thinking", "placed", "moved", "removed", "skipped", "win", "draw",
               *(f"end_{r}" for r in END_REASONS)}),
    refusals=("occupied", "not_adjacent", "no_moves", "walled", "remove_own", "remove_empty",
              "not_yours", "select_first", "removal_pending", "game_over"))
REFUSAL_REASONS: Final = CATALOG.refusals
REQUIRED_KEYS: Final = CATALOG.required_keys
load_catalog = CATALOG.load
refusal_key = CATALOG.refusal_key
