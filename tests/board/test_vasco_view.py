"""Vasco's board view (pure), its words and its message catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core import Event
from engine.vasco import REASONS, Place, VascoGame
from playtest.demo import EventRecorder
from playtest.games.registry import game_plugin
from playtest.games.vasco.messages import (
    REFUSAL_KEYS,
    auto_message_key,
    end_message_key,
    load_vasco_catalog,
    refusal_text,
)
from playtest.games.vasco.session import view as vasco_view
from playtest.games.vasco.view import board_view
from playtest.messages.catalog import CatalogError, MessageCatalog
from playtest.session import GameSession, Play
from playtest.session.session import Wording


def test_the_front_end_is_real_files() -> None:
    board = game_plugin("vasco").board
    assert board is not None
    js = board.script_path.read_text("utf-8")
    css = (board.static_dir / "board.css").read_text("utf-8")
    assert "export default {" in js and "<svg" not in css
    assert ".vt-x" in css and "stroke-dasharray" in css  # blue differs by pattern, not only hue


def test_candidates_previews_and_the_selection() -> None:
    s = VascoGame().new_initial_state()
    s.apply(Place(0, 0, "ox*"))
    view = board_view(s, seats=("computer", "human"), selection=("0,1",))
    assert view.interactive and "0,1" in view.candidates
    assert view.selected == "0,1" and view.previews == ("xo*", "x*o")
    assert view.pick_text.startswith("Choose a tile for the glowing space")
    assert "0,1" not in view.pick_text
    # a selection that is not a candidate is dropped; the computer's turn shows none
    assert board_view(s, seats=("computer", "human"), selection=("9,9",)).selected is None
    idle = board_view(s, seats=("human", "computer"))
    assert not idle.interactive and idle.candidates == () and idle.turn_text == "Computer's turn: blue lines"


def test_forced_tiles_are_listed_in_order_with_why() -> None:
    s = VascoGame().state_from_position({(0, 0): "ox*", (0, 1): "xo*"})
    events = s.apply(Place(1, 2, "ox*"))
    view = board_view(s, events=events)
    assert [a["order"] for a in view.autos] == [0, 1, 2]
    # in the catalog's words, without coordinates a child would not read
    assert all(a["why"].startswith("A tile slid in by itself") for a in view.autos)
    assert not any(a["cell"] in a["why"] for a in view.autos)
    assert view.placed == "1,2" and view.tiles_left == 48


def test_the_end_highlights_the_loop_and_names_the_winner() -> None:
    ring = {(0, 0): "o*x", (0, 1): "*xo", (0, -1): "xo*", (-1, 0): "o*x", (-1, 1): "*xo"}
    s = VascoGame().state_from_position(ring, to_move=2)
    s.apply(Place(-1, -1, "xo*"))
    view = board_view(s)
    assert view.over and not view.interactive and len(view.highlight) == 6
    # Blue's move closed Red's loop; the tester plays Red: said to them, by the catalog
    assert view.result_text == "The computer's move closed your loop of 6 tiles."
    other = board_view(s, seats=("computer", "human"))
    assert other.result_text == (
        "Your move closed the computer's loop of 6 tiles.")


def test_the_token_changes_with_the_view() -> None:
    s = VascoGame().new_initial_state()
    a = board_view(s)
    s.apply(Place(0, 0, "ox*"))
    assert board_view(s).token != a.token and a.to_data()["token"] == a.token


def test_every_engine_refusal_reason_has_its_own_catalog_message() -> None:
    """Each reason the engine gives (REASONS, and click's bad_target) maps to its own
    message of the catalog, a warning that names no coordinates in the default words."""
    catalog = load_vasco_catalog()
    assert set(REFUSAL_KEYS) == set(REASONS) | {"bad_target"}
    assert len(set(REFUSAL_KEYS.values())) == len(REFUSAL_KEYS)
    for reason, key in REFUSAL_KEYS.items():
        msg = catalog.render(key, cell="3,-2", count=3)
        assert msg.text and msg.tone == "warn"
        assert "3,-2" not in msg.text, reason
        assert refusal_text(reason, cell="3,-2", tiles_left=3) == msg.text
        assert refusal_text(reason) != REASONS.get(reason)  # not the engine's sentence


def test_refusals_the_engine_gives_a_click_get_catalog_words() -> None:
    s = VascoGame().new_initial_state()
    centre = s.click("1,1").refusal
    assert centre is not None and centre.reason == "centre_first"
    assert refusal_text(centre.reason) == "The first tile goes in the middle of the table."
    s.apply(Place(0, 0, "ox*"))
    far = s.click("5,5").refusal
    assert far is not None and far.reason == "no_contact"
    assert refusal_text(far.reason).startswith("That space is too far away")
    occupied = s.click("0,0").refusal
    assert occupied is not None and refusal_text(occupied.reason) == "There is already a tile there."


def test_every_ending_and_forced_tile_has_a_message() -> None:
    catalog = load_vasco_catalog()
    for constrained in (1, 2, 3):
        assert catalog.render(auto_message_key(constrained), cell="1,1").text
    for reason in ("loop", "both_loops", "pool_empty", "no_move"):
        for winner in (1, 2, None):
            key = end_message_key(reason, winner=winner, mover=1)
            assert catalog.render(key, name="Red", length=6, red=3, blue=4).text


def test_a_catalog_missing_a_refusal_message_is_refused(tmp_path: Path) -> None:
    import yaml

    from playtest.games.vasco.messages import PATH, REQUIRED_KEYS

    obj = yaml.safe_load(PATH.read_text("utf-8"))
    del obj["messages"]["wrong_dead_cell"]
    with pytest.raises(CatalogError, match="wrong_dead_cell"):
        MessageCatalog.from_obj(obj, source="x", required=REQUIRED_KEYS)


def test_every_tile_says_who_put_it_there_and_the_computers_tile_is_named() -> None:
    from playtest.games.vasco.view import tile_origins

    s = VascoGame().new_initial_state()
    moves = [(False, s.apply(Place(0, 0, "ox*"))), (True, s.apply(Place(0, 1, "xo*")))]
    events = s.apply(Place(1, 2, "ox*"))
    moves.append((True, events))
    origins = tile_origins(moves)
    assert origins["0,0"] == "tester" and origins["0,1"] == "computer"
    assert origins["1,2"] == "computer"
    assert {origins[c] for c in ("0,2", "1,0", "1,1")} == {"forced"}
    assert set(origins) == {f"{r},{c}" for r, c in s.tiles}  # every tile has one
    view = board_view(s, events=events, origins=origins, computer_placed="1,2", pace_ms=600)
    data = view.to_data()
    assert data["origins"] == origins and data["pace_ms"] == 600
    assert view.computer_text == "The computer placed a tile (outlined)."
    assert board_view(s, events=events).computer_text == ""  # nobody to name
    assert view.playing_text == "The computer is playing"
    assert view.legend == {"red": "Red: solid wide line", "blue": "Blue: dashed line",
                           "both": "Purple: both", "tester": "Your tiles",
                           "computer": "The computer's", "forced": "Forced: slid in by itself"}


#: A study's own text for each line the board says by itself (a ``message:`` experiment's
#: variant B), with a placeholder-free text the catalog could not give.
OWN_WORDS = {
    "computer_placed": "Robot's tile: the thick outline!",
    "computer_playing": "Robot at work",
    "legend_red": "Warm edge",
    "legend_blue": "Cold edge",
    "legend_both": "Warm and cold",
    "legend_tester": "Mine",
    "legend_computer": "Robot's",
    "legend_forced": "Fell in",
}


class _Recorder(EventRecorder):
    """The exchange-format event recorder, keeping the exposures it is given too."""

    def __init__(self, out: list[dict[str, Any]]) -> None:
        super().__init__(out, "p", "s", [0.0], [0], "g")
        self.exposed: list[str] = []

    def expose(self, experiment: str, variant: str, context: dict[str, Any]) -> None:
        self.exposed.append(experiment)


def _session_with(wording: dict[str, str]) -> tuple[GameSession, list[dict[str, Any]]]:
    plugin = game_plugin("vasco")
    play = Play.new(plugin, game_id="g", participant_id="p", seats=("human", "ai:medium"),
                    seed=5, rules="standard")
    records: list[dict[str, Any]] = []
    varied = {f"message:{key}": f"w_{key}" for key in wording}
    session = GameSession(plugin, play, _Recorder(records),
                          wording=Wording(messages=wording, varied=varied,
                                          variants={f"w_{k}": "B" for k in wording}))
    session.start()
    return session, records


def board_of(session: GameSession) -> dict[str, Any]:
    """What Vasco's renderer is given for the session's play now."""
    return vasco_view(session.moment())


def _logged(records: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(r["props"]["key"], r["props"]["variant"], r["props"]["text"])
            for r in records if r["type"] == "message"]


def test_the_boards_own_lines_are_catalog_messages_in_the_testers_wording() -> None:
    """The computer's tile named, the turn line while its move plays out and the legend
    of the tiles' origins: each shows the tester's wording of its message (a study's own
    text here), and each showing is logged as a ``message`` event with that text."""
    session, records = _session_with(dict(OWN_WORDS))
    plugin = session.plugin
    assert set(OWN_WORDS) <= plugin.shown_messages  # an experiment may vary each
    first = board_of(session)
    legend = {"red": "Warm edge", "blue": "Cold edge", "both": "Warm and cold",
              "tester": "Mine", "computer": "Robot's", "forced": "Fell in"}
    assert first["legend"] == legend
    # the legend stays on the board: logged once, with the game's first words
    assert [m for m in _logged(records) if m[0].startswith("legend_")] == [
        (f"legend_{item}", text, text) for item, text in legend.items()]
    session.click("0,0")
    session.click(board_of(session)["previews"][0])  # the computer answers
    data = board_of(session)
    assert data["computer_placed"] and data["computer_text"] == OWN_WORDS["computer_placed"]
    assert data["playing_text"] == OWN_WORDS["computer_playing"]
    assert data["legend"]["computer"] == "Robot's"
    logged = _logged(records)
    for key in ("computer_playing", "computer_placed"):
        assert logged.count((key, OWN_WORDS[key], OWN_WORDS[key])) == 1, key
    assert sum(m[0].startswith("legend_") for m in logged) == 6  # not again
    # the exposure of each varied message shown is recorded for its experiment
    assert isinstance(session.sink, _Recorder)
    assert set(session.sink.exposed) == {f"w_{key}" for key in OWN_WORDS}


def test_the_boards_own_lines_in_the_catalogs_default_and_formal_wordings() -> None:
    session, records = _session_with({"computer_placed": "formal", "legend_forced": "formal"})
    session.click("0,0")
    session.click(board_of(session)["previews"][0])
    data = board_of(session)
    assert data["computer_text"] == "The computer player placed a tile (outlined)."
    assert data["legend"] == {"red": "Red: solid wide line", "blue": "Blue: dashed line",
                              "both": "Purple: both", "tester": "Your tiles",
                              "computer": "The computer's", "forced": "Auto moves"}
    assert data["playing_text"] == "The computer is playing"
    assert ("computer_placed", "formal", data["computer_text"]) in _logged(records)
    assert ("legend_forced", "formal", "Auto moves") in _logged(records)


def test_the_top_line_counter_and_fit_button_are_in_the_testers_wording() -> None:
    """Whose turn it is, the tile counter and the zoom button's words: a study's own text
    (placeholders filled) in the view data, logged as shown (the button once a game)."""
    own = {"turn_line": "Go, {colour}!", "tiles_left": "{left}/{pool} in the bag",
           "zoom_fit": "Whole board"}
    session, records = _session_with(own)
    assert set(own) <= session.plugin.shown_messages
    first = board_of(session)
    assert (first["turn_text"], first["counter"], first["fit_text"]) == (
        "Go, red!", "54/54 in the bag", "Whole board")
    session.click("0,0")
    session.click(board_of(session)["previews"][0])  # the computer answers
    data = board_of(session)
    left = data["tiles_left"]
    assert data["counter"] == f"{left}/54 in the bag" and left < 54
    logged = _logged(records)
    # with what else the board says after each input: the start, the space, the tile
    assert logged.count(("turn_line", own["turn_line"], "Go, red!")) == 3
    assert [m[2] for m in logged if m[0] == "tiles_left"] == [
        "54/54 in the bag", "54/54 in the bag", f"{left}/54 in the bag"]
    assert logged.count(("zoom_fit", "Whole board", "Whole board")) == 1  # it stays
    assert isinstance(session.sink, _Recorder)
    assert {f"w_{key}" for key in own} <= set(session.sink.exposed)


def test_the_top_line_counter_and_fit_button_default_and_formal() -> None:
    s = VascoGame().new_initial_state()
    waiting = board_view(s, seats=("computer", "human"))
    assert (waiting.turn_text, waiting.counter, waiting.fit_text) == (
        "Computer's turn: red lines", "54 of 54 tiles left", "Fit")
    formal = {key: "formal" for key in ("turn_line", "turn_line_computer", "tiles_left",
                                        "zoom_fit", "turn_line_over")}
    view = board_view(s, variants=formal)
    assert (view.turn_text, view.counter, view.fit_text) == (
        "Your move: red", "Tiles remaining: 54 of 54", "Fit to screen")
    assert board_view(s, seats=("computer", "human"), variants=formal).turn_text == (
        "Computer player's move: red")


def _play_until_several_forced(session: GameSession) -> dict[str, Any]:
    """Play the tester's first offer each turn until one input makes several tiles slide
    in by themselves; the board's data then."""
    for _ in range(40):
        data = board_of(session)
        if len(data["autos"]) > 1:
            return data
        assert data["candidates"], "the game ended before several tiles slid in"
        session.click(data["candidates"][0])
        session.click(board_of(session)["previews"][0])
    raise AssertionError("no input made several tiles slide in")


@pytest.mark.parametrize(("wording", "text"), [
    ("default", "Forced tile {number} of {total}."),
    ("formal", "Auto move {number} of {total}."),
    ("Slide {number}/{total}!", "Slide {number}/{total}!"),
])
def test_each_forced_tile_is_numbered_in_the_testers_wording(wording: str, text: str) -> None:
    """While several forced tiles play out, each one's reason is led by its number: the
    catalog's ``forced_count`` in the tester's wording (the catalog's or a study's own),
    each number logged as a ``message`` event as it is shown."""
    session, records = _session_with({"forced_count": wording})
    assert "forced_count" in session.plugin.shown_messages
    autos = _play_until_several_forced(session)["autos"]
    total = len(autos)
    expected = [text.format(number=i, total=total) for i in range(1, total + 1)]
    assert [a["count_text"] for a in autos] == expected
    assert [m for m in _logged(records) if m[0] == "forced_count"][-total:] == [
        ("forced_count", wording, t) for t in expected]
    assert isinstance(session.sink, _Recorder)
    assert "w_forced_count" in session.sink.exposed


def test_a_single_forced_tile_has_no_number() -> None:
    s = VascoGame().new_initial_state()
    events = list(s.apply(Place(0, 0, "ox*")))
    auto = Event("auto", None, ((0, 1),), {"tile": "xo*", "constrained": 2})
    data = board_view(s, events=[*events, auto]).to_data()
    assert [a["count_text"] for a in data["autos"]] == [""]


def test_the_end_says_the_loop_once() -> None:
    """The end banner's title says who won ("You won!"); its text says why, once."""
    from playtest.games.vasco.messages import end_text

    assert end_text("loop", (6, 0), winner=1, mover=1) == "You closed a loop of 6 tiles."
    assert end_text("loop", (0, 5), winner=2, mover=2) == "The computer closed a loop of 5 tiles."
