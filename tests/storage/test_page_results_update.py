"""The dashboard after new data (issue 12), on SQLite and on a real PostgreSQL: the page
results a background update keeps for the new state equal the pages computed from the
database from scratch, after new testers, a tester removed and an edited study; while
it runs, a big study's page is given its latest kept result with what changed since,
never one that still counts a removed tester."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest import demo, page_results, study_snapshot
from playtest.storage import repository as repo
from playtest.storage.privacy import delete_participant
from tests.storage.test_page_results import _direct, canonical

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _assert_kept_equal_direct(engine: Engine) -> page_results.StudyHead:
    """Every page kept for the study's current state equals it computed from scratch."""
    head = page_results.load_head(engine, demo.DEMO_STUDY_ID)
    direct = _direct(engine)
    for page, compute in page_results.PAGES.items():
        kept = head.result(page)
        assert kept is not None, f"{page} was not kept by the update"
        assert canonical(page, kept) == canonical(page, compute(direct)), page
    return head


def test_an_update_after_changes_keeps_results_equal_to_the_database(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 12, seed=3, workers=1, now=NOW)
    first = study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)
    # new testers, one tester removed (withdrawn: all their data deleted) and the
    # study's record edited, all since the results were kept
    demo.generate(engine, 3, seed=4, workers=1, now=NOW)
    gone = sorted(first.marks)[0]
    delete_participant(engine, gone)
    repo.update_study(engine, demo.DEMO_STUDY_ID, title="Renamed while testers played")
    head = page_results.load_head(engine, demo.DEMO_STUDY_ID)
    assert head.state != first.state and head.result("report") is None
    # the earlier results count the removed tester: never shown
    assert head.store.earlier("report", head.facts) is None
    assert page_results.start_update(engine, demo.DEMO_STUDY_ID, head.store)
    page_results.wait_for_updates()
    assert not page_results.updating(head.store)
    after = _assert_kept_equal_direct(engine)
    assert after.state == head.state
    assert after.result("report")["participants"] == 14
    assert gone not in set(after.data.participants["participant_id"])


def test_a_big_study_shows_its_earlier_results_labelled_while_updating(
    engine: Engine, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo.generate(engine, 12, seed=11, workers=1, now=NOW)
    first = study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)
    old_report = page_results.store_for(engine, demo.DEMO_STUDY_ID, first.state).get("report")
    demo.generate(engine, 3, seed=12, workers=1, now=NOW)
    head = page_results.load_head(engine, demo.DEMO_STUDY_ID)
    # a small study computes at once: nothing earlier is shown
    assert page_results.shown_while_updating(engine, demo.DEMO_STUDY_ID, head, "report") \
        is None and not page_results.updating(head.store)
    monkeypatch.setattr(page_results, "BACKGROUND_FROM_TESTERS", 10)
    earlier = page_results.shown_while_updating(engine, demo.DEMO_STUDY_ID, head, "report")
    assert earlier is not None
    assert earlier.state == first.state and earlier.value == old_report
    assert (earlier.changed, earlier.records_changed) == (3, True)  # 3 new testers
    assert earlier.read_at == pytest.approx(first.read_at)
    notice = page_results.as_of_notice(earlier)
    assert "3 testers have new or changed data since" in notice and "as of" in notice
    page_results.wait_for_updates()  # the update the call above started
    report = head.result("report")  # the same head finds the new result once kept
    assert report is not None and report["participants"] == 15
    assert old_report["participants"] == 12
    _assert_kept_equal_direct(engine)
    # the latest result is the new one now: a later change is shown from it
    demo.generate(engine, 1, seed=13, workers=1, now=NOW)
    later = page_results.load_head(engine, demo.DEMO_STUDY_ID)
    shown = later.store.earlier("report", later.facts)
    assert shown is not None and shown.state == head.state and shown.changed == 1
    page_results.wait_for_updates()


def test_an_update_already_under_way_elsewhere_is_not_started_twice(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 4, seed=5, workers=1, now=NOW)
    study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)
    demo.generate(engine, 1, seed=6, workers=1, now=NOW)
    head = page_results.load_head(engine, demo.DEMO_STUDY_ID)
    assert head.store.folder is not None
    lock = head.store.folder / f".updating-{head.state}"
    lock.write_text("another process\n", encoding="utf-8")  # its lock file, fresh
    assert page_results.start_update(engine, demo.DEMO_STUDY_ID, head.store)  # under way
    assert page_results.updating(head.store)
    page_results.wait_for_updates()
    assert head.result("report") is None and lock.exists()  # this process computed nothing
