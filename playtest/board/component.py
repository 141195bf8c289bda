"""What every game's board component shares: checking the browser's trigger payloads, the
gate that drops re-sent, stale and out-of-turn events, the mute event, and registering a
component's asset dir with Streamlit.

A game's board (``playtest/games/<game>/``) is a Streamlit custom component (Components
v2) with its front end in real files; it parses its own triggers with the helpers here
(:func:`_text`, :func:`_count`, :func:`_field`), raising :class:`BoardEventError` for a
payload that does not have the documented shape, and lets an :class:`EventGate` decide
which events reach the app's callbacks.

Bounds of what a browser sends (hand-made messages beyond them are refused, issue 11):
ids are UUIDs (36 characters) or a fallback of about 20; a click's seq counts clicks in
one page view; t_ms counts from the turn's start and a tab left open for weeks stays under
2^31 ms (24.8 days).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest

#: The "<project>" of a shared component's "<project>.<component>" name.
PROJECT_NAME: Final = "playtest-lab"
_SEEN_MAX: Final = 256

MAX_ID_CHARS: Final = 128
MAX_VIA_CHARS: Final = 16
MAX_SEQ: Final = 10_000_000
MAX_T_MS: Final = 2**31 - 1


def register_asset_dir(manager: BidiComponentManager, project: str, component: str,
                       static_dir: Path) -> None:
    """Tell Streamlit's component manager that component ``<project>.<component>``'s
    files live in ``static_dir`` (once per manager).

    Streamlit serves a packaged component's files from the `asset_dir` of a
    `[tool.streamlit.component]` manifest it finds in an installed distribution's
    pyproject.toml. Its scanner cannot find ours: it looks the manifest up through the
    import name derived from the distribution name (which is not a package here) or a
    pyproject.toml listed in the installed files (never the case for an editable
    install). So the same manifest entry is registered here, on each runtime's manager
    (AppTest makes one per test), before the component is mounted.
    """
    if manager.get_component_asset_root(f"{project}.{component}") is not None:
        return
    manifest = ComponentManifest(
        name=project,
        version="0",
        components=[ComponentConfig(name=component, asset_dir=static_dir.name)],
    )
    manager.register_from_manifest(manifest, static_dir.parent)


_renderers: dict[str, Any] = {}


def component_renderer(project: str, component: str, static_dir: Path, *, js: str,
                       css: str | None = None) -> Any:
    """The mount command of component ``<project>.<component>`` whose front end is in
    ``static_dir``: its asset dir registered on this runtime's manager
    (:func:`register_asset_dir`), the component itself once per process. The js (and
    css) are files in the asset dir, so a rerun's message carries their path, not code."""
    import streamlit as st
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager

    register_asset_dir(get_bidi_component_manager(), project, component, static_dir)
    name = f"{project}.{component}"
    if name not in _renderers:
        _renderers[name] = (st.components.v2.component(name, js=js) if css is None
                            else st.components.v2.component(name, js=js, css=css))
    return _GuardedRenderer(_renderers[name])


class _GuardedRenderer:
    """A component's mount command whose event callbacks (``on_<event>_change``) turn a
    database fault, or a tester whose records are gone, into the page's calm notice
    (:func:`playtest.app_pages.trouble.guarded`), as the play steps' own callbacks do: a
    callback runs before the script, where no page catches what it raises."""

    def __init__(self, mount: Any) -> None:
        self.mount = mount

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from playtest.app_pages.trouble import guarded

        for name, value in kwargs.items():
            if name.startswith("on_") and name.endswith("_change") and callable(value):
                kwargs[name] = guarded(value)
        return self.mount(*args, **kwargs)


class BoardEventError(ValueError):
    """A trigger payload that does not have the documented shape."""


@dataclass(frozen=True)
class MuteEvent:
    """The mute toggle was pressed; `muted` is the new setting."""

    muted: bool
    nonce: str


def _field(payload: Mapping[str, Any], name: str, kind: type) -> Any:
    value = payload.get(name)
    if kind is int and isinstance(value, bool):
        raise BoardEventError(f"trigger field {name!r} must be an integer, got {value!r}")
    if not isinstance(value, kind):
        raise BoardEventError(f"trigger field {name!r} must be {kind.__name__}, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}…"


def _text(payload: Mapping[str, Any], name: str, *, default: str | None = None,
          limit: int = MAX_ID_CHARS) -> str:
    """A text field of at most ``limit`` characters (``default`` when absent or null)."""
    value = payload.get(name)
    if value is None and default is not None:
        return default
    if not isinstance(value, str) or len(value) > limit or (default is None and not value):
        raise BoardEventError(
            f"trigger field {name!r} must be a text of 1 to {limit} characters, got {_short(value)}"
        )
    return value


def _count(payload: Mapping[str, Any], name: str, high: int) -> int:
    """A whole number 0..``high`` (absent or null → 0; a finite float is rounded).

    >>> _count({"t_ms": 12.6}, "t_ms", 100), _count({}, "t_ms", 100)
    (13, 0)
    >>> _count({"t_ms": float("inf")}, "t_ms", 100)
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: trigger field 't_ms' must be a number from 0 to 100, got inf
    """
    value = payload.get(name)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
        math.isfinite(value) and 0 <= value <= high
    ):
        raise BoardEventError(
            f"trigger field {name!r} must be a number from 0 to {high}, got {_short(value)}"
        )
    return int(round(value))


#: How a click was made, as the boards that batch their clicks send it.
VIAS: Final = ("mouse", "touch", "pen", "keyboard")
#: Clicks read from one batched trigger; further ones are dropped unread.
MAX_CLICKS_PER_EVENT: Final = 32
MAX_MS: Final = 2**31 - 1


def batched_clicks(payload: Any) -> Iterator[Mapping[str, Any]]:
    """The raw clicks of a board's batched trigger ``{"clicks": [...]}`` (the first
    :data:`MAX_CLICKS_PER_EVENT`), each checked to be an object as it is reached, so a
    click is refused in the order the browser sent it.

    >>> [c["at"] for c in batched_clicks({"clicks": [{"at": 1}, {"at": 2}]})]
    [1, 2]
    >>> list(batched_clicks({"clicks": [{"at": 1}, "two"]}))
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: click: each click must be an object
    """
    if not isinstance(payload, Mapping) or not isinstance(payload.get("clicks"), list):
        raise BoardEventError("click: payload must be {'clicks': [...]}")
    for raw in payload["clicks"][:MAX_CLICKS_PER_EVENT]:
        if not isinstance(raw, Mapping):
            raise BoardEventError("click: each click must be an object")
        yield raw


def click_text(obj: Mapping[str, Any], name: str, limit: int = MAX_ID_CHARS) -> str:
    """A batched click's text field ``name`` of 1..``limit`` characters."""
    value = obj.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise BoardEventError(f"click.{name}: must be text of 1..{limit} characters")
    return value


def click_stamp(raw: Mapping[str, Any]) -> tuple[str, int, str, str]:
    """``(nonce, ms, via, token)`` of one batched click, checked in that click's order:
    ``ms`` a finite number (clamped to 0..:data:`MAX_MS`), ``via`` one of :data:`VIAS`,
    then ``nonce`` and ``token`` (texts of 1..:data:`MAX_ID_CHARS` characters).

    >>> click_stamp({"ms": -5.5, "via": "pen", "nonce": "n", "token": "g:1"})
    ('n', 0, 'pen', 'g:1')
    >>> click_stamp({"ms": 5, "via": "nose", "nonce": "n", "token": "g:1"})
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: click.via: must be one of ('mouse', 'touch', 'pen', 'keyboard')
    """
    ms = raw.get("ms")
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not math.isfinite(ms):
        raise BoardEventError("click.ms: must be a number")
    via = raw.get("via")
    if via not in VIAS:
        raise BoardEventError(f"click.via: must be one of {VIAS}")
    nonce = click_text(raw, "nonce")
    token = click_text(raw, "token")
    return nonce, int(min(max(ms, 0), MAX_MS)), str(via), token


def parse_mute(payload: Any) -> MuteEvent:
    """Check and convert a raw mute payload ``{"muted": true, "nonce": "<uuid>"}``.

    >>> parse_mute({"muted": True, "nonce": "m"})
    MuteEvent(muted=True, nonce='m')
    """
    if not isinstance(payload, Mapping):
        raise BoardEventError(f"a mute payload is an object, got {_short(payload)}")
    return MuteEvent(muted=_field(payload, "muted", bool), nonce=_text(payload, "nonce"))


class EventGate:
    """Decides which board events reach the app's callbacks (pure; no Streamlit).

    `shown(token, interactive)` records the view just rendered; `admit(nonce, token)`
    returns None to let an event through, or the reason it is dropped: "duplicate"
    (nonce seen before), "not_interactive" (the shown view took no input), "stale"
    (made on an older view). Mute events pass token=None: only de-duplicated.

    >>> gate = EventGate()
    >>> gate.shown("t1", interactive=True)
    >>> gate.admit("n1", "t1"), gate.admit("n1", "t1"), gate.admit("n2", "t0")
    (None, 'duplicate', 'stale')
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


class SessionState(Protocol):
    """What :func:`trigger_payload` reads: Streamlit's session state, or a dict."""

    def get(self, key: str, /) -> Any: ...


def trigger_payload(state: SessionState, key: str, name: str) -> Any:
    """The payload of trigger ``name`` of the component under ``key`` in session state
    ``state`` (None when it did not fire).

    >>> trigger_payload({"board": {"click": {"index": 3}}}, "board", "click")
    {'index': 3}
    """
    value = state.get(key)
    if value is None:
        return None
    return value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)
