"""Vasco's default surveys (surveys/games/vasco/) load, validate and carry a rules quiz."""

from __future__ import annotations

from pathlib import Path

from surveys.loader import load_survey

HERE = Path(__file__).resolve().parents[2] / "surveys" / "games" / "vasco"


def test_both_surveys_load_and_name_no_other_game() -> None:
    pre = load_survey(HERE / "vasco_pre.yaml")
    post = load_survey(HERE / "vasco_post_short.yaml")
    assert (pre.id, pre.phase, post.id, post.phase) == (
        "vasco_pre",
        "pre",
        "vasco_post_short",
        "post",
    )
    for path in HERE.glob("*.yaml"):
        assert "apoosh" not in path.read_text("utf-8")


def test_the_rules_quiz_asks_the_rules_the_engine_enforces() -> None:
    post = load_survey(HERE / "vasco_post_short.yaml")
    quiz = {
        item.id: item for page in post.pages for item in page.items if item.id.startswith("quiz.")
    }
    answers = {key: getattr(item, "correct", None) for key, item in quiz.items()}
    assert answers == {
        "quiz.win": "own_loop",
        "quiz.forced": "only_one_fits",
        "quiz.opponent_loop": "they_win",  # §2.7: the loop's owner wins, whoever moved
        "quiz.tiles_out": "shorter_path",  # §2.7: the longer path loses
    }
    for item in quiz.values():
        values = [o.value for o in item.options]  # type: ignore[attr-defined]
        assert item.correct in values and "dont_know" in values  # type: ignore[attr-defined]
