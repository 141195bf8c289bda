"""Verdicts in one plain sentence (issue 23, item 7): which variant, on what, by how much,
the guardrails that disagree as a caution; forest plots with the better side on the
right for every metric; each wording's text beside its results."""

from __future__ import annotations

import pytest

from analytics import confusion, experiments, figures, planted
from analytics.data import empty_quiz


def _result(truth: planted.PlantedTruth, testers: int = 60, seed: int = 3
            ) -> experiments.ExperimentResult:
    data, scores = planted.planted_study(truth, testers=testers, seed=seed)
    return experiments.analyze_experiments(data, scores, empty_quiz())[0]


def test_a_better_wording_is_said_plainly() -> None:
    result = _result(planted.PlantedTruth(response_ratio=0.4))
    assert result.verdict == "B better"
    text = result.summary()
    assert text.startswith("B is better than A on response time after the message: ")
    assert "worth acting on" not in text and "Caution" not in text
    assert text.count(".") >= 1 and "\n" not in text


def test_a_guardrail_the_better_wording_is_worse_on_is_a_caution() -> None:
    result = _result(planted.PlantedTruth(response_ratio=0.4, completion_b=0.3), testers=80)
    assert result.verdict == "B better"
    worse = {guard.metric.key: guard.worse for guard in result.guardrails}
    assert worse.get("completion") == "B"
    assert "Caution: B is worse on completion: " in result.summary()


def test_too_few_testers_say_how_many_are_needed() -> None:
    result = _result(planted.PlantedTruth(response_ratio=1.3), testers=8)
    if result.verdict != experiments.VERDICT_TOO_FEW:
        pytest.skip("this draw already decided")
    text = result.summary()
    assert text.startswith("Too few testers yet to tell A and B apart on response time")
    assert "testers per variant are needed" in text or "not enough spread" in text


def test_forest_plot_right_is_better_for_every_metric() -> None:
    """B is faster (response time lower) and completes more: both points are right of 0."""
    result = _result(planted.PlantedTruth(response_ratio=0.4, completion=0.6,
                                          completion_b=0.95), testers=80).to_json()
    figure = figures.experiment_effect_figure(result)
    by_name = dict(zip(figure.data[0].y, figure.data[0].x, strict=True))
    response = next(x for name, x in by_name.items() if name.startswith("Response time"))
    completion = next(x for name, x in by_name.items() if name.startswith("Completion"))
    assert response > 0 and completion > 0
    assert "← worse · better for B →" in figure.layout.xaxis.title.text


def test_each_wording_s_text_is_beside_its_results() -> None:
    data, _ = planted.planted_study(planted.PlantedTruth(), testers=10, seed=1)
    events = data.events.copy()
    events["props"] = [{**p, "text": f"Wording {p['variant']}!"} if t == "message" else p
                       for t, p in zip(events["type"], events["props"], strict=True)]
    data = type(data)(study=data.study, participants=data.participants,
                      assignments=data.assignments, events=events, responses=data.responses)
    assert confusion.wording_texts(data, "extra_turn") == {"A": "Wording A!",
                                                           "B": "Wording B!"}
    table = confusion.message_aftermath(data).set_index("variant")
    assert table.loc["B", "text"] == "Wording B!"
