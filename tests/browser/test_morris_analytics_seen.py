"""A Bricks & Walls study's confusion page in Chromium at 1280×800 and on a 360×740
phone: its points board and hesitation chart, no facts or 12×12 board
(screenshots artifacts/screenshots/morris-confusion-*)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designer_flow import APP, PASSWORD, SIZES, expect_charts, go, sign_in
from playwright.sync_api import expect

from playtest import auth
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import import_jsonl

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def app(streamlit_app: Callable[..., Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    pytest.importorskip("engine.morris")
    from tests.analytics.morris_planted import planted_morris_study

    folder = tmp_path_factory.mktemp("morris-designer")
    data = planted_morris_study(30, seed=3)
    lines: list[dict[str, Any]] = [{"record": "study", **data.study}]
    lines += [{"record": "participant", "study_id": data.study["study_id"],
               "participant_id": pid, "created_at": at.isoformat(),
               "consented_at": at.isoformat()}
              for pid, at in zip(data.participants["participant_id"],
                                 data.participants["created_at"], strict=True)]
    lines += [{"record": "event", **{k: row[k] for k in ("participant_id", "session_id",
                                                         "type", "props", "game_id")},
               "seq": int(row["seq"]), "at": row["at"].isoformat()}
              for row in data.events.to_dict("records")]
    path = folder / "morris.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    url = f"sqlite:///{folder / 'playtest.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    import_jsonl(engine, path)
    engine.dispose()
    return streamlit_app(APP, {"DATABASE_URL": url, auth.ENV_VAR: auth.hash_password(PASSWORD)})


@pytest.mark.parametrize("size", list(SIZES))
def test_the_morris_confusion_page_shows_the_board_of_points(
    new_page: Callable[..., Any], app: Any, screenshot: Callable[[Any, str], Path], size: str
) -> None:
    page = sign_in(new_page, app, size)
    go(page, "Confusion", "planted-morris")
    expect(page.get_by_role("heading", name="Clicks per point")).to_be_visible()
    expect(page.get_by_role("heading", name="Wall and removal hesitation")).to_be_visible()
    assert page.get_by_role("heading", name="Hardest multiplication facts").count() == 0
    expect_charts(page, 3)  # refused clicks by reason, points, hesitation
    # the points table (a canvas grid: its cells are in the page, drawn on the canvas)
    expect(page.get_by_text("Rule not understood: occupied").first).to_be_attached()
    page.get_by_role("heading", name="Clicks per point").scroll_into_view_if_needed()
    screenshot(page, f"morris-confusion-points-{size}")
    page.get_by_role("heading", name="Wall and removal hesitation") \
        .scroll_into_view_if_needed()
    screenshot(page, f"morris-confusion-hesitation-{size}")
