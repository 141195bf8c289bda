"""A stale tab's click: logged as stale, never as a right answer the game does not have.

Issue 11 item 4: tab A places on a tile; tab B, still showing the old board, clicks the
other option. It used to be stored as ``ok`` although the game record has no such move.
"""

from __future__ import annotations

import pytest
from faults_support import events_of, fault_engine, fault_postgres_server, make_tester
from sqlalchemy import Engine

from analytics import derive
from playtest.games.vapoosh.controller import StaleGameError
from playtest.games.vapoosh.session import open_game
from playtest.storage import repository as repo
from playtest.storage.exchange import load_study_data

__all__ = ["fault_engine", "fault_postgres_server"]


def _two_tabs_race(engine: Engine, rounds: int) -> tuple[str, str, int]:
    """Tab A always moves first; tabs B and C, opened on the same board, click after it:
    B a tile that was right on its board, C one that was wrong on it.

    Returns the tester's code, the game id and how many placements tab A made.
    """
    tester, logger, session = make_tester(engine, seats=["human", "human"])
    tab_a = open_game(engine, logger, tester, session, seed=5)
    placements = 0
    for _ in range(rounds):
        if tab_a.is_over:
            break
        tab_a.roll()
        if tab_a.state.phase != "place":
            continue
        tab_b, tab_c = (open_game(engine, logger, tester,
                                           repo.start_session(engine, tester.code))
                        for _ in range(2))
        assert tab_b.state.to_json() == tab_a.state.to_json() == tab_c.state.to_json()
        legal = tab_a.legal_tiles()
        brown = tab_a.brown_choice() == "forced"
        assert tab_a.click(*legal[0], brown=brown).accepted
        placements += 1
        with pytest.raises(StaleGameError):
            tab_b.click(*legal[-1], brown=brown)
        wrong = next((c, r) for c in range(1, 13) for r in range(1, 13)
                     if (c, r) not in legal)
        with pytest.raises(StaleGameError):
            tab_c.click(*wrong)
    return tester.code, tab_a.game_id, placements


def test_a_stale_tabs_click_is_stored_as_stale_not_ok(fault_engine: Engine) -> None:
    code, game_id, placements = _two_tabs_race(fault_engine, rounds=12)
    assert placements >= 5
    clicks = [e["props"] for e in events_of(fault_engine, code, "click")]
    ok = [c for c in clicks if c["ok"]]
    stale = [c for c in clicks if c.get("stale")]
    record = repo.load_game(fault_engine, game_id)
    assert record is not None
    placed = [tuple(a[1]) for a in record.actions if a[0] in ("place", "brown")]
    # Every ok click is a placement the game record holds, and there is one per placement.
    assert len(ok) == placements == len(placed)
    assert [(c["c"], c["r"]) for c in ok] == placed
    assert len(stale) == 2 * placements  # B's right tile and C's wrong one, each round
    assert all(c["ok"] is False and "wrong_kind" not in c for c in stale)


def test_stale_clicks_are_not_counted_as_the_testers_clicks(fault_engine: Engine) -> None:
    code, _game_id, placements = _two_tabs_race(fault_engine, rounds=12)
    data = load_study_data(fault_engine, "s1")
    table = derive.clicks(data)
    mine = table[table["participant_id"] == code]
    assert len(mine) == placements and bool(mine["ok"].all())
    turns = derive.turns(data)
    assert int(turns["n_wrong"].sum()) == 0
