"""Rule options and presets of Bricks & Walls.

``standard`` is the seed's game exactly (rules-other-games.md section 1). The other
options exist so a designer can test variants; they are off in ``standard``.

- ``bricks``: bricks per player (9); the placement phase lasts ``2 * bricks`` placements.
- ``flying``: a player with exactly 3 bricks after placement moves anywhere (True).
- ``blocked``: ``"skip"`` (rule 6: a blocked player's turn is skipped) or ``"lose"``
  (the classic Nine Men's Morris: a blocked player loses).
- ``move_cap``: a draw after this many movement turns in a row without a removal
  (0 = no cap; section 1.6 recommends an optional cap, off by default).

>>> Rules.preset("standard").bricks
9
>>> Rules.from_obj({"base": "standard", "blocked": "lose"}).blocked
'lose'
>>> Rules.from_obj({"base": "classic", "blocked": "skip"}).name
'standard'
>>> r = Rules.from_obj({"base": "standard", "move_cap": 200})
>>> r.name, r.to_obj(), Rules.from_obj(r.to_obj()) == r
('custom', {'base': 'standard', 'move_cap': 200}, True)
>>> Rules.from_obj({"base": "standard", "bricks": 2})
Traceback (most recent call last):
...
engine.core.RulesError: rules.bricks: must be a whole number from 3 to 11, got 2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.core import RulesError


@dataclass(frozen=True)
class Rules:
    """One rule set; ``name`` is the preset it came from (or ``"custom"``)."""

    name: str = "standard"
    bricks: int = 9
    flying: bool = True
    blocked: str = "skip"
    move_cap: int = 0

    def __post_init__(self) -> None:
        b = self.bricks
        if isinstance(b, bool) or not isinstance(b, int) or not 3 <= b <= 11:
            raise RulesError(f"rules.bricks: must be a whole number from 3 to 11, got {b!r}")
        if not isinstance(self.flying, bool):
            raise RulesError(f"rules.flying: must be true or false, got {self.flying!r}")
        if self.blocked not in ("skip", "lose"):
            raise RulesError(f"rules.blocked: must be 'skip' or 'lose', got {self.blocked!r}")
        m = self.move_cap
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise RulesError(f"rules.move_cap: must be a whole number >= 0, got {m!r}")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset; raises :class:`RulesError` for an unknown name."""
        if name not in PRESETS:
            raise RulesError(f"rules: unknown preset {name!r} (choose {', '.join(PRESETS)})")
        return PRESETS[name]

    @classmethod
    def from_obj(cls, obj: Any) -> Rules:
        """A preset name, a :class:`Rules`, or ``{"base": preset, option: value, ...}``."""
        if isinstance(obj, Rules):
            return obj
        if isinstance(obj, str):
            return cls.preset(obj)
        if not isinstance(obj, Mapping):
            raise RulesError(f"rules: must be a preset name or an object, got {obj!r}")
        base = cls.preset(str(obj.get("base", "standard")))
        options = {k: v for k, v in obj.items() if k not in ("base", "name")}
        known = set(OPTIONS)
        for key in options:
            if key not in known:
                raise RulesError(f"rules.{key}: unknown option (known: {', '.join(OPTIONS)})")
        if not options:
            return base
        changed = replace(base, **options, name="custom")
        for preset in PRESETS.values():  # options that spell a preset are that preset
            if replace(preset, name="custom") == changed:
                return preset
        return changed

    def to_obj(self) -> str | dict[str, Any]:
        """The preset name when unchanged, else ``{"base": "standard", **options}``."""
        if self.name in PRESETS and PRESETS[self.name] == self:
            return self.name
        out: dict[str, Any] = {"base": "standard"}
        std = asdict(PRESETS["standard"])
        out.update({k: v for k, v in asdict(self).items() if k != "name" and std[k] != v})
        return out


OPTIONS = ("bricks", "flying", "blocked", "move_cap")

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "classic": Rules(name="classic", blocked="lose"),
}
