"""A big study's designer page after new data (issue 12): drawn at once from the latest
kept results with a notice saying as of when and how many testers changed since, then,
once the background update is done, from the current data without the notice."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, page_results, study_snapshot
from tests.app.test_designer_pages import PAGE_APP


def _overview(at: AppTest) -> tuple[int, list[str]]:
    """The testers the funnel's first step reached, and the page's notices."""
    assert not at.exception, at.exception
    return int(at.dataframe[0].value["reached"].iloc[0]), [i.value for i in at.info]


@pytest.mark.parametrize("page", ["overview"])
def test_after_new_data_the_page_shows_earlier_results_labelled_then_current_ones(
    db: Engine, page: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo.ensure_demo_study(db)
    demo.generate(db, 8, seed=2)
    study_snapshot.refresh(db, demo.DEMO_STUDY_ID)  # as `playtest demo` leaves it
    monkeypatch.setattr(page_results, "BACKGROUND_FROM_TESTERS", 5)  # "a big study"
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = page
    at.session_state["designer_signed_in"] = True
    at.run()
    reached, notices = _overview(at)
    assert reached == 8 and not any("as of" in n for n in notices)

    demo.generate(db, 2, seed=3)  # testers play while the designer watches
    at.run()
    reached, notices = _overview(at)
    assert reached == 8  # the earlier numbers, and the page says so
    assert any("as of" in n and "2 testers have new or changed data since" in n
               for n in notices), notices
    page_results.wait_for_updates()  # what the page's 2-second check waits for
    at.run()
    reached, notices = _overview(at)
    assert reached == 10 and not any("as of" in n for n in notices)
