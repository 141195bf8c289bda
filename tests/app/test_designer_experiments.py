"""The Experiments page explains its verdicts; the Studies page takes a primary metric."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo
from playtest.storage import repository as repo

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _page(page: str, timeout: int = 60) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=timeout)
    at.query_params["page"] = page
    at.session_state["designer_signed_in"] = True
    return at


def test_experiments_page_shows_verdict_interval_definitions_and_method(db: Engine) -> None:
    demo.ensure_demo_study(db)
    demo.generate(db, 8, seed=3)
    at = _page("experiments").run()
    assert not at.exception, at.exception
    boxes = [b.value for b in (*at.success, *at.info, *at.warning)]
    wording = next(b for b in boxes if "response time after the message" in b)
    # The verdict in words, the effect with its interval (the variants' texts beside).
    assert wording.startswith(tuple(f"**{word}" for word in (
        "A is better", "B is better", "No difference", "No change worth acting on",
        "Too few testers yet")))
    # (The demo's simulated testers roll at once after a message: until they take time,
    # the response time has no spread and the page says so instead of an interval.)
    assert "95% interval" in wording or "same for every tester" in wording
    captions = "\n".join(c.value for c in at.caption)
    assert "Waudby-Smith" in captions and "every day" in captions
    assert "Primary metric: Seconds from the message appearing" in captions
    frames = [df.value for df in at.dataframe]
    wording_table = next(f for f in frames if "Metric" in f.columns and
                         "Response time after the message" in set(f["Metric"]))
    assert "Definition" in wording_table.columns
    assert wording_table.iloc[0]["Role"] == "primary (decides)"
    assert "metric" not in wording_table.columns  # people's names, not code names
    assert len(at.get("plotly_chart")) == 2  # a forest plot per experiment
    variants = next(t.value for t in at.table if "What testers see" in t.value.columns)
    assert list(variants.index) == ["A", "B"]  # what A and B say, beside their testers
    assert all(text.startswith("“") for text in variants["What testers see"])


def test_studies_page_takes_a_fitting_primary_metric_and_refuses_others(db: Engine) -> None:
    at = _page("studies", timeout=30).run()
    at.text_input(key="title-new").input("Primary test")
    at.text_area(key="exp-new").input(
        "- key: wording\n  target: message:extra_turn\n  variants: {A: default, B: formal}\n"
        "  primary_metric: wins_vs_computer\n")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    text = "\n".join(str(e.value) for e in at.error)
    assert "Not saved" in text and "wins_vs_computer" in text and "response_time" in text
    assert not [s for s in repo.list_studies(db) if s.title == "Primary test"]
    at.text_area(key="exp-new").input(
        "- key: wording\n  target: message:extra_turn\n  variants: {A: default, B: formal}\n"
        "  primary_metric: rules_lookups_after\n  min_effect: 0.2\n")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    stored = [s for s in repo.list_studies(db) if s.title == "Primary test"]
    assert len(stored) == 1
    assert stored[0].config["experiments"][0]["primary_metric"] == "rules_lookups_after"
    assert stored[0].config["experiments"][0]["min_effect"] == 0.2
