"""What a survey store keeps of one participant's answers (:class:`SavedProgress`) and
what a store does (:class:`ResponseStore`): apart from the Streamlit renderer
(:mod:`surveys.streamlit_renderer`), so that the app's services and the CLI read and
write answers without importing Streamlit.

>>> SavedProgress({"age": 9}, ("about_you",)).completed_pages
('about_you',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from surveys.model import Answer


@dataclass(frozen=True)
class SavedProgress:
    """What a store knows: answers so far, completed page ids, seconds per page."""

    answers: Mapping[str, Answer] = field(default_factory=dict)
    completed_pages: tuple[str, ...] = ()
    seconds_per_page: Mapping[str, float] = field(default_factory=dict)


class ResponseStore(Protocol):
    """Where a participant's answers for one survey live. The app implements it on its
    database; :mod:`surveys.streamlit_renderer` ships :class:`~surveys.streamlit_renderer.
    SessionStateStore` and :class:`~surveys.streamlit_renderer.JsonFileStore`."""

    def load(self) -> SavedProgress: ...

    def save_page(self, page_id: str, answers: Mapping[str, Answer], seconds_on_page: float) -> None:
        """Persist one submitted, validated page (answers of its visible items only)."""
        ...
