"""Which survey items are free text, so analytics reads only those as testers' words.

A choice item's answer is a string too; analytics cannot tell them apart (it imports no
survey code), so the app names the free-text items in ``study["text_items"]``.
"""

from __future__ import annotations

from analytics.data import StudyData
from surveys import SurveyDefinitionError, load_survey
from surveys.model import LongText, ShortText


def text_items(survey_ids: list[str]) -> list[str]:
    """The ids of the short and long text items of these surveys (unknown ones skipped)."""
    found: set[str] = set()
    for survey_id in survey_ids:
        try:
            definition = load_survey(survey_id)
        except (SurveyDefinitionError, FileNotFoundError, KeyError, ValueError):
            continue
        found.update(item.id for _, item in definition.items()
                     if isinstance(item, LongText | ShortText))
    return sorted(found)


def annotate(data: StudyData) -> StudyData:
    """Name the study's free-text items in ``data.study["text_items"]``; returns ``data``."""
    surveys = sorted({str(s) for s in data.responses["survey"].unique()}) \
        if len(data.responses) else []
    data.study["text_items"] = text_items(surveys)
    return data
