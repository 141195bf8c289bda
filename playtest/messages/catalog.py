"""The message catalog: key -> wording variants, checked when it is loaded.

>>> catalog = load_catalog()
>>> catalog.render("extra_turn", seat=2).text
'Extra go!'
>>> catalog.render("extra_turn", "formal", seat=2).text
"Player 2's EXTRA turn"
>>> catalog.render("extra_turn", "formal", seat=2).tone
'good'

A variant's text may differ by *voice*: who the message speaks to or about. ``seat``
(the plain text; pass-and-play, each seat by its colour name), ``you`` (the one human
tester in a game against the computer, about their own move) and ``computer`` (the
computer's own move, told to that tester). A voice a message does not define falls
back to ``seat``:

>>> catalog.render("blocked_own", voice="you", seat=1, next_seat=2, name="you",
...                next_name="the computer").text
'Both tiles are already yours! The computer misses a turn.'
"""

from __future__ import annotations

import functools
import importlib
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any, Final

import yaml

from playtest.board.sounds import CUE_NAMES
from playtest.games.registry import DEFAULT_GAME, game_plugin

# libyaml's safe loader when PyYAML was built with it (several times faster)
_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TONES: Final = ("info", "good", "bad", "warn", "celebrate")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Who a message speaks to or about (see the module docstring); "seat" is the plain text.
VOICES: Final = ("seat", "you", "computer")
# A lower-case letter opening a sentence ("… wins! the computer …" -> "The computer").
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?] ))[a-z]")

# The first game's keys (its folder's catalog_keys.py, found through the registry): every
# situation its screen must be able to announce (issue 5), and its wrong clicks' keys.
_FIRST_GAME_KEYS = importlib.import_module(f"playtest.games.{DEFAULT_GAME}.catalog_keys")
REQUIRED_KEYS: Final[frozenset[str]] = _FIRST_GAME_KEYS.REQUIRED_KEYS
WRONG_CLICK_KEYS: Final[Mapping[tuple[str, str | None], str]] = _FIRST_GAME_KEYS.WRONG_CLICK_KEYS


class MessageError(Exception):
    """Base of the catalog's errors."""


class CatalogError(MessageError):
    """The catalog file is malformed; the message names the file, key and field."""


class UnknownKeyError(MessageError, KeyError):
    """render() was asked for a key the catalog does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownVariantError(MessageError, KeyError):
    """render() was asked for a variant the catalog does not define."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class MissingValueError(MessageError, ValueError):
    """render() was not given a value the message declares."""


@dataclass(frozen=True)
class Message:
    """A rendered message: what to show, how to colour it, which sound to play."""

    key: str
    variant: str
    text: str
    tone: str
    sound: str | None


@dataclass(frozen=True)
class Entry:
    """One catalog key as loaded."""

    key: str
    tone: str
    sound: str | None
    values: tuple[str, ...]
    variants: Mapping[str, str]
    # variant -> voice -> text, for the voices ("you", "computer") a variant words apart
    voiced: Mapping[str, Mapping[str, str]] = dc_field(default_factory=dict)

    def text(self, variant: str, voice: str = "seat") -> str:
        return self.voiced.get(variant, {}).get(voice, self.variants[variant])


def _placeholders(template: str, where: str) -> set[str]:
    names: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as err:
        raise CatalogError(f"{where}: bad braces in {template!r} ({err})") from err
    for _text, field, spec, conv in parsed:
        if field is None:
            continue
        if not _NAME.match(field) or spec or conv:
            raise CatalogError(
                f"{where}: placeholder {{{field}}} must be a plain lower-case name "
                "(no attributes, indexes, conversions or format specs)"
            )
        names.add(field)
    return names


class MessageCatalog:
    """Validated messages. Build with `load_catalog()` or `MessageCatalog.from_obj(...)`."""

    def __init__(self, variants: tuple[str, ...], entries: Mapping[str, Entry]) -> None:
        self.variants = variants
        self._entries = dict(entries)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def entry(self, key: str) -> Entry:
        try:
            return self._entries[key]
        except KeyError:
            raise UnknownKeyError(f"no message {key!r} in the catalog") from None

    @classmethod
    def from_obj(
        cls, obj: Any, *, source: str = "catalog", required: frozenset[str] = REQUIRED_KEYS
    ) -> MessageCatalog:
        """Check a parsed YAML object and build the catalog (raises CatalogError)."""
        if not isinstance(obj, Mapping) or set(obj) != {"variants", "messages"}:
            raise CatalogError(
                f"{source}: the top level must have exactly 'variants' and 'messages'"
            )
        variants = obj["variants"]
        if (
            not isinstance(variants, list)
            or not variants
            or variants[0] != "default"
            or not all(isinstance(v, str) and _NAME.match(v) for v in variants)
            or len(set(variants)) != len(variants)
        ):
            raise CatalogError(
                f"{source}: 'variants' must be a list of names starting with 'default'"
            )
        messages = obj["messages"]
        if not isinstance(messages, Mapping):
            raise CatalogError(f"{source}: 'messages' must map keys to messages")
        entries: dict[str, Entry] = {}
        for key, raw in messages.items():
            where = f"{source}: {key}"
            if not isinstance(key, str) or not _NAME.match(key):
                raise CatalogError(f"{where}: a key is a lower-case name")
            if not isinstance(raw, Mapping):
                raise CatalogError(f"{where}: must be a mapping with tone, values, variants")
            extra = set(raw) - {"tone", "sound", "values", "variants"}
            if extra:
                raise CatalogError(f"{where}: unknown field(s) {sorted(extra)}")
            tone = raw.get("tone")
            if tone not in TONES:
                raise CatalogError(f"{where}.tone: {tone!r} is not one of {TONES}")
            sound = raw.get("sound")
            if sound is not None and sound not in CUE_NAMES:
                raise CatalogError(f"{where}.sound: {sound!r} is not one of {CUE_NAMES}")
            values = raw.get("values", [])
            if not isinstance(values, list) or not all(
                isinstance(v, str) and _NAME.match(v) for v in values
            ):
                raise CatalogError(f"{where}.values: must be a list of lower-case names")
            texts = raw.get("variants")
            if not isinstance(texts, Mapping):
                raise CatalogError(f"{where}.variants: must map variant names to text")
            missing = [v for v in variants if v not in texts]
            unknown = [v for v in texts if v not in variants]
            if missing or unknown:
                raise CatalogError(
                    f"{where}.variants: missing {missing}, undeclared {unknown} "
                    f"(every message defines exactly {variants})"
                )
            plain: dict[str, str] = {}
            voiced: dict[str, dict[str, str]] = {}
            for variant, text in texts.items():
                by_voice = _voices(text, f"{where}.variants.{variant}")
                for voice, wording in by_voice.items():
                    vwhere = f"{where}.variants.{variant}" + ("" if voice == "seat" else f".{voice}")
                    used = _placeholders(wording, vwhere)
                    undeclared = used - set(values)
                    if undeclared:
                        raise CatalogError(
                            f"{vwhere}: placeholder(s) {sorted(undeclared)} "
                            f"are not in values {values}"
                        )
                plain[variant] = by_voice["seat"]
                if len(by_voice) > 1:
                    voiced[variant] = {v: t for v, t in by_voice.items() if v != "seat"}
            entries[key] = Entry(key, tone, sound, tuple(values), plain, voiced)
        absent = sorted(required - set(entries))
        if absent:
            raise CatalogError(f"{source}: missing required message(s) {absent}")
        return cls(tuple(variants), entries)

    def render(self, key: str, variant: str = "default", /, **values: object) -> Message:
        """The message `key` in `variant`, with its {placeholders} filled from `values`.

        `voice` picks the wording for the tester (`you`), the computer's move (`computer`)
        or a seat named by its colour (`seat`, the plain text); the first letter of the
        result is upper case (a sentence may start with a name such as "the computer").

        Every value the message declares must be given (MissingValueError); extra values
        are ignored, so a caller can pass the same context (seat, c, r, ...) to any key.
        `variant` may be passed by position or as `variant=...` (key and variant are
        positional-only so that `**context` dicts type-check).
        """
        if "variant" in values:
            chosen = values.pop("variant")
            variant = chosen if isinstance(chosen, str) else repr(chosen)
        entry = self.entry(key)
        if variant not in self.variants:
            raise UnknownVariantError(
                f"no variant {variant!r} (the catalog has {', '.join(self.variants)})"
            )
        values = {**_derived_names(values), **values}
        missing = [v for v in entry.values if v not in values]
        if missing:
            raise MissingValueError(f"message {key!r} needs value(s) {missing}")
        voice = str(values.pop("voice", "seat"))
        if voice not in VOICES:
            raise UnknownVariantError(f"no voice {voice!r} (voices are {', '.join(VOICES)})")
        text = entry.text(variant, voice).format(**{v: values[v] for v in entry.values})
        text = _SENTENCE_START.sub(lambda m: m.group(0).upper(), text)
        return Message(key, variant, text, entry.tone, entry.sound)

    def wrong_click(
        self, kind: str, rule_reason: str | None, variant: str = "default", /, **values: object
    ) -> Message:
        """The message for a wrong click classified by the engine's `classify_click`."""
        try:
            key = WRONG_CLICK_KEYS[(kind, rule_reason if kind == "rule" else None)]
        except KeyError:
            raise UnknownKeyError(
                f"no wrong-click message for kind {kind!r}, reason {rule_reason!r}"
            ) from None
        if "variant" in values:
            chosen = values.pop("variant")
            variant = chosen if isinstance(chosen, str) else repr(chosen)
        return self.render(key, variant, **values)


def _derived_names(values: Mapping[str, object]) -> dict[str, object]:
    """Seat names for a caller that passes only seat numbers: "player 2"."""
    derived: dict[str, object] = {}
    for name, seat in (("name", "seat"), ("next_name", "next_seat")):
        if seat in values:
            derived[name] = f"player {values[seat]}"
    if "victim" in values:
        derived["victim_of"] = f"player {values['victim']}'s"
    return derived


def _voices(text: Any, where: str) -> dict[str, str]:
    """A variant's text as voice -> wording: a plain string is the "seat" voice."""
    if isinstance(text, str):
        text = {"seat": text}
    if not isinstance(text, Mapping) or "seat" not in text:
        raise CatalogError(f"{where}: must be non-empty text, or voices with a 'seat' text")
    unknown = [v for v in text if v not in VOICES]
    if unknown:
        raise CatalogError(f"{where}: unknown voice(s) {unknown} (voices are {list(VOICES)})")
    for voice, wording in text.items():
        if not isinstance(wording, str) or not wording.strip():
            raise CatalogError(f"{where}.{voice}: must be non-empty text")
    return {str(v): str(t) for v, t in text.items()}




def load_catalog(path: str | Path | None = None) -> MessageCatalog:
    """Load and check a catalog (the first game's ``catalog.yaml`` when no path is given).

    The packaged catalog is parsed once per process and then shared: the catalog is
    immutable, and parsing it on every Streamlit rerun would cost tens of milliseconds.
    """
    if path is None:
        return _packaged_catalog()
    return _load(path)


@functools.cache
def _packaged_catalog() -> MessageCatalog:
    return _load(None)


def _load(path: str | Path | None) -> MessageCatalog:
    if path is None:
        # The first game's catalog (its folder, playtest/games/<game>/), via the registry.
        packaged = game_plugin(None).catalog_path
        assert packaged is not None, "the first game has a message catalog"
        source = f"playtest/games/{packaged.parent.name}/{packaged.name}"
        text = packaged.read_text("utf-8")
    else:
        source = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except OSError as err:
            raise CatalogError(f"{source}: cannot read ({err.strerror})") from err
    try:
        obj = yaml.load(text, Loader=_LOADER)  # noqa: S506 - a SafeLoader variant
    except yaml.YAMLError as err:
        raise CatalogError(f"{source}: not valid YAML ({err})") from err
    return MessageCatalog.from_obj(obj, source=source)
