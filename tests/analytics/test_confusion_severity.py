"""Confusion points on one basis: occasions, shrinkage, evidence, severity; free text by
the question's intent (issue 9, items 4, 5 and 7)."""

from __future__ import annotations

import json

import pandas as pd

from analytics import confusion, game_analytics, questionnaires, report, severity
from analytics.calibrate_confusion import PLANTED_RULE, confusion_checks, planted_study
from analytics.data import RESPONSE_COLUMNS, StudyData, empty_quiz, empty_scores
from analytics.games.vapoosh.rolls import roll_turns


def test_fast_calibration_planted_points_top_and_thin_points_never_do() -> None:
    checks = {check.name: check for check in confusion_checks(studies=8, seed=3)}
    found = checks["planted rule confusion and hard fact both in top 3"]
    thin = checks["null: top-3 point on < 10 occasions or < 3 testers"]
    assert found.passed and found.value >= 0.9
    assert thin.passed and thin.value == 0


def test_rule_occasions_are_the_turns_the_rule_could_bite() -> None:
    data = planted_study(testers=12, seed=5)
    turns = roll_turns(data)  # a Vapoosh study: the roll says what it refused
    bites = turns[(turns["n_clicks"] > 0)
                  & turns["refused"].map(lambda r: PLANTED_RULE in r)]
    point = next(p for p in confusion.confusion_points(data) if p.id == f"rule:{PLANTED_RULE}")
    # Not all human turns: only those whose roll the rule refused an option of.
    assert point.evidence["occasions"] == len(bites) < len(turns)
    assert "occasions_estimated" not in point.evidence
    low, high = point.interval or (0.0, 0.0)
    assert 0 < low < point.evidence["shrunk_rate"] < high < 1
    assert point.definition.startswith("Occasions: turns")


def _fact(name: str, occasions: int, troubles: int, testers: int) -> severity.Tally:
    return severity.Tally(name, "fact", occasions, troubles, testers, min(troubles, testers),
                          occasions, troubles, 0, 0, 0.05, 1.0)


def test_a_handful_of_attempts_is_shrunk_toward_the_study_rate() -> None:
    # The case: "Hard fact 2 × 7" (6 attempts, 2 wrong) ranked above a rule
    # testers got wrong 47 times on 100 occasions (22 testers).
    facts = [_fact(f"fact:{i}", 20, i % 3, 10) for i in range(40)]
    handful = _fact("fact:2x7", 6, 2, 2)
    rule = severity.Tally("rule:empty_priority", "rule", 100, 47, 30, 22, 50, 25, 50, 22,
                          0.0, 1.0)
    study_rate = sum(t.troubles for t in facts) / sum(t.occasions for t in facts)
    scored = {s.tally.id: s for s in severity.score([*facts, handful, rule],
                                                    {"fact": study_rate},
                                                    min_occasions=0, min_testers=0)}
    shrunk = scored["fact:2x7"]
    # pulled from its raw 33 % toward the study's rate, not toward 50 %
    assert study_rate < shrunk.shrunk_rate < handful.rate / 2
    assert shrunk.severity < scored["rule:empty_priority"].severity / 4
    listed = severity.score([*facts, handful, rule], {"fact": study_rate})
    assert [s.tally.id for s in listed if s.listed][0] == "rule:empty_priority"
    assert not next(s for s in listed if s.tally.id == "fact:2x7").listed


def test_nothing_is_listed_for_one_tester_without_wrong_clicks() -> None:
    data = planted_study(testers=1, seed=2, plant=False)
    assert confusion.confusion_points(data) == []


def test_severity_is_defined_once_and_shown_with_the_report() -> None:
    data = planted_study(testers=24, seed=4)
    built = report.build_report(data, empty_scores(), empty_quiz())
    game = game_analytics.for_study(data)
    assert built["severity_definition"] == severity.severity_definition(game.occasions)
    assert "a turn that rolled the fact" in built["severity_definition"]
    markdown = report.report_markdown(built)
    assert severity.SEVERITY_DEFINITION.split(".")[0] in markdown
    assert "\\" not in markdown  # no stray backslashes in a plan of plain ids
    first = built["confusion_points"][0]
    assert {"id", "label", "score", "evidence", "interval", "definition"} <= set(first)
    assert confusion.evidence_text(first) in markdown
    fact = built["hardest_facts"][0]
    assert fact["interval"][0] <= fact["shrunk_rate"] <= fact["interval"][1]
    json.dumps(built, allow_nan=False)  # strict JSON: no NaN in the new fields


def _answers(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame([[pid, "vapoosh_post_short", "1", "post", item, value, None]
                         for pid, item, value in rows], columns=RESPONSE_COLUMNS)


def test_theme_counts_on_text_that_matches_nothing() -> None:
    answers = _answers([("p1", "open.liked", "ok")])
    table = questionnaires.theme_counts(answers)
    assert table.empty and list(table.columns) == questionnaires.THEME_COLUMNS
    assert questionnaires.what_works(answers).empty
    assert questionnaires.problem_answers(answers)["problem"].tolist() == [False]


def test_praise_is_never_confusion_and_goes_to_what_works() -> None:
    rows = [(f"p{i}", "open.liked", "the capture rules were great") for i in range(12)]
    rows += [(f"p{i}", "open.confused", "the rules about brown tiles") for i in range(6)]
    rows += [(f"q{i}", "open.confused", "nothing was confusing") for i in range(6)]
    data = StudyData.empty("praise")
    data = StudyData(study={**data.study, "text_items": ["open.confused", "open.liked"],
                            "text_polarity": {"open.liked": "praise",
                                              "open.confused": "problem"}},
                     participants=data.participants, assignments=data.assignments,
                     events=data.events, responses=_answers(rows))
    points = {p.id: p for p in confusion.confusion_points(data)}
    assert "survey:open.liked" not in points
    confused = points["survey:open.confused"]
    assert confused.evidence["troubles"] == 6 and confused.evidence["occasions"] == 12
    works = report.build_report(data, empty_scores(), empty_quiz())["what_works"]
    assert {(row["item"], row["theme"]) for row in works} == {("open.liked", "rules"),
                                                              ("open.liked", "fun")}
