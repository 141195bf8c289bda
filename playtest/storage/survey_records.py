"""The ``survey`` record of the exchange format: a study keeps the definitions of the
surveys its answers were given to, so an imported study is scored as where it was run.

A ``survey`` record holds ``survey``, ``survey_version`` and ``definition`` (the survey
as :mod:`surveys` defines it). Import stores each definition with every study of the
file (in the study's ``extra`` JSON under :data:`DEFINITIONS_KEY`, keyed
``<survey>@<version>``); export writes one record per survey and version the study's
answers use, from the stored definition or else the bundled one of the same version.

Answers to a survey with no definition at all (neither stored nor bundled) are kept but
cannot be scored: :func:`unscorable` names and counts them, for the import's output and
the Questionnaires page.

>>> definition_key("their_survey", "1.0.0")
'their_survey@1.0.0'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from playtest.storage.models import studies
from surveys import SurveyDefinition, SurveyDefinitionError, load_survey, survey_from_data

DEFINITIONS_KEY = "survey_definitions"


def definition_key(survey: str, version: Any) -> str:
    return f"{survey}@{version}"


def check_record(record: Mapping[str, Any]) -> str | None:
    """The problem with a ``survey`` record's definition, or None when it is usable."""
    definition = record.get("definition")
    if not isinstance(definition, dict):
        return "definition must be an object (the survey definition)"
    try:
        parsed = survey_from_data(definition, source=f"survey {record.get('survey')}")
    except SurveyDefinitionError as error:
        return f"definition is not a valid survey: {error}"
    if parsed.id != record.get("survey"):
        return f"definition is survey {parsed.id!r}, not {record.get('survey')!r}"
    if str(parsed.version) != str(record.get("survey_version")):
        return (f"definition is version {parsed.version!r}, not "
                f"{record.get('survey_version')!r}")
    return None


def store(conn: Any, study_ids: Iterable[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Keep the records' definitions with each study; returns how many were new."""
    wanted = {definition_key(r["survey"], r["survey_version"]): r["definition"]
              for r in records}
    if not wanted:
        return 0
    added = 0
    for study_id in sorted(set(study_ids)):
        extra = conn.execute(select(studies.c.extra).where(
            studies.c.study_id == study_id)).scalar_one_or_none()
        extra = dict(extra) if isinstance(extra, dict) else {}
        kept = dict(extra.get(DEFINITIONS_KEY) or {})
        new = {key: value for key, value in wanted.items() if key not in kept}
        if not new:
            continue
        added += len(new)
        extra[DEFINITIONS_KEY] = {**kept, **new}
        conn.execute(update(studies).where(studies.c.study_id == study_id).values(
            extra=extra))
    return added


def parsed_definitions(study: Mapping[str, Any]) -> dict[str, SurveyDefinition]:
    """The study's stored definitions by survey id (the latest version stored last)."""
    result: dict[str, SurveyDefinition] = {}
    for key, definition in (study.get(DEFINITIONS_KEY) or {}).items():
        try:
            parsed = survey_from_data(definition, source=f"stored survey {key}")
        except SurveyDefinitionError:
            continue
        result[parsed.id] = parsed
    return result


def _bundled(survey: str) -> SurveyDefinition | None:
    try:
        return load_survey(survey)
    except (SurveyDefinitionError, FileNotFoundError, KeyError, ValueError, OSError):
        return None


def export_records(stored: Mapping[str, Any], used: Iterable[tuple[str, str]]
                   ) -> list[dict[str, Any]]:
    """``survey`` records for the (survey, version) pairs the answers use."""
    records = []
    for survey, version in sorted(set(used)):
        definition = stored.get(definition_key(survey, version))
        if definition is None:
            bundled = _bundled(survey)
            if bundled is None or str(bundled.version) != str(version):
                continue  # nothing known of it: its answers export without it
            definition = bundled.model_dump(mode="json", by_alias=True, exclude_none=True)
        records.append({"record": "survey", "survey": survey, "survey_version": version,
                        "definition": definition})
    return records


@dataclass(frozen=True)
class Unscorable:
    """Answers kept but not scored: no definition of their survey is known."""

    survey: str
    survey_version: str
    answers: int
    testers: int

    def sentence(self) -> str:
        return (f"{self.answers} answers from {self.testers} testers to survey "
                f"{self.survey!r} (version {self.survey_version}) cannot be scored: no "
                "definition of it is stored or bundled; import its survey record")


def unscorable(groups: Iterable[tuple[str, Any, int, int]],
               stored: Mapping[str, Any]) -> list[Unscorable]:
    """From ``(survey, version, answers, testers)`` per group of answers: the groups no
    stored or bundled definition can score.

    >>> from surveys import list_surveys
    >>> bundled = list_surveys()[0]
    >>> [u.sentence() for u in unscorable([(bundled, "1.0.0", 9, 3),
    ...                                     ("their_survey", "2", 4, 2)], {})]
    ["4 answers from 2 testers to survey 'their_survey' (version 2) cannot be scored: no definition of it is stored or bundled; import its survey record"]
    """
    known_ids = {key.rsplit("@", 1)[0] for key in stored}
    return [Unscorable(str(survey), str(version), int(answers), int(testers))
            for survey, version, answers, testers in sorted(
                groups, key=lambda g: (str(g[0]), str(g[1])))
            if str(survey) not in known_ids and _bundled(str(survey)) is None]
