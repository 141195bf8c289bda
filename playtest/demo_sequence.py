"""Where the next simulated testers of a study start, so a demo can add to any study.

``playtest demo --testers N --study ID`` may run on a study that has testers already
(real ones, or simulated by an earlier run, maybe with the same ``--seed``). The new
testers must not reuse a participant code, session id or game id (all are unique across
the whole database), and their variants keep the study's experiments balanced. So:

- a tester's seed comes from the run's seed, the study and the tester's place in it
  (:func:`tester_seed`), never from the run's seed alone;
- the first new place is after every tester the study has (:func:`next_tester_index`);
- the balance starts from the study's current arm counts (:func:`assignment_tallies`).

>>> tester_seed(1, "demo", 0) == tester_seed(1, "demo", 0)
True
>>> len({tester_seed(1, "demo", 0), tester_seed(1, "demo", 1), tester_seed(1, "pilot", 0),
...      tester_seed(2, "demo", 0)})
4
"""

from __future__ import annotations

import hashlib
import re

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from playtest.storage.models import assignments, participants

# Simulated testers' codes: "demo-<place, 6 digits>-<6 hex digits from the seed>".
_DEMO_CODE = re.compile(r"^demo-(\d{6,})-")


def tester_seed(seed: int, study_id: str, index: int) -> int:
    """The 64-bit seed of the ``index``-th simulated tester of ``study_id`` in a run."""
    digest = hashlib.sha256(f"{seed}\x1f{study_id}\x1f{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def next_tester_index(engine: Engine, study_id: str) -> int:
    """The place of the next simulated tester: after the study's testers, and after the
    highest place a simulated tester of it holds (deletions make the count smaller)."""
    with engine.connect() as conn:
        count = conn.execute(select(func.count()).select_from(participants)
                             .where(participants.c.study_id == study_id)).scalar_one()
        codes = conn.execute(select(participants.c.participant_id)
                             .where(participants.c.study_id == study_id)
                             .where(participants.c.participant_id.like("demo-%"))).scalars()
        places = [int(m.group(1)) for code in codes if (m := _DEMO_CODE.match(str(code)))]
    return max([int(count), *(place + 1 for place in places)])


def assignment_tallies(engine: Engine, study_id: str) -> dict[str, dict[str, int]]:
    """Testers per experiment and variant in the study so far: experiment → variant → n."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(assignments.c.experiment, assignments.c.variant, func.count())
            .where(assignments.c.study_id == study_id)
            .group_by(assignments.c.experiment, assignments.c.variant)).all()
    tallies: dict[str, dict[str, int]] = {}
    for experiment, variant, count in rows:
        tallies.setdefault(str(experiment), {})[str(variant)] = int(count)
    return tallies
