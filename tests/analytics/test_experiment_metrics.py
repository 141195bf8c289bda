"""Experiment metrics follow the message: timing from the message to the next action."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analytics import derive, experiments, metrics
from analytics.data import (
    ASSIGNMENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
    empty_quiz,
    empty_scores,
)
from analytics.planted import MODERATE_MESSAGE_EFFECT, PlantedTruth, planted_study
from tests.analytics.conftest import T0, Builder, click, roll

MESSAGE = {"key": "extra_turn", "variant": "A", "text": "t", "ms_visible": 3000}


def _study(builder: Builder, ids: list[str]) -> StudyData:
    return StudyData(
        study={"study_id": "m", "title": "", "game": "vapoosh", "rules": "standard",
               "experiments": [{"key": "copy", "variants": ["A", "B"],
                                "target": "message:extra_turn"}]},
        participants=pd.DataFrame([["m", p, T0, T0] for p in ids],
                                  columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame([[p, "copy", "AB"[i % 2], T0] for i, p in enumerate(ids)],
                                 columns=ASSIGNMENT_COLUMNS),
        events=builder.frame(), responses=pd.DataFrame(columns=RESPONSE_COLUMNS))


def _timed_study() -> StudyData:
    """P1: three messages.

    1. at 10 s; the computer rolls at 11 s (not the tester's action); the tester opens
       the menu at 13 s → 3 s. 2. at 20 s; the tester opens the rules at 22 s → 2 s,
       one lookup before the next message. 3. at 40 s; the tester rolls at 44 s →
       4 s; a lookup at 50 s comes after that turn ended (the computer rolled at 48 s).
    """
    b = Builder()
    b.add("P1", "game_start", {"game_id": "g", "seats": ["human", "ai:easy"]}, "g", 1)
    b.add("P1", "roll", roll(1, 1, 2, 2, 3), "g", 2)
    b.add("P1", "click", click(True, 2000, 3, 5), "g", 4)
    b.add("P1", "message", MESSAGE, "g", 10)
    b.add("P1", "roll", roll(2, 6, 6, 1, 1), "g", 11)
    b.add("P1", "menu_open", {}, "g", 13)
    b.add("P1", "menu_close", {}, "g", 14)
    b.add("P1", "roll", roll(1, 3, 4, 4, 4), "g", 15)
    b.add("P1", "click", click(False, 3000, 1, 1, "arithmetic"), "g", 18)
    b.add("P1", "click", click(True, 4000, 7, 8), "g", 19)
    b.add("P1", "message", MESSAGE, "g", 20)
    b.add("P1", "rules_open", {"context": "extra_turn"}, "g", 22)
    b.add("P1", "rules_close", {"context": "extra_turn"}, "g", 30)
    b.add("P1", "roll", roll(1, 1, 1, 1, 1), "g", 31)
    b.add("P1", "click", click(True, 1000, 2, 2), "g", 32)
    b.add("P1", "message", MESSAGE, "g", 40)
    b.add("P1", "roll", roll(1, 2, 2, 2, 2), "g", 44)
    b.add("P1", "click", click(True, 1000, 4, 4), "g", 46)
    b.add("P1", "roll", roll(2, 2, 2, 2, 2), "g", 48)
    b.add("P1", "rules_open", {"context": "extra_turn"}, "g", 50)
    b.add("P1", "game_end", {"game_id": "g", "winner": 1, "turns": 7}, "g", 60)
    b.add("P2", "game_start", {"game_id": "h", "seats": ["human", "ai:easy"]}, "h", 1)
    b.add("P2", "roll", roll(1, 1, 2, 2, 3), "h", 2)
    b.add("P2", "click", click(True, 2000, 3, 5), "h", 4)
    b.add("P2", "game_end", {"game_id": "h", "winner": 2, "turns": 3}, "h", 9)
    return _study(b, ["P1", "P2"])


def test_response_time_runs_from_the_message_to_the_testers_next_action() -> None:
    table = derive.messages(_timed_study())
    assert table["response_ms"].tolist() == pytest.approx([3000.0, 2000.0, 4000.0])
    assert table["lookups_after"].tolist() == [0, 1, 0]


def test_per_tester_values_are_one_per_tester() -> None:
    inputs = metrics.MetricInputs(_timed_study(), "extra_turn", empty_scores(), empty_quiz())
    response = metrics.metric_by_key("response_time").values(inputs)
    assert response.to_dict() == {"P1": pytest.approx(3.0)}  # median of 3, 2, 4 s
    lookups = metrics.metric_by_key("rules_lookups_after").values(inputs)
    assert lookups["P1"] == pytest.approx(1 / 3)
    # The turn after message 1 had one wrong click; after 2 and 3 none.
    wrong = metrics.metric_by_key("wrong_clicks_after").values(inputs)
    assert wrong["P1"] == pytest.approx(1 / 3)
    games = derive.games(inputs.data).set_index("participant_id")
    assert games.loc["P1", "human_won"] == 1.0 and games.loc["P2", "human_won"] == 0.0
    assert metrics.metric_by_key("game_length").values(inputs).to_dict() == {"P1": 7.0,
                                                                              "P2": 3.0}


def test_registry_gives_each_target_its_metrics_and_defaults() -> None:
    message = [m.key for m in metrics.metrics_for_target("message:x", ["sus"])]
    assert message[:3] == ["response_time", "rules_lookups_after", "wrong_clicks_after"]
    assert "score:sus" in message and "game_length" not in message
    play = [m.key for m in metrics.metrics_for_target("rules")]
    assert {"wrong_clicks_per_turn", "game_length", "completion", "wins_vs_computer"} <= \
        set(play)
    assert "response_time" not in play
    for metric in metrics.METRICS:
        assert metric.definition.endswith(".") and metric.min_effect > 0
        assert metric.direction in ("higher", "lower", "neither")
    # A metric without a direction cannot decide a verdict.
    with pytest.raises(metrics.MetricError, match="game_length"):
        metrics.check_primary("rules", "game_length")
    with pytest.raises(metrics.MetricError, match="response_time"):
        metrics.check_primary("ui:speed", "response_time")
    assert metrics.check_primary("rules", "score:sus").lower_is_better is False
    assert metrics.metric_by_key("response_time").format_effect(-1.234, (-2.0, -0.43)) == \
        "−1.2 s [−2.0, −0.4]"


def test_a_stored_primary_that_does_not_fit_falls_back_with_a_note() -> None:
    data = _timed_study()
    experiment = {**data.study["experiments"][0], "primary_metric": "game_length",
                  "min_effect": -3}
    result = experiments.analyze_experiment(data, experiment, empty_scores(), empty_quiz())
    assert result.primary == "response_time" and result.min_effect == 1.0
    assert len(result.notes) == 2 and "game_length" in result.notes[0]


def test_a_moderate_message_effect_is_found_where_the_old_metric_saw_nothing() -> None:
    # The case: B's wording makes testers wait about 4 s instead of 2 s before
    # their next roll. The first click's ms in the next turn (the old "hesitation")
    # does not see it; the response time does.
    data, scores = planted_study(MODERATE_MESSAGE_EFFECT, 40, seed=11)
    result = experiments.analyze_experiment(data, data.study["experiments"][0], scores,
                                            empty_quiz(), draws=500)
    assert result.verdict == "A better"
    primary = result.primary_result
    assert primary is not None and primary.metric.key == "response_time"
    low, high = primary.interval
    assert 0 < low < 2.0 < high  # the planted difference is about 2 s
    think = next(m for m in result.metrics if m.metric.key == "think_time_after")
    assert think.comparison.ci95[0] < 0 < think.comparison.ci95[1]


def test_report_json_keeps_the_contract_and_adds_definitions() -> None:
    data, scores = planted_study(PlantedTruth(completion_b=0.4), 40, seed=5)
    built = experiments.analyze_experiments(data, scores, empty_quiz(), draws=500)
    doc = built[0].to_json()
    assert doc["verdict"] in ("A better", "B better", "no difference",
                              "too few participants")
    assert {"key", "srm_p", "metrics", "verdict", "definition", "interval",
            "primary_metric", "min_effect", "guardrails", "summary"} <= set(doc)
    for entry in doc["metrics"]:
        assert {"metric", "variants", "effect", "ci95", "p_value", "p_adjusted",
                "prob_best", "definition", "interval"} <= set(entry)
    # B loses testers before the end: completion is a guardrail named in the verdict.
    assert [g["metric"] for g in doc["guardrails"]] == ["completion"]
    assert doc["guardrails"][0]["worse"] == "B"
    assert "But B is worse on completion (" in doc["summary"]  # a caution after the verdict
    assert not math.isnan(doc["srm_p"])


def test_values_equal_up_to_float_rounding_have_no_variance() -> None:
    # 40 ms everywhere, computed from timestamps: equal but for the last bits.
    a = 0.04 + np.array([0.0, 6.9e-18, 0.0, 1.4e-17] * 4)
    b = 0.04 + np.array([6.9e-18, 0.0, 0.0, 0.0] * 4)
    values = experiments.MetricValues(metrics.metric_by_key("response_time"),
                                      {"A": a, "B": b})
    primary = experiments.analyze_metrics([values], draws=200)[0]
    assert primary.no_variance
    assert experiments.decide(primary, 1.0) == ("too few participants", None)


def test_a_primary_without_data_stays_primary_and_says_too_few() -> None:
    data = _timed_study()
    experiment = {**data.study["experiments"][0], "primary_metric": "quiz_correct"}
    result = experiments.analyze_experiment(data, experiment, empty_scores(), empty_quiz())
    assert result.metrics[0].metric.key == "quiz_correct"
    assert result.metrics[0].role == "primary"
    assert (result.verdict, result.n_needed) == ("too few participants", None)


def test_quiz_items_tied_to_an_experiment_become_its_metrics() -> None:
    data = _timed_study()
    quiz = pd.DataFrame({"participant_id": ["P1", "P2", "P1", "P2"],
                         "item": ["capture", "capture", "brown", "brown"],
                         "correct": [True, False, True, True]})
    experiment = {**data.study["experiments"][0], "quiz_items": ["capture"],
                  "primary_metric": "quiz:capture"}
    result = experiments.analyze_experiment(data, experiment, empty_scores(), quiz)
    primary = result.metrics[0]
    assert primary.metric.key == "quiz:capture" and primary.metric.kind == "rate"
    assert primary.variants["A"]["mean"] == 1.0 and primary.variants["B"]["mean"] == 0.0
    assert [m.metric.key for m in result.metrics].count("quiz:capture") == 1
    assert "quiz:brown" not in [m.metric.key for m in result.metrics]


def test_games_won_counts_a_testers_own_games_solo_or_against_the_computer() -> None:
    """A solo game (one human seat, its computer colours part of the stage) counts; a
    pass-and-play game of two humans says nothing of one tester and does not."""
    b = Builder()
    b.add("S", "game_start", {"game_id": "s1", "seats": ["human"]}, "s1", 1)
    b.add("S", "game_end", {"game_id": "s1", "winner": 1, "turns": 9}, "s1", 2)
    b.add("S", "game_start", {"game_id": "s2", "seats": ["human"]}, "s2", 3)
    b.add("S", "game_end", {"game_id": "s2", "winner": None, "turns": 9}, "s2", 4)
    b.add("C", "game_start", {"game_id": "c1", "seats": ["human", "ai:easy"]}, "c1", 1)
    b.add("C", "game_end", {"game_id": "c1", "winner": 2, "turns": 5}, "c1", 2)
    b.add("H", "game_start", {"game_id": "h1", "seats": ["human", "human"]}, "h1", 1)
    b.add("H", "game_end", {"game_id": "h1", "winner": 1, "turns": 5}, "h1", 2)
    inputs = metrics.MetricInputs(_study(b, ["S", "C", "H"]), "extra_turn", empty_scores(),
                                  empty_quiz())
    wins = metrics.metric_by_key("wins_vs_computer").values(inputs)
    assert wins.to_dict() == {"S": 0.5, "C": 0.0}


def test_a_difference_of_shares_is_shown_within_100_points() -> None:
    """Issue 22, item 8: the always-valid interval of a few testers reaches beyond ±100
    points; it is shown clipped (the verdict is the same either way)."""
    import numpy as np

    from analytics.experiments import MetricValues, analyze_metrics, decide
    from analytics.metrics import metric_by_key

    values = MetricValues(metric_by_key("completion"),
                          {"A": np.array([1.0, 1.0, 0.0]), "B": np.array([0.0, 0.0, 1.0])})
    result = analyze_metrics([values])[0]
    assert result.sequential is not None and result.sequential.ci95[0] < -1.0
    assert result.interval == (-1.0, 1.0)
    assert result.effect_text() == "−33.3 pp [−100.0, +100.0]"
    assert result.to_json()["ci95"] == [-1.0, 1.0]
    assert decide(result, 0.1)[0] == "too few participants"
