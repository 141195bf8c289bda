"""The translation files: each template is what the code, the catalogs, the rules and
the surveys say now (extracted with Babel), every German file holds every text of its
template translated with the same ``{placeholders}`` (every game's and every survey
folder's included), and a third language is a matter of files only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from playtest.games.registry import game_names
from playtest.i18n import LOCALE_DIR, Language, available_languages, po_path, translator
from playtest.i18n.catalogs import problems, read, templates

GERMAN = Language("de")
TEMPLATES = templates()


@pytest.mark.parametrize("pot", sorted(TEMPLATES), ids=lambda p: p.parent.parent.name + "/" + p.name)
def test_the_template_is_what_the_sources_say(pot: Path) -> None:
    assert pot.is_file(), f"no {pot.name}: run python -m playtest.i18n.catalogs"
    with pot.open("rb") as file:
        committed = {(m.context, m.id) for m in read_po(file) if m.id}
    now = {(m.context, m.id) for m in TEMPLATES[pot] if m.id}
    assert committed == now, "the template is stale: run python -m playtest.i18n.catalogs"


@pytest.mark.parametrize("pot", sorted(TEMPLATES), ids=lambda p: p.parent.parent.name + "/" + p.name)
def test_every_german_file_translates_every_text(pot: Path) -> None:
    po = po_path(pot.parent, GERMAN, pot.stem)
    translation = read(po)
    assert translation is not None, f"no German file {po}"
    assert problems(TEMPLATES[pot], translation) == []


def test_every_game_and_survey_folder_has_a_template() -> None:
    kinds = sorted(pot.name for pot in TEMPLATES)
    assert kinds.count("game.pot") == len(game_names())
    assert kinds.count("surveys.pot") == len(game_names()) + 1  # and the instruments'
    assert LOCALE_DIR / "playtest.pot" in TEMPLATES


def test_a_third_language_is_a_file(tmp_path: Path) -> None:
    """A new folder with the app's ``.po`` makes a language available and read."""
    folder = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, folder, ignore=shutil.ignore_patterns("*.pot"))
    assert [lang.code for lang in available_languages()] == ["en", "de"]
    french = folder / "fr" / "LC_MESSAGES" / "playtest.po"
    french.parent.mkdir(parents=True)
    french.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                      'msgid "I agree"\nmsgstr "J\'accepte"\n', "utf-8")
    assert [lang.code for lang in available_languages(folder)] == ["en", "de", "fr"]
    words = translator(Language("fr"), app_folder=folder)
    assert words.gettext("I agree") == "J'accepte"
    assert words.gettext("Continue") == "Continue"  # not translated yet: English
