"""What a game's words and board view are computed from: a :class:`Moment` of a play.

>>> Moment.__dataclass_fields__.keys() >= {"play", "fresh", "settings", "shown"}
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playtest.session.play import Play, Step
from playtest.session.words import Shown


@dataclass(frozen=True)
class Moment:
    """A play as the board shows it now:

    - ``play``: the game (its state, selection, last refusal, memo…);
    - ``fresh``: the steps the last input or computer step applied (empty on a redraw);
    - ``settings``: the tester's display settings (``highlight_options``, ``speed``…: the
      values of the settings the game offers);
    - ``shown``: what the board says now, rendered in the tester's wording (by slot);
      ``wording``: that wording (message key → catalog variant or a study's own text),
      for what a view words itself (one line per forced tile…);
    - ``interactive``: whether the board takes the tester's input now (their turn, no
      computer step due, no dialog open); ``thinking``: a computer's step is due;
    - ``language``: the study's language (its code: the view words itself in it);
    - ``extra``: what the page knows beyond the game (``study_rules``; ``games``: this
      game's number and the games the study asks for…).
    """

    play: Play
    fresh: tuple[Step, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    shown: tuple[Shown, ...] = ()
    wording: Mapping[str, str] = field(default_factory=dict)
    interactive: bool = False
    thinking: bool = False
    language: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def setting(self, name: str, default: Any = None) -> Any:
        return self.settings.get(name, default)

    def text(self, slot: str) -> Shown | None:
        """What the board shows in ``slot`` (None: nothing)."""
        return next((s for s in self.shown if s.slot == slot), None)
