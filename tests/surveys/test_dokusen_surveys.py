"""Dokusen's default surveys (surveys/games/dokusen/) load, validate, and their rules quiz
on growth has the answers the engine gives: each question's position is built and grown
by the real engine, and the quiz's ``correct`` option must name the result."""

from __future__ import annotations

from pathlib import Path

from engine.dokusen.board import Grid, grow
from engine.dokusen.state import DokusenGame
from surveys.loader import load_survey

HERE = Path(__file__).resolve().parents[2] / "surveys" / "games" / "dokusen"


def centre_after_growth(rows: list[str]) -> str:
    grid = Grid.from_rows(rows)
    return grid.rows_of(grow(grid, grid.parse(rows)))[1][1]


def test_both_surveys_load_and_name_no_other_game() -> None:
    pre = load_survey(HERE / "dokusen_pre.yaml")
    post = load_survey(HERE / "dokusen_post_short.yaml")
    assert (pre.id, pre.phase, post.id, post.phase) == (
        "dokusen_pre",
        "pre",
        "dokusen_post_short",
        "post",
    )
    for path in HERE.glob("*.yaml"):
        text = path.read_text("utf-8")
        assert "apoosh" not in text and "asco" not in text


def test_the_growth_quiz_says_what_the_engine_does() -> None:
    post = load_survey(HERE / "dokusen_post_short.yaml")
    quiz = {
        item.id: item for page in post.pages for item in page.items if item.id.startswith("quiz.")
    }
    answer = {key: getattr(item, "correct", None) for key, item in quiz.items()}
    colour = {"0": "blue", "1": "orange", ".": "black"}
    # two orange and one blue neighbour around a black square
    assert colour[centre_after_growth([".1.", "1.0", "..."])] == answer["quiz.grow_majority"]
    # one blue and one orange neighbour: a tie
    assert colour[centre_after_growth(["...", "0.1", "..."])] == answer["quiz.grow_tie"]
    # the user's square with one orange neighbour and no blue one
    after = centre_after_growth(["...", ".01", "..."])
    assert {"1": "turns_orange", "0": "stays_blue", ".": "turns_black"}[after] == answer[
        "quiz.own_flips"
    ]
    # exactly half loses, more than half wins, once no square is black
    half = DokusenGame({"board": ["1..."]}).new_initial_state()
    half.apply_action(3)
    assert half.outcome is not None and half.outcome.result == "loss"
    assert answer["quiz.win"] == "over_half"
    for item in quiz.values():
        values = [o.value for o in item.options]  # type: ignore[attr-defined]
        assert item.correct in values and "dont_know" in values  # type: ignore[attr-defined]
