"""The rerun-floor benchmark's app and client against a real `streamlit run` server.

No timing assertions: the numbers are what `python -m benchmarks.rerun_floor` prints.
"""

from __future__ import annotations

import json

from benchmarks import rerun_floor
from benchmarks.rerun_floor_app import COUNTERS, sample_payload
from playtest.games.vapoosh.component import board_data
from playtest.games.vapoosh.view import board_view


def test_the_floor_payload_has_the_play_screens_shape() -> None:
    view = sample_payload(3)["view"]
    real = board_data(board_view(["." * 12] * 12, seats=("human", "computer"), sound="place",
                                 nonce="1"), mute_control=True)
    assert set(view) == set(real)
    assert view["token"] == "t3" and view["nonce"] == "3"
    assert view["owners"].count(".") == 144 - COUNTERS
    assert view["sound_notes"] == real["sound_notes"]  # the cue's notes ride along
    assert 1400 < len(json.dumps(view)) < 1700  # the load test's median is ~1550


def test_each_mode_reruns_for_every_tester_without_errors() -> None:
    for mode in rerun_floor.Mode.parse("bare,component,page,fragment,board-fragment"):
        result = rerun_floor.run_mode(mode, testers=2, reruns=3, think_ms=(0, 0), seed=1)
        assert result.errors == ()
        assert result.reruns == 6 and len(result.round_trips_ms) == 6
        assert result.server_cpu_s > 0
        # the board's clicks arrive as triggers and the board is drawn again each rerun
        assert (result.board_bytes > 1400) == (mode != "bare")
