"""What a board says, as values: a :class:`Say` (a catalog key with its values and voice,
from a game's rules of what to say) becomes a :class:`Shown` (the text a tester reads, in
their wording of the message) once it is rendered with the game's catalog.

A board may show several things at once, each in its own ``slot`` (the main message, the
last move, why forced tiles appeared, the result…); every showing is logged as a
``message`` event (telemetry-format.md) by the game session.

>>> from playtest.messages.catalog import MessageCatalog
>>> catalog = MessageCatalog.from_obj({"variants": ["default", "formal"], "messages": {
...     "wall": {"tone": "good", "values": ["name"], "variants": {
...         "default": "Wall, {name}!", "formal": "{name} formed a wall."}}}})
>>> say = Say("wall", {"name": "you"})
>>> render(catalog, say, {"wall": "formal"}).text
'You formed a wall.'
>>> render(catalog, say, {}).variant, render(catalog, say, {"wall": "Well done {name}"}).text
('default', 'Well done you')
>>> render(catalog, Say("nope", fallback_text="Something happened."), {}).text
'Something happened.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playtest.messages.catalog import MessageCatalog, MessageError

#: The slot of a board's main message line.
MAIN = "message"


@dataclass(frozen=True)
class Say:
    """Something the board says: catalog ``key`` (None: nothing) with the ``values`` its
    text needs, the ``voice`` that tells it (``seat``, ``you``, ``computer``), whether a
    computer's move caused it, words to show when the catalog has no such message, its
    ``slot`` on the board and whether it goes away after a while (``transient``)."""

    key: str | None
    values: Mapping[str, Any] = field(default_factory=dict)
    computer: bool = False
    fallback_text: str = ""
    voice: str = "seat"
    slot: str = MAIN
    transient: bool = False


@dataclass(frozen=True)
class Shown:
    """A message as the tester reads it: its key, the wording (a catalog variant, a study's
    own text, or ``fallback``), the text, tone, sound and slot."""

    key: str
    variant: str
    text: str
    tone: str
    sound: str | None
    slot: str = MAIN
    transient: bool = False

    def props(self, ms_visible: int | None) -> dict[str, Any]:
        """The ``message`` event's props (telemetry-format.md)."""
        return {"key": self.key, "variant": self.variant, "text": self.text,
                "ms_visible": ms_visible}


def render(catalog: MessageCatalog, say: Say, wording: Mapping[str, str]) -> Shown:
    """``say`` in the tester's ``wording`` (message key → catalog variant or a study's own
    text); the fallback words when the catalog cannot render it."""
    assert say.key is not None, "a Say without a key shows nothing"
    try:
        message = catalog.say(say.key, wording.get(say.key, "default"), voice=say.voice,
                              **say.values)
    except MessageError:
        return Shown(say.key, "fallback", say.fallback_text, "warn", "wrong", say.slot,
                     say.transient)
    return Shown(say.key, message.variant, message.text, message.tone, message.sound,
                 say.slot, say.transient)
