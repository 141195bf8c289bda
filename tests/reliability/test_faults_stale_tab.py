"""A stale tab's click: logged as stale, never as a right answer the game does not have.

Issue 11 item 4: tab A places on a tile; tab B, still showing the old board, clicks the
other option. It used to be stored as ``ok`` although the game record has no such move.
"""

from __future__ import annotations

from faults_support import events_of, fault_engine, fault_postgres_server, make_tester
from sqlalchemy import Engine

from analytics import derive
from playtest.games.vapoosh.session import brown_choice, brown_selection, legal_tiles
from playtest.session import Next
from playtest.session.store import open_session
from playtest.storage import repository as repo
from playtest.storage.exchange import load_study_data

__all__ = ["fault_engine", "fault_postgres_server"]


def _two_tabs_race(engine: Engine, rounds: int) -> tuple[str, str, int]:
    """Tab A always moves first; tabs B and C, opened on the same board, click after it:
    B a tile that was right on its board, C one that was wrong on it.

    Returns the tester's code, the game id and how many placements tab A made.
    """
    tester, logger, session_id = make_tester(engine, seats=["human", "human"])
    tab_a = open_session(engine, logger, tester, session_id, seed=5)
    placements = 0
    for _ in range(rounds):
        if tab_a.play.over:
            break
        tab_a.draw()
        if tab_a.next() is not Next.TESTER:
            continue
        tab_b, tab_c = (open_session(engine, logger, tester,
                                     repo.start_session(engine, tester.code))
                        for _ in range(2))
        state = tab_a.play.state
        assert tab_b.play.state.to_json() == state.to_json() == tab_c.play.state.to_json()
        legal = legal_tiles(state)
        brown = brown_selection(brown_choice(state) == "forced")
        placed = tab_a.click("{},{}".format(*legal[0]), selection=brown)
        assert placed is not None and placed.action is not None and not tab_a.stale
        placements += 1
        tab_b.click("{},{}".format(*legal[-1]), selection=brown)
        assert tab_b.stale  # the page reloads the game: the click is not the tester's
        wrong = next((c, r) for c in range(1, 13) for r in range(1, 13)
                     if (c, r) not in legal)
        tab_c.click("{},{}".format(*wrong))
        assert tab_c.stale
    return tester.code, tab_a.play.game_id, placements


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
