"""The study data every analytics function reads: one frame per exchange-format record kind.

The columns are exactly the required keys of the JSON Lines records in
``shared/design/telemetry-format.md``; the storage layer fills them from the database,
``playtest import`` files fill them the same way, and tests build them by hand.

>>> data = StudyData.empty("demo")
>>> list(data.events.columns)
['participant_id', 'session_id', 'seq', 'at', 'type', 'props', 'game_id']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

PARTICIPANT_COLUMNS = ["study_id", "participant_id", "created_at", "consented_at"]
ASSIGNMENT_COLUMNS = ["participant_id", "experiment", "variant", "at"]
EVENT_COLUMNS = ["participant_id", "session_id", "seq", "at", "type", "props", "game_id"]
RESPONSE_COLUMNS = [
    "participant_id",
    "survey",
    "survey_version",
    "phase",
    "item",
    "value",
    "at",
]


@dataclass(frozen=True)
class StudyData:
    """One study's records as frames.

    ``study`` is the ``study`` record (``study_id``, ``title``, ``game``, ``rules``,
    ``experiments`` …) as a dict. Times (``at``, ``created_at``, ``consented_at``) are
    timezone-aware pandas timestamps; ``props`` holds one dict per event; ``value`` holds
    a number, string, list or None per response.
    """

    study: dict[str, Any]
    participants: pd.DataFrame
    assignments: pd.DataFrame
    events: pd.DataFrame
    responses: pd.DataFrame
    # Per-participant extra attributes the storage layer knows (e.g. ``age_band`` from the
    # pre-play survey) keyed by participant_id; optional, used for filters.
    attributes: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=["participant_id"])
    )

    @classmethod
    def empty(cls, study_id: str) -> StudyData:
        return cls(
            study={"study_id": study_id, "title": "", "game": "vapoosh", "rules": "standard",
                   "experiments": []},
            participants=pd.DataFrame(columns=PARTICIPANT_COLUMNS),
            assignments=pd.DataFrame(columns=ASSIGNMENT_COLUMNS),
            events=pd.DataFrame(columns=EVENT_COLUMNS),
            responses=pd.DataFrame(columns=RESPONSE_COLUMNS),
        )
