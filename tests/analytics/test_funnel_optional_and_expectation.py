"""Planted truths for two Overview/Questionnaires numbers: optional extra games are no
drop-off, and expectation against experience finds a planted change (and its 95%
interval covers a zero change about 95% of the time)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import expectation, funnel
from analytics.data import PARTICIPANT_COLUMNS, RESPONSE_COLUMNS, StudyData
from tests.analytics.conftest import T0, Builder


def _study(games_per_tester: int | None, plan: dict[str, tuple[int, bool]]) -> StudyData:
    """``plan``: tester → (games started, reached the post-survey)."""
    b = Builder()
    for pid, (games, post) in plan.items():
        b.add(pid, "page", {"page": "consent"})
        b.add(pid, "page", {"page": "pre_survey"})
        for k in range(games):
            b.add(pid, "game_start", {"game_id": f"{pid}-{k}"}, game=f"{pid}-{k}")
        if post:
            b.add(pid, "page", {"page": "post_survey"})
            b.add(pid, "page", {"page": "done"})
    study = {"study_id": "s", "title": "", "game": "vapoosh", "rules": "standard",
             "experiments": []}
    if games_per_tester is not None:
        study["games_per_tester"] = games_per_tester
    participants = pd.DataFrame([["s", pid, T0, T0] for pid in plan],
                                columns=PARTICIPANT_COLUMNS)
    empty = StudyData.empty("s")
    return StudyData(study=study, participants=participants, assignments=empty.assignments,
                     events=b.frame(), responses=empty.responses)


# Ten testers asked for one game; three play a second (optional) one; one quits in game 1.
PLAN = {f"P{n}": (2 if n < 3 else 1, n != 9) for n in range(10)}


def test_optional_extra_games_are_not_drop_off() -> None:
    table = funnel.funnel(_study(1, PLAN)).set_index("step")
    assert list(table.index) == ["consent", "pre_survey", "game 1", "game 2 (optional)",
                                 "post_survey", "done"]
    assert table.loc["game 2 (optional)", "reached"] == 3
    assert bool(table.loc["game 2 (optional)", "optional"])
    assert table.loc["game 2 (optional)", "drop_off"] == 0
    assert np.isnan(table.loc["game 2 (optional)", "drop_off_rate"])
    # The one tester who quit in game 1 is the post-survey's drop-off, counted from game 1.
    assert table.loc["post_survey", "drop_off"] == 1
    assert table.loc["post_survey", "drop_off_rate"] == pytest.approx(0.1)
    assert table["drop_off"].sum() == 1
    assert not table.drop(index="game 2 (optional)")["optional"].any()


def test_without_the_study_setting_every_game_counts_as_before() -> None:
    table = funnel.funnel(_study(None, PLAN)).set_index("step")
    assert "game 2" in table.index and table.loc["game 2", "drop_off"] == 7
    # Two required games: the second is no longer optional.
    two = funnel.funnel(_study(2, PLAN)).set_index("step")
    assert "game 2" in two.index and two.loc["game 2", "drop_off"] == 7


def _responses(pre: np.ndarray, post: np.ndarray, pre_item: str, post_item: str
               ) -> pd.DataFrame:
    rows = []
    for n, (before, after) in enumerate(zip(pre, post, strict=True)):
        rows.append([f"P{n}", "pre_s", "1", "pre", pre_item, int(before), None])
        rows.append([f"P{n}", "post_s", "1", "post", post_item, int(after), None])
    return pd.DataFrame(rows, columns=RESPONSE_COLUMNS)


def test_a_planted_rise_in_fun_is_found_with_an_interval_around_it() -> None:
    rng = np.random.default_rng(4)
    pre = np.clip(np.round(rng.normal(5, 1.5, 300)), 0, 10)
    post = np.clip(pre + rng.choice([1, 2, 3], 300), 0, 10)  # +2 planted (clipped at 10)
    truth = float((post - pre).mean())
    table = expectation.expectation_vs_experience(
        _responses(pre, post, "expect.fun_0_10", "experience.fun_0_10")).set_index("measure")
    row = table.loc["Fun, 0–10 (adults)"]
    assert row["n_pairs"] == 300 and row["change"] == pytest.approx(truth)
    assert row["ci95_low"] < truth < row["ci95_high"] and row["ci95_low"] > 1.5
    assert row["p_value"] < 1e-6
    # The faces pair needs the children's items; it is absent, not a row of NaNs.
    assert "How good, faces 1–5 (children)" not in table.index


def test_the_interval_covers_no_change_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(11)
    runs, covered = 400, 0
    for _ in range(runs):
        pre = rng.integers(1, 6, 30)
        post = rng.integers(1, 6, 30)  # no change planted
        row = expectation.paired_change(pd.Series(pre.astype(float)),
                                        pd.Series(post.astype(float)))
        covered += row["ci95_low"] <= 0 <= row["ci95_high"]
    assert 0.92 <= covered / runs <= 0.98


def test_only_testers_who_answered_both_are_paired() -> None:
    frame = _responses(np.array([3, 4, 5]), np.array([4, 4, 5]), "expect.smileyometer_pre",
                       "child.smileyometer")
    frame = frame[~((frame["participant_id"] == "P2") & (frame["phase"] == "post"))]
    row = expectation.expectation_vs_experience(frame).iloc[0]
    assert row["n_pairs"] == 2 and row["pre_mean"] == 3.5 and row["change"] == 0.5
    assert expectation.expectation_vs_experience(frame[frame["phase"] == "pre"]).empty
