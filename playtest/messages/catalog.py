"""The message catalog: key -> wording variants, checked when it is loaded.

Each game keeps its catalog in its folder (``playtest/games/<game>/``) and names it on
its plug-in (:attr:`~playtest.games.plugin.GamePlugin.catalog_path`):

>>> catalog = MessageCatalog.from_obj({"variants": ["default", "formal"], "messages": {
...     "extra_turn": {"tone": "good", "values": ["seat"], "variants": {
...         "default": "Extra go!", "formal": "Player {seat}'s EXTRA turn"}}}})
>>> catalog.render("extra_turn", seat=2).text
'Extra go!'
>>> catalog.render("extra_turn", "formal", seat=2).text
"Player 2's EXTRA turn"
>>> catalog.render("extra_turn", "formal", seat=2).tone
'good'

A variant may also be a text of a study's own (a ``message:<key>`` experiment's literal
wording, checked when the study was saved): :meth:`MessageCatalog.say` shows it, filled in.

A variant's text may differ by *voice*: who the message speaks to or about. ``seat``
(the plain text; pass-and-play, each seat by its colour name), ``you`` (the one human
tester in a game against the computer, about their own move) and ``computer`` (the
computer's own move, told to that tester). A voice a message does not define falls
back to ``seat``:

>>> voiced = MessageCatalog.from_obj({"variants": ["default"], "messages": {"blocked_own": {
...     "tone": "warn", "values": ["name", "next_name"], "variants": {"default": {
...         "seat": "Both tiles are {name}'s! {next_name} misses a turn.",
...         "you": "Both tiles are already yours! {next_name} misses a turn."}}}}})
>>> voiced.render("blocked_own", voice="you", seat=1, next_seat=2, name="you",
...               next_name="the computer").text
'Both tiles are already yours! The computer misses a turn.'

A catalog may say which of its messages the game's board shows to a tester (``shown``, a
list of keys; all of them when it does not say): a wording experiment may vary only those.
"""

from __future__ import annotations

import functools
import os
import re
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any, Final

import yaml

from playtest.board.sounds import CUE_NAMES

# libyaml's safe loader when PyYAML was built with it (several times faster)
_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TONES: Final = ("info", "good", "bad", "warn", "celebrate")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Who a message speaks to or about (see the module docstring); "seat" is the plain text.
VOICES: Final = ("seat", "you", "computer")
# A lower-case letter opening a sentence ("… wins! the computer …" -> "The computer").
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?] ))[a-z]")



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

    def __init__(self, variants: tuple[str, ...], entries: Mapping[str, Entry],
                 shown: frozenset[str] | None = None) -> None:
        self.variants = variants
        self._entries = dict(entries)
        #: The keys the game's board shows to a tester (every key when the file does not
        #: say): the messages a wording experiment may vary.
        self.shown: frozenset[str] = frozenset(self._entries) if shown is None else shown
        #: A translated catalog's words for the values it is given ("the computer"):
        #: :meth:`translated`.
        self._value_words: Callable[[str], str] | None = None

    def texts(self) -> list[tuple[str, str]]:
        """Every (context, text) a translation of the catalog needs: each message's text
        per variant (context ``key|variant``) and voice (``key|variant|voice``).

        >>> MessageCatalog.from_obj({"variants": ["default"], "messages": {"wall": {
        ...     "tone": "good", "variants": {"default": "Wall!"}}}}).texts()
        [('wall|default', 'Wall!')]
        """
        found = []
        for key, entry in self._entries.items():
            for variant, text in entry.variants.items():
                found.append((f"{key}|{variant}", text))
                found.extend((f"{key}|{variant}|{voice}", voiced)
                             for voice, voiced in entry.voiced.get(variant, {}).items())
        return found

    def translated(self, in_context: Callable[[str, str], str],
                   value_words: Callable[[str], str] | None = None) -> MessageCatalog:
        """The catalog in another language: each text as ``pgettext`` gives it in its
        context (``in_context(context, text)``, :meth:`texts`), and each text value it is given ("the computer",
        "White") as ``value_words`` gives it. Wording experiments compare variants
        within the one language: each variant is translated on its own.

        >>> catalog = MessageCatalog.from_obj({"variants": ["default", "formal"], "messages": {
        ...     "win": {"tone": "good", "values": ["name"], "variants": {
        ...         "default": "{name} won!", "formal": "Victory for {name}."}}}})
        >>> german = {("win|default", "{name} won!"): "{name} hat gewonnen!"}
        >>> de = catalog.translated(lambda c, t: german.get((c, t), t),
        ...                         {"the computer": "der Computer"}.get)
        >>> de.render("win", name="the computer").text, de.render("win", "formal", name="x").text
        ('Der Computer hat gewonnen!', 'Victory for x.')
        """
        entries = {
            key: Entry(key, e.tone, e.sound, e.values,
                       {v: in_context(f"{key}|{v}", t) for v, t in e.variants.items()},
                       {v: {voice: in_context(f"{key}|{v}|{voice}", t)
                            for voice, t in by_voice.items()}
                        for v, by_voice in e.voiced.items()})
            for key, e in self._entries.items()}
        out = MessageCatalog(self.variants, entries, self.shown)
        if value_words is not None:
            out._value_words = lambda value: value_words(value) or value
        return out

    def _values_shown(self, values: dict[str, object]) -> dict[str, object]:
        words = self._value_words
        if words is None:
            return values
        return {k: words(v) if isinstance(v, str) else v for k, v in values.items()}

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
        cls, obj: Any, *, source: str = "catalog", required: frozenset[str] = frozenset()
    ) -> MessageCatalog:
        """Check a parsed YAML object and build the catalog (raises CatalogError);
        ``required``: the keys the game's screen needs."""
        if not isinstance(obj, Mapping) or not {"variants", "messages"} <= set(obj) or \
                not set(obj) <= {"variants", "messages", "shown"}:
            raise CatalogError(
                f"{source}: the top level must have 'variants' and 'messages' (and may "
                "have 'shown')"
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
        shown = obj.get("shown")
        if shown is not None:
            if not isinstance(shown, list) or not all(isinstance(k, str) for k in shown):
                raise CatalogError(f"{source}: 'shown' must be a list of message keys")
            unknown_keys = sorted(set(shown) - set(entries))
            if unknown_keys:
                raise CatalogError(f"{source}.shown: no message(s) {unknown_keys} in the catalog")
            return cls(tuple(variants), entries, frozenset(shown))
        return cls(tuple(variants), entries)

    def say(self, key: str, wording: str = "default", /, **values: object) -> Message:
        """The message ``key`` as a tester with ``wording`` reads it: a variant of the
        catalog, or a text of a study's own (a ``message:<key>`` experiment's literal
        wording, checked when the study was saved), filled in like the catalog's; a
        text that cannot be filled in falls back to the default wording.

        >>> catalog = MessageCatalog.from_obj({"variants": ["default"], "messages": {
        ...     "wall": {"tone": "good", "values": ["name"], "variants": {"default": "Wall!"}}}})
        >>> catalog.say("wall", "Brick wall, {name}!", name="you").text
        'Brick wall, you!'
        >>> catalog.say("wall", "Oops {nothing}", name="you").text
        'Wall!'
        """
        if wording in self.variants:
            return self.render(key, wording, **values)
        entry = self.entry(key)
        filled = self._values_shown({**_derived_names(values), **values})
        try:
            text = wording.format(**{v: filled[v] for v in entry.values if v in filled})
        except (KeyError, IndexError, ValueError):
            return self.render(key, "default", **values)
        text = _SENTENCE_START.sub(lambda m: m.group(0).upper(), text)
        return Message(key, wording, text, entry.tone, entry.sound)

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
        values = self._values_shown(values)
        text = entry.text(variant, voice).format(**{v: values[v] for v in entry.values})
        text = _SENTENCE_START.sub(lambda m: m.group(0).upper(), text)
        return Message(key, variant, text, entry.tone, entry.sound)


@dataclass(frozen=True)
class GameCatalog:
    """A game's catalog file, the keys its screen needs, and the engine refusal reasons
    it words itself (``<prefix><reason>``; any other reason gets ``other``).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "messages.yaml"
    >>> _ = path.write_text(yaml.safe_dump({"variants": ["default"], "messages": {
    ...     "refused_walled": {"tone": "bad", "variants": {"default": "In a wall."}},
    ...     "refused_other": {"tone": "bad", "variants": {"default": "Not now."}}}}))
    >>> words = GameCatalog(path, refusals=("walled",))
    >>> words.refusal_key("walled"), words.refusal_key("new")
    ('refused_walled', 'refused_other')
    >>> words.load().render(words.refusal_key("walled")).text
    'In a wall.'
    """

    path: Path
    required: frozenset[str] = frozenset()
    refusals: tuple[str, ...] = ()
    prefix: str = "refused_"
    other: str = "refused_other"

    @property
    def required_keys(self) -> frozenset[str]:
        """The keys the catalog must have: the screen's, and one per refusal reason."""
        return self.required | {self.refusal_key(r) for r in self.refusals} | {self.other}

    def load(self) -> MessageCatalog:
        """The catalog (checked; parsed once per process)."""
        return load_catalog(self.path, self.required_keys)

    def refusal_key(self, reason: str) -> str:
        """The catalog key of an engine refusal reason."""
        return f"{self.prefix}{reason}" if reason in self.refusals else self.other

    def refusal_words(self, reason: str) -> str | None:
        """An engine refusal reason as the play screen words it, for the designer's
        tables (None: not one of the game's reasons)."""
        from playtest.display_words import catalog_words

        if reason not in self.refusals:
            return None
        return catalog_words(self.load(), self.refusal_key(reason))


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




def extract(fileobj: Any, keywords: Any, comment_tags: Any,
            options: Any) -> Any:
    """A Babel extraction method for a game's ``messages.yaml`` (``babel.cfg``): each
    text with its context (:meth:`MessageCatalog.texts`)."""
    catalog = MessageCatalog.from_obj(yaml.load(fileobj.read().decode("utf-8"), Loader=_LOADER),
                                      source="<extract>")
    for context, text in catalog.texts():
        yield 0, "pgettext", text, [], context


def load_catalog(path: str | Path, required: frozenset[str] = frozenset()) -> MessageCatalog:
    """Load and check a game's catalog file (``required``: the keys its screen needs).

    A catalog is parsed once per process and then shared: it is immutable, and parsing
    it on every Streamlit rerun would cost tens of milliseconds. (An absolute path's
    resolved form is kept too: a simulated tester asks for its game's catalog at every
    move, and resolving stats each folder of the path.)
    """
    path = str(path)
    return _load(_resolved(path) if os.path.isabs(path) else str(Path(path).resolve()),
                 required)


@functools.lru_cache(maxsize=256)
def _resolved(path: str) -> str:
    return str(Path(path).resolve())


@functools.cache
def _load(path: str, required: frozenset[str]) -> MessageCatalog:
    source = f"{Path(path).parent.name}/{Path(path).name}"
    try:
        text = Path(path).read_text("utf-8")
    except OSError as err:
        raise CatalogError(f"{source}: cannot read ({err.strerror})") from err
    try:
        obj = yaml.load(text, Loader=_LOADER)  # noqa: S506 - a SafeLoader variant
    except yaml.YAMLError as err:
        raise CatalogError(f"{source}: not valid YAML ({err})") from err
    return MessageCatalog.from_obj(obj, source=source, required=required)
