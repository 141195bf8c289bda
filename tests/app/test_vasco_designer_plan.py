"""A Vasco study's numbers on the designer's confusion and plan pages (AppTest on a real
SQLite file filled by ``playtest demo``): the refusal reasons with their occasions and
intervals, and the forced-cascade surprise with its definition and interval, as the
analytics compute them (the browser test only sees canvases for these tables)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analytics.games.vasco.cascades import surprise
from analytics.games.vasco.decisions import reason_table
from playtest import demo
from playtest.storage.db import make_engine, upgrade
from playtest.study_data import load_bundle

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")
STUDY = f"{demo.DEMO_STUDY_ID}-vasco"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vasco-plan") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    study = {s.game: s for s in demo.ensure_game_demo_studies(engine)}["vasco"]
    demo.generate(engine, 12, seed=4, study=study, workers=1)
    engine.dispose()
    return path


def _page(path: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    at = AppTest.from_file(PAGE_APP, default_timeout=90)
    at.query_params["page"] = page
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = STUDY
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_plan_page_shows_vasco_s_sections_with_definitions_and_intervals(
        filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_bundle(make_engine(f"sqlite:///{filled}"), STUDY).data
    at = _page(filled, "report", monkeypatch)
    headings = [h.value for h in at.subheader]
    assert "Refused clicks by reason" in headings and "Forced-cascade surprise" in headings
    captions = "\n".join(c.value for c in at.caption)
    assert "Newcombe's 95 % interval" in captions and "Occasions: every tile" in captions
    tables = {tuple(df.value.columns): df.value for df in at.dataframe}
    reasons = next(t for cols, t in tables.items() if "occasions" in cols)
    truth = reason_table(data)
    assert list(reasons["reason"]) == list(truth["reason"])
    assert set(reasons["occasions"].astype(int)) == set(truth["occasions"])
    cascade = next(t for cols, t in tables.items() if "surprise excess" in cols)
    s = surprise(data)
    assert cascade.iloc[0]["surprise excess"] == f"{s.excess:+.0%}"
    assert cascade.iloc[0]["95 % interval"] == f"{s.ci_low:.0%} to {s.ci_high:.0%}"


def test_the_confusion_page_ranks_the_engine_s_reasons(
        filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(filled, "confusion", monkeypatch)
    points = at.dataframe[0].value
    labels = " ".join(str(v) for v in points.iloc[:, 1])
    assert "Rule not understood:" in labels
    headings = [h.value for h in at.subheader]
    assert "Refused clicks by reason" in headings and "Forced-cascade surprise" in headings
    assert len(at.get("plotly_chart")) >= 2
