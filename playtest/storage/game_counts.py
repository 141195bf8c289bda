"""How many games a study's testers started, played out, restarted or left, from events.

The Studies page once counted rows of the games table, which only games played in this
app have: games that came in through ``playtest import`` (the demo's among them) exist
only as their ``game_start`` and ``game_end`` events, so a study with 42 testers in
game 1 showed "Games 3". The events are the one record every game has, so the counts
come from them (aggregated in SQL, on the ``(study_id, type)`` index).

Definitions (``game_end``'s ``reason``, telemetry-format.md):

- *started*: ``game_start`` events; *testers*: testers with at least one.
- *played out*: ended with a result (a win, a draw, a game's own ending: any reason but these two);
- *restarted*: ended by "Restart game" or "New game" (reason ``restarted``);
- *left*: ended by "Stop playing" (reason ``left``);
- *in progress*: started, not ended (yet, or the tester closed the page).

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> from playtest.storage.events import EventLogger
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {}).participant_id
>>> session = repo.start_session(engine, tester)
>>> log = EventLogger(engine).log
>>> for n, reason in enumerate(["win", "restarted", None]):
...     _ = log(session, tester, "game_start", {"game_id": f"g{n}"}, f"s{n}", game_id=f"g{n}")
...     if reason:
...         _ = log(session, tester, "game_end", {"game_id": f"g{n}", "reason": reason},
...                 f"e{n}", game_id=f"g{n}")
>>> counts = game_counts(engine, "demo")
>>> (counts.started, counts.played_out, counts.restarted, counts.left, counts.in_progress)
(3, 1, 1, 0, 1)
>>> counts.testers
1
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, func, select

from playtest.storage.models import events

# game_end reasons of games that ended without a result: the one definition (services,
# the game controller, replay and the play page use these).
RESTARTED, LEFT = "restarted", "left"


@dataclass(frozen=True)
class GameCounts:
    """A study's games by how they ended (definitions in the module docstring)."""

    started: int
    played_out: int
    restarted: int
    left: int
    testers: int

    @property
    def in_progress(self) -> int:
        return max(self.started - self.played_out - self.restarted - self.left, 0)

    def summary(self) -> str:
        """One line for people.

        >>> GameCounts(45, 40, 3, 1, 42).summary()
        '45 games started by 42 testers: 40 played out, 3 restarted, 1 left unfinished, 1 in progress'
        """
        games = f"{self.started} game{'' if self.started == 1 else 's'}"
        testers = f"{self.testers} tester{'' if self.testers == 1 else 's'}"
        return (f"{games} started by {testers}: {self.played_out} played out, "
                f"{self.restarted} restarted, {self.left} left unfinished, "
                f"{self.in_progress} in progress")


def game_counts(engine: Engine, study_id: str) -> GameCounts:
    """The study's games counted from its ``game_start`` and ``game_end`` events."""
    reason = events.c.props["reason"].as_string()
    with engine.connect() as conn:
        started, testers = conn.execute(
            select(func.count(), func.count(func.distinct(events.c.participant_id)))
            .where(events.c.study_id == study_id)
            .where(events.c.type == "game_start")).one()
        ended: dict[str | None, int] = dict(conn.execute(
            select(reason, func.count())
            .where(events.c.study_id == study_id)
            .where(events.c.type == "game_end")
            .group_by(reason)).all())
    restarted = int(ended.pop(RESTARTED, 0))
    left = int(ended.pop(LEFT, 0))
    return GameCounts(started=int(started), played_out=int(sum(ended.values())),
                      restarted=restarted, left=left, testers=int(testers))
