"""The copy of a study's snapshot a process keeps in memory (issue 12: a page's
recompute after new data without reading the snapshot's files again), on SQLite and on
a real PostgreSQL: used only while the files it copies are current, and every page
computed from it equals the page computed from the database from scratch after a
changed tester, a deleted tester and an edited study."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from playtest import demo, page_results, study_snapshot
from playtest.storage import repository as repo
from playtest.storage.privacy import delete_participant
from playtest.survey_items import annotate
from tests.storage.test_page_results import _direct, canonical

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _folder(engine: Engine) -> Path:
    root = study_snapshot.snapshot_folder(engine)
    assert root is not None
    return study_snapshot.study_folder(root, demo.DEMO_STUDY_ID)


def _break_files(engine: Engine) -> None:
    """Make every Parquet file of the current snapshot unreadable (meta left alone): a
    load that reads them has to rebuild; one that uses the copy in memory does not."""
    folder = _folder(engine)
    current = (folder / "CURRENT").read_text(encoding="utf-8").strip()
    for path in (folder / current).glob("*.parquet"):
        path.write_bytes(b"not parquet")


def _sorted_values(values: Any) -> list[str]:
    return sorted(map(repr, [] if values is None else list(values)))


def _unordered(page: str, value: Any) -> Any:
    """``canonical`` of a page, but the questionnaires page's free-text answers and its
    score histogram's values in a fixed order: a refreshed snapshot (from files or from
    the copy in memory alike) holds a changed tester's answers after the others', a
    from-scratch read in storage order; what the page shows and counts is the same."""
    if page != "questionnaires":
        return canonical(page, value)
    free = value["free_text"]
    value = {**value, "free_text": free.sort_values(
        [c for c in free.columns if free[c].map(lambda v: isinstance(v, str)).all()],
        kind="stable").reset_index(drop=True)}
    figures = value["distribution"]
    shown = canonical(page, {**value, "distribution": {}})
    shown["distribution"] = {
        name: [(trace.name, trace.type, _sorted_values(trace.x), _sorted_values(trace.y))
               for trace in figure.data]
        for name, figure in figures.items()}
    return shown


_FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _rounded(value: Any) -> str:
    """Every float in ``value``'s text to 9 significant digits: a mean over the same
    values summed in another row order may differ in its last bit."""
    return _FLOAT.sub(lambda found: f"{float(found.group()):.9g}", repr(value))


def _assert_pages_equal_direct(engine: Engine, *loads: study_snapshot.SnapshotLoad) -> None:
    """Every page of each load equals the page computed from the database from scratch
    (computed once for them all: the loads are of the database as it is now)."""
    direct = _direct(engine)
    for loaded in loads:
        annotate(loaded.bundle.data)
    for page, compute in page_results.PAGES.items():
        expected = _rounded(_unordered(page, compute(direct)))
        for loaded in loads:
            assert _rounded(_unordered(page, compute(loaded.bundle))) == expected, \
                (page, loaded.how)


def _touch(engine: Engine, participant_id: str) -> None:
    """The tester's latest answer 1 ms later: their change mark moves."""
    with engine.begin() as conn:
        conn.execute(text(
            "UPDATE responses SET at_ms = at_ms + 1 WHERE participant_id = :p AND at_ms = "
            "(SELECT max(at_ms) FROM responses WHERE participant_id = :p)"),
            {"p": participant_id})


def test_after_a_changed_tester_the_copy_is_used_and_equals_the_database(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 10, seed=21, workers=1, now=NOW)
    first = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    assert first.how == "built" and first.written
    changed = sorted(first.marks)[3]
    _touch(engine, changed)
    _break_files(engine)  # the copy spares reading them
    second = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    assert (second.how, second.changed, second.dropped) == ("refreshed", 1, 0)
    assert second.marks[changed] != first.marks[changed]
    _assert_pages_equal_direct(engine, second)
    # and again from the copy of the refreshed snapshot (written, so current)
    _touch(engine, sorted(first.marks)[5])
    third = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save="background")
    study_snapshot.wait_for_writes()
    assert (third.how, third.changed) == ("refreshed", 1)
    _assert_pages_equal_direct(engine, third)


def test_a_deleted_tester_is_not_in_pages_computed_from_the_copy(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 10, seed=22, workers=1, now=NOW)
    first = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    gone = sorted(first.marks)[0]
    delete_participant(engine, gone)
    second = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    assert (second.how, second.dropped) == ("refreshed", 1)
    for table in (*second.bundle.data._derived.values(), second.bundle.data.responses,
                  second.bundle.scores, second.bundle.quiz):
        if hasattr(table, "columns") and "participant_id" in table.columns:
            assert gone not in set(table["participant_id"])
    _assert_pages_equal_direct(engine, second)


def test_an_edited_study_is_read_fresh_beside_the_copy(engine: Engine, cache_dir: Path) -> None:
    demo.generate(engine, 10, seed=23, workers=1, now=NOW)
    first = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    study = repo.get_study(engine, demo.DEMO_STUDY_ID)
    assert study is not None and study.config.get("experiments")
    experiments = [{**record, "min_effect": 0.37} for record in study.config["experiments"]]
    repo.update_study(engine, demo.DEMO_STUDY_ID, title="Edited while testers played",
                      config={**study.config, "experiments": experiments})
    second = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    assert second.how == "read" and second.state != first.state
    assert second.bundle.data.study["title"] == "Edited while testers played"
    _assert_pages_equal_direct(engine, second)


def test_the_copy_is_not_used_once_its_files_are_not_current(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 8, seed=24, workers=1, now=NOW)
    study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    # discarded (e.g. `playtest participant delete`): the next load derives the study
    study_snapshot.discard(engine, demo.DEMO_STUDY_ID)
    assert study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True).how == "built"
    # another process wrote a newer snapshot: CURRENT names it, so the files are read
    # (here broken: then the study is derived again, never the stale copy trusted)
    folder = _folder(engine)
    study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    held = study_snapshot._held(folder)
    assert held is not None
    other = study_snapshot._Snapshot(dict(held.marks), dict(held.tables), held.responses,
                                     held.scores, held.quiz)
    assert study_snapshot._write_unlocked(folder, other)  # as another process would
    _break_files(engine)
    again = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=False)
    assert again.how == "built"
    _assert_pages_equal_direct(engine, again)


def test_a_refresh_soon_after_a_write_stays_in_memory_and_others_read_the_files(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 10, seed=25, workers=1, now=NOW)
    first = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save="background")
    study_snapshot.wait_for_writes()
    ids = sorted(first.marks)
    _touch(engine, ids[2])
    soon = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save="background")
    assert (soon.how, soon.changed, soon.written) == ("refreshed", 1, False)
    _touch(engine, ids[4])  # the copy holds ids[2]'s change: only ids[4] is re-derived
    again = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save="background")
    assert (again.how, again.changed, again.written) == ("refreshed", 1, False)
    # another process (no copy) refreshes from the files: both testers, same pages
    study_snapshot.forget()
    other = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=False)
    assert (other.how, other.changed) == ("refreshed", 2)
    _assert_pages_equal_direct(engine, again, other)  # the database unchanged since `again`
    # a removed tester is written out at once, even soon after a write
    delete_participant(engine, ids[0])
    study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=True)
    _touch(engine, ids[6])
    delete_participant(engine, ids[1])
    dropped = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save="background")
    study_snapshot.wait_for_writes()
    assert (dropped.dropped, dropped.written) == (1, True)
