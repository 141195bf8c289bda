"""Which survey items are free text, so analytics reads only those as testers' words.

A choice item's answer is a string too; analytics cannot tell them apart (it imports no
survey code), so the app names the free-text items in ``study["text_items"]``, what each
asks for in ``study["text_polarity"]`` (``problem``, ``praise`` or ``neutral``), any
item's own keyword themes in ``study["text_themes"]`` and each one's question as the
tester read it in ``study["text_labels"]`` (what the designer's pages and plan name it
by, never its id).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analytics.data import StudyData
from playtest.storage.survey_records import parsed_definitions
from surveys import SurveyDefinitionError, load_survey
from surveys.model import LongText, ShortText, SurveyDefinition


def _free_text_items(survey_ids: list[str],
                     lookup: Callable[[str], SurveyDefinition | None] | None = None
                     ) -> list[LongText | ShortText]:
    found: dict[str, LongText | ShortText] = {}
    for survey_id in survey_ids:
        definition: SurveyDefinition | None = None
        if lookup is not None:
            definition = lookup(survey_id)
        if definition is None:
            try:
                definition = load_survey(survey_id)
            except (SurveyDefinitionError, FileNotFoundError, KeyError, ValueError):
                continue
        for _, item in definition.items():
            if isinstance(item, LongText | ShortText):
                found.setdefault(item.id, item)
    return [found[key] for key in sorted(found)]


def text_items(survey_ids: list[str]) -> list[str]:
    """The ids of the short and long text items of these surveys (unknown ones skipped)."""
    return [item.id for item in _free_text_items(survey_ids)]


def text_intents(survey_ids: list[str],
                 lookup: Callable[[str], SurveyDefinition | None] | None = None
                 ) -> dict[str, Any]:
    """``text_items``, ``text_polarity``, ``text_themes`` and ``text_labels`` (the
    questions' texts) of these surveys.

    ``lookup`` may supply a definition (e.g. one an import stored) before the bundled
    ones are tried.

    >>> from surveys import EXAMPLE_SURVEY, load_survey
    >>> example = load_survey(EXAMPLE_SURVEY)
    >>> intents = text_intents([example.id], lambda survey_id: example)
    >>> intents["text_items"], intents["text_polarity"]["open.confused"]
    (['open.confused'], 'problem')
    >>> intents["text_labels"]["open.confused"] == example.item("open.confused").text
    True
    """
    items = _free_text_items(survey_ids, lookup)
    return {"text_items": [item.id for item in items],
            "text_polarity": {item.id: item.polarity for item in items},
            "text_themes": {item.id: item.themes for item in items if item.themes},
            "text_labels": {item.id: item.text for item in items}}


def annotate(data: StudyData,
             lookup: Callable[[str], SurveyDefinition | None] | None = None) -> StudyData:
    """Name the study's free-text items and their intent, and its message experiments'
    wordings' texts (:mod:`playtest.experiment_texts`), in ``data.study``; returns it.

    The study's own survey definitions (imported with its ``survey`` records) come
    first, then ``lookup``, then the bundled surveys.
    """
    surveys = sorted({str(s) for s in data.responses["survey"].unique()}) \
        if len(data.responses) else []
    stored = parsed_definitions(data.study)

    def find(survey_id: str) -> SurveyDefinition | None:
        return stored.get(survey_id) or (lookup(survey_id) if lookup else None)

    data.study.update(text_intents(surveys, find))
    # and what each wording of its message experiments says (the verdicts name them)
    from playtest.experiment_texts import annotate_experiments

    return annotate_experiments(data)
