"""The demo's planted truths (playtest/games/vapoosh/demo.py) are what its dashboard finds: the
misunderstood rule, the confusing wording and the research-known hard facts."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from analytics import confusion, derive
from analytics.games.vapoosh import facts as vapoosh_facts
from analytics.games.vapoosh.rolls import roll_turns
from playtest import demo
from playtest.games.vapoosh import demo as vapoosh_demo
from playtest.storage.exchange import load_study_data
from playtest.survey_items import annotate
from tests.app.test_designer_pages import PAGE_APP

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLANTED_FACTS = {f"{a}x{b}" for a, b in vapoosh_demo.PLANTED_HARD_FACTS}


def test_the_demo_dashboard_finds_the_planted_truths(db: Engine) -> None:
    demo.generate(db, 40, seed=3, workers=1, now=NOW)
    data = annotate(load_study_data(db, "demo"))
    ids = [point.id for point in confusion.confusion_points(data)]
    assert f"rule:{vapoosh_demo.PLANTED_RULE}" in ids[:3]
    # the planted wording itself: a point per wording of the message
    key, variant = vapoosh_demo.PLANTED_WORDING
    assert f"message:{key}@{variant}" in ids
    facts = {point_id.removeprefix("fact:") for point_id in ids if point_id.startswith("fact:")}
    assert facts and facts <= PLANTED_FACTS  # only planted facts have the evidence
    hardest = list(vapoosh_facts.hardest_facts(data)["fact"].head(4))
    assert len(set(hardest) & PLANTED_FACTS) >= 3
    # Praise never becomes confusion.
    assert "survey:open.liked" not in ids


def test_rule_wrong_clicks_happen_only_on_their_occasions(db: Engine) -> None:
    demo.generate(db, 12, seed=5, workers=1, now=NOW)
    data = load_study_data(db, "demo")
    turns = roll_turns(data).set_index("turn_id")  # a roll's turn with what it refused
    assert turns["refused"].map(lambda r: isinstance(r, list)).all()  # logged on every roll
    clicks = derive.clicks(data)
    rule = clicks[(clicks["turn_id"] >= 0) & ~clicks["ok"] & (clicks["wrong_kind"] == "rule")]
    assert len(rule) > 0
    for turn_id, reason in zip(rule["turn_id"], rule["reason"], strict=True):
        assert reason in turns.loc[turn_id, "refused"]
    occasions = turns["refused"].map(lambda r: vapoosh_demo.PLANTED_RULE in r).sum()
    assert 0 < occasions < len(turns)  # the rule could bite on some turns, not all


def test_the_confusion_page_shows_the_planted_rule_with_its_evidence(db: Engine) -> None:
    demo.generate(db, 40, seed=3, workers=1, now=NOW)
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "confusion"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception, at.exception
    table = next(frame.value for frame in at.dataframe if "Confusion point" in frame.value)
    assert list(table.columns[:3]) == ["Rank", "Confusion point", "Severity"]
    rule = table[table["Confusion point"] == "Rule not understood: empty priority"].iloc[0]
    assert rule["Rank"] <= 3
    assert "occasions" in rule["Evidence"] and "testers" in rule["Evidence"]
    assert "Severity = " in "\n".join(str(c.value) for c in at.caption)
