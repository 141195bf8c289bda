"""The Balance page simulates each game's demo study (the game picked from the study
through the registry), in AppTest on a real SQLite file: the generic who-wins table with
95% intervals, the game's own section, game length, every table's definition, and "run
more" extending the run with the same first games."""

from __future__ import annotations

import pandas as pd
import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from analytics.data import UNNAMED_GAME
from engine.balance import balance_hooks
from playtest import demo
from playtest.games.registry import game_names, game_plugin
from tests.app.designer_support import PAGE_APP, designer_page

GAMES = 6


def _study_id(game: str) -> str:
    return demo.DEMO_STUDY_ID if game == UNNAMED_GAME else f"{demo.DEMO_STUDY_ID}-{game}"


def _simulated(game: str) -> AppTest:
    at = designer_page("balance", _study_id(game), timeout=240)
    at.number_input(key="bal_games").set_value(GAMES)
    at.button(key="FormSubmitter:balance-Simulate").click().run()
    assert not at.exception, at.exception
    return at


def _one_seat(game: str) -> bool:
    allowed = balance_hooks(game).seat_range or game_plugin(game).seats
    return allowed[1] == 1


def _check_intervals(frames: list[pd.DataFrame]) -> None:
    for frame in frames:
        if "share" in frame.columns:
            assert {"ci95_low", "ci95_high"} <= set(frame.columns), list(frame.columns)
            assert (frame["ci95_low"] <= frame["share"] + 1e-12).all()
            assert (frame["share"] <= frame["ci95_high"] + 1e-12).all()
        if "per_game" in frame.columns:
            known = frame.dropna(subset=["per_game_ci95_low"])
            assert (known["per_game_ci95_low"] <= known["per_game"] + 1e-9).all()


@pytest.mark.parametrize("game", game_names())
def test_the_balance_page_simulates_each_game_s_demo_study(db: Engine, game: str) -> None:
    demo.ensure_demo_study(db)
    demo.ensure_game_demo_studies(db)
    at = _simulated(game)
    plugin = game_plugin(game)
    text = "\n".join(str(e.value) for e in [*at.markdown, *at.caption])
    assert plugin.title in text
    assert "95% Wilson interval" in text  # the win and draw shares say what they are
    frames = [df.value for df in at.dataframe]
    _check_intervals(frames)
    subheaders = [h.value for h in at.subheader]
    if _one_seat(game):
        # each compared level plays every part (stage) of the rules as the tester
        table = next(f for f in frames if {"part", "level"} <= set(f.columns))
        parts = balance_hooks(game).parts(plugin.default_rules)
        levels = [s.strip() for s in at.text_input(key="bal_seats").value.split(",")]
        assert len(table) == len(parts) * len(levels)
        assert (table["games"] == GAMES).all() and (table["decided"] <= GAMES).all()
        assert "Who wins, per part and level" in subheaders
    else:
        seats = next(f for f in frames if "seat" in f.columns)
        assert seats["wins"].sum() <= GAMES
        assert [m.label for m in at.metric] == ["Games", "Draws", "First-seat advantage"]
        assert at.metric[0].value == str(GAMES)
    # the game's own section (its counts per game, with intervals) and game length
    assert any("per_game" in f.columns for f in frames)
    assert "How long games are" in subheaders
    # charts: per stage and level, one run's wins, events and length (a one-seat game);
    # else wins per seat, the game's own section and length (was tests/browser/
    # test_balance_seen.py)
    assert len(at.get("plotly_chart")) == (4 if _one_seat(game) else 3)
    assert f"many games of {plugin.title}" in text
    assert at.button(key="bal_more").label == f"Run {GAMES} more games"
    assert any("median" in c and "95% interval" in c for c in (str(x.value) for x in at.caption))


def test_run_more_keeps_the_first_games_and_adds_as_many(db: Engine) -> None:
    game = next(g for g in game_names() if not _one_seat(g))
    demo.ensure_demo_study(db)
    demo.ensure_game_demo_studies(db)
    at = _simulated(game)
    first = at.text[0].value
    at.button(key="bal_more").click().run()
    assert not at.exception, at.exception
    assert at.metric[0].value == str(2 * GAMES)
    assert f"{2 * GAMES} games, seed 1" in at.text[0].value
    # the first six games are the ones of the first run: their wins cannot be undone
    before = int(first.split("decided ")[1].split(",")[0])
    after = int(at.text[0].value.split("decided ")[1].split(",")[0])
    assert before <= after <= before + GAMES


def test_the_seats_follow_the_study_s_game_when_the_designer_switches_study(
    db: Engine,
) -> None:
    demo.ensure_demo_study(db)
    demo.ensure_game_demo_studies(db)
    one, other = [g for g in game_names() if _one_seat(g)][0], UNNAMED_GAME
    at = AppTest.from_file(PAGE_APP, default_timeout=240)
    at.query_params["page"] = "balance"
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = _study_id(one)
    at.run()
    named = at.text_input(key="bal_seats").value.split(",")
    assert set(named) <= set(game_plugin(one).ai_levels())
    at.sidebar.selectbox(key="study_picker").set_value(_study_id(other)).run()
    assert not at.exception, at.exception
    named = at.text_input(key="bal_seats").value.split(",")
    assert len(named) >= 2 and set(named) <= set(game_plugin(other).ai_levels())
    at.button(key="FormSubmitter:balance-Simulate").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
