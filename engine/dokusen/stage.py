"""Dokusen stages as data: the board mask, who plays, meteors and the round limit.

A stage is a JSON object (rules-other-games.md §3.2–3.7); a designer edits
``engine/dokusen/stages.json`` (a list of them) or gives one inline to a study or a
scenario::

    {"id": "S7", "name": "Meteor Shower",
     "board": ["........", "....1...", "........"],
     "players": [{"id": 1, "kind": "active", "ai": "greedy"}],
     "meteors": {"firstRound": 4, "every": 4, "radius": 1},
     "maxRounds": 100}

- ``board``: rows of equal length, row 0 first; ``#`` void (not a square), ``.`` black
  (unowned), ``0``–``9`` a square owned by that player at the start. Player 0 is the
  user (blue); at least one square.
- ``players`` (optional): the computer colours, ``{"id": 1..9, "kind": "inactive"}`` or
  ``{"id": k, "kind": "active", "ai": "random" | "greedy" | "lookahead"}``. A digit on
  the board that is not listed is an inactive player. An active player may start with
  no square.
- ``meteors`` (optional): a schedule ``{"firstRound": k, "every": n, "radius": r}`` (the
  impact is a chance draw, uniform over the owned squares; ``radius`` defaults to 1)
  or an explicit list ``[{"round": 2, "at": [1, 1], "radius": 1}, ...]`` (tests).
- ``maxRounds`` (optional): the safety net, default 4 × the number of squares.
- ``id``, ``name`` (optional): free text for people.

:meth:`Stage.from_obj` raises :class:`engine.core.RulesError` naming the field. The format,
courses (a study's stages in order, with changed parameters) and the errors are
documented for designers in ``engine/dokusen/STAGES.md``.

>>> s = Stage.from_obj({"board": ["..#", ".1."], "players": [{"id": 1, "kind": "inactive"}]})
>>> s.total, s.max_rounds, s.colours, s.active_ids
(5, 20, 2, ())
>>> Stage.from_obj(s.to_obj()) == s
True
>>> Stage.from_obj({"board": ["..", ".x"]})
Traceback (most recent call last):
...
engine.core.RulesError: board[1]: unknown character 'x' at column 1 (use '#', '.', '0'-'9')
>>> [st.id for st in builtin_stages()]
['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8']
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from engine.core import RulesError

__all__ = [
    "AI_LEVELS",
    "Meteor",
    "MeteorSchedule",
    "Stage",
    "StagePlayer",
    "builtin_stages",
    "load_stages",
    "stage_by_id",
]

#: The computer players' levels (rules-other-games.md §3.6).
AI_LEVELS = ("random", "greedy", "lookahead")
#: Where the eight proposed stages live (a designer may edit it).
STAGES_FILE = Path(__file__).with_name("stages.json")

_KNOWN = ("id", "name", "board", "players", "meteors", "maxRounds")


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class StagePlayer:
    """A computer colour: ``kind`` is ``"inactive"`` (never places) or ``"active"``
    (places one tile per round, chosen at ``ai`` level)."""

    id: int
    kind: str
    ai: str | None = None

    def to_obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.ai is not None:
            out["ai"] = self.ai
        return out


@dataclass(frozen=True)
class MeteorSchedule:
    """Meteors in rounds ``first_round``, ``first_round + every``, ...; the impact square
    is a chance draw among the owned squares."""

    first_round: int
    every: int
    radius: int = 1

    def due(self, round_no: int) -> bool:
        """Does a meteor strike at the end of round ``round_no``?

        >>> [r for r in range(1, 15) if MeteorSchedule(4, 4).due(r)]
        [4, 8, 12]
        """
        return round_no >= self.first_round and (round_no - self.first_round) % self.every == 0

    def to_obj(self) -> dict[str, Any]:
        return {"firstRound": self.first_round, "every": self.every, "radius": self.radius}


@dataclass(frozen=True)
class Meteor:
    """An explicit meteor: strikes ``at`` (row, col) at the end of round ``round``."""

    round: int
    at: tuple[int, int]
    radius: int = 1

    def to_obj(self) -> dict[str, Any]:
        return {"round": self.round, "at": list(self.at), "radius": self.radius}


@dataclass(frozen=True)
class Stage:
    """One stage: an immutable, validated value (build it with :meth:`from_obj`)."""

    board: tuple[str, ...]
    players: tuple[StagePlayer, ...] = ()
    schedule: MeteorSchedule | None = None
    meteors: tuple[Meteor, ...] = ()
    max_rounds_given: int | None = None
    id: str = ""
    name: str = ""

    @property
    def rows(self) -> int:
        return len(self.board)

    @property
    def cols(self) -> int:
        return len(self.board[0])

    @property
    def total(self) -> int:
        """The number of squares (non-void cells)."""
        return sum(ch != "#" for row in self.board for ch in row)

    @property
    def max_rounds(self) -> int:
        """The round after which the game ends anyway (default 4 × total)."""
        return self.max_rounds_given if self.max_rounds_given is not None else 4 * self.total

    @property
    def colours(self) -> int:
        """How many colours (seats) the stage has: 1 + the largest player id in it."""
        ids = [p.id for p in self.players]
        ids += [int(ch) for row in self.board for ch in row if ch.isdigit()]
        return 1 + max(ids, default=0)

    @property
    def active_ids(self) -> tuple[int, ...]:
        """The active computer colours, ascending (the order they place in)."""
        return tuple(sorted(p.id for p in self.players if p.kind == "active"))

    def schedule_radius(self) -> int:
        """The radius of the scheduled meteors (1 without a schedule)."""
        return self.schedule.radius if self.schedule is not None else 1

    def player(self, pid: int) -> StagePlayer | None:
        """The stage's entry for colour ``pid`` (None for the user and unlisted ids)."""
        for p in self.players:
            if p.id == pid:
                return p
        return None

    def kind(self, pid: int) -> str:
        """``"user"``, ``"active"`` or ``"inactive"``."""
        if pid == 0:
            return "user"
        p = self.player(pid)
        return "inactive" if p is None else p.kind

    def to_obj(self) -> dict[str, Any]:
        """The JSON form :meth:`from_obj` reads (only the keys that were given)."""
        out: dict[str, Any] = {}
        if self.id:
            out["id"] = self.id
        if self.name:
            out["name"] = self.name
        out["board"] = list(self.board)
        if self.players:
            out["players"] = [p.to_obj() for p in self.players]
        if self.schedule is not None:
            out["meteors"] = self.schedule.to_obj()
        elif self.meteors:
            out["meteors"] = [m.to_obj() for m in self.meteors]
        if self.max_rounds_given is not None:
            out["maxRounds"] = self.max_rounds_given
        return out

    @classmethod
    def from_obj(cls, obj: Any) -> Stage:
        """Validate a stage object (or a built-in stage id such as ``"S4"``)."""
        if isinstance(obj, str):
            return stage_by_id(obj)
        if not isinstance(obj, Mapping):
            raise RulesError("stage: must be an object or a stage id such as 'S1'")
        for key in obj:
            if key not in _KNOWN:
                raise RulesError(f"{key}: unknown field (known: {', '.join(_KNOWN)})")
        board = _parse_board(obj.get("board"))
        players = _parse_players(obj.get("players", []))
        schedule, meteors = _parse_meteors(obj.get("meteors"), board)
        max_rounds = obj.get("maxRounds")
        if max_rounds is not None and (not _is_int(max_rounds) or max_rounds < 1):
            raise RulesError(f"maxRounds: must be a whole number ≥ 1, got {max_rounds!r}")
        for key in ("id", "name"):
            if not isinstance(obj.get(key, ""), str):
                raise RulesError(f"{key}: must be a string")
        return cls(
            board,
            players,
            schedule,
            meteors,
            max_rounds,
            str(obj.get("id", "")),
            str(obj.get("name", "")),
        )


def _parse_board(raw: Any) -> tuple[str, ...]:
    if raw is None:
        raise RulesError("board: missing")
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        raise RulesError("board: must be a non-empty list of strings")
    width = len(raw[0])
    if width == 0:
        raise RulesError("board[0]: empty row")
    for r, row in enumerate(raw):
        if len(row) != width:
            raise RulesError(f"board[{r}]: has {len(row)} columns, row 0 has {width}")
        for c, ch in enumerate(row):
            if ch not in "#." and not ("0" <= ch <= "9"):
                raise RulesError(
                    f"board[{r}]: unknown character {ch!r} at column {c} (use '#', '.', '0'-'9')"
                )
    if all(ch == "#" for row in raw for ch in row):
        raise RulesError("board: has no square (every cell is '#')")
    return tuple(raw)


def _parse_players(raw: Any) -> tuple[StagePlayer, ...]:
    if not isinstance(raw, list):
        raise RulesError("players: must be a list of {id, kind[, ai]}")
    seen: set[int] = set()
    out = []
    for k, p in enumerate(raw):
        where = f"players[{k}]"
        if not isinstance(p, Mapping):
            raise RulesError(f"{where}: must be an object {{id, kind[, ai]}}")
        for key in p:
            if key not in ("id", "kind", "ai"):
                raise RulesError(f"{where}.{key}: unknown field (known: id, kind, ai)")
        pid = p.get("id")
        if not _is_int(pid) or not 1 <= pid <= 9:
            raise RulesError(f"{where}.id: must be a whole number 1-9 (0 is the user), got {pid!r}")
        if pid in seen:
            raise RulesError(f"{where}.id: player {pid} is listed twice")
        seen.add(pid)
        kind = p.get("kind")
        if kind not in ("inactive", "active"):
            raise RulesError(f"{where}.kind: must be 'inactive' or 'active', got {kind!r}")
        ai = p.get("ai")
        if kind == "active":
            if ai not in AI_LEVELS:
                raise RulesError(f"{where}.ai: must be one of {', '.join(AI_LEVELS)}, got {ai!r}")
        elif ai is not None:
            raise RulesError(f"{where}.ai: an inactive player has no level")
        out.append(StagePlayer(pid, kind, ai))
    return tuple(sorted(out, key=lambda p: p.id))


def _parse_meteors(
    raw: Any, board: tuple[str, ...]
) -> tuple[MeteorSchedule | None, tuple[Meteor, ...]]:
    if raw is None:
        return None, ()
    if isinstance(raw, Mapping):
        for key in raw:
            if key not in ("firstRound", "every", "radius"):
                raise RulesError(f"meteors.{key}: unknown field (known: firstRound, every, radius)")
        first, every, radius = raw.get("firstRound"), raw.get("every"), raw.get("radius", 1)
        if not _is_int(first) or first < 1:
            raise RulesError(f"meteors.firstRound: must be a whole number ≥ 1, got {first!r}")
        if not _is_int(every) or every < 1:
            raise RulesError(f"meteors.every: must be a whole number ≥ 1, got {every!r}")
        if not _is_int(radius) or radius < 0:
            raise RulesError(f"meteors.radius: must be a whole number ≥ 0, got {radius!r}")
        return MeteorSchedule(first, every, radius), ()
    if not isinstance(raw, list):
        raise RulesError("meteors: must be a schedule object or a list of {round, at, radius}")
    out = []
    for k, m in enumerate(raw):
        where = f"meteors[{k}]"
        if not isinstance(m, Mapping):
            raise RulesError(f"{where}: must be an object {{round, at[, radius]}}")
        for key in m:
            if key not in ("round", "at", "radius"):
                raise RulesError(f"{where}.{key}: unknown field (known: round, at, radius)")
        rnd, at, radius = m.get("round"), m.get("at"), m.get("radius", 1)
        if not _is_int(rnd) or rnd < 1:
            raise RulesError(f"{where}.round: must be a whole number ≥ 1, got {rnd!r}")
        if not _is_int(radius) or radius < 0:
            raise RulesError(f"{where}.radius: must be a whole number ≥ 0, got {radius!r}")
        if (
            not isinstance(at, list)
            or len(at) != 2
            or not all(_is_int(v) for v in at)
            or not (0 <= at[0] < len(board) and 0 <= at[1] < len(board[0]))
        ):
            raise RulesError(f"{where}.at: must be [row, col] on the board, got {at!r}")
        if board[at[0]][at[1]] == "#":
            raise RulesError(f"{where}.at: {at} is void, not a square")
        out.append(Meteor(rnd, (at[0], at[1]), radius))
    return None, tuple(out)


def load_stages(path: str | Path) -> list[Stage]:
    """Read a stage file (a JSON list of stage objects); raises :class:`RulesError`
    naming the stage and field (``stages[2] ('S3').board: ...``)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(f"stages: cannot read {path}: {err}") from None
    except json.JSONDecodeError as err:
        raise RulesError(f"stages: {path} is not valid JSON: {err}") from None
    return stages_from_obj(raw)


def stages_from_obj(raw: Any) -> list[Stage]:
    """Validate a list of stage objects (ids must be unique)."""
    if not isinstance(raw, list):
        raise RulesError("stages: must be a JSON list of stage objects")
    out: list[Stage] = []
    seen: set[str] = set()
    for k, obj in enumerate(raw):
        label = f"stages[{k}]"
        if isinstance(obj, Mapping) and isinstance(obj.get("id"), str):
            label += f" ({obj['id']!r})"
        if isinstance(obj, str):
            raise RulesError(f"{label}: must be a stage object, not a name")
        try:
            stage = Stage.from_obj(obj)
        except RulesError as err:
            raise RulesError(f"{label}.{err}") from None
        if stage.id and stage.id in seen:
            raise RulesError(f"{label}.id: stage id {stage.id!r} is used twice")
        seen.add(stage.id)
        out.append(stage)
    return out


@functools.cache
def _builtin() -> tuple[Stage, ...]:
    return tuple(load_stages(STAGES_FILE))


def builtin_stages() -> list[Stage]:
    """The eight proposed stages of rules-other-games.md §3.7, from ``stages.json``."""
    return list(_builtin())


def stage_by_id(stage_id: str) -> Stage:
    """A built-in stage by id; raises :class:`RulesError` listing the ids."""
    for stage in _builtin():
        if stage.id == stage_id:
            return stage
    ids = ", ".join(s.id for s in _builtin())
    raise RulesError(f"stage: unknown stage {stage_id[:40]!r} (known: {ids})")


def stage_ids() -> Sequence[str]:
    """The built-in stages' ids, in order."""
    return [s.id for s in _builtin()]
