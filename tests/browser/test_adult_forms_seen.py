"""An adult of Vasco in Debian's Chromium, on a 360×740 phone and at 1280×800: after "An
adult (18 or over)" at consent the pre-play survey is the adults' form (Vasco's general
form once asked "I am… a child player" and offered "under 6"): adults' age bands, no
role question, no faces, and the answers stored against ``vasco_pre_adult``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from sqlalchemy.engine import Engine
from study_flow import APP, drawn, fill_survey, participant_code, settle, study_db

from playtest.storage import repository as repo
from playtest.storage.models import ResponseRow
from playtest.study_config import StudyConfig
from surveys import load_survey

pytestmark = pytest.mark.browser

SIZES = {"360": (360, 740), "1280": (1280, 800)}
CHILD_WORDS = ("A child player", "A teen player", "parent or carer watching", "under 6",
               "10–11", "15–17", "I am…", "How good do you think this game will be?")


def _stored(engine: Engine, code: str) -> dict[str, object]:
    table = ResponseRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(select(table.c.survey, table.c.item, table.c.value).where(
            table.c.participant_id == code)).all()
    return {f"{r.survey}/{r.item}": r.value for r in rows}


@pytest.mark.parametrize("size", list(SIZES))
def test_an_adult_of_vasco_reads_the_adults_pre_form(
    size: str, streamlit_app: Callable[..., Any], new_page: Callable[..., Any],
    tmp_path_factory: pytest.TempPathFactory, screenshot: Callable[[Any, str], Path],
) -> None:
    url, engine = study_db(tmp_path_factory, f"vasco-adult-{size}", study_id="vasco",
                           title="Vasco adults", config=StudyConfig(
                               game="vasco", games_per_tester=1, allow_more_games=False,
                               audience="mixed"))
    server = streamlit_app(APP, {"DATABASE_URL": url})
    width, height = SIZES[size]
    page = new_page(server, "?study=vasco", width=width, height=height)
    page.get_by_text("An adult (18 or over)").click()
    page.get_by_text("I have read the above and I agree to take part.").click()
    page.get_by_role("button", name="I agree").click()
    page.wait_for_url(re.compile(r".*\?p=.*"), timeout=30_000)
    settle(page)
    code = participant_code(page)
    expect(page.get_by_text("How old are you?")).to_be_visible()

    seen: list[str] = []

    def shoot(p: Any, name: str) -> Path:
        drawn(p)
        seen.append(p.locator("[data-testid=stMain]").inner_text())
        # No face drawn anywhere on an adult's page.
        assert not p.locator("[data-testid=stIconMaterial]").filter(
            has_text=re.compile("sentiment")).count()
        return screenshot(p, name)

    assert fill_survey(page, shoot, f"adult-vasco-{size}-pre") == len(
        load_survey("vasco_pre_adult").pages)
    text = "\n".join(seen)
    assert "18–24" in text and "65+" in text and "Strongly disagree" in text
    assert "How much fun do you expect Vasco to be?" in text
    assert not [w for w in CHILD_WORDS if w in text]
    stored = _stored(engine, code)
    assert {key.split("/")[0] for key in stored} == {"vasco_pre_adult"}
    assert stored["vasco_pre_adult/demo.age_band"] == "18–24"  # the first option picked
    assert repo.get_participant(engine, code).stage == "play"  # type: ignore[union-attr]
