"""Trigger payloads from the browser: parsing and the de-duplication gate."""

from __future__ import annotations

import pytest

from playtest.board.component import BoardEventError, EventGate, parse_mute
from playtest.games.vapoosh.component import parse_click, parse_roll


def test_click_payload_is_parsed_to_a_tile() -> None:
    ev = parse_click(
        {
            "index": 88,
            "c": 5,
            "r": 8,
            "nonce": "n",
            "seq": 2,
            "t_ms": 1234,
            "via": "keyboard",
            "token": "t",
        }
    )
    assert (ev.index, ev.c, ev.r, ev.nonce, ev.seq, ev.t_ms, ev.via, ev.token) == (
        88,
        5,
        8,
        "n",
        2,
        1234,
        "keyboard",
        "t",
    )
    assert parse_roll({"nonce": "r", "t_ms": 5}).nonce == "r"
    assert parse_mute({"muted": True, "nonce": "m"}).muted is True


@pytest.mark.parametrize(
    "payload",
    [
        None,
        88,
        {"index": 144, "nonce": "n"},
        {"index": -1, "nonce": "n"},
        {"index": True, "nonce": "n"},
        {"index": 3},
        {"index": "3", "nonce": "n"},
    ],
)
def test_malformed_click_payloads_are_typed_errors(payload: object) -> None:
    with pytest.raises(BoardEventError):
        parse_click(payload)


def test_gate_drops_duplicates_stale_and_not_interactive_events() -> None:
    gate = EventGate()
    gate.shown("view1", interactive=True)
    assert gate.admit("a", "view1") is None
    assert gate.admit("a", "view1") == "duplicate"  # the same trigger sent again
    assert gate.admit("b", "view0") == "stale"  # clicked on an older board
    gate.shown("view2", interactive=False)  # computer thinking
    assert gate.admit("c", "view2") == "not_interactive"
    assert gate.admit("m", None) is None  # mute: only de-duplicated
    assert gate.dropped == {"duplicate": 1, "not_interactive": 1, "stale": 1, "malformed": 0}


def test_gate_forgets_only_old_nonces() -> None:
    gate = EventGate(remember=3)
    gate.shown("v", interactive=True)
    for n in "abcd":
        assert gate.admit(n, "v") is None
    assert gate.admit("d", "v") == "duplicate"
    assert gate.admit("a", "v") is None  # fell out of the window of 3
