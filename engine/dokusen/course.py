"""A study's way through Dokusen's stages: which stages, in which order, and changed
parameters of some of them (what a study's rules say, and what an A/B test varies).

A study's ``rules`` for Dokusen is one of:

- a built-in stage id (``"S4"``): every game plays that stage;
- a stage object (``{"board": [...], ...}``, see :mod:`engine.dokusen.stage`): the same,
  for a designer's own stage;
- ``"all"``: the eight built-in stages in order;
- a **course**: ``{"stages": ["S1", "S2", {...a stage object with an id...}],
  "changes": {"S2": {"meteors": {"firstRound": 3, "every": 3}}}}``:

  - ``stages`` (required): the stages in the order a tester meets them, each a built-in
    id or a stage object with an ``id``; ids are unique;
  - ``changes`` (optional): per stage id, fields that replace the stage's own
    (``board``, ``players``, ``meteors``, ``maxRounds``, ``name``); the changed stage is
    validated like any stage.

An experiment on a stage's parameters is an experiment with target ``rules`` whose
variants are two courses that differ in one stage's ``changes``.

A tester plays one stage per game. The stage a game plays is stored in its record as
:meth:`Course.record_rules` gives it: the id of an unchanged built-in stage, else the
whole stage object (so a record replays without the study).

Errors are :class:`engine.core.RulesError` naming the field:

>>> c = Course.from_rules({"stages": ["S1", "S7"], "changes": {"S7": {"maxRounds": 30}}})
>>> c.order, c.stage("S7").max_rounds, c.record_rules("S1"), c.record_rules("S7")["maxRounds"]
(('S1', 'S7'), 30, 'S1', 30)
>>> c.after("S1"), c.after("S7")
('S7', None)
>>> Course.from_rules("S4").order, len(Course.from_rules("all").order)
(('S4',), 8)
>>> Course.from_rules({"stages": ["S1", {"board": ["1."]}]})
Traceback (most recent call last):
...
engine.core.RulesError: stages[1].id: a stage of a course needs an id
>>> Course.from_rules({"stages": ["S1"], "changes": {"S1": {"meteors": {"every": 0, "firstRound": 1}}}})
Traceback (most recent call last):
...
engine.core.RulesError: changes.S1.meteors.every: must be a whole number ≥ 1, got 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import RulesError
from engine.dokusen.stage import Stage, builtin_stages, stage_by_id

__all__ = ["ALL", "CHANGEABLE", "Course", "is_course"]

#: The rules name of the course through every built-in stage.
ALL = "all"
_KNOWN = ("stages", "changes")
CHANGEABLE = ("board", "players", "meteors", "maxRounds", "name")


def is_course(rules: Any) -> bool:
    """Is ``rules`` a course (``"all"`` or an object with ``stages``) rather than one stage?

    >>> is_course("all"), is_course("S1"), is_course({"stages": ["S1"]}), is_course({"board": ["."]})
    (True, False, True, False)
    """
    return rules == ALL or (isinstance(rules, Mapping) and "stages" in rules)


@dataclass(frozen=True)
class Course:
    """Validated stages in order; ``refs[k]`` is how stage ``k`` is stored in a record."""

    stages: tuple[Stage, ...]
    refs: tuple[Any, ...]

    @property
    def order(self) -> tuple[str, ...]:
        """The stages' ids, in the order a tester meets them."""
        return tuple(s.id for s in self.stages)

    def _index(self, stage_id: str) -> int:
        try:
            return self.order.index(stage_id)
        except ValueError:
            raise RulesError(
                f"stage: {str(stage_id)[:40]!r} is not in this course ({', '.join(self.order)})"
            ) from None

    def stage(self, stage_id: str) -> Stage:
        """The stage with this id (as changed by the course)."""
        return self.stages[self._index(stage_id)]

    def record_rules(self, stage_id: str) -> Any:
        """What a game record stores as its rules to play this stage."""
        return self.refs[self._index(stage_id)]

    def after(self, stage_id: str) -> str | None:
        """The id of the stage after this one, or None after the last."""
        k = self._index(stage_id)
        return self.order[k + 1] if k + 1 < len(self.order) else None

    @classmethod
    def from_rules(cls, rules: Any) -> Course:
        """A course from a study's rules (a stage id, a stage object, ``"all"`` or a
        course object)."""
        if rules == ALL:
            every = tuple(builtin_stages())
            return cls(every, tuple(s.id for s in every))
        if not is_course(rules):
            stage = Stage.from_obj(rules)
            if not stage.id:
                stage = Stage.from_obj({**stage.to_obj(), "id": "custom"})
            return cls((stage,), (rules if isinstance(rules, str) else stage.to_obj(),))
        for key in rules:
            if key not in _KNOWN:
                raise RulesError(f"{key}: unknown field of a course (known: {', '.join(_KNOWN)})")
        raw = rules["stages"]
        if not isinstance(raw, list) or not raw:
            raise RulesError("stages: must be a non-empty list of stage ids or stage objects")
        stages: list[Stage] = []
        builtin: list[bool] = []
        for k, item in enumerate(raw):
            if isinstance(item, str):
                try:
                    stages.append(stage_by_id(item))
                except RulesError as err:
                    raise RulesError(f"stages[{k}]: {str(err).removeprefix('stage: ')}") from None
                builtin.append(True)
                continue
            try:
                stage = Stage.from_obj(item)
            except RulesError as err:
                raise RulesError(f"stages[{k}].{err}") from None
            if not stage.id:
                raise RulesError(f"stages[{k}].id: a stage of a course needs an id")
            stages.append(stage)
            builtin.append(False)
        ids = [s.id for s in stages]
        for k, sid in enumerate(ids):
            if sid in ids[:k]:
                raise RulesError(f"stages[{k}].id: stage {sid!r} is in the course twice")
        changes = rules.get("changes", {})
        if not isinstance(changes, Mapping):
            raise RulesError("changes: must be an object {stage id: {field: value}}")
        for sid, change in changes.items():
            where = f"changes.{str(sid)[:40]}"
            if sid not in ids:
                raise RulesError(f"{where}: no stage {str(sid)[:40]!r} in stages ({', '.join(ids)})")
            if not isinstance(change, Mapping) or not change:
                raise RulesError(f"{where}: must be an object of the fields to change")
            for key in change:
                if key not in CHANGEABLE:
                    raise RulesError(
                        f"{where}.{str(key)[:40]}: cannot be changed (change one of "
                        f"{', '.join(CHANGEABLE)})"
                    )
            k = ids.index(sid)
            try:
                stages[k] = Stage.from_obj({**stages[k].to_obj(), **change})
            except RulesError as err:
                raise RulesError(f"{where}.{err}") from None
            builtin[k] = False
        refs = tuple(s.id if b else s.to_obj() for s, b in zip(stages, builtin, strict=True))
        return cls(tuple(stages), refs)
