"""What an experiment varies: its **target**, parsed once into a value object.

The exchange format (telemetry-format.md) writes a target as text: ``message:<key>`` (a
message's wording), ``rules`` (the rule preset or options) or ``ui:<setting>`` (a display
setting). Every layer above the engine reads targets through :meth:`ExperimentTarget.parse`
and writes them back with ``str()``; nothing else splits the text.

>>> target = ExperimentTarget.parse("message:extra_turn")
>>> target.kind, target.name, str(target)
(<TargetKind.MESSAGE: 'message'>, 'extra_turn', 'message:extra_turn')
>>> ExperimentTarget.parse("rules").is_rules, ExperimentTarget.parse("ui:speed").setting
(True, 'speed')
>>> ExperimentTarget.parse("message:").kind
Traceback (most recent call last):
...
analytics.targets.TargetError: experiment target 'message:' names no message: use message:<key>, rules or ui:<setting>
>>> ExperimentTarget.parse("colour")
Traceback (most recent call last):
...
analytics.targets.TargetError: unknown experiment target 'colour': use message:<key>, rules or ui:<setting>
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

__all__ = ["ExperimentTarget", "TargetError", "TargetKind"]

_NAME: Final = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")
_USE: Final = "use message:<key>, rules or ui:<setting>"


class TargetError(ValueError):
    """A target text that is not ``message:<key>``, ``rules`` or ``ui:<setting>``."""


class TargetKind(enum.StrEnum):
    """What kind of thing an experiment varies."""

    MESSAGE = "message"
    RULES = "rules"
    UI = "ui"


@dataclass(frozen=True, slots=True)
class ExperimentTarget:
    """One experiment's target: its ``kind`` and, for a message or a display setting,
    its ``name`` (the catalog key, the setting); ``""`` for rules."""

    kind: TargetKind
    name: str = ""

    @classmethod
    def parse(cls, text: object) -> ExperimentTarget:
        """The target written ``text`` (raises :class:`TargetError` saying why not)."""
        if not isinstance(text, str):
            raise TargetError(f"an experiment target is text, got {type(text).__name__}")
        head, colon, name = text.partition(":")
        if head == TargetKind.RULES and not colon:
            return cls(TargetKind.RULES)
        if head in (TargetKind.MESSAGE, TargetKind.UI) and colon:
            kind = TargetKind(head)
            if not name:
                what = "message" if kind is TargetKind.MESSAGE else "setting"
                raise TargetError(f"experiment target {text[:80]!r} names no {what}: {_USE}")
            if not _NAME.match(name):
                raise TargetError(f"experiment target {text[:80]!r}: a name is 1 to 64 "
                                  "letters, digits, '_', '.' or '-'")
            return cls(kind, name)
        raise TargetError(f"unknown experiment target {text[:80]!r}: {_USE}")

    @classmethod
    def message(cls, key: str) -> ExperimentTarget:
        """The target varying the wording of message ``key``.

        >>> str(ExperimentTarget.message("wall"))
        'message:wall'
        """
        return cls.parse(f"message:{key}")

    @classmethod
    def ui(cls, setting: str) -> ExperimentTarget:
        """The target varying display setting ``setting``."""
        return cls.parse(f"ui:{setting}")

    @property
    def is_message(self) -> bool:
        return self.kind is TargetKind.MESSAGE

    @property
    def is_rules(self) -> bool:
        return self.kind is TargetKind.RULES

    @property
    def is_ui(self) -> bool:
        return self.kind is TargetKind.UI

    @property
    def message_key(self) -> str | None:
        """The message key of a ``message:`` target (None for the others)."""
        return self.name if self.kind is TargetKind.MESSAGE else None

    @property
    def setting(self) -> str | None:
        """The display setting of a ``ui:`` target (None for the others)."""
        return self.name if self.kind is TargetKind.UI else None

    def __str__(self) -> str:
        return self.kind.value if self.kind is TargetKind.RULES else f"{self.kind}:{self.name}"
