"""The gate every game's board component puts its clicks through (shared by the games'
``component.py``): a click re-sent by the browser, one on a position the tester no
longer sees (a stale token) or one while the board is not interactive is dropped and
counted by reason, never judged twice.

>>> gate = ClickGate()
>>> gate.admit("n1", "t1", current="t1", interactive=True)
>>> gate.admit("n1", "t1", current="t1", interactive=True)
'duplicate'
>>> gate.admit("n2", "t0", current="t1", interactive=True)
'stale'
>>> gate.admit("n3", "t1", current="t1", interactive=False)
'not_interactive'
>>> gate.recent()
['n1', 'n2', 'n3']
"""

from __future__ import annotations

from collections import deque

import streamlit as st


class ClickGate:
    """Drops re-sent, stale and not-interactive clicks; counts them by reason."""

    def __init__(self, remember: int = 512) -> None:
        self._seen: deque[str] = deque(maxlen=remember)
        self._seen_set: set[str] = set()
        self.dropped = {"duplicate": 0, "stale": 0, "not_interactive": 0, "malformed": 0}

    def recent(self, count: int = 64) -> list[str]:
        """The last nonces seen (admitted or dropped): the browser stops re-sending them."""
        return list(self._seen)[-count:]

    def admit(self, nonce: str, token: str, *, current: str, interactive: bool) -> str | None:
        """None when the click is to be judged, else why it is dropped."""
        reason: str | None = None
        if nonce in self._seen_set:
            reason = "duplicate"
        else:
            if len(self._seen) == self._seen.maxlen:
                self._seen_set.discard(self._seen[0])
            self._seen.append(nonce)
            self._seen_set.add(nonce)
            if not interactive:
                reason = "not_interactive"
            elif token != current:
                reason = "stale"
        if reason is not None:
            self.dropped[reason] += 1
        return reason


def session_gate(prefix: str, key: str) -> ClickGate:
    """The gate of board ``key`` in this browser session (``prefix``: the game's)."""
    name = f"_{prefix}_board_gate_{key}"
    if name not in st.session_state:
        st.session_state[name] = ClickGate()
    gate: ClickGate = st.session_state[name]
    return gate
