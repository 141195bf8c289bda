"""The report JSON shape, Markdown/HTML escaping, figures, and the end-to-end pipeline."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from analytics import figures, funnel, questionnaires, report
from analytics.data import (
    SCORE_COLUMNS,
    AnalyticsInputError,
    StudyData,
    empty_quiz,
    empty_scores,
)
from analytics.games.vapoosh import facts as vapoosh_facts
from analytics.games.vapoosh import figures as vapoosh_figures
from analytics.games.vapoosh import heatmaps as vapoosh_heatmaps
from analytics.games.vapoosh import occasions as vapoosh_occasions
from analytics.synth import synthesize_scores_and_quiz, synthesize_study

HOSTILE = "<script>alert(1)</script> [click](javascript:alert(1)) # *x*"


def _scores() -> pd.DataFrame:
    return pd.DataFrame([["P1", "post", "sus", "total", 72.5, "C+"],
                         ["P2", "post", "sus", "total", 85.0, "A+"],
                         ["P1", "pre", "sus", "total", 60.0, None],
                         ["P2", "pre", "sus", "total", 80.0, None]], columns=SCORE_COLUMNS)


def test_report_json_has_exactly_the_documented_keys(small_study: StudyData) -> None:
    quiz = pd.DataFrame({"participant_id": ["P1", "P2"], "item": ["q1", "q1"],
                         "correct": [True, False]})
    built = report.build_report(small_study, _scores(), quiz, min_attempts=1)
    json.dumps(built, allow_nan=False)  # strict JSON: no NaN anywhere
    assert set(built) == {"study_id", "game", "participants", "completed",
                          "confusion_points", "hardest_facts", "experiments",
                          "severity_definition", "what_works", "learning", "follow_ups"}
    assert (built["study_id"], built["game"], built["participants"],
            built["completed"]) == ("st", "vapoosh", 2, 1)
    for point in built["confusion_points"]:
        assert {"id", "label", "score", "evidence", "action"} <= set(point)
        assert re.match(r"^(rule|wrong|fact|message|survey):", point["id"])
    assert {"fact", "attempts", "wrong_rate"} <= set(built["hardest_facts"][0])
    experiment = built["experiments"][0]
    assert {"key", "srm_p", "metrics", "verdict"} <= set(experiment)
    assert experiment["verdict"] == "too few participants"
    # One tester per variant: no spread to size the study from (the old fixed 64 for a
    # "medium" Cohen's d ignored both the spread and the designer's min_effect).
    assert experiment["n_needed"] is None
    assert experiment["primary_metric"] == "response_time"
    assert experiment["min_effect"] == 1.0
    assert experiment["definition"].startswith("Seconds from the message appearing")
    metric = experiment["metrics"][0]
    assert metric["metric"] == "response_time" and metric["role"] == "primary"
    assert {"metric", "variants", "effect", "ci95", "p_value", "p_adjusted",
            "prob_best", "definition", "interval"} <= set(metric)
    # Message at t = 9 s, the next roll at 10 s (P1); 6 s and 7 s (P2).
    assert metric["variants"] == {"A": {"n": 1, "mean": 1.0, "median": 1.0},
                                  "B": {"n": 1, "mean": 1.0, "median": 1.0}}
    names = [m["metric"] for m in experiment["metrics"]]
    assert names == ["response_time", "rules_lookups_after", "wrong_clicks_after",
                     "think_time_after", "completion", "quiz_correct", "score:sus"]
    after = experiment["metrics"][2]["variants"]
    assert (after["A"]["mean"], after["B"]["mean"]) == (1.0, 0.0)
    lookups = experiment["metrics"][1]["variants"]
    assert (lookups["A"]["mean"], lookups["B"]["mean"]) == (1.0, 0.0)
    # 1 s against 1 s: no spread, so the primary is shown as such and not tested.
    assert metric["no_variance"] and metric["p_value"] is None
    assert experiment["summary"] == ("Too few testers yet to compare response time after "
                                     "the message: it is the same for every tester so "
                                     "far, so it cannot be tested.")
    assert experiment["headline"] == "Too few testers yet"


def _hostile_study(small_study: StudyData) -> StudyData:
    events = small_study.events.copy()
    events["props"] = [
        {**p, "key": HOSTILE} if t == "message" else
        ({**p, "context": HOSTILE} if t.startswith("rules_") else p)
        for p, t in zip(events["props"], events["type"], strict=True)]
    responses = small_study.responses.copy()
    responses["item"] = HOSTILE
    return StudyData(study={**small_study.study, "study_id": HOSTILE,
                            "experiments": [{"key": HOSTILE, "variants": ["A", "B"],
                                             "target": f"message:{HOSTILE}"}]},
                     participants=small_study.participants,
                     assignments=small_study.assignments.assign(experiment=HOSTILE),
                     events=events, responses=responses)


def test_hostile_text_stays_plain_in_markdown_and_html(small_study: StudyData) -> None:
    data = _hostile_study(small_study)
    built = report.build_report(data, empty_scores(), empty_quiz())
    charts = report.report_figures(data, built)
    markdown = report.report_markdown(built, charts)
    page = report.report_html(built, charts)
    assert "<script>" not in markdown
    assert re.search(r"(?<!\\)\]\(", markdown) is None  # no unescaped "](": no link
    assert "&lt;script&gt;" in markdown
    assert "\\[click\\](javascript:alert(1))" in markdown
    assert "\\*x\\*" in markdown
    assert not any(line.lstrip().startswith("# <") for line in markdown.splitlines())
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # The message key is data: it is escaped in the confusion point label too.
    assert any(p["id"] == f"message:{HOSTILE}" for p in built["confusion_points"]) or \
        all("message:" not in p["id"] for p in built["confusion_points"])


def test_html_is_self_contained_with_plotly_inlined_once(small_study: StudyData) -> None:
    built = report.build_report(small_study, empty_scores(), empty_quiz())
    charts = report.report_figures(small_study, built)
    page = report.report_html(built, charts)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("plotly.js v") == 1  # the library banner appears once
    assert re.search(r"<script[^>]*\bsrc=", page) is None  # nothing loaded from the net
    assert page.count('class="plotly-graph-div"') == len(charts)


def test_figures_use_board_headers_and_safe_palette(small_study: StudyData) -> None:
    heat = vapoosh_figures.board_heatmap_figure(vapoosh_heatmaps.wrong_click_heatmap(small_study), "w", "n")
    assert list(heat.data[0].x) == [str(n) for n in range(1, 13)]
    assert list(heat.data[0].y) == [str(n) for n in range(1, 13)]
    assert heat.data[0].customdata[7][6] == 56  # row 8, column 7 is 7 × 8
    bars = figures.wrong_class_figure(vapoosh_occasions.wrong_clicks_by_class(small_study))
    assert set(bars.data[0].marker.color) <= set(figures.OKABE_ITO)
    assert figures.funnel_figure(funnel.funnel(small_study)).data[0].y.tolist() == \
        [2, 2, 2, 2, 1]
    scores = figures.score_distribution_figure(_scores(), "sus", norm_mean=68.0)
    assert len(scores.data) == 1
    assert vapoosh_figures.hardest_facts_figure(vapoosh_facts.hardest_facts(small_study, 1)).data


def test_questionnaire_summaries(small_study: StudyData) -> None:
    summary = questionnaires.instrument_summary(_scores()).set_index("phase")
    assert summary.loc["post", "mean"] == pytest.approx(78.75)
    assert summary.loc["post", "grade"] == "B+"
    assert summary.loc["post", "norm_mean"] == 68.0
    change = questionnaires.pre_post(_scores()).iloc[0]
    assert change["n_pairs"] == 2 and change["change"] == pytest.approx(8.75)
    texts = questionnaires.free_text(small_study.responses, search="<SCRIPT>")
    assert list(texts["participant_id"]) == ["P2"]
    assert texts.iloc[0]["themes"] == ["fun"]
    themes = questionnaires.theme_counts(small_study.responses).set_index("theme")
    assert themes.loc["confusing", "answers"] == 1 and bool(themes.loc["rules", "negative"])
    variants = pd.Series({"P1": "A", "P2": "B"})
    quiz = pd.DataFrame({"participant_id": ["P1", "P1", "P2"], "item": ["q1", "q2", "q1"],
                         "correct": [True, False, True]})
    by_variant = questionnaires.quiz_correctness(quiz, variants).set_index(["item",
                                                                             "variant"])
    assert by_variant.loc[("q1", "A"), "share_correct"] == 1.0
    distribution = questionnaires.item_distribution(small_study.responses, "age_band")
    assert distribution.iloc[0]["count"] == 1


def test_bad_input_frames_raise_typed_errors(small_study: StudyData) -> None:
    with pytest.raises(AnalyticsInputError, match="scores frame lacks column"):
        report.build_report(small_study, pd.DataFrame({"participant_id": []}), empty_quiz())


def test_synthetic_study_end_to_end_finds_the_planted_effect() -> None:
    data = synthesize_study(testers=160, seed=5, turns=20)
    # The synthetic study plants its effect on wrong clicks after the message: the
    # designer makes that the primary metric.
    data.study["experiments"][0]["primary_metric"] = "wrong_clicks_after"
    scores, quiz = synthesize_scores_and_quiz(data, seed=5)
    built = report.build_report(data, scores, quiz)
    experiment = built["experiments"][0]
    first = experiment["metrics"][0]
    assert first["metric"] == "wrong_clicks_after"
    # Variant B's message makes wrong clicks after it rarer in the synthetic data.
    assert first["effect"] < 0 and first["prob_best"]["B"] > 0.95
    assert experiment["verdict"] == "B better"
    assert built["participants"] == 160
    markdown = report.report_markdown(built, report.report_figures(data, built))
    assert "## Confusion points" in markdown


def test_only_named_free_text_items_count_as_testers_words() -> None:
    from analytics.questionnaires import free_text, theme_counts

    responses = pd.DataFrame({
        "participant_id": ["p1", "p1"], "survey": ["s", "s"], "survey_version": ["1", "1"],
        "phase": ["post", "post"], "item": ["quiz.capture", "open.confused"],
        "value": ["rules_say_capture", "the rules about surrounding"], "at": [None, None],
    })
    assert set(free_text(responses)["item"]) == {"quiz.capture", "open.confused"}
    only = free_text(responses, text_items=["open.confused"])
    assert list(only["item"]) == ["open.confused"]
    assert set(theme_counts(responses, ["open.confused"])["item"]) == {"open.confused"}


def test_chart_names_without_drawing_match_the_drawn_charts() -> None:
    # The dashboard writes the Markdown plan from the names alone (no figures drawn).
    data = synthesize_study(24, seed=3)
    scores, quiz = synthesize_scores_and_quiz(data, seed=3)
    built = report.build_report(data, scores, quiz)
    drawn = report.report_figures(data, built)
    assert report.report_chart_names(built) == list(drawn)
    assert report.report_markdown(built, report.report_chart_names(built)) == \
        report.report_markdown(built, drawn)
