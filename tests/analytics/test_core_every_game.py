"""One analytics core for the four games: on a planted study of each (real engine games
for Bricks & Walls, Vasco and Dokusen), the turns are the testers' decisions, the
``rule:<reason>`` points are the core's, built on those turns, and every analysis reads
only the study's prepared tables: from a snapshot (no raw events) or spliced from two
groups of testers, every point, section, chart and metric is the same as from the
events."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from analytics import confusion, derive, experiments, metrics
from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.game_analytics import for_study, load
from analytics.synth import synthesize_study
from tests.analytics.dokusen_planted import planted_dokusen_study
from tests.analytics.morris_planted import planted_morris_study
from tests.analytics.vasco_planted import planted_study as planted_vasco_study

GAMES = ("vapoosh", "morris", "vasco", "dokusen")
BUILDERS: dict[str, Callable[[], StudyData]] = {
    "vapoosh": lambda: synthesize_study(24, seed=5, turns=10),
    "morris": lambda: planted_morris_study(12, seed=3),
    "vasco": lambda: planted_vasco_study(testers=10, games=2, seed=4,
                                         refusal_rates={"mismatch": 0.3}),
    "dokusen": lambda: planted_dokusen_study()[0],
}


@pytest.fixture(scope="module", params=GAMES)
def study(request: pytest.FixtureRequest) -> StudyData:
    data = BUILDERS[request.param]()
    assert for_study(data).name == request.param
    return data


def _copy(data: StudyData, events: pd.DataFrame | None = None) -> StudyData:
    return StudyData(study=dict(data.study), participants=data.participants,
                     assignments=data.assignments,
                     events=data.events if events is None else events,
                     responses=data.responses, attributes=data.attributes)


def _from_tables(data: StudyData, tables: dict[str, pd.DataFrame]) -> StudyData:
    """The study as a snapshot gives it: its prepared tables and no raw event."""
    return derive.adopt_prepared(_copy(data, data.events.iloc[0:0]), tables)


def _everything(data: StudyData) -> str:
    """Every number the pages and the plan show of a study's play, as one text."""
    game = for_study(data)
    found: dict[str, Any] = {
        "points": [p.to_json() for p in confusion.confusion_points(data)],
        "reasons": confusion.reason_table(data).to_dict("records"),
        "by_reason": confusion.wrong_clicks_by_reason(data).to_dict("records"),
        "aftermath": confusion.message_aftermath(data).to_dict("records"),
        "sections": {s.key: s.rows(data, 10, 1) for s in game.sections},
        "frames": {s.key: s.frame(data).to_dict("records") for s in game.sections
                   if s.frame is not None},
        "charts": {c.name: c.build(data).to_dict()["data"] for c in game.charts},
        "experiments": [e.to_json() for e in experiments.analyze_experiments(
            data, empty_scores(), empty_quiz())],
    }
    return json.dumps(found, sort_keys=True, default=str)


def test_every_analysis_reads_only_the_prepared_tables(study: StudyData) -> None:
    """What the dashboard shows of a study loaded from its snapshot (the prepared tables
    of the core and of the game's ``prepared``, without a raw event) is what the events
    give: no game's section is empty for want of events."""
    whole = _copy(study)
    tables = derive.prepared_tables(whole)
    game = for_study(whole)
    assert set(tables) == set(derive.PREPARED_KEYS) | {
        derive.props_key(kind, keys) for kind, keys in game.prepared}
    expected = _everything(whole)
    assert _everything(_from_tables(study, tables)) == expected
    # a game's own sections hold rows: the study has what they count
    assert all(section.rows(whole, 10, 1) for section in game.sections)


def test_spliced_groups_of_testers_give_the_whole_study(study: StudyData) -> None:
    ids = sorted(study.participants["participant_id"].astype(str).unique()) or sorted(
        study.events["participant_id"].astype(str).unique())
    early, late = set(ids[: len(ids) // 2]), set(ids[len(ids) // 2:])

    def part(chosen: set[str]) -> StudyData:
        return _copy(study, study.events[study.events["participant_id"].isin(chosen)]
                     .reset_index(drop=True))

    spliced = derive.splice_prepared(derive.prepared_tables(part(early)),
                                     derive.prepared_tables(part(late)), late)
    assert spliced["turns"]["turn_id"].is_unique
    assert _everything(_from_tables(study, spliced)) == _everything(_copy(study))


def test_turns_are_decisions_with_their_refusals(study: StudyData) -> None:
    """Every turn of a tester holds a click (or is a roll of theirs); every refused click
    with a reason is in one; without a marker a turn that ends is closed by one of the
    game's actions."""
    data = _copy(study)
    turns = derive.turns(data)
    clicks = derive.clicks(data)
    rule = for_study(data).turns
    assert len(turns) > 20
    assert (clicks["turn_id"] >= 0).all()
    assert int(turns["n_clicks"].sum()) == len(clicks)
    assert int(turns["n_wrong"].sum()) == int((~clicks["ok"]).sum())
    refused = derive.refusals(data)
    assert set(refused["turn_id"]) <= set(turns["turn_id"])
    if rule.marker:
        assert turns["action"].isna().all()
    else:
        assert (turns["n_clicks"] >= 1).all()
        assert set(turns["action"].dropna()) <= set(rule.acts)
        assert turns["action"].notna().mean() > 0.9


def test_rule_points_are_the_core_s_in_every_game(study: StudyData) -> None:
    """A ``rule:<reason>`` tally per reason the testers' clicks were refused for, whose
    troubles are the turns with such a refusal; no game brings a rule family of its own."""
    data = _copy(study)
    game = for_study(data)
    assert game.family("rule") is None
    scored, _ = confusion.scored_candidates(data)
    rules = {s.tally.id: s.tally for s in scored if s.tally.family == "rule"}
    refused = derive.refusals(data)
    assert set(rules) == {f"rule:{r}" for r in refused["reason"].unique()}
    for reason, group in refused.groupby("reason"):
        assert rules[f"rule:{reason}"].troubles == group["turn_id"].nunique()


def test_wrong_clicks_and_thinking_time_per_turn_mean_the_same_in_every_game(
        study: StudyData) -> None:
    """The experiments' per-turn metrics are the core turns' numbers, per tester."""
    data = _copy(study)
    inputs = metrics.MetricInputs(data, None, empty_scores(), empty_quiz())
    turns = derive.turns(data)
    wrong = metrics.metric_by_key("wrong_clicks_per_turn").values(inputs)
    pd.testing.assert_series_equal(
        wrong.sort_index(), turns.groupby("participant_id")["n_wrong"].mean()
        .astype(float).sort_index(), check_names=False)
    think = metrics.metric_by_key("think_time").values(inputs)
    expected = (pd.to_numeric(turns["first_ms"]) / 1000).dropna().groupby(
        turns["participant_id"]).median()
    pd.testing.assert_series_equal(think.sort_index(), expected.sort_index(),
                                   check_names=False)


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_reason_of_the_engine_gets_advice_of_its_game(game: str) -> None:
    """The fix a ``rule:<reason>`` point suggests is the game's own for every reason its
    engine can give, never the generic fallback."""
    reasons = _engine_reasons(game)
    assert reasons
    actions = load(game).actions
    missing = sorted(r for r in reasons if f"rule:{r}" not in actions)
    assert missing == []
    assert all(actions[f"rule:{r}"] != confusion.GENERIC_RULE_ACTION for r in reasons)


def _engine_reasons(game: str) -> set[str]:
    """The refusal reasons each engine gives (read from the engine, as a test may)."""
    import re
    from pathlib import Path

    if game == "vapoosh":
        from engine.vapoosh import state

        text = Path(state.__file__).read_text(encoding="utf-8")
        body = text.split("def _place_refusal(", 1)[1].split("\n    def ", 1)[0]
        return set(re.findall(r'return "([a-z_]+)"', body))
    if game == "vasco":
        from engine.vasco import board
        from engine.vasco import state as vasco_state

        text = Path(vasco_state.__file__).read_text(encoding="utf-8")
        return set(board.REASONS) | set(re.findall(r'Refusal\("([a-z_]+)"', text))
    module = __import__(f"engine.{game}.state", fromlist=["state"])
    text = Path(module.__file__).read_text(encoding="utf-8")
    found = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', text))
    found |= set(re.findall(r'refuse\("([a-z_]+)"', text))
    return found
