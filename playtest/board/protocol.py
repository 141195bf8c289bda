"""The board shell's protocol (no Streamlit): the inputs the browser sends, checked, and the
gate that decides which reach the game.

The shell's front end (``static/shell.js``) sends every input not yet acknowledged in one
trigger, ``input``::

    {"inputs": [{"kind": "click", "target": "d5", "hold": ["d6"], "nonce": "<uuid>",
                 "ms": 2140, "via": "mouse" | "touch" | "pen" | "keyboard",
                 "token": "<position>"},
                {"kind": "draw", "nonce": …, "ms": …, "via": …, "token": …},
                {"kind": "mute", "value": true, "nonce": …}]}

``target`` is what the click chose, in the game's own words (a tile ``"5,8"``, a point
``"d5"``, a tile preview ``"ox*"``); ``hold`` what the click held with it (the brick
selected before the browser heard back, a brown counter); ``ms`` counts from the moment
the position appeared. Bounds of what a browser sends (hand-made messages beyond them are
refused, issue 11): ids of up to 128 characters, targets of up to 32 of a small alphabet,
at most :data:`MAX_INPUTS` inputs a trigger.

>>> parse_inputs({"inputs": [{"kind": "click", "target": "5,8", "nonce": "n", "ms": 12.6,
...                           "via": "touch", "token": "g:3"}]})[0]
BoardInput(kind='click', nonce='n', token='g:3', ms=13, via='touch', target='5,8', hold=None, value=None)
>>> parse_inputs({"inputs": [{"kind": "click", "target": "<img src=x>", "nonce": "n"}]})
Traceback (most recent call last):
...
playtest.board.protocol.BoardEventError: input.target: '<img src=x>' is not a target
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

KINDS: Final = ("click", "draw", "mute")
#: How an input was made.
VIAS: Final = ("mouse", "touch", "pen", "keyboard")
#: Inputs read from one trigger; further ones are dropped unread.
MAX_INPUTS: Final = 32
MAX_ID_CHARS: Final = 128
MAX_MS: Final = 2**31 - 1
_TARGET: Final = re.compile(r"^[A-Za-z0-9,:*._\-]{1,32}$")
_SEEN_MAX: Final = 512


class BoardEventError(ValueError):
    """A trigger payload that does not have the documented shape."""


@dataclass(frozen=True)
class BoardInput:
    """One input of the tester on the board, as the browser sent it (not yet judged)."""

    kind: str
    nonce: str
    token: str = ""
    ms: int = 0
    via: str = "mouse"
    target: str = ""
    hold: tuple[str, ...] | None = None
    value: bool | None = None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}…"


def _text(raw: Mapping[str, Any], name: str, *, required: bool = True) -> str:
    value = raw.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value or len(value) > MAX_ID_CHARS:
        raise BoardEventError(f"input.{name}: must be text of 1..{MAX_ID_CHARS} characters")
    return value


def _target(value: Any, name: str = "target") -> str:
    if not isinstance(value, str) or not _TARGET.match(value):
        raise BoardEventError(f"input.{name}: {_short(value)} is not a target")
    return value


def parse_input(raw: Any) -> BoardInput:
    """One input (raises :class:`BoardEventError` naming the field)."""
    if not isinstance(raw, Mapping):
        raise BoardEventError("input: each input must be an object")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise BoardEventError(f"input.kind: must be one of {KINDS}")
    nonce = _text(raw, "nonce")
    if kind == "mute":
        value = raw.get("value")
        if not isinstance(value, bool):
            raise BoardEventError("input.value: a mute input is true or false")
        return BoardInput("mute", nonce, value=value)
    ms = raw.get("ms", 0)
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not math.isfinite(ms):
        raise BoardEventError("input.ms: must be a number")
    via = raw.get("via", "mouse")
    if via not in VIAS:
        raise BoardEventError(f"input.via: must be one of {VIAS}")
    token = _text(raw, "token", required=False)
    stamp = {"token": token, "ms": int(round(min(max(ms, 0), MAX_MS))), "via": str(via)}
    if kind == "draw":
        return BoardInput("draw", nonce, **stamp)  # type: ignore[arg-type]
    hold = raw.get("hold")
    if hold is not None:
        if not isinstance(hold, list) or len(hold) > 4:
            raise BoardEventError("input.hold: a list of at most 4 targets")
        hold = tuple(_target(h, "hold") for h in hold)
    return BoardInput("click", nonce, target=_target(raw.get("target")), hold=hold,
                      **stamp)  # type: ignore[arg-type]


def parse_inputs(payload: Any) -> list[BoardInput]:
    """The inputs of one trigger (the first :data:`MAX_INPUTS`), checked in order."""
    if not isinstance(payload, Mapping) or not isinstance(payload.get("inputs"), list):
        raise BoardEventError("input: payload must be {'inputs': [...]}")
    return [parse_input(raw) for raw in payload["inputs"][:MAX_INPUTS]]


class EventGate:
    """Decides which inputs reach the game (pure; no Streamlit).

    ``shown(token, interactive)`` records the board just drawn; ``admit(nonce, token)``
    returns None to let an input through, or why it is dropped: ``"duplicate"`` (its
    nonce was seen: a re-sent input), ``"not_interactive"`` (the board shown took no
    input: the computer's turn, a dialog open, the game over), ``"stale"`` (made on an
    older position). A setting (token None) is only de-duplicated.

    >>> gate = EventGate()
    >>> gate.shown("t1", interactive=True)
    >>> gate.admit("n1", "t1"), gate.admit("n1", "t1"), gate.admit("n2", "t0")
    (None, 'duplicate', 'stale')
    >>> gate.recent()
    ['n1', 'n2']
    """

    def __init__(self, remember: int = _SEEN_MAX) -> None:
        self.token: str | None = None
        self.interactive = False
        self._seen: deque[str] = deque(maxlen=remember)
        self._seen_set: set[str] = set()
        self.dropped = {"duplicate": 0, "not_interactive": 0, "stale": 0, "malformed": 0}

    def shown(self, token: str, *, interactive: bool) -> None:
        self.token = token
        self.interactive = interactive

    def recent(self, count: int = 64) -> list[str]:
        """The last nonces seen (admitted or dropped): the browser stops re-sending them."""
        return list(self._seen)[-count:]

    def admit(self, nonce: str, token: str | None) -> str | None:
        reason = self._reason(nonce, token)
        if reason is not None:
            self.dropped[reason] += 1
        return reason

    def _reason(self, nonce: str, token: str | None) -> str | None:
        if nonce in self._seen_set:
            return "duplicate"
        if len(self._seen) == self._seen.maxlen:
            self._seen_set.discard(self._seen[0])
        self._seen.append(nonce)
        self._seen_set.add(nonce)
        if token is None:
            return None
        if not self.interactive:
            return "not_interactive"
        if token != self.token:
            return "stale"
        return None


def position_token(game_id: str, actions: int) -> str:
    """Names the position a tester sees: an input made on another one is stale.

    >>> position_token("g7", 3)
    'g7:3'
    """
    return f"{game_id}:{actions}"
