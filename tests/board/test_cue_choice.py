"""Which one message the board shows for an input and the computer moves after it."""

from __future__ import annotations

from playtest.games.vapoosh.cues import Cue, cue_to_show


def test_a_computers_win_after_the_testers_capture_shows_the_result() -> None:
    # The CI failure: "Captured! 32 is yours now." stayed on a finished board.
    shown = cue_to_show(
        [Cue("capture"), Cue("computer_moved", computer=True), Cue("win_row", computer=True)]
    )
    assert shown is not None and shown.key == "win_row"


def test_the_testers_own_news_is_not_hidden_by_the_computers_moves() -> None:
    shown = cue_to_show([Cue("extra_turn"), Cue("computer_moved", computer=True)])
    assert shown is not None and shown.key == "extra_turn"


def test_a_computers_capture_after_the_testers_news_is_said() -> None:
    # Seen in a whole game at once: the tester captured 42, the computer rolled a square,
    # then captured the tester's 30, and the board still said "Captured! 42 is yours now."
    shown = cue_to_show([Cue("capture"), Cue("extra_turn", computer=True),
                         Cue("capture", computer=True), Cue("computer_moved", computer=True)])
    assert shown is not None and shown.key == "capture" and shown.computer


def test_otherwise_the_latest_message_and_none_without_any() -> None:
    first, last = Cue("computer_rolled", computer=True), Cue("computer_moved", computer=True)
    assert cue_to_show([first, last]) is last
    assert cue_to_show([Cue(None)]) is None
