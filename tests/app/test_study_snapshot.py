"""The dashboard's study snapshot: read, refreshed tester by tester, rebuilt, discarded —
and always the same analytics as deriving the study from its raw records."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from analytics import confusion, derive, experiments, funnel
from analytics.data import StudyData
from analytics.games.vapoosh import facts as vapoosh_facts
from analytics.games.vapoosh import heatmaps as vapoosh_heatmaps
from analytics.report import build_report
from playtest import demo, study_snapshot
from playtest.cli import main as cli_main
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.privacy import delete_participant
from playtest.study_data import load_bundle
from playtest.survey_items import annotate

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the demo study of 16 testers, made once per module (playing
    the demo's games is most of this module's time); no snapshot of it exists."""
    path = tmp_path_factory.mktemp("demo") / "study.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    demo.generate(engine, 16, seed=3, workers=1, now=NOW)
    engine.dispose()  # the file is complete (no journal left beside it)
    return path


@pytest.fixture()
def db(demo_file: Path, tmp_path: Path) -> Iterator[Engine]:
    """A test's own copy of the demo study's database file (and so its own snapshot
    folder): what a test writes is seen by no other test."""
    path = tmp_path / "study.sqlite"
    shutil.copyfile(demo_file, path)
    engine = make_engine(f"sqlite:///{path}")
    yield engine
    engine.dispose()


def _analytics(data: StudyData, scores: Any, quiz: Any) -> str:
    """Everything the pages show, as one comparable text."""
    annotate(data)
    report = build_report(data, scores, quiz)
    extra = {
        "funnel": funnel.funnel(data).to_dict("records"),
        "heatmap": vapoosh_heatmaps.wrong_click_heatmap(data).to_numpy().tolist(),
        "hesitation": vapoosh_heatmaps.hesitation_heatmap(data).to_numpy().tolist(),
        "facts": vapoosh_facts.hardest_facts(data).to_dict("records"),
        "aftermath": confusion.message_aftermath(data).to_dict("records"),
        "rules": confusion.rules_overlay_use(data).to_dict("records")
        if hasattr(confusion.rules_overlay_use(data), "to_dict") else None,
        "variants": experiments.participant_variants(data, "highlight").to_dict(),
    }
    return json.dumps({"report": report, **extra}, sort_keys=True, default=str)


def _direct(engine: Engine) -> str:
    """The analytics of the study derived from scratch, without any snapshot."""
    bundle = load_bundle(engine, demo.DEMO_STUDY_ID)
    derive.prepare(bundle.data)
    return _analytics(bundle.data, bundle.scores, bundle.quiz)


def _via_snapshot(engine: Engine) -> tuple[str, study_snapshot.SnapshotLoad]:
    done = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID)
    return _analytics(done.bundle.data, done.bundle.scores, done.bundle.quiz), done


def test_a_snapshot_is_built_then_read_and_gives_the_same_analytics(db: Engine) -> None:
    first, built = _via_snapshot(db)
    assert (built.how, built.written) == ("built", True)
    folder = study_snapshot.snapshot_folder(db)
    assert folder is not None and any(folder.rglob("clicks.parquet"))
    again, read = _via_snapshot(db)
    assert (read.how, read.changed, read.written) == ("read", 0, False)
    # Read from Parquet, with no raw events at all, the pages compute what they did.
    assert read.bundle.data.events.empty
    assert again == first == _direct(db)


def test_new_testers_and_changed_answers_are_spliced_in(db: Engine) -> None:
    _via_snapshot(db)
    demo.generate(db, 3, seed=99, workers=1, now=NOW)
    someone = repo.list_participants(db, demo.DEMO_STUDY_ID)[0].participant_id
    with db.begin() as conn:  # a resubmitted page: same number of answers, newer time
        conn.execute(text("UPDATE responses SET value = '1', at_ms = at_ms + 1000 "
                          "WHERE participant_id = :p"), {"p": someone})
    result, refreshed = _via_snapshot(db)
    assert (refreshed.how, refreshed.changed, refreshed.written) == ("refreshed", 4, True)
    assert result == _direct(db)
    # and the refreshed snapshot is current now
    assert _via_snapshot(db)[1].how == "read"


def test_a_deleted_tester_leaves_the_snapshot(db: Engine) -> None:
    _via_snapshot(db)
    gone = repo.list_participants(db, demo.DEMO_STUDY_ID)[-1].participant_id
    delete_participant(db, gone)
    result, refreshed = _via_snapshot(db)
    assert (refreshed.how, refreshed.dropped) == ("refreshed", 1)
    assert gone not in set(refreshed.bundle.data._derived["turns"]["participant_id"])
    assert gone not in set(refreshed.bundle.data.responses["participant_id"])
    assert result == _direct(db)


def test_a_broken_snapshot_is_rebuilt_not_trusted(db: Engine) -> None:
    _via_snapshot(db)
    folder = study_snapshot.snapshot_folder(db)
    assert folder is not None
    for meta in folder.rglob("meta.json"):
        meta.write_text("{not json", encoding="utf-8")
    result, rebuilt = _via_snapshot(db)
    assert rebuilt.how == "built"
    assert result == _direct(db)


def test_cli_demo_writes_it_and_participant_delete_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cli.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    assert cli_main(["demo", "--testers", "4"]) == 0
    assert "dashboard data built" in capsys.readouterr().out
    engine = make_engine(f"sqlite:///{path}")
    folder = study_snapshot.snapshot_folder(engine)
    assert folder is not None and any(folder.rglob("meta.json"))
    assert study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID).how == "read"
    code = repo.list_participants(engine, demo.DEMO_STUDY_ID)[0].participant_id
    assert cli_main(["participant", "delete", code]) == 0
    assert not any(folder.rglob("*.parquet"))  # no copy of the tester's data is left
    engine.dispose()


def test_in_memory_database_works_without_a_snapshot() -> None:
    engine = make_engine("sqlite://")
    upgrade(engine)
    demo.generate(engine, 2, seed=5, workers=1, now=NOW)
    first = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID)
    assert (first.how, first.written) == ("built", False)
    assert len(first.bundle.data.participants) == 2


def test_cache_dir_setting_holds_every_database(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(tmp_path / "cache"))
    one = make_engine(f"sqlite:///{tmp_path / 'one.sqlite'}")
    two = make_engine(f"sqlite:///{tmp_path / 'two.sqlite'}")
    folders = {study_snapshot.snapshot_folder(one), study_snapshot.snapshot_folder(two)}
    assert len(folders) == 2
    assert all(f is not None and f.parent == tmp_path / "cache" for f in folders)


def test_a_background_write_leaves_a_current_snapshot(db: Engine) -> None:
    started = study_snapshot.load_prepared(db, demo.DEMO_STUDY_ID, save="background")
    assert (started.how, started.written) == ("built", True)
    study_snapshot.wait_for_writes()
    assert study_snapshot.load_prepared(db, demo.DEMO_STUDY_ID).how == "read"


def test_a_snapshot_from_other_code_is_rebuilt(db: Engine) -> None:
    """After an upgrade that changed scoring or derivation, old snapshots are not used."""
    _via_snapshot(db)
    folder = study_snapshot.snapshot_folder(db)
    assert folder is not None
    for meta_path in folder.rglob("meta.json"):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        assert meta["code"] == study_snapshot.code_signature()
        meta["code"] = "written-by-an-older-version"
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert study_snapshot.load_prepared(db, demo.DEMO_STUDY_ID).how == "built"
    assert study_snapshot.load_prepared(db, demo.DEMO_STUDY_ID).how == "read"


def test_a_column_of_mixed_values_is_kept_as_json_with_the_right_numbers(db: Engine) -> None:
    # An imported page event whose "page" is a number where the others hold text: the
    # column is written as JSON text and read back as the same values.
    with db.begin() as conn:
        conn.execute(text("UPDATE events SET props = '{\"page\": 5}' WHERE event_id = "
                          "(SELECT min(event_id) FROM events WHERE type = 'page')"))
    result, loaded = _via_snapshot(db)
    assert (loaded.how, loaded.written) == ("built", True)
    assert result == _direct(db)
    again, read = _via_snapshot(db)
    assert read.how == "read" and again == result


def test_an_unwritable_cache_folder_only_costs_speed(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should go", encoding="utf-8")
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(blocker))
    result, loaded = _via_snapshot(db)
    assert (loaded.how, loaded.written) == ("built", False)
    assert result == _direct(db)
    assert blocker.read_text(encoding="utf-8").startswith("a file")  # left as it was
