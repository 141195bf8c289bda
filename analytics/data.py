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
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # pandas is imported where a frame is made: a tester's page needs none
    import pandas as pd

#: The game of a study, game record or ``game_start`` that names none: telemetry-format.md
#: says an absent ``game`` means this one (every record from before the lab had more than
#: one game). The one place outside the game's own folders that names it; registry order
#: never changes what such a record means.
UNNAMED_GAME: Final = "vapoosh"

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
    ``experiments`` …) as a dict; the storage layer always fills its ``game``, and one
    without (an old export, data built by hand) plays the game of records that name none
    (:func:`analytics.game_analytics.default_game`). Times (``at``, ``created_at``, ``consented_at``) are
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
        default_factory=lambda: _frame(["participant_id"])
    )
    # Derived tables (expanded click props, turns …) computed once per StudyData by
    # ``analytics.derive``: the frames above are never mutated, so the memo stays valid.
    _derived: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def empty(cls, study_id: str, game: str | None = None) -> StudyData:
        """A study without records, of ``game`` (None: it names no game)."""
        named = {} if game is None else {"game": game}
        return cls(
            study={"study_id": study_id, "title": "", **named, "rules": "standard",
                   "experiments": []},
            participants=_frame(PARTICIPANT_COLUMNS),
            assignments=_frame(ASSIGNMENT_COLUMNS),
            events=_frame(EVENT_COLUMNS),
            responses=_frame(RESPONSE_COLUMNS),
        )


# --- Inputs computed outside analytics -------------------------------------------------
#: ``scores``: one row per participant × phase × instrument × scale, computed by the
#: surveys package. ``phase`` is ``pre`` or ``post``; ``scale`` is ``"total"`` for the
#: instrument's main score (e.g. the SUS 0–100 score), otherwise a subscale name;
#: ``value`` is a float; ``grade`` is a str (e.g. SUS "B+") or None.
SCORE_COLUMNS = ["participant_id", "phase", "instrument", "scale", "value", "grade"]
#: ``quiz``: one row per participant × quiz item; ``correct`` is a bool.
QUIZ_COLUMNS = ["participant_id", "item", "correct"]


def _frame(columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(columns=columns)


class AnalyticsInputError(ValueError):
    """An input frame lacks required columns or has unusable values.

    >>> import pandas as pd
    >>> try:
    ...     require_columns(pd.DataFrame({"a": [1]}), ["a", "b"], "scores")
    ... except AnalyticsInputError as error:
    ...     print(error)
    scores frame lacks column(s): b
    """


def require_columns(frame: pd.DataFrame, columns: list[str], name: str) -> None:
    """Raise :class:`AnalyticsInputError` naming the columns ``frame`` lacks."""
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise AnalyticsInputError(f"{name} frame lacks column(s): {', '.join(missing)}")


def empty_scores() -> pd.DataFrame:
    """A ``scores`` frame with no rows (for studies without questionnaires)."""
    return _frame(SCORE_COLUMNS)


def empty_quiz() -> pd.DataFrame:
    """A ``quiz`` frame with no rows."""
    return _frame(QUIZ_COLUMNS)


def validate_study(data: StudyData) -> None:
    """Check every frame of ``data`` has its exchange-format columns."""
    require_columns(data.participants, PARTICIPANT_COLUMNS, "participants")
    require_columns(data.assignments, ASSIGNMENT_COLUMNS, "assignments")
    require_columns(data.events, EVENT_COLUMNS, "events")
    require_columns(data.responses, RESPONSE_COLUMNS, "responses")
