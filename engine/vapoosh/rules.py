"""Rule options and presets of Vapoosh! (vapoosh-rules.md, "Presets").

>>> Rules.preset("classic").capture
'any'
>>> r = Rules.from_obj({"base": "standard", "surround": "group"})
>>> r.surround, r.name
('group', 'custom')
>>> Rules.from_obj(r.to_obj()) == r
True
>>> Rules.from_obj({"base": "standard", "surround": "sometimes"})
Traceback (most recent call last):
...
engine.core.RulesError: rules.surround: 'sometimes' is not one of 'tile', 'group', 'off'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from engine.core import RulesError

CAPTURE_CHOICES = ("when_blocked", "any")
SURROUND_CHOICES = ("tile", "group", "off")
VAPOOH_CHOICES = ("optional_brown", "brown_and_miss_next", "off")


@dataclass(frozen=True)
class Rules:
    """One rule set; every option can be switched on its own.

    The defaults are the ``standard`` preset.
    """

    capture: str = "when_blocked"
    surround: str = "tile"
    suicide: bool = True
    vapooh: str = "optional_brown"
    square_extra_turn: bool = True
    quad_skips_next: bool = False
    own_suicide_rerolls: int = 3
    preplaced: int = 0
    max_turns: int = 400

    def __post_init__(self) -> None:
        _check_choice("capture", self.capture, CAPTURE_CHOICES)
        _check_choice("surround", self.surround, SURROUND_CHOICES)
        _check_choice("vapooh", self.vapooh, VAPOOH_CHOICES)
        for name in ("suicide", "square_extra_turn", "quad_skips_next"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rules.{name}: must be true or false (or 'on'/'off')")
        _check_int("own_suicide_rerolls", self.own_suicide_rerolls, 0, 100)
        _check_int("preplaced", self.preplaced, 0, 48)
        _check_int("max_turns", self.max_turns, 1, 1_000_000)

    @staticmethod
    def preset(name: str) -> Rules:
        """The named preset: ``standard``, ``classic`` or ``house``."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(
                f"rules: unknown preset {name!r} (choose {', '.join(PRESETS)})"
            ) from None

    @staticmethod
    def from_obj(obj: Any) -> Rules:
        """Rules from a preset name or ``{"base": preset, option: value, ...}``.

        Missing ``base`` means ``standard``. Raises :class:`RulesError` naming
        the offending field.
        """
        if isinstance(obj, Rules):
            return obj
        if isinstance(obj, str):
            return Rules.preset(obj)
        if not isinstance(obj, Mapping):
            raise RulesError("rules: must be a preset name or an object of options")
        base = Rules.preset(obj.get("base", "standard"))
        known = {f.name for f in fields(Rules)}
        changes: dict[str, Any] = {}
        for key, value in obj.items():
            if key == "base":
                continue
            if key not in known:
                raise RulesError(f"rules.{key}: unknown option (known: {', '.join(sorted(known))})")
            if key in ("suicide", "square_extra_turn", "quad_skips_next") and value in (
                "on",
                "off",
            ):
                value = value == "on"
            changes[key] = value
        return replace(base, **changes)

    def to_obj(self) -> dict[str, Any]:
        """Every option, explicitly, with ``base`` = the matching preset or ``standard``."""
        name = self.name
        out: dict[str, Any] = {"base": name if name != "custom" else "standard"}
        out.update(asdict(self))
        return out

    @property
    def name(self) -> str:
        """The preset this rule set equals, or ``"custom"``."""
        for key, preset in PRESETS.items():
            if preset == self:
                return key
        return "custom"


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(
            f"rules.{name}: {value!r} is not one of {', '.join(repr(c) for c in choices)}"
        )


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(
            f"rules.{name}: must be a whole number from {low} to {high}, got {value!r}"
        )


#: The three named rule sets of vapoosh-rules.md.
PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "classic": Rules(
        capture="any",
        surround="off",
        suicide=False,
        vapooh="off",
        square_extra_turn=False,
        quad_skips_next=False,
        own_suicide_rerolls=0,
        preplaced=0,
    ),
    "house": Rules(
        capture="when_blocked",
        surround="tile",
        suicide=True,
        vapooh="brown_and_miss_next",
        square_extra_turn=True,
        quad_skips_next=True,
        own_suicide_rerolls=3,
        preplaced=12,
    ),
}
