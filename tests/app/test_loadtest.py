"""The load client against a real `streamlit run` server: every click it sends is stored once.

No timing assertions: speed is what `python -m benchmarks.loadtest` prints.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sqlalchemy import func, select

from benchmarks import loadtest
from playtest.storage.db import make_engine
from playtest.storage.models import EventRow

events = EventRow.__table__  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[loadtest.Report, Path]:
    folder = tmp_path_factory.mktemp("load")
    log: list[str] = []
    report = loadtest.run_benchmark(2, 3, think_ms=(0, 0), seed=7, time_limit_s=120,
                                    work_dir=folder, server_log=log)
    assert not report.errors, (report.errors, log)
    return report, folder / "loadtest.sqlite"


def test_two_testers_consent_and_play_over_the_websocket(
    run: tuple[loadtest.Report, Path],
) -> None:
    report, _db = run
    assert len(report.results) == 2
    for tester in report.results:
        assert tester.participant_id, "consent gave the tester a code in the URL"
        assert len(tester.clicks) == 3
        kinds = [kind for kind, _ms in tester.timings]
        assert kinds.count("click") == 3 and kinds.count("roll") >= 1
        # Sent with the board's fragment id, as a browser sends them: each reran the
        # board's fragment alone (a roll or click that ends a game reruns the app).
        assert tester.fragment_runs >= len(tester.timings) - 1 - tester.games > 0
    assert report.storage.ok
    assert report.storage.clicks_sent == report.storage.clicks_stored == 6
    assert report.storage.sessions == 2


def test_every_sent_click_is_one_stored_click_event(run: tuple[loadtest.Report, Path]) -> None:
    report, db = run
    engine = make_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            for tester in report.results:
                for nonce in tester.clicks:
                    rows = conn.execute(
                        select(events.c.type, events.c.participant_id)
                        .where(events.c.client_event_id == nonce)
                    ).all()
                    assert [tuple(r) for r in rows] == [("click", tester.participant_id)]
            total = conn.execute(
                select(func.count()).select_from(events).where(events.c.type == "click")
            ).scalar_one()
        assert total == 6
    finally:
        engine.dispose()


def test_check_storage_reports_a_click_that_was_not_stored(
    run: tuple[loadtest.Report, Path],
) -> None:
    report, db = run
    first = report.results[0]
    claimed = dataclasses.replace(first, clicks=[*first.clicks, "never-sent-nonce"])
    engine = make_engine(f"sqlite:///{db}")
    try:
        check = loadtest.check_storage(engine, loadtest.STUDY_ID, [claimed, *report.results[1:]])
        fewer = loadtest.check_storage(engine, loadtest.STUDY_ID, report.results[1:])
    finally:
        engine.dispose()
    assert check.missing == 1 and not check.ok
    assert fewer.unexpected == 3 and not fewer.ok


@pytest.mark.parametrize("argv", [["--testers", "0"], ["--think-ms", "9:1"], ["--turns", "x"]])
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str],
) -> None:
    assert loadtest.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("loadtest: ") and err.count("\n") == 1
