"""What a tester reads, in their study's language: the app's words with their game's
(``playtest/games/<game>/locale/<code>/LC_MESSAGES/game.po``: its title, messages,
rules and board labels) and a survey's (:mod:`surveys.translate`).

>>> from playtest.games.registry import game_names
>>> words = study_words("de", game_names()[-1])
>>> words.gettext("I agree"), words.language.code
('Ich stimme zu', 'de')
>>> study_words("xx").language.code  # a language no longer available: English
'en'
"""

from __future__ import annotations

from playtest.games.registry import UnknownGameError, game_plugin
from playtest.i18n import ENGLISH, Language, LanguageError, Translator, translator
from surveys.loader import survey_file
from surveys.model import SurveyDefinition
from surveys.translate import DOMAIN as SURVEY_DOMAIN
from surveys.translate import locale_folders, translated

#: The gettext domain of a game's own words (in its folder's ``locale``).
GAME_DOMAIN = "game"


def language_of(code: object) -> Language:
    """The language of a study's ``language`` setting; English when it is not one (a
    study stored before, or a language whose files were removed)."""
    try:
        return Language.parse(code)
    except LanguageError:
        return ENGLISH


def study_words(code: object, game: str | None = None) -> Translator:
    """The app's words in ``code``'s language, with ``game``'s own."""
    language = language_of(code)
    folders = []
    if game is not None:
        try:
            files = game_plugin(game).files
        except UnknownGameError:
            files = None
        if files is not None:
            folders.append((files.folder / "locale", GAME_DOMAIN))
    return translator(language, folders)


def survey_words(code: object, survey_id: str) -> Translator:
    """A bundled survey's texts (and the instruments' published translations) in
    ``code``'s language."""
    folders = [(folder, SURVEY_DOMAIN) for folder in locale_folders(survey_file(survey_id))]
    return translator(language_of(code), folders)


def shown_survey(definition: SurveyDefinition, code: object) -> SurveyDefinition:
    """``definition`` as a tester of a study in ``code``'s language reads it (answers are
    stored against ``definition`` itself).

    >>> from surveys import list_surveys, load_survey
    >>> english = load_survey(list_surveys()[0])
    >>> shown_survey(english, "en") is english
    True
    """
    language = language_of(code)
    if language.is_source:
        return definition
    key = (definition.id, definition.content_hash, language)
    if key not in _SHOWN:
        words = survey_words(language.code, definition.id)
        _SHOWN[key] = translated(definition, words.pgettext)
    return _SHOWN[key]


#: Translated surveys by (id, content hash, language): a rerun translates none again.
_SHOWN: dict[tuple[str, str, Language], SurveyDefinition] = {}
