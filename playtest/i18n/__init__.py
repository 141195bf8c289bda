"""The languages testers can be addressed in, and their translations (gettext ``.po``
files read with Babel at run time; no compiled ``.mo`` is kept).

English is the source language: every text in the code, the games' catalogs and the
surveys is English, and a translation file maps each English text (its ``msgid``,
within a ``msgctxt`` where one text needs different translations) to its translation.
A language is available when the app's own words are translated into it:
``playtest/i18n/locale/<code>/LC_MESSAGES/playtest.po``. Adding a third language is a
matter of translation files only: that file, and (optionally) each game's
``playtest/games/<game>/locale/<code>/LC_MESSAGES/game.po`` and each survey folder's
``locale/<code>/LC_MESSAGES/surveys.po``. What a file lacks stays English.

>>> [language.code for language in available_languages()][:2]
['en', 'de']
>>> words = translator(Language.parse("de"))
>>> words.gettext("I agree")
'Ich stimme zu'
>>> translator(ENGLISH).gettext("I agree")
'I agree'
>>> words.gettext("")  # not the catalog's header
''
>>> Language.parse("xx")
Traceback (most recent call last):
...
playtest.i18n.LanguageError: unknown language 'xx' (available: en, de)
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

#: The app's own translations: ``<code>/LC_MESSAGES/playtest.po`` under it.
LOCALE_DIR = Path(__file__).parent / "locale"
#: The gettext domain of the app's own words.
APP_DOMAIN = "playtest"
_CODE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


class LanguageError(ValueError):
    """A language code that is not one of :func:`available_languages`."""


@dataclass(frozen=True, order=True)
class Language:
    """A language testers can be addressed in, by its code (``en``, ``de``, ``pt_BR``).

    >>> Language.parse("de").name
    'Deutsch'
    >>> str(ENGLISH), ENGLISH.is_source
    ('en', True)
    """

    code: str

    def __post_init__(self) -> None:
        if not _CODE.match(self.code):
            raise LanguageError(f"a language code is like 'de' or 'pt_BR', not {self.code[:20]!r}")

    def __str__(self) -> str:
        return self.code

    @property
    def is_source(self) -> bool:
        """English, the language every text is written in (nothing to translate)."""
        return self.code == "en"

    @property
    def name(self) -> str:
        """The language's name in itself (``Deutsch``), for the designer's choice."""
        try:
            return Locale.parse(self.code).get_display_name(self.code) or self.code
        except (UnknownLocaleError, ValueError):
            return self.code

    @classmethod
    def parse(cls, code: object) -> Language:
        """One of :func:`available_languages` by its code; :class:`LanguageError` otherwise."""
        known = available_languages()
        for language in known:
            if language.code == code:
                return language
        raise LanguageError(f"unknown language {str(code)[:20]!r} "
                            f"(available: {', '.join(lang.code for lang in known)})")


ENGLISH = Language("en")


def preferred_language(*tags: str | None) -> Language:
    """The first of a browser's preferred languages (``navigator.language`` such as
    ``de-DE``, or an ``Accept-Language`` header) that the app speaks; English otherwise.

    >>> preferred_language("de-AT").code, preferred_language(None, "fr-CH,de;q=0.8").code
    ('de', 'de')
    >>> preferred_language("fr-FR", None).code
    'en'
    """
    for tag in tags:
        for part in (tag or "").split(","):
            code = part.split(";")[0].strip().replace("-", "_")
            for candidate in (code, code.split("_")[0].lower()):
                try:
                    return Language.parse(candidate)
                except LanguageError:
                    continue
    return ENGLISH


def N_(message: str) -> str:
    """Marks an English text for the translation catalog where it is written; it is
    translated where it is shown (Babel's extractor knows the name)."""
    return message


@functools.cache
def available_languages(folder: Path = LOCALE_DIR) -> tuple[Language, ...]:
    """English, then every language the app's words are translated into (a folder of
    ``folder``, :data:`LOCALE_DIR`, with ``LC_MESSAGES/playtest.po``), by code."""
    found = sorted(Language(p.parent.parent.name) for p in
                   folder.glob(f"*/LC_MESSAGES/{APP_DOMAIN}.po")
                   if _CODE.match(p.parent.parent.name) and p.parent.parent.name != "en")
    return (ENGLISH, *found)


def po_path(folder: Path, language: Language, domain: str) -> Path:
    """Where ``folder`` keeps its ``domain`` translations into ``language``."""
    return folder / language.code / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def _read(path: Path) -> Translations | None:
    """One ``.po`` file as gettext translations (None: no such file). Fuzzy and empty
    entries are left out: their English shows."""
    if not path.is_file():
        return None
    with path.open("rb") as po:
        catalog = read_po(po)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(mo, domain=path.stem)


@dataclass(frozen=True)
class Translator:
    """The texts of one language: ``gettext`` (a text), ``ngettext`` (a text with a
    count), ``pgettext`` (a text within a context: a survey, a message's key and
    variant). A text without a translation is given back as it is (English)."""

    language: Language
    translations: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        """``message`` in the language; the empty text stays empty (gettext would give
        the catalog's header for it)."""
        return self.translations.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations.pgettext(context, message) if message else message

    def __call__(self, message: str) -> str:
        return self.gettext(message)


@functools.cache
def _translator(language: Language, paths: tuple[Path, ...]) -> Translator:
    merged: gettext.NullTranslations = gettext.NullTranslations()
    if not language.is_source:
        found = [t for t in map(_read, paths) if t is not None]
        if found:
            first = Translations()
            for translations in found:
                first.merge(translations)
            merged = first
    return Translator(language, merged)


def translator(language: Language, folders: Iterable[tuple[Path, str]] = (),
               app_folder: Path = LOCALE_DIR) -> Translator:
    """The app's words in ``language`` (from ``app_folder``), with the translations of
    ``folders`` (each a locale folder and its domain: a game's, a survey folder's)
    merged in, the later winning; cached.

    >>> translator(ENGLISH).ngettext("{n} game", "{n} games", 2)
    '{n} games'
    """
    paths = (po_path(app_folder, language, APP_DOMAIN),
             *(po_path(folder, language, domain) for folder, domain in folders))
    return _translator(language, paths)
