"""Derived tables, confusion signals and the funnel on a hand-made two-tester study."""

from __future__ import annotations

import math

import pandas as pd

from analytics import confusion, derive, funnel
from analytics.data import StudyData
from analytics.games.vapoosh import facts as vapoosh_facts
from analytics.games.vapoosh import heatmaps as vapoosh_heatmaps
from analytics.games.vapoosh import occasions as vapoosh_occasions
from analytics.games.vapoosh.rolls import roll_turns


def test_turns_count_only_human_rolls_and_take_the_first_click(small_study: StudyData) -> None:
    turns = roll_turns(small_study)
    assert list(turns["fact"]) == ["3x5", "7x8", "7x8", "6x6"]
    assert list(turns["first_ms"]) == [4000, 9000, 2000, 1000]
    assert list(turns["n_wrong"]) == [1, 1, 0, 0]
    # The suicide click is a rule error, not a maths error.
    assert list(turns["n_wrong_math"]) == [1, 0, 0, 0]


def test_wrong_clicks_by_class_and_reason(small_study: StudyData) -> None:
    by_class = vapoosh_occasions.wrong_clicks_by_class(small_study).set_index("wrong_kind")
    assert by_class.loc["near_miss", "clicks"] == 1
    assert by_class.loc["rule", "clicks"] == 1
    assert by_class.loc["rule", "per_turn"] == 0.25
    # the core's refusals by reason: Vapoosh logs a rule's reason as rule_reason
    by_reason = confusion.wrong_clicks_by_reason(small_study)
    assert list(by_reason["reason"]) == ["suicide"]


def test_heatmaps_are_12_by_12_with_tiles_in_place(small_study: StudyData) -> None:
    wrong = vapoosh_heatmaps.wrong_click_heatmap(small_study)
    assert wrong.shape == (12, 12)
    assert wrong.loc[6, 4] == 1  # row r=6, column c=4: the near miss
    assert wrong.loc[8, 7] == 1  # the suicide click at (7, 8)
    assert wrong.to_numpy().sum() == 2
    hesitation = vapoosh_heatmaps.hesitation_heatmap(small_study)
    # (7, 8) and (8, 7) are the options of two turns: hesitations 9000 and 2000.
    assert hesitation.loc[8, 7] == 5500
    assert hesitation.loc[7, 8] == 5500
    assert hesitation.loc[6, 6] == 1000
    assert math.isnan(hesitation.loc[1, 1])


def test_hardest_facts_rank_by_smoothed_maths_error(small_study: StudyData) -> None:
    facts = vapoosh_facts.hardest_facts(small_study, min_attempts=1)
    assert facts.iloc[0]["fact"] == "3x5"
    assert facts.iloc[0]["wrong_rate"] == 1.0
    seven_eight = facts.set_index("fact").loc["7x8"]
    assert seven_eight["attempts"] == 2 and seven_eight["wrong"] == 0
    assert seven_eight["median_ms"] == 5500


def test_message_aftermath_and_rules_overlay(small_study: StudyData) -> None:
    # two wordings of extra_turn (A for P1, B for P2): a row per wording
    table = confusion.message_aftermath(small_study).set_index(["key", "variant"])
    a, b = table.loc[("extra_turn", "A")], table.loc[("extra_turn", "B")]
    assert a["shown"] == b["shown"] == 1
    assert (a["wrong_per_turn_after"], b["wrong_per_turn_after"]) == (1, 0)  # next turns
    assert (a["hesitation_after_ms"], b["hesitation_after_ms"]) == (9000, 1000)
    assert (a["rules_opened"], b["rules_opened"]) == (1, 0)
    overlay = confusion.rules_overlay_use(small_study).set_index("context")
    assert overlay.loc["extra_turn", "opens"] == 1
    assert overlay.loc["extra_turn", "median_open_s"] == 5.0


def test_confusion_points_are_ranked_with_known_ids(small_study: StudyData) -> None:
    # Two testers are too little evidence: nothing is listed (the old list named points
    # from one or two testers, "followed by trouble" included).
    assert confusion.confusion_points(small_study) == []
    points = confusion.confusion_points(small_study, min_occasions=1, min_testers=1)
    ids = [p.id for p in points]
    # ``wrong:rule`` is no longer a point of its own: its reasons are (rule:<reason>).
    assert {"wrong:near_miss", "rule:suicide", "survey:feedback"} <= set(ids)
    assert "wrong:rule" not in ids
    scores = [p.score for p in points]
    assert scores == sorted(scores, reverse=True)
    assert all(p.action and p.definition and p.interval for p in points)
    # The rolls of this study predate ``refused``: the rule's occasions are estimated.
    suicide = next(p for p in points if p.id == "rule:suicide")
    assert suicide.evidence["occasions_estimated"] == suicide.evidence["occasions"]


def test_funnel_counts_drop_off_and_time(small_study: StudyData) -> None:
    table = funnel.funnel(small_study).set_index("step")
    assert list(table.index) == ["consent", "pre_survey", "game 1", "post_survey", "done"]
    assert list(table["reached"]) == [2, 2, 2, 2, 1]
    assert table.loc["done", "drop_off"] == 1
    assert table.loc["done", "drop_off_rate"] == 0.5
    # P1 post_survey at 40 s, done at 100 s: 60 s on the post-survey step.
    assert table.loc["post_survey", "median_seconds"] == 60.0


def test_filters_by_variant_and_age_band(small_study: StudyData) -> None:
    only_b = funnel.filter_study(small_study, experiment="copy", variants=["B"])
    assert set(only_b.events["participant_id"]) == {"P2"}
    adults = funnel.filter_study(small_study, age_bands=["adult"])
    assert set(adults.participants["participant_id"]) == {"P1"}
    later = funnel.filter_study(small_study, start=pd.Timestamp("2027-01-01T00:00Z"))
    assert later.events.empty
    same_day = funnel.filter_study(small_study, start="2026-03-01", end="2026-03-02")
    assert len(same_day.participants) == 2


def test_empty_study_gives_empty_tables() -> None:
    empty = StudyData.empty("e")
    assert vapoosh_occasions.wrong_clicks_by_class(empty).empty
    assert vapoosh_facts.hardest_facts(empty).empty
    assert confusion.confusion_points(empty) == []
    assert vapoosh_heatmaps.wrong_click_heatmap(empty).to_numpy().sum() == 0


def test_event_order_in_the_frame_does_not_matter(small_study: StudyData) -> None:
    shuffled = StudyData(study=small_study.study, participants=small_study.participants,
                         assignments=small_study.assignments,
                         events=small_study.events.sample(frac=1.0, random_state=3),
                         responses=small_study.responses)
    turns = roll_turns(shuffled).sort_values(["participant_id", "seq"])
    assert list(turns["fact"]) == ["3x5", "7x8", "7x8", "6x6"]
    assert list(turns["first_ms"]) == [4000, 9000, 2000, 1000]
    assert confusion.message_aftermath(shuffled)["rules_opened"].sum() == 1


def test_computer_seat_rolls_are_not_turns(small_study: StudyData) -> None:
    # P1's seat-2 roll (ai:easy) is not a turn; if seat 2 were human it would be.
    events = small_study.events.copy()
    events["props"] = [{**p, "seats": ["human", "human"]} if t == "game_start" else p
                       for p, t in zip(events["props"], events["type"], strict=True)]
    two_humans = StudyData(study=small_study.study, participants=small_study.participants,
                           assignments=small_study.assignments, events=events,
                           responses=small_study.responses)
    assert len(derive.turns(small_study)) == 4
    assert len(derive.turns(two_humans)) == 5


def test_filtering_a_prepared_study_equals_filtering_the_raw_one() -> None:
    from analytics.synth import synthesize_study

    raw = synthesize_study(testers=30, seed=8, turns=8)
    prepared = derive.prepare(synthesize_study(testers=30, seed=8, turns=8))
    fast = funnel.filter_study(prepared, experiment="extra_turn_copy", variants=["B"])
    slow = funnel.filter_study(raw, experiment="extra_turn_copy", variants=["B"])
    assert fast._derived.get("prepared") and not slow._derived
    pd.testing.assert_frame_equal(funnel.funnel(fast), funnel.funnel(slow))
    for table in (vapoosh_occasions.wrong_clicks_by_class, vapoosh_facts.hardest_facts,
                  confusion.message_aftermath):
        pd.testing.assert_frame_equal(table(fast).reset_index(drop=True),
                                      table(slow).reset_index(drop=True))
    assert [p.to_json() for p in confusion.confusion_points(fast)] == \
        [p.to_json() for p in confusion.confusion_points(slow)]
