"""Display settings a game's board may offer (the ``ui:<setting>`` experiment targets), as
values: each with its choices and their labels, its default and one check.

A game offers only the settings its board uses (:attr:`GamePlugin.ui_settings
<playtest.games.plugin.GamePlugin.ui_settings>`); the two most boards use are here, a
game's own (a dice game's computer dice) in its folder.

>>> SPEED.check(3), SPEED.label_of(1)
(3, 'slow')
>>> SPEED.check(98)
Traceback (most recent call last):
...
ValueError: ui:speed must be 1, 2 or 3, not 98
>>> HIGHLIGHT_OPTIONS.check("yes")
Traceback (most recent call last):
...
ValueError: ui:highlight_options must be true or false, not 'yes'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class Choice:
    """One value a setting may take, with its label for people."""

    value: Any
    label: str


@dataclass(frozen=True)
class UiSetting:
    """A display setting: ``name`` (``ui:<name>`` in an experiment, a field of the
    study's settings), its ``label`` and ``help`` for the Studies page, its ``choices``
    (every value allowed, with labels) and its ``default``."""

    name: str
    label: str
    choices: tuple[Choice, ...]
    default: Any
    help: str = ""

    @property
    def target(self) -> str:
        """The experiment target that varies it (``ui:<name>``)."""
        return f"ui:{self.name}"

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(c.value for c in self.choices)

    def check(self, value: Any) -> Any:
        """``value`` when it is one of the choices (of the same type: ``True`` is not
        ``1``), else :class:`ValueError` saying which values are allowed."""
        for choice in self.choices:
            if type(value) is type(choice.value) and value == choice.value:
                return value
        raise ValueError(f"{self.target} must be {self._allowed()}, not {value!r}")

    def label_of(self, value: Any) -> str:
        """The label of ``value`` (its text when it is not a choice)."""
        return next((c.label for c in self.choices
                     if type(value) is type(c.value) and value == c.value), str(value))

    def _allowed(self) -> str:
        if set(self.values) == {True, False} and all(isinstance(v, bool) for v in self.values):
            return "true or false"
        words = [str(v) for v in self.values]
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: Ring the places a click may choose (the options, the targets).
HIGHLIGHT_OPTIONS: Final = UiSetting(
    "highlight_options", "Highlight where a click may go",
    (Choice(False, "off"), Choice(True, "on")), False,
    "Ring the tiles or points a tester may choose now.")

#: How long the computer "thinks" and a message stays up (playtest.messages.speeds).
SPEED: Final = UiSetting(
    "speed", "Speed", (Choice(1, "slow"), Choice(2, "medium"), Choice(3, "fast")), 2,
    "How long the computer takes over a move and a message stays on the board; "
    "testers may change it on the play screen.")
