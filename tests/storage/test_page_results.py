"""The dashboard's kept page results (issue 12) on SQLite and on a real PostgreSQL: read
back, they equal the pages computed directly from the database; new data makes a new
state; a file this database did not sign is never loaded; and a reader never sees a
half-written file while other processes write."""

from __future__ import annotations

import json
import multiprocessing
import pickle
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import Engine

from analytics import derive
from playtest import demo, page_results, study_snapshot
from playtest.games.vapoosh import demo as vapoosh_demo
from playtest.study_data import StudyBundle, load_bundle
from playtest.survey_items import annotate

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _direct(engine: Engine) -> StudyBundle:
    """The slow path: the whole study read from the database and derived, no snapshot."""
    bundle = load_bundle(engine, demo.DEMO_STUDY_ID)
    derive.prepare(bundle.data)
    annotate(bundle.data)
    return bundle


def _frame(frame: pd.DataFrame) -> str:
    """A frame's every value, dtype and column (exact floats), as comparable text."""
    return json.dumps({"dtypes": [str(t) for t in frame.dtypes], "columns": list(frame.columns),
                       "rows": frame.astype(object).where(frame.notna(), None).values.tolist()},
                      default=repr)


def canonical(page: str, value: Any) -> Any:
    """A page's result as plain text, so two results compare value by value."""
    if page == "confusion":
        return {"points": [repr(point) for point in value["points"]],
                "charts": {name: json.loads(fig.to_json())  # key order aside
                           for name, fig in value["charts"].items()},
                "frames": {key: _frame(frame) for key, frame in value["frames"].items()},
                "aftermath": _frame(value["aftermath"]), "overlay": _frame(value["overlay"])}
    if page == "report":
        return json.dumps(value, sort_keys=True)
    if page == "funnel":
        return _frame(value)
    if page == "experiments":  # every field, the metrics' values functions aside
        return [repr(result) for result in value]
    if page == "questionnaires":
        return {name: _frame(part) if isinstance(part, pd.DataFrame)
                else {key: _frame(one) if isinstance(one, pd.DataFrame)
                      else json.loads(one.to_json()) for key, one in part.items()}
                if isinstance(part, dict) else repr(part)
                for name, part in value.items()}
    raise AssertionError(f"no canonical form for {page}")


def test_kept_pages_equal_the_pages_computed_from_the_database(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 24, seed=3, workers=1, now=NOW)
    refreshed = study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)  # demo/import do this
    read = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID)
    assert (read.how, read.state) == ("read", refreshed.state)  # same data, same state
    store = page_results.store_for(engine, demo.DEMO_STUDY_ID, read.state)
    head = page_results.load_head(engine, demo.DEMO_STUDY_ID)  # no tables read
    assert head.state == read.state and head.data.events.empty
    direct = _direct(engine)
    for page, compute in page_results.PAGES.items():
        kept = store.get(page)
        assert kept is not None, f"{page} was not kept by the refresh"
        assert canonical(page, kept) == canonical(page, compute(direct)), page
        assert canonical(page, head.result(page)) == canonical(page, kept), page
    # the planted truths are in what is kept (the comparison is not of empty pages)
    ids = [point.id for point in store.get("confusion")["points"]]
    assert f"rule:{vapoosh_demo.PLANTED_RULE}" in ids
    assert store.get("report")["participants"] == 24


def test_new_data_makes_a_new_state_whose_results_follow_the_data(
    engine: Engine, cache_dir: Path
) -> None:
    demo.generate(engine, 12, seed=11, workers=1, now=NOW)
    old = study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)
    old_report = page_results.store_for(engine, demo.DEMO_STUDY_ID, old.state).get("report")
    demo.generate(engine, 3, seed=12, workers=1, now=NOW)
    new = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID, save=False)
    assert new.how == "refreshed" and new.state != old.state
    store = page_results.store_for(engine, demo.DEMO_STUDY_ID, new.state)
    assert store.get("report") is None  # nothing kept for data nobody has seen yet
    annotate(new.bundle.data)  # as the dashboard does
    report = page_results.kept(store, "report", lambda: page_results.PAGES["report"](
        new.bundle), background=False)
    assert report["participants"] == 15 and old_report["participants"] == 12
    assert store.get("report") == report
    assert canonical("report", report) == canonical("report",
                                                    page_results.PAGES["report"](_direct(engine)))


def test_an_edited_study_record_makes_a_new_state(engine: Engine, cache_dir: Path) -> None:
    from playtest.storage import repository as repo

    study = demo.ensure_demo_study(engine)
    demo.generate(engine, 4, seed=5, workers=1, now=NOW)
    before = study_snapshot.load_prepared(engine, study.study_id).state
    repo.update_study(engine, study.study_id, title="A new title")
    after = study_snapshot.load_prepared(engine, study.study_id)
    assert after.how == "read" and after.state != before


class _Planted:
    """Unpickling this would leave a file behind: the proof a pickle ran."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (Path(self.path), "ran"))


def test_a_file_not_signed_by_this_database_is_never_loaded(
    engine: Engine, cache_dir: Path, tmp_path: Path
) -> None:
    demo.generate(engine, 4, seed=5, workers=1, now=NOW)
    state = study_snapshot.refresh(engine, demo.DEMO_STUDY_ID).state
    store = page_results.store_for(engine, demo.DEMO_STUDY_ID, state)
    assert store.folder is not None and store.get("report") is not None
    proof = tmp_path / "ran.txt"
    hostile = pickle.dumps(_Planted(str(proof)))
    path = store.folder / f"report-{state}.pkl"
    path.write_bytes(b"\0" * 32 + hostile)  # no valid signature
    assert store.get("report") is None
    # signed, but with another database's key (a shared cache folder)
    other = page_results.PageStore(store.folder, state, b"another database's key")
    other._write("report", hostile)
    assert store.get("report") is None
    assert not proof.exists()
    path.write_bytes(b"short")  # a truncated file
    assert store.get("report") is None


def _writer(folder: str, state: str, key: bytes, rounds: int, number: int) -> None:
    store = page_results.PageStore(Path(folder), state, key)
    for i in range(rounds):
        # big enough that a write takes many system calls
        store._write("report", pickle.dumps({"writer": number, "round": i,
                                             "pad": "x" * 2_000_000}))


def test_readers_never_see_a_half_written_file_while_processes_write(tmp_path: Path) -> None:
    folder, state, key = tmp_path / "pages", "s" * 32, b"k" * 32
    store = page_results.PageStore(folder, state, key)
    assert store._write("report", pickle.dumps({"writer": -1, "round": 0, "pad": ""}))
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(str(folder), state, key, 15, n))
               for n in range(3)]
    for process in writers:
        process.start()
    reads = 0
    while any(process.is_alive() for process in writers):
        value = store.get("report")
        assert value is not None and value["writer"] in (-1, 0, 1, 2)
        reads += 1
    for process in writers:
        process.join()
        assert process.exitcode == 0
    assert reads > 0 and store.get("report")["round"] == 14
    assert [p.name for p in folder.iterdir()] == [f"report-{state}.pkl"]  # no temporaries
