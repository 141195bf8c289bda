"""A child of Vasco, of Dokusen and of Bricks & Walls, in Debian's Chromium: after "A child, with a parent or
guardian here" the pre-play survey (on a 360×740 phone) and the post-play survey (at
1280×800) are the children's forms: faces drawn as icons, children's age bands, no "I
am… a parent or carer watching", no "65+", no "Strongly disagree"; and the answers are
stored against the children's forms.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from study_flow import APP, drawn, fill_survey, participant_code, settle, study_db

from playtest.storage import repository as repo
from playtest.storage.models import ResponseRow
from playtest.study_config import StudyConfig
from surveys import load_survey

pytestmark = pytest.mark.browser

ADULT_WORDS = ("Strongly disagree", "Proficient", "parent or carer watching", "65+",
               "18–24", "Less than once a month", "Carcassonne")


def _stored_surveys(engine: Engine, code: str) -> set[str]:
    table = ResponseRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return set(conn.execute(select(table.c.survey).where(
            table.c.participant_id == code)).scalars())


@pytest.mark.parametrize("game", ["vasco", "dokusen", "morris"])
def test_a_child_reads_the_childrens_forms(
    game: str, streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    tmp_path_factory: pytest.TempPathFactory, screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = study_db(tmp_path_factory, f"{game}-child", study_id=game,
                           title=f"{game} children", config=StudyConfig(
                               game=game, games_per_tester=1, allow_more_games=False,
                               audience="mixed"))
    server = streamlit_app(APP, {"DATABASE_URL": url})
    page = new_page(server, f"?study={game}", width=360, height=740)
    page.get_by_text("A child, with a parent or guardian here").click()
    page.get_by_text("I agree to my child taking part").click()
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url("**?p=*", timeout=30_000)
    settle(page)
    code = participant_code(page)

    seen: list[str] = []

    def shoot(p: Any, name: str) -> Path:
        drawn(p)
        seen.append(p.inner_text("body"))
        assert p.locator("[data-testid=stIconMaterial]").count() or "How old" in seen[-1]
        return screenshot(p, name)

    assert fill_survey(page, shoot, f"child-{game}-360-pre") == len(
        load_survey(f"{game}_pre_child").pages)
    text = "\n".join(seen)
    assert "How old are you?" in text and "under 6" in text and "10–11" in text
    assert "How good do you think this game will be?" in text and "Brilliant" in text
    assert not [w for w in ADULT_WORDS if w in text]
    assert "I am…" not in text
    assert _stored_surveys(engine, code) == {f"{game}_pre_child"}

    # After play (the stage moved on as the play page does), at 1280×800.
    assert repo.advance_stage(engine, code, "play", "post_survey") == "post_survey"
    desk = new_page(server, f"?p={code}", width=1280, height=800)
    seen.clear()
    assert fill_survey(desk, shoot, f"child-{game}-1280-post") == len(
        load_survey(f"{game}_post_child").pages)
    text = "\n".join(seen)
    assert "Would you like to play it again?" in text and "Too hard" in text
    assert not [w for w in ADULT_WORDS if w in text]
    assert _stored_surveys(engine, code) == {f"{game}_pre_child", f"{game}_post_child"}
