"""Golden scoring tests per instrument: published examples and the pitfalls of
shared/research/questionnaires.md §13."""

from __future__ import annotations

import pytest

from surveys.instruments import (
    INSTRUMENTS,
    InstrumentAnswerError,
    again_again_summary,
    instrument_info,
    nps_style_band,
    recommend_summary,
    score,
    smileyometer_summary,
    sus_grade,
    tlx_from_ticks,
    ueq_s_from_ueq26,
)

TOL = 1e-6


# ------------------------------------------------------------------ SUS
def test_sus_best_and_worst_and_all_agree() -> None:
    assert score("sus", [5, 1] * 5).score == 100.0
    assert score("sus", [1, 5] * 5).score == 0.0
    assert score("sus", [5] * 10).score == 50.0  # pitfall 2: all-agree is 50
    assert score("sus", [3] * 10).score == 50.0


def test_sus_reverse_coding_of_even_items() -> None:
    # only item 2 moves from 3 to 1: its contribution goes 2 -> 4, SUS +5
    assert score("sus", [3, 1, 3, 3, 3, 3, 3, 3, 3, 3]).score == 55.0
    # only item 1 moves from 3 to 5: contribution 2 -> 4, SUS +5
    assert score("sus", [5, 3, 3, 3, 3, 3, 3, 3, 3, 3]).score == 55.0


def test_sus_missing_item_centre_rule_versus_prorate() -> None:
    answers = [5, 2, 4, 2, 4, 2, 4, 2, 4, None]  # nine contributions summing to 28
    centre = score("sus", answers)
    prorated = score("sus", answers, missing="prorate")
    assert centre.score == pytest.approx(75.0, abs=TOL)
    assert prorated.score == pytest.approx(77.7777777, abs=1e-5)
    assert any("centre" in n for n in centre.notes)
    assert any("prorated" in n for n in prorated.notes)


def test_sus_all_missing_is_none_not_zero() -> None:
    r = score("sus", [None] * 10)
    assert r.score is None and r.grade is None


@pytest.mark.parametrize(
    ("value", "grade"),
    [(100, "A+"), (84.1, "A+"), (84.0, "A"), (80.8, "A"), (80.75, "A-"), (78.9, "A-"), (78.8, "B+"),
     (77.2, "B+"), (77.1, "B"), (74.1, "B"), (74.0, "B-"), (72.6, "B-"), (72.5, "C+"), (71.1, "C+"),
     (71.05, "C"), (65.0, "C"), (64.9, "C-"), (62.7, "C-"), (62.6, "D"), (51.7, "D"), (51.6, "F"), (0, "F")],
)
def test_sus_curved_grade_lower_bounds(value: float, grade: str) -> None:
    assert sus_grade(value) == grade


def test_sus_grade_tolerates_float_noise_at_a_bound() -> None:
    mean = sum([84.0, 84.2, 84.1]) / 3  # 84.1 with float noise
    assert sus_grade(mean) == "A+"


def test_sus_result_carries_grade_and_acceptability() -> None:
    r = score("sus", [4, 2, 4, 2, 4, 2, 4, 2, 4, 2])
    assert r.score == 75.0 and r.grade == "B"
    assert "acceptability: acceptable" in r.notes


# ------------------------------------------------------------------ UMUX-Lite
def test_umux_lite_formula_and_legacy_regression() -> None:
    r = score("umux_lite", [6, 5])
    assert r.score == pytest.approx(75.0, abs=TOL)
    assert r.scales["sus_equivalent_legacy"] == pytest.approx(0.65 * 75 + 22.9, abs=TOL)
    assert score("umux_lite", [1, 1]).score == 0.0


def test_umux_lite_five_point_form_has_no_regression() -> None:
    r = score("umux_lite", [5, 3], points=5)
    assert r.score == pytest.approx(75.0, abs=TOL)
    assert "sus_equivalent_legacy" not in r.scales


def test_umux_lite_needs_both_items() -> None:
    assert score("umux_lite", [7, None]).score is None


# ------------------------------------------------------------------ PXI
def test_minipxi_zero_is_an_answer_and_there_is_no_total() -> None:
    r = score("minipxi", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3])
    assert r.score is None
    assert r.scales["audiovisual_appeal"] == 0.0
    assert r.scales["enjoyment"] == -3.0
    assert r.scales["functional"] == 0.0 and r.scales["psychosocial"] == 0.0
    assert len([k for k in r.scales if k not in ("functional", "psychosocial")]) == 11


def test_minipxi_missing_construct_is_left_out_not_zero() -> None:
    r = score("minipxi", [None] + [1] * 10)
    assert "audiovisual_appeal" not in r.scales
    assert "functional" not in r.scales
    assert any("audiovisual_appeal" in n for n in r.notes)


def test_pxi_construct_means_in_published_order() -> None:
    answers = [3, 2, 1] + [0] * 27 + [-1, -2, -3]
    r = score("pxi", answers)
    assert r.scales["audiovisual_appeal"] == pytest.approx(2.0)
    assert r.scales["challenge"] == 0.0
    assert r.scales["enjoyment"] == pytest.approx(-2.0)


def test_pxi_two_of_three_rule() -> None:
    answers = [3, None, 1] + [None, None, 2] + [0] * 27
    r = score("pxi", answers)
    assert r.scales["audiovisual_appeal"] == pytest.approx(2.0)
    assert "challenge" not in r.scales
    strict = score("pxi", answers, min_items=3)
    assert "audiovisual_appeal" not in strict.scales


def test_pxi_rejects_collected_1_to_7_without_conversion() -> None:
    with pytest.raises(InstrumentAnswerError, match="outside -3..3"):
        score("pxi", [7] + [0] * 32)


# ------------------------------------------------------------------ UEQ-S
def test_ueq_s_transform_and_scales() -> None:
    r = score("ueq_s", [7, 7, 7, 7, 1, 1, 1, 1])
    assert r.scales == {"pragmatic": 3.0, "hedonic": -3.0, "overall": 0.0}
    assert r.grade == "neutral"
    assert score("ueq_s", [4] * 8).score == 0.0  # 4 is the neutral middle, 0 after transform


def test_ueq_s_from_full_ueq_flips_items_10_and_21() -> None:
    ueq26 = [4] * 26
    ueq26[9] = 1   # item 10 "inventive" (positive left) -> 7 in UEQ-S order
    ueq26[20] = 7  # item 21 "confusing" on the right -> 1
    ueq26[10] = 6  # item 11 obstructive..supportive stays 6
    assert ueq_s_from_ueq26(ueq26) == [6.0, 4.0, 4.0, 1.0, 4.0, 4.0, 7.0, 4.0]


def test_ueq_s_partial_answers_policy() -> None:
    r = score("ueq_s", [7, None, None, None, 5, 5, 5, 5])
    assert "pragmatic" not in r.scales and r.score is None
    r2 = score("ueq_s", [7, 5, None, None, 5, 5, 5, 5])
    assert r2.scales["pragmatic"] == pytest.approx(2.0)


# ------------------------------------------------------------------ raw TLX
def test_raw_tlx_mean_and_performance_not_reversed() -> None:
    r = score("raw_tlx", [0, 0, 0, 100, 0, 0])
    assert r.score == pytest.approx(100 / 6)
    assert r.scales["performance"] == 100.0


def test_raw_tlx_zero_is_an_answer_and_missing_is_dropped() -> None:
    assert score("raw_tlx", [0] * 6).score == 0.0
    r = score("raw_tlx", [60, None, 40, None, None, None])
    assert r.score == 50.0
    assert any("modified RTLX over 2 of 6" in n for n in r.notes)


def test_tlx_ticks() -> None:
    assert tlx_from_ticks(1) == 0.0 and tlx_from_ticks(11) == 50.0 and tlx_from_ticks(21) == 100.0


# ------------------------------------------------------------------ recommend
@pytest.mark.parametrize(("v", "cat"), [(0, "detractor"), (6, "detractor"), (7, "passive"), (8, "passive"),
                                        (9, "promoter"), (10, "promoter")])
def test_recommend_categories(v: int, cat: str) -> None:
    r = score("recommend", [v])
    assert r.score == float(v) and r.grade == cat


def test_recommend_group_excludes_missing() -> None:
    r = recommend_summary([10, 9, 8, 0, None])
    assert r.score == 25.0  # 50% promoters - 25% detractors over 4 answers
    assert r.scales["ltr_mean"] == pytest.approx(6.75)
    assert r.scales["n"] == 4


def test_nps_style_band_is_tested_from_the_top() -> None:
    assert nps_style_band(21) == "favourable"  # the uxscores bug would say "good"
    assert nps_style_band(50) == "favourable" and nps_style_band(50.5) == "excellent"
    assert nps_style_band(90) == "world-class"
    assert nps_style_band(0) == "not yet good" and nps_style_band(-40) == "not yet good"


# ------------------------------------------------------------------ children
def test_smileyometer_and_summary() -> None:
    assert score("smileyometer", [5]).grade == "Brilliant"
    assert score("smileyometer", [1]).grade == "Awful"
    s = smileyometer_summary([5, 5, 4, 1, None])
    assert s.scales["top_box_pct"] == 50.0 and s.scales["median"] == 4.5 and s.scales["n"] == 4


def test_again_again_codes() -> None:
    assert score("again_again", ["no"]).score == 0.0  # 0 is an answer
    assert score("again_again", ["maybe"]).score == 1.0
    assert score("again_again", [2]).grade == "yes"
    s = again_again_summary(["yes", "yes", "no", None])
    assert s.scales["yes_pct"] == pytest.approx(200 / 3) and s.scales["mean_code"] == pytest.approx(4 / 3)


# ------------------------------------------------------------------ input errors
@pytest.mark.parametrize(
    ("iid", "answers", "match"),
    [("sus", [3] * 9, "expected 10"), ("sus", [3] * 9 + [6], "item 10: 6 is outside"),
     ("sus", [3] * 9 + [2.5], "not a whole number"), ("sus", [True] + [3] * 9, "not a number"),
     ("recommend", ["10"], "not a number"), ("raw_tlx", [101, 0, 0, 0, 0, 0], "outside"),
     ("again_again", ["perhaps"], "yes/maybe/no"), ("nope", [1], "unknown instrument"),
     ("sus", "5555555555", "must be a list")],
)
def test_bad_answers_raise_typed_errors(iid: str, answers: object, match: str) -> None:
    with pytest.raises(InstrumentAnswerError, match=match):
        score(iid, answers)  # type: ignore[arg-type]


def test_every_instrument_has_attribution_and_norms() -> None:
    for iid in INSTRUMENTS:
        info = instrument_info(iid)
        assert info.attribution and info.norms and info.licence and info.citation
    assert "Digital Equipment Corporation" in instrument_info("sus").attribution
    assert "trademarks" in instrument_info("recommend").attribution
    assert "NPS" not in INSTRUMENTS["recommend"].name
