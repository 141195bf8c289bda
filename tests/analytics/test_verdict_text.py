"""Experiment verdicts in plain words (issue 23, item 7): golden sentences on planted
studies whose truth is known (:mod:`analytics.planted`), the same decision as before in
every case, forest plots where right is better for a time and for a rate alike, and each
wording's text beside its results."""

from __future__ import annotations

from typing import Any

import pytest

from analytics import confusion, experiments, figures, report
from analytics.data import StudyData, empty_quiz
from analytics.planted import MODERATE_MESSAGE_EFFECT, PlantedTruth, planted_study
from analytics.verdicts import verdict_text

#: What each arm's ``extra_turn`` message says in these studies, as the app writes it into
#: the study record from the game's catalog (``texts``: :mod:`playtest.experiment_texts`).
TEXT_A, TEXT_B = "Roll again!", "Your turn again!"


def _study(truth: PlantedTruth, testers: int, seed: int,
           **experiment: Any) -> tuple[StudyData, Any]:
    data, scores = planted_study(truth, testers, seed=seed)
    data.study["experiments"] = [{**data.study["experiments"][0], **experiment,
                                  "texts": {"A": TEXT_A, "B": TEXT_B}}]
    return data, scores


def _result(truth: PlantedTruth, testers: int, seed: int,
            **experiment: Any) -> experiments.ExperimentResult:
    data, scores = _study(truth, testers, seed, **experiment)
    (result,) = experiments.analyze_experiments(data, scores, empty_quiz(), draws=500)
    return result


#: case → (planted truth, testers, seed, experiment overrides, verdict, headline, words)
CASES: dict[str, tuple[PlantedTruth, int, int, dict[str, Any], str, str, str]] = {
    "B better": (
        PlantedTruth(response_ratio=0.4), 40, 3, {}, "B better", "B is better",
        "B is better on response time after the message: 1.3 s shorter with B (“Your turn "
        "again!”) than with A (“Roll again!”) (95% interval: 0.5 to 2.1 s shorter)."),
    "A better": (
        MODERATE_MESSAGE_EFFECT, 40, 11, {}, "A better", "A is better",
        "A is better on response time after the message: 1.7 s shorter with A (“Roll "
        "again!”) than with B (“Your turn again!”) (95% interval: 0.6 to 2.9 s shorter). "
        "But A may be worse, though not yet beyond chance with every metric counted, on "
        "completion (10.0 pp lower than B: 85.0% against 95.0%; 95% interval: 31.4 pp lower "
        "to 11.0 pp higher)."),
    "no difference": (
        PlantedTruth(), 300, 2, {}, "no difference", "No difference",
        "No difference in response time after the message between A (“Roll again!”) and B "
        "(“Your turn again!”): 0.2 s shorter with B (95% interval: 0.5 s shorter to 0.2 s "
        "longer), inside ±1.0 s, the smallest difference worth acting on."),
    "too few": (
        PlantedTruth(), 12, 4, {}, "too few participants", "Too few testers yet",
        "Too few testers yet to compare response time after the message: 0.8 s shorter "
        "with B (“Your turn again!”) than with A (“Roll again!”) so far (95% interval: 2.2 "
        "s shorter to 0.6 s longer). About 19 testers per variant would find a difference "
        "of 1.0 s 8 times in 10."),
    "real but small": (
        PlantedTruth(response_ratio=0.6, slip_after_b=0.02), 60, 5, {}, "B better",
        "No change worth acting on",
        "No change worth acting on in response time after the message: only 0.8 s shorter "
        "with B (“Your turn again!”) than with A (“Roll again!”) (95% interval: 0.3 to 1.4 "
        "s shorter), a real difference but smaller than the 1.0 s worth acting on."),
    "a disagreeing guardrail": (
        PlantedTruth(response_ratio=0.4, completion_b=0.4), 40, 5, {}, "B better",
        "B is better",
        "B is better on response time after the message: 1.1 s shorter with B (“Your turn "
        "again!”) than with A (“Roll again!”) (95% interval: 0.4 to 1.8 s shorter). But B "
        "is worse on completion (55.0 pp lower than A: 35.0% against 90.0%; 95% interval: "
        "25.4 to 73.4 pp lower)."),
    "a rate decides": (
        PlantedTruth(completion_b=0.4), 60, 5, {"primary_metric": "completion"}, "A better",
        "A is better",
        "A is better on completion: 46.7 pp higher with A (“Roll again!”) than with B "
        "(“Your turn again!”) (95% interval: 14.5 to 78.8 pp higher)."),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_planted_case_reads_as_its_golden_sentence(case: str) -> None:
    truth, testers, seed, overrides, verdict, headline, words = CASES[case]
    result = _result(truth, testers, seed, **overrides)
    assert result.verdict == verdict  # the decision is the one it always was
    entry = result.to_json()
    assert (entry["verdict"], entry["headline"], entry["summary"]) == (verdict, headline, words)
    assert result.summary() == words
    assert entry["shows"] == {"A": TEXT_A, "B": TEXT_B}


def test_a_guardrail_on_which_the_loser_is_worse_is_not_chained_to_the_verdict() -> None:
    # B waits longer and completes less: both say A; neither "B is also worse" nor "But".
    result = _result(PlantedTruth(response_ratio=2.5, completion_b=0.4), 60, 5)
    assert result.verdict == "A better"
    assert [(g.metric.key, g.worse) for g in result.guardrails] == [("completion", "B")]
    assert result.summary() == (
        "A is better on response time after the message: 3.5 s shorter with A (“Roll "
        "again!”) than with B (“Your turn again!”) (95% interval: 2.1 to 4.8 s shorter).")
    assert result.words().tone == "better"


def test_a_guardrail_that_disagrees_makes_the_verdict_a_caution() -> None:
    truth, testers, seed, *_ = CASES["a disagreeing guardrail"]
    words = _result(truth, testers, seed).words()
    assert words.tone == "caution" and words.caution.startswith("But B is worse on completion")
    small_truth, small_testers, small_seed, *_ = CASES["real but small"]
    assert _result(small_truth, small_testers, small_seed).words().tone == "neutral"


def test_the_plan_says_the_sentence_and_what_each_variant_says() -> None:
    truth, testers, seed, *_ = CASES["a disagreeing guardrail"]
    data, scores = _study(truth, testers, seed)
    built = report.build_report(data, scores, empty_quiz(), seed=3)
    (entry,) = built["experiments"]
    markdown = report.report_markdown(built)
    html_page = report.report_html(built)
    assert "### wording: B is better" in markdown
    assert report.escape_markdown(entry["summary"]) in markdown
    # beside the sentence: what each variant says, its testers and its primary value
    assert "| Variant | What testers see | Testers | Response time after the message " \
        "(mean) |" in markdown
    assert "| A | “Roll again!” | 20 | 2.1 s |" in markdown
    assert "| B | “Your turn again!” | 20 | 1.0 s |" in markdown
    assert "<h3>wording: B is better</h3>" in html_page
    assert "<td>“Your turn again!”</td>" in html_page
    assert verdict_text(entry).text == entry["summary"]  # the same words from the JSON


def _plotted(figure: Any) -> dict[str, float]:
    trace = figure.data[0]
    return {str(name).split(" (")[0].replace("<br>", " "): x
            for name, x in zip(trace.y, trace.x, strict=True) if x is not None}


def test_right_is_better_for_a_time_and_for_a_rate() -> None:
    # B answers faster (a time: lower is better) and completes less (a rate: higher is
    # better): B's diamond is right on the time and left on the rate.
    truth, testers, seed, *_ = CASES["a disagreeing guardrail"]
    entry = _result(truth, testers, seed).to_json()
    figure = figures.experiment_effect_figure(entry)
    plotted = _plotted(figure)
    time = next(m for m in entry["metrics"] if m["metric"] == "response_time")
    rate = next(m for m in entry["metrics"] if m["metric"] == "completion")
    assert time["effect"] < 0 < plotted["Response time after the message"]
    assert rate["effect"] < 0 and plotted["Completion"] < 0
    assert plotted["Response time after the message"] == pytest.approx(
        -time["effect"] / time["min_effect"])
    assert [note.text for note in figure.layout.annotations] == ["<b>← A better</b>",
                                                                 "<b>B better →</b>"]
    assert [note.x for note in figure.layout.annotations] == [0.0, 1.0]  # left, right
    assert "too small to act on" in figure.layout.xaxis.title.text
    assert figure.layout.title.text == "Experiment wording:<br>B is better"
    # each interval turned round with its estimate: the bar still holds the diamond
    trace = figure.data[0]
    assert all(low >= 0 and high >= 0 for low, high in
               zip(trace.error_x.arrayminus, trace.error_x.array, strict=True))
    # A wins on the time (B waits longer): A's side is left, so A's diamond is left
    slow = _result(MODERATE_MESSAGE_EFFECT, 40, 11).to_json()
    assert _plotted(figures.experiment_effect_figure(slow))[
        "Response time after the message"] < 0


def test_a_rate_that_decides_is_drawn_with_right_better() -> None:
    truth, testers, seed, overrides, *_ = CASES["a rate decides"]
    entry = _result(truth, testers, seed, **overrides).to_json()
    primary = entry["metrics"][0]
    assert primary["metric"] == "completion" and primary["effect"] < 0  # B − A
    assert _plotted(figures.experiment_effect_figure(entry))["Completion"] < 0  # A's side


def test_each_wording_s_text_is_beside_its_results() -> None:
    """The Confusion page's message table says what each wording's testers were shown."""
    data, _ = planted_study(PlantedTruth(), testers=10, seed=1)
    events = data.events.copy()
    events["props"] = [{**p, "text": f"Wording {p['variant']}!"} if t == "message" else p
                       for t, p in zip(events["type"], events["props"], strict=True)]
    data = type(data)(study=data.study, participants=data.participants,
                      assignments=data.assignments, events=events, responses=data.responses)
    assert confusion.wording_texts(data, "extra_turn") == {"A": "Wording A!",
                                                           "B": "Wording B!"}
    table = confusion.message_aftermath(data).set_index("variant")
    assert table.loc["B", "text"] == "Wording B!"
