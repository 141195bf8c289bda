"""The rerun-floor benchmark's app and client against a real `streamlit run` server.

No timing assertions: the numbers are what `python -m benchmarks.rerun_floor` prints.
"""

from __future__ import annotations

import json

from benchmarks import rerun_floor
from benchmarks.rerun_floor_app import COUNTERS, sample_payload
from playtest.board.page import board_data
from playtest.games.registry import game_plugin
from playtest.session import GameSession, Play


class _NoSink:
    """The floor's board is drawn from a play that stores nothing."""


def test_the_floor_payload_has_the_play_screens_shape() -> None:
    floor = sample_payload(3)
    plugin = game_plugin("vapoosh")
    play = Play.new(plugin, game_id="g", participant_id="p", seats=("human", "ai:easy"),
                    seed=1, rules="standard")
    session = GameSession(plugin, play, _NoSink())  # type: ignore[arg-type]
    real = board_data(session, session.moment(interactive=True), token="g:0", muted=False)
    assert set(floor) == set(real)
    assert set(floor["view"]) == set(real["view"])
    assert floor["token"] == "t3" and floor["message"]["nonce"] == "3"
    assert floor["view"]["owners"].count(".") == 144 - COUNTERS
    assert floor["message"]["notes"]  # the cue's notes ride along
    assert 1800 < len(json.dumps(floor)) < 2600  # as a play screen's board (~2.3 KB, words included)


def test_each_mode_reruns_for_every_tester_without_errors() -> None:
    # One server for every mode (the page's ?mode= picks it), as the benchmark runs them.
    modes = rerun_floor.Mode.parse("bare,component,page,fragment,board-fragment")
    results = list(rerun_floor.run_modes(modes, testers=2, reruns=3, think_ms=(0, 0), seed=1))
    assert [result.mode for result in results] == list(modes)
    for mode, result in zip(modes, results, strict=True):
        assert result.errors == ()
        assert result.reruns == 6 and len(result.round_trips_ms) == 6
        assert result.server_cpu_s > 0
        # the board's clicks arrive as triggers and the board is drawn again each rerun
        assert (result.board_bytes > 1000) == (mode != "bare")
