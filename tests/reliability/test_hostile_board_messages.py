"""Hand-made board messages (issue 11 item 8): refused before any callback sees them.

A browser sends ``{"index", "nonce", "seq", "t_ms", "via", "token"}`` (board.js). A
hand-made websocket message with a non-numeric or infinite ``t_ms``/``seq``, or a 100 KB
nonce, used to raise ``ValueError``/``OverflowError`` in the tester's page or reach the
database (PostgreSQL refused the nonce as ``client_event_id``). Each is now a
:class:`BoardEventError`, which ``render_board`` counts as ``malformed`` and drops.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from playtest.board.component import MAX_ID_CHARS, BoardEventError, parse_mute
from playtest.games.vapoosh.component import parse_click, parse_roll

CLICK = {"index": 88, "nonce": "0b7c6e1e-8a51-4c1e-9f57-1d2b9c0f6a11", "seq": 3, "t_ms": 2140,
         "via": "mouse", "token": "4f1c2a9b7d3e8f60"}
HOSTILE: dict[str, dict[str, Any]] = {
    "t_ms text": {"t_ms": "soon"},
    "t_ms infinite": {"t_ms": math.inf},
    "t_ms minus infinite": {"t_ms": -math.inf},
    "t_ms nan": {"t_ms": math.nan},
    "t_ms 1e300": {"t_ms": 1e300},
    "t_ms negative": {"t_ms": -5},
    "t_ms huge int": {"t_ms": 10**30},
    "t_ms list": {"t_ms": [1]},
    "t_ms bool": {"t_ms": True},
    "seq text": {"seq": "3"},
    "seq infinite": {"seq": math.inf},
    "seq huge": {"seq": 10**30},
    "nonce 100 KB": {"nonce": "n" * 100_000},
    "nonce just too long": {"nonce": "n" * (MAX_ID_CHARS + 1)},
    "nonce empty": {"nonce": ""},
    "nonce number": {"nonce": 7},
    "nonce object": {"nonce": {"a": 1}},
    "token 100 KB": {"token": "t" * 100_000},
    "token number": {"token": 5},
    "via 100 KB": {"via": "v" * 100_000},
    "via object": {"via": {"x": 1}},
    "index text": {"index": "88"},
    "index float": {"index": 88.0},
    "index out of board": {"index": 10**9},
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_click_is_refused(name: str) -> None:
    with pytest.raises(BoardEventError) as caught:
        parse_click({**CLICK, **HOSTILE[name]})
    assert len(str(caught.value)) < 200  # the message never carries the 100 KB value


@pytest.mark.parametrize("name", sorted(n for n in HOSTILE if not n.startswith(("index", "seq"))))
def test_a_hostile_roll_is_refused(name: str) -> None:
    roll = {key: CLICK[key] for key in ("nonce", "t_ms", "via", "token")}
    with pytest.raises(BoardEventError):
        parse_roll({**roll, **HOSTILE[name]})


@pytest.mark.parametrize("nonce", ["n" * 100_000, "", None, 3])
def test_a_hostile_mute_is_refused(nonce: object) -> None:
    with pytest.raises(BoardEventError):
        parse_mute({"muted": True, "nonce": nonce})
    with pytest.raises(BoardEventError):
        parse_mute({"muted": "yes", "nonce": "n1"})


def test_what_a_browser_sends_still_passes() -> None:
    click = parse_click(CLICK)
    assert (click.c, click.r, click.seq, click.t_ms, click.via) == (5, 8, 3, 2140, "mouse")
    # Older browsers: no crypto.randomUUID (a shorter nonce), pointerType "" and no token.
    plain = parse_click({"index": 0, "nonce": "lq2x9k0.4fzyq1", "via": "", "t_ms": 0.4})
    assert (plain.via, plain.token, plain.seq, plain.t_ms) == ("mouse", "", 0, 0)
    assert parse_roll({"nonce": "n1", "t_ms": 812, "via": "touch", "token": "t"}).t_ms == 812
    assert parse_mute({"muted": False, "nonce": "n2"}).muted is False
