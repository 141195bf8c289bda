"""Every game's demo study, as ``playtest up`` leaves it: the Experiments page says each
verdict in the plan's own sentence, shows what each variant shows testers beside its
testers and primary value, and draws a forest plot whose right side is the better one;
the plan page says the same sentence (AppTest on one real SQLite file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analytics import experiments
from analytics.text_safety import markdown_literal
from playtest import demo
from playtest.games.registry import games
from playtest.storage.db import make_engine, upgrade
from playtest.study_snapshot import load_prepared
from playtest.survey_items import annotate
from tests.app.designer_support import designer_page, use_copy

TESTERS = demo.GAME_DEMO_TESTERS
STUDIES = {plugin.name: demo.DEMO_STUDY_ID if index == 0 else
           f"{demo.DEMO_STUDY_ID}-{plugin.name}" for index, plugin in enumerate(games())}


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every game's demo study with :data:`TESTERS` simulated testers, in one file."""
    path = tmp_path_factory.mktemp("verdicts") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    for study in [demo.ensure_demo_study(engine), *demo.ensure_game_demo_studies(engine)]:
        demo.generate(engine, TESTERS, seed=5, study=study, workers=1)
    engine.dispose()
    return path


def _entries(path: Path, study_id: str) -> list[dict[str, Any]]:
    """The study's experiments as the analytics report them (the plan's entries), with
    the study record annotated as the app does (free-text items, each wording's text)."""
    engine = make_engine(f"sqlite:///{path}")
    bundle = load_prepared(engine, study_id, save=False).bundle
    engine.dispose()
    annotate(bundle.data)
    return [json.loads(json.dumps(result.to_json())) for result in
            experiments.analyze_experiments(bundle.data, bundle.scores, bundle.quiz)]


def test_every_game_has_a_demo_experiment() -> None:
    assert len(STUDIES) == 4
    for game in STUDIES:
        assert demo.game_demo_config(game).experiments, game


@pytest.mark.parametrize("game", list(STUDIES))
def test_the_experiments_page_says_the_plan_s_sentence_beside_what_each_variant_shows(
        filled: Path, game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    study_id = STUDIES[game]
    entries = _entries(filled, study_id)
    use_copy(filled, tmp_path, monkeypatch)
    at = designer_page("experiments", study_id, timeout=180)
    boxes = [str(node.value) for node in at.main
             if node.type in ("success", "info", "warning") and str(node.value).startswith("**")]
    assert boxes == [f"**{markdown_literal(e['headline'])}**"
                     + markdown_literal(e["summary"])[len(markdown_literal(e["headline"])):]
                     for e in entries]
    for entry in entries:
        # the sentence names the variant and what it decides on, with a 95% interval
        summary = entry["summary"]
        assert entry["metrics"][0]["name"].lower()[:12] in summary.lower()
        assert "95% interval" in summary or "same for every tester" in summary
        assert "also worse" not in summary and " − " not in summary
        if entry["target"].startswith("message:"):
            for variant in entry["counts"]:  # a message's variant with its text
                assert f"{variant} (“{entry['shows'][variant]}”)" in summary
    variant_tables = [t.value for t in at.table if "What testers see" in t.value.columns]
    assert len(variant_tables) == len(entries)
    for table, entry in zip(variant_tables, entries, strict=True):
        assert list(table.index) == list(entry["counts"])
        assert [int(n) for n in table["Testers"]] == list(entry["counts"].values())
        assert sum(entry["counts"].values()) == TESTERS
        for variant, seen in zip(table.index, table["What testers see"], strict=True):
            assert seen and seen != "–", (game, variant)  # every variant says what it shows
            if entry["target"].startswith("message:"):
                assert seen == f"“{entry['shows'][variant]}”"
        primary = entry["metrics"][0]
        assert f"{primary['name']} (mean)" in table.columns
    charts = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    assert len(charts) == len(entries)
    for chart, entry in zip(charts, entries, strict=True):
        control, treatment = entry["metrics"][0]["compared"]
        sides = [note["text"].replace("<br>", " ") for note in chart["layout"]["annotations"]]
        assert sides == [f"<b>← {control} better</b>", f"<b>{treatment} better →</b>"], sides
        assert chart["layout"]["title"]["text"].replace("<br>", " ").endswith(
            entry["headline"])
        primary = entry["metrics"][0]
        x = chart["data"][0]["x"][0]
        if primary["effect"] is not None and not primary["no_variance"]:
            toward = -1 if primary["direction"] == "lower" else 1
            assert x == pytest.approx(toward * primary["effect"] / primary["min_effect"])
            better = entry["verdict"].removesuffix(" better")
            if entry["verdict"].endswith(" better"):  # the better variant's side
                assert (x > 0) == (better == treatment)


@pytest.mark.parametrize("game", list(STUDIES))
def test_the_plan_page_says_the_same_sentence_with_the_variants(
        filled: Path, game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    study_id = STUDIES[game]
    entries = _entries(filled, study_id)
    use_copy(filled, tmp_path, monkeypatch)
    at = designer_page("report", study_id, timeout=180)
    texts = [str(t.value) for t in at.text]
    for entry in entries:
        assert f"{entry['key']}: {entry['summary']}" in texts
    tables = [t.value for t in at.table if "What testers see" in t.value.columns]
    assert [list(t.index) for t in tables] == [list(e["counts"]) for e in entries]
