"""The translation templates and their checks: what each translation file must hold.

Four kinds of gettext domain, each extracted with Babel (``babel.cfg`` maps the same
sources for ``pybabel extract``):

- ``playtest`` (:data:`playtest.i18n.LOCALE_DIR`): the app's words, marked in the code
  with ``_()``, ``N_()``, ``gettext`` and ``pgettext`` (the games' folders excluded),
  and the survey renderer's (``surveys/streamlit_renderer.py``);
- ``game`` (``playtest/games/<game>/locale``): the game's title and about, its message
  catalog (``msgctxt`` ``key|variant`` or ``key|variant|voice``), its rules overlay, and
  the words of its view and values (added by hand: they are made by its code);
- ``surveys`` (``surveys/games/<game>/locale``): its surveys' texts (``msgctxt``
  ``survey``, or ``instrument:<id>`` for an instrument's item in words of its own);
- ``surveys`` (``surveys/locale``): the validated instruments' items that several
  folders ask in the same words (``msgctxt`` ``instrument:<id>``), translated once.

``python -m playtest.i18n.catalogs`` writes each template (``<domain>.pot``) and adds
what is new to each language's ``.po`` (untranslated; nothing is dropped: a game's
``.po`` also holds the words its code makes, its view's labels and the values its
messages are given, which no extractor finds); translators then fill in the ``msgstr``.

>>> app = app_template()
>>> "I agree" in app and "Continue" in app
True
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from playtest.games.registry import game_names, game_plugin
from playtest.i18n import APP_DOMAIN, LOCALE_DIR, Language, available_languages, po_path
from playtest.i18n.words import GAME_DOMAIN
from surveys.translate import DOMAIN as SURVEY_DOMAIN
from surveys.translate import SHARED_LOCALE

PLAYTEST_DIR = Path(__file__).resolve().parents[1]
SURVEYS_DIR = SHARED_LOCALE.parent
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*\}")


def _catalog(entries: Iterator[tuple[str, str | None]]) -> Catalog:
    catalog = Catalog(fuzzy=False, project="playtest-lab")
    for text, context in entries:
        if text:
            catalog.add(text, context=context)
    return catalog


def app_template() -> Catalog:
    """The app's words: its code's marked texts (the games' folders are their own)."""
    def found() -> Iterator[tuple[str, str | None]]:
        for path, _line, message, _comments, context in extract_from_dir(
                PLAYTEST_DIR, [("games/**.py", "ignore"), ("**.py", "python")],
                keywords=KEYWORDS):
            if path.startswith("games/"):
                continue
            yield from _messages(message, context)
        for _line, message, _comments, context in extract_from_file(
                "python", SURVEYS_DIR / "streamlit_renderer.py", keywords=KEYWORDS):
            yield from _messages(message, context)

    return _catalog(found())


def _messages(message: str | tuple[str, ...], context: str | None
              ) -> Iterator[tuple[str, str | None]]:
    for text in (message if isinstance(message, tuple) else (message,)):
        yield text, context


def game_folder(game: str) -> Path:
    """A game's locale folder (beside its plug-in)."""
    files = game_plugin(game).files
    assert files is not None, f"{game} keeps no files"
    return files.folder / "locale"


def game_template(game: str) -> Catalog:
    """A game's words: title, about, message catalog and rules overlay."""
    from playtest.board.rules_overlay import load_rules, texts
    from playtest.study_config import message_catalog

    plugin = game_plugin(game)

    def found() -> Iterator[tuple[str, str | None]]:
        yield plugin.title, None
        yield plugin.about, None
        if plugin.catalog_path is not None:
            for context, text in message_catalog(game).texts():
                yield text, context
        if plugin.rules_path is not None:
            yield from ((text, None) for text in texts(load_rules(plugin.rules_path)))

    return _catalog(found())


def _survey_texts(folder: Path) -> list[tuple[str, str]]:
    """Every (context, text) of the surveys in ``folder``, in file order."""
    from surveys.loader import parse_survey
    from surveys.translate import texts

    return list(dict.fromkeys(
        found for path in sorted(folder.glob("*.yaml"))
        for found in texts(parse_survey(path.read_text("utf-8"), source=str(path)))))


def survey_templates() -> dict[Path, Catalog]:
    """The survey templates: each survey folder's own texts, and the validated
    instruments' items that several folders ask in the same words (``surveys/locale``,
    their published translation kept once)."""
    found = {folder: _survey_texts(folder) for folder in survey_folders()}
    asked: dict[tuple[str, str], int] = {}
    for entries in found.values():
        for entry in entries:
            asked[entry] = asked.get(entry, 0) + 1
    shared = {e for e, n in asked.items() if n > 1 and e[0].startswith("instrument:")}
    out = {folder / "locale" / f"{SURVEY_DOMAIN}.pot":
           _catalog((text, context) for context, text in entries
                    if (context, text) not in shared)
           for folder, entries in found.items()}
    out[SHARED_LOCALE / f"{SURVEY_DOMAIN}.pot"] = _catalog(
        (text, context) for context, text in sorted(shared))
    return out


def survey_folders() -> list[Path]:
    """The folders of the lab's games' bundled surveys."""
    return sorted(p for p in (SURVEYS_DIR / "games").iterdir() if p.is_dir())


def templates() -> dict[Path, Catalog]:
    """Every template by its locale folder and domain (``<folder>/<domain>.pot``)."""
    out = {LOCALE_DIR / f"{APP_DOMAIN}.pot": app_template()}
    for game in game_names():
        if game_plugin(game).files is not None:
            out[game_folder(game) / f"{GAME_DOMAIN}.pot"] = game_template(game)
    return {**out, **survey_templates()}


def read(path: Path) -> Catalog | None:
    """A ``.po`` file (None: there is none)."""
    if not path.is_file():
        return None
    with path.open("rb") as po:
        return read_po(po)


def problems(template: Catalog, translation: Catalog) -> list[str]:
    """What a translation lacks against its template: a text missing, untranslated or
    fuzzy, or a translation whose ``{placeholders}`` differ from the text's."""
    found = []
    for message in template:
        if not message.id:
            continue
        where = f"{message.context + ': ' if message.context else ''}{message.id!r}"
        done = translation.get(message.id, message.context)
        if done is None or not done.string:
            found.append(f"untranslated {where}")
            continue
        if done.fuzzy:
            found.append(f"fuzzy {where}")
        if set(_PLACEHOLDER.findall(str(done.id))) != set(_PLACEHOLDER.findall(str(done.string))):
            found.append(f"placeholders differ in {where}")
    return found


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, omit_header=False, no_location=True, sort_output=False,
                 width=88)


def update(languages: tuple[Language, ...] | None = None) -> list[Path]:
    """Write every template, and bring each existing translation of ``languages`` (all
    but English) up to date with it; returns the files written."""
    written = []
    chosen = languages or tuple(lang for lang in available_languages() if not lang.is_source)
    for pot, template in templates().items():
        before = read(pot)
        if before is None or [(m.context, m.id) for m in before] != \
                [(m.context, m.id) for m in template]:  # else unchanged: left as it is
            _write(pot, template)
            written.append(pot)
        for language in chosen:
            po = po_path(pot.parent, language, pot.stem)
            existing = read(po)
            if existing is None:
                continue
            for message in template:  # new texts, untranslated; nothing is dropped
                if message.id and existing.get(message.id, message.context) is None:
                    existing.add(message.id, "", context=message.context)
            _write(po, existing)
            written.append(po)
    return written


def main(argv: list[str] | None = None) -> int:
    for path in update():
        print(path.relative_to(PLAYTEST_DIR.parent))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))


__all__ = ["app_template", "game_template", "problems", "survey_templates", "templates",
           "update", "yaml"]
