"""Vasco's message catalog (``messages.yaml``) and which message each engine outcome needs.

>>> catalog = load_vasco_catalog()
>>> catalog.render("wrong_dead_cell", cell="0,1").tone
'warn'
>>> refusal_message_key("not_connected")
'wrong_not_connected'
>>> auto_message_key(2), end_message_key("loop", winner=2, mover=1)
('forced_gap', 'win_loop_by_opponent')
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Final

import yaml

from engine.vasco import REASONS
from playtest.messages.catalog import MessageCatalog

PATH: Final = Path(__file__).resolve().parent / "messages.yaml"

#: Every refusal the engine can give a click has a message (``game_over``,
#: ``not_your_turn`` and ``bad_tile`` cannot come from the board's own clicks).
REFUSAL_KEYS: Final[dict[str, str]] = {
    reason: f"wrong_{reason}"
    for reason in REASONS
    if reason not in ("game_over", "not_your_turn", "bad_tile")
}

REQUIRED_KEYS: Final[frozenset[str]] = frozenset(
    {
        "turn",
        "turn_computer",
        "pick_tile",
        "placed",
        "forced_hole",
        "forced_gap",
        "forced_channel",
        "forced_many",
        "win_loop",
        "win_loop_by_opponent",
        "both_loops",
        "tiles_out",
        "no_move",
        "draw",
        *REFUSAL_KEYS.values(),
    }
)


@functools.cache
def load_vasco_catalog(path: str | None = None) -> MessageCatalog:
    """Load and check the catalog (every required key, variant and placeholder)."""
    source = Path(path) if path else PATH
    obj: Any = yaml.safe_load(source.read_text("utf-8"))
    return MessageCatalog.from_obj(obj, source=str(source), required=REQUIRED_KEYS)


def refusal_message_key(reason: str) -> str:
    """The message for an engine refusal code."""
    return REFUSAL_KEYS[reason]


def auto_message_key(constrained: int) -> str:
    """The message saying why a forced tile appeared (its fixed edges before it)."""
    return {3: "forced_hole", 2: "forced_gap"}.get(constrained, "forced_channel")


def end_message_key(reason: str, *, winner: int | None, mover: int) -> str:
    """The message announcing the end (``reason`` as in engine.vasco.board.Outcome)."""
    if winner is None:
        return "draw"
    if reason == "loop":
        return "win_loop" if winner == mover else "win_loop_by_opponent"
    return {"both_loops": "both_loops", "pool_empty": "tiles_out"}.get(reason, "no_move")
