"""A wording experiment works in every game (issue 23, item 0): in a real app session
(AppTest, the real play page on a real SQLite file), two testers in the two arms of an
experiment on the game's own main message each see their arm's text on the board, each
showing is logged as a ``message`` event with its key, variant, text and time on screen,
the exposure is recorded with the tester's arm, and the Rules overlay's lookup is logged
with that message as its context. The Studies page's check refuses an experiment on a
message the game's board never shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from playtest import services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from playtest.storage.models import ExposureRow
from playtest.study_config import StudyConfigError, parse_study_config
from tests.app.session_support import open_play
from tests.app.tester_support import board_shown, open_as, playing_tester, stored_events

#: Each game's main message at the start of a game, and the seats that show it there.
FIRST_MESSAGE = {
    "vapoosh": ("computer_moved", ["ai:easy", "human"]),  # the computer moves first
    "morris": ("place_turn", ["human", "ai:easy"]),
    "vasco": ("turn", ["human", "ai:medium"]),
    "dokusen": ("your_turn", ["human"]),
}
OWN_TEXT = "Wording B: over to you!"
exposures = ExposureRow.__table__  # type: ignore[attr-defined]


def _study(make_study: Callable[..., repo.Study], game: str) -> tuple[repo.Study, str]:
    key, seats = FIRST_MESSAGE[game]
    study = make_study(game=game, seats=seats, pre_survey=None, post_survey=None,
                       experiments=[{"key": "wording", "target": f"message:{key}",
                                     "variants": {"A": "default", "B": OWN_TEXT}}])
    return study, key


@pytest.mark.parametrize("game", sorted(FIRST_MESSAGE))
def test_two_testers_in_two_arms_see_and_log_their_own_text(
    db: Engine, make_study: Callable[..., repo.Study], game: str,
) -> None:
    study, key = _study(make_study, game)
    seen: dict[str, dict[str, Any]] = {}
    for _ in range(2):
        code = playing_tester(db, study)
        arm = repo.get_assignment(db, code, "wording")
        tester = services.load_tester(db, code)
        assert tester is not None and arm in ("A", "B")
        if game == "vapoosh":  # a first roll of the computer that is a plain placement
            open_play(db, tester, seed=3)
        at = open_as(code, timeout=60)
        assert not at.exception, at.exception
        board = board_shown(at)
        messages = [p for t, p in stored_events(db, code) if t == "message"
                    and p["key"] == key]
        assert messages, f"{game}: {key} was not logged"
        shown = messages[-1]
        # What the board shows is the tester's arm's wording, and it is what was logged.
        assert board["message"] == shown["text"] and board["message_key"] == key
        if arm == "B":
            assert shown["variant"] == OWN_TEXT and shown["text"] == OWN_TEXT
        else:
            assert shown["variant"] == "default" and shown["text"] != OWN_TEXT
        assert "ms_visible" in shown
        with db.connect() as conn:
            exposed = conn.execute(select(exposures.c.experiment, exposures.c.variant,
                                          exposures.c.context)
                                   .where(exposures.c.participant_id == code)).all()
        assert [(e.experiment, e.variant) for e in exposed][:1] == [("wording", arm)]
        assert exposed[0].context["message"] == key
        # A rules lookup says which message it followed.
        at.button(key="rules_button").click().run()
        at.button(key="rules_close").click().run()
        events = stored_events(db, code)
        assert [p["context"] for t, p in events if t == "rules_open"] == [key]
        assert [p["context"] for t, p in events if t == "rules_close"] == [key]
        seen[str(arm)] = shown
    assert set(seen) == {"A", "B"}  # balanced: the two testers got the two arms
    assert seen["A"]["text"] != seen["B"]["text"]


@pytest.mark.parametrize("game", sorted(FIRST_MESSAGE))
def test_an_experiment_on_a_message_the_board_never_shows_is_refused(game: str) -> None:
    plugin = game_plugin(game)
    assert plugin.catalog_path is not None
    from playtest.messages.catalog import load_catalog

    hidden = sorted(set(load_catalog(plugin.catalog_path).keys) - plugin.shown_messages)
    assert hidden, f"{game}: every message of its catalog is shown"
    with pytest.raises(StudyConfigError, match="board never shows"):
        parse_study_config({"game": game, "experiments": [
            {"key": "w", "target": f"message:{hidden[0]}",
             "variants": {"A": "default", "B": "formal"}}]})
    shown = FIRST_MESSAGE[game][0]
    assert shown in plugin.shown_messages
    parse_study_config({"game": game, "experiments": [
        {"key": "w", "target": f"message:{shown}", "variants": {"A": "default", "B": "formal"}}]})
