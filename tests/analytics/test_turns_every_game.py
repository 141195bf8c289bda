"""A turn for every game: on planted studies of Bricks & Walls, Vasco and Dokusen (truth in
``turns_planted.py``) the analysis finds exactly the planted turns, and the per-turn
experiment metrics (wrong clicks per turn, thinking time, the turn after a message) equal
the planted values per tester; Vapoosh!'s turns stay its rolls."""

from __future__ import annotations

import statistics

import pandas as pd
import pytest

from analytics import derive, experiments, metrics
from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.game_analytics import load
from analytics.games.vapoosh.rolls import roll_turns
from analytics.turns import GENERIC_DEFINITION, TurnRule, closing_acts, turn_starts
from tests.analytics.conftest import Builder, click, roll
from tests.analytics.turns_planted import GAMES, MESSAGE_KEY, Planted, planted_turns_study


@pytest.fixture(scope="module", params=GAMES)
def planted(request: pytest.FixtureRequest) -> Planted:
    return planted_turns_study(request.param, testers=12, seed=1)


def _inputs(data: StudyData, message_key: str | None = None) -> metrics.MetricInputs:
    return metrics.MetricInputs(data, message_key, empty_scores(), empty_quiz())


def test_the_turns_found_are_the_planted_turns(planted: Planted) -> None:
    table = derive.turns(planted.data).sort_values("turn_id")
    assert len(table) == sum(len(t) for t in planted.turns.values())
    for pid, truth in planted.turns.items():
        mine = table[table["participant_id"] == pid]
        assert mine["n_clicks"].tolist() == [t.clicks for t in truth], pid
        assert mine["n_wrong"].tolist() == [t.wrong for t in truth], pid
        assert mine["first_ms"].astype(float).tolist() == [t.first_ms for t in truth], pid
    # every click of a tester that is not a stale tab's belongs to one of their turns
    clicks = derive.clicks(planted.data)
    assert (clicks["turn_id"] >= 0).all()
    assert clicks["turn_id"].isin(table["turn_id"]).all()


def test_per_turn_metrics_equal_the_planted_values(planted: Planted) -> None:
    inputs = _inputs(planted.data)
    wrong = metrics.metric_by_key("wrong_clicks_per_turn").values(inputs)
    think = metrics.metric_by_key("think_time").values(inputs)
    assert sorted(wrong.index) == sorted(planted.turns)
    for pid, truth in planted.turns.items():
        assert wrong[pid] == pytest.approx(statistics.mean(t.wrong for t in truth))
        assert think[pid] == pytest.approx(statistics.median(t.first_ms for t in truth) / 1000)


def test_the_turn_after_a_message_is_the_planted_one(planted: Planted) -> None:
    after = metrics.metric_by_key("wrong_clicks_after").values(
        _inputs(planted.data, MESSAGE_KEY))
    expected = {pid: statistics.mean(values)
                for pid, values in planted.after_message.items() if values}
    assert len(expected) >= 6
    assert after.to_dict() == pytest.approx(expected)


def test_experiments_on_every_game_have_per_turn_metrics(planted: Planted) -> None:
    result = experiments.analyze_experiments(planted.data, empty_scores(), empty_quiz())[0]
    rows = {m["metric"]: m for m in result.to_json()["metrics"]}
    for key in ("wrong_clicks_per_turn", "think_time"):
        counts = {name: arm["n"] for name, arm in rows[key]["variants"].items()}
        assert counts == {"off": 6, "on": 6}, key


def test_each_game_says_what_a_turn_is() -> None:
    definitions = {game: load(game).turns.definition for game in (*GAMES, "vapoosh")}
    assert len(set(definitions.values())) == 4
    assert all("turn" in text.lower() for text in definitions.values())
    assert load("no such game").turns.definition == GENERIC_DEFINITION


def test_the_dice_game_keeps_its_roll_as_the_turn() -> None:
    """Vapoosh!: a roll of a human seat starts a turn, whatever acts in between; a
    computer's clicks-free roll is not the tester's (the marker, not the acting seat)."""
    b = Builder()
    b.add("P1", "game_start", {"game_id": "g", "seats": ["human", "ai:easy"]}, "g")
    b.add("P1", "roll", roll(1, 1, 2, 2, 3), "g")
    b.add("P1", "click", click(False, 4000, 4, 6, "near_miss"), "g")
    b.add("P1", "click", click(True, 900, 3, 5), "g")
    b.add("P1", "roll", roll(2, 6, 6, 1, 1), "g")
    b.add("P1", "roll", roll(1, 3, 4, 4, 4), "g")  # a turn without any click
    b.add("P1", "roll", roll(1, 1, 1, 1, 1), "g")
    b.add("P1", "click", click(True, 2500, 2, 2), "g")
    data = StudyData.empty("v")
    data = StudyData(study=data.study, participants=data.participants,
                     assignments=data.assignments, events=b.frame(),
                     responses=data.responses)
    table = roll_turns(data)
    assert table["n_clicks"].tolist() == [2, 0, 1]
    assert table["n_wrong"].tolist() == [1, 0, 0]
    assert table["fact"].tolist() == ["3x5", "7x8", "2x2"]


def test_a_turn_rule_reads_seats_actions_and_stale_clicks() -> None:
    """A decision starts with a seat's click and ends with its action; every other act
    (the computer's place, its ai_move) is a turn of its own; a stale click is none."""
    log = pd.DataFrame({
        "type": ["game_start", "click", "place", "click", "place", "ai_move", "click",
                 "place", "grow", "click", "click", "place", "remove", "click", "remove",
                 "game_end", "game_start", "click"],
        "props": [{}, {"seat": 1}, {"seat": 1}, {"seat": 2, "stale": True}, {"seat": 2},
                  {"seat": 2}, {"seat": 1}, {"seat": 1}, {}, {"seat": 1}, {"seat": 1},
                  {"seat": 1}, {"seat": 2}, {"seat": 1}, {"seat": 1}, {}, {},
                  {"seat": 1}],
        "session_code": [0] * 17 + [1]})
    rule = TurnRule(acts=("place", "remove"), breaks=("grow",))
    starts = turn_starts(log, rule)
    assert starts.nonzero()[0].tolist() == [1, 4, 5, 6, 9, 12, 13, 17]
    # the tester's two clicks for one tile are one decision, closed by the tile; the
    # removal after it is another
    assert closing_acts(log, rule, starts).nonzero()[0].tolist() == [2, 7, 11, 14]
    # without the game's action events a tester's clicks run on to another seat's act
    assert turn_starts(log, TurnRule()).nonzero()[0].tolist() == [1, 5, 6, 17]


def test_spliced_turns_of_a_game_without_a_marker_equal_the_whole_study() -> None:
    """A snapshot's splice (testers re-derived apart) shifts the running turn numbers of
    a game whose turns follow the acting seat as it does a roll's."""
    whole = planted_turns_study("morris", testers=8, seed=2).data
    ids = sorted(whole.participants["participant_id"])

    def subset(chosen: set[str]) -> StudyData:
        return StudyData(study=whole.study, participants=whole.participants,
                         assignments=whole.assignments,
                         events=whole.events[whole.events["participant_id"].isin(chosen)]
                         .reset_index(drop=True), responses=whole.responses)

    early, late = set(ids[:5]), set(ids[5:])
    spliced = derive.splice_prepared(derive.prepared_tables(subset(early)),
                                     derive.prepared_tables(subset(late)), late)
    assert spliced["turns"]["turn_id"].is_unique
    combined = derive.adopt_prepared(
        StudyData(study=whole.study, participants=whole.participants,
                  assignments=whole.assignments, events=whole.events.iloc[0:0],
                  responses=whole.responses), spliced)
    for key in ("wrong_clicks_per_turn", "think_time"):
        metric = metrics.metric_by_key(key)
        pd.testing.assert_series_equal(metric.values(_inputs(combined)).sort_index(),
                                       metric.values(_inputs(whole)).sort_index())
    after = metrics.metric_by_key("wrong_clicks_after")
    pd.testing.assert_series_equal(
        after.values(_inputs(combined, MESSAGE_KEY)).sort_index(),
        after.values(_inputs(whole, MESSAGE_KEY)).sort_index())
