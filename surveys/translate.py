"""A survey in another language: every text a tester reads, translated by a gettext
catalog's ``pgettext`` (the caller's; this layer reads no translation files), with
everything else — ids, values, scoring, the content hash of what is stored — unchanged.

English is the source: each text is its own ``msgid``, within the context
:func:`context_of` gives (``instrument:sus`` for an item of a validated instrument,
whose published translation is the one to use; ``survey`` otherwise). Translation
files sit beside the surveys: ``locale/<code>/LC_MESSAGES/surveys.po`` in the survey's
folder and in ``surveys/`` (the instruments' published translations, shared by every
game), :func:`locale_folders`.

>>> from surveys.model import SurveyDefinition
>>> survey = SurveyDefinition.model_validate({"id": "s", "version": "1", "title": "Hello",
...     "pages": [{"id": "p", "items": [{"id": "q", "type": "yes_maybe_no",
...     "text": "Play again?"}]}]})
>>> german = {("survey", "Hello"): "Hallo", ("survey", "Play again?"): "Nochmal spielen?"}
>>> shown = translated(survey, lambda context, text: german.get((context, text), text))
>>> shown.title, shown.pages[0].items[0].text, shown.content_hash == survey.content_hash
('Hallo', 'Nochmal spielen?', False)
>>> sorted(texts(survey))
[('survey', 'Hello'), ('survey', 'Play again?')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from surveys.model import SurveyDefinition

#: Keys whose text a tester reads (a string or a list of strings); ``description`` is
#: the designer's note, ``id``/``value`` are data.
TEXT_KEYS = frozenset({"title", "text", "help", "label", "labels", "low_label",
                       "high_label", "left", "right", "start_label"})
#: The folder of the instruments' translations, shared by every survey.
SHARED_LOCALE = Path(__file__).parent / "locale"
#: The gettext domain of survey texts.
DOMAIN = "surveys"

Translate = Callable[[str, str], str]


def context_of(item: Any) -> str:
    """The ``msgctxt`` of a text: its validated instrument's (``instrument:sus``) or
    ``survey``.

    >>> context_of({"instrument": "sus"}), context_of({})
    ('instrument:sus', 'survey')
    """
    instrument = item.get("instrument") if isinstance(item, dict) else None
    return f"instrument:{instrument}" if instrument else "survey"


def _walk(node: Any, context: str, change: Callable[[str, str], str]) -> Any:
    if isinstance(node, list):
        return [_walk(value, context, change) for value in node]
    if not isinstance(node, dict):
        return node
    context = context_of(node) if isinstance(node.get("instrument"), str) else context
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in TEXT_KEYS and isinstance(value, str) and value:
            out[key] = change(context, value)
        elif key in TEXT_KEYS and isinstance(value, list) and \
                all(isinstance(v, str) for v in value):
            out[key] = [change(context, v) if v else v for v in value]
        else:
            out[key] = _walk(value, context, change)
    return out


def translated(definition: SurveyDefinition, pgettext: Translate) -> SurveyDefinition:
    """``definition`` with every text a tester reads given by ``pgettext(context, text)``
    (a text without a translation comes back as it is). Store answers against the
    original definition: this one is for showing."""
    data = _walk(definition.model_dump(mode="json", by_alias=True), "survey", pgettext)
    return SurveyDefinition.model_validate(data)


def texts(definition: SurveyDefinition) -> list[tuple[str, str]]:
    """Every (context, text) of ``definition`` a translation needs, in survey order."""
    found: list[tuple[str, str]] = []

    def note(context: str, text: str) -> str:
        found.append((context, text))
        return text

    _walk(definition.model_dump(mode="json", by_alias=True), "survey", note)
    return list(dict.fromkeys(found))


def locale_folders(survey_file: Path | None) -> tuple[Path, ...]:
    """The translation folders of a survey in ``survey_file``: the shared one (the
    instruments'), then its own folder's ``locale`` (which wins)."""
    own = () if survey_file is None else (survey_file.parent / "locale",)
    return (SHARED_LOCALE, *own)


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[tuple[int, str, str, list[str], str]]:
    """A Babel extraction method for survey YAML files (``babel.cfg``): each text of the
    checked definition with its context."""
    from surveys.loader import parse_survey

    definition = parse_survey(fileobj.read().decode("utf-8"), source="<extract>")
    for context, text in texts(definition):
        yield 0, "pgettext", text, [f"survey {definition.id}"], context
