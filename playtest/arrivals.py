"""A tester's arrival in a remote study and their way back to the panel: the use cases
between the tester's pages and storage (nothing here touches Streamlit).

- :func:`resume_code`: a study link carrying a panel id already stored is that
  tester's link (the same Prolific link twice is one tester).
- :func:`admit`: consent within the study's quota, with the panel's ids
  (:func:`playtest.storage.admission.admit`); :class:`StudyFull` when every place is taken.
- :func:`completion_url` and :func:`screenout_url`: where the tester goes at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Engine

from playtest import panels
from playtest.panels import PanelArrival, PanelIdError
from playtest.storage import admission
from playtest.storage import repository as repo
from playtest.storage.admission import Admission, PanelIds, StudyFull
from playtest.study_config import StudyConfig, parse_study_config

__all__ = ["PanelArrival", "PanelIdError", "StudyFull", "admit", "arrival", "completion_url",
           "is_full", "quota", "resume_code", "screenout_url"]


def _config(study: repo.Study) -> StudyConfig:
    return parse_study_config({**study.config, "game": study.game})


def quota(config: StudyConfig) -> admission.Quota | None:
    """The study's quota as storage counts it, or None (no quota)."""
    if config.quota is None:
        return None
    return admission.Quota(config.quota.completes, panels.hold_ms(config.quota))


def arrival(config: StudyConfig, query: Mapping[str, object]) -> PanelArrival | None:
    """The panel ids of a study link (None: the study has no panel, or the link no id);
    :class:`PanelIdError` for ids that are not ids."""
    return None if config.panel is None else panels.arrival_from_query(config.panel, query)


def resume_code(engine: Engine, study: repo.Study, query: Mapping[str, object]) -> str | None:
    """The code of the study's tester who came with the panel id in ``query``, or None
    (no panel, no id, an id not stored yet, settings or an id that do not check)."""
    try:
        came = arrival(_config(study), query)
    except (PanelIdError, ValueError):
        return None  # the study link's own page says what is wrong
    return None if came is None else admission.code_of_panel_id(engine, study.study_id,
                                                                came.panel_id)


def is_full(engine: Engine, study: repo.Study, config: StudyConfig) -> bool:
    """Whether a new arrival would be turned away now (:func:`admit` decides for good)."""
    wanted = quota(config)
    return wanted is not None and admission.is_full(engine, study.study_id, wanted)


def admit(engine: Engine, study: repo.Study, consent: Mapping[str, Any],
          came: PanelArrival | None) -> Admission:
    """The tester at consent (the study's settings checked first, so a study that fails
    its check stores nobody): within the quota, with the panel's ids; the stored tester
    of that panel id when there is one. Raises :class:`StudyFull`."""
    config = _config(study)
    ids = None if came is None else PanelIds(came.panel, came.panel_id, came.panel_study,
                                             came.panel_session)
    return admission.admit(engine, study.study_id, dict(consent), panel=ids,
                           quota=quota(config))


def completion_url(engine: Engine, config: StudyConfig, participant_id: str) -> str | None:
    """Where a tester who completed goes: the panel's completion address, for a tester
    who came from the panel (None otherwise)."""
    if config.panel is None:
        return None
    ids = admission.panel_ids_of(engine, participant_id)
    return None if ids is None else panels.completion_url(config.panel, ids.panel_id)


def screenout_url(config: StudyConfig, came: PanelArrival | None) -> str | None:
    """Where a panel arrival who declines (or is turned away) goes, or None."""
    if config.panel is None or came is None:
        return None
    return panels.screenout_url(config.panel, came.panel_id)
