"""A study in German, of every game, in the app: its tester reads German on the consent
page, in the pre-play survey and on the board (the app's own words in every game; the
game's messages, rules and surveys where the game has its German files), and the export
says ``de`` on every answer. The same study in English reads as it always did."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.games.registry import game_names, game_plugin
from playtest.i18n import Language, po_path
from playtest.i18n.words import GAME_DOMAIN
from playtest.session import GameSession, Play, Wording
from playtest.storage import repository as repo
from playtest.storage.exchange import export_jsonl
from tests.app.conftest import APP
from tests.app.tester_support import board_shown, offered_texts, open_as

ENGLISH_LABELS = ("I agree", "Who is playing?", "I have read the above", "Continue",
                  "Rules", "Restart game", "Back to menu", "Sound on")


def german_files(game: str) -> bool:
    """Whether ``game`` has its own words in German (its catalog, rules, view)."""
    files = game_plugin(game).files
    return files is not None and po_path(files.folder / "locale", Language("de"),
                                         GAME_DOMAIN).is_file()


def labels_on(at: AppTest) -> list[str]:
    """Every label of a button, box, choice and title on the page."""
    out = [str(t.value) for t in at.title]
    out += [str(w.label) for w in [*at.button, *at.checkbox, *at.radio]]
    out += [str(o) for r in at.radio for o in r.options]
    out += [str(c.value) for c in at.caption]
    return out


def consent_page(study_id: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study_id
    return at.run()


@pytest.mark.parametrize("game", game_names())
def test_a_german_study_speaks_german_and_says_so_in_its_export(
        game: str, db: Engine, make_study: Callable[..., repo.Study], tmp_path: Path) -> None:
    study = make_study(game=game, language="de", audience="mixed")
    at = consent_page(study.study_id)
    assert not at.exception, at.exception
    seen = labels_on(at)
    assert "Ich stimme zu" in seen and "Wer spielt?" in seen
    assert not [label for label in seen for english in ENGLISH_LABELS if english in label]
    assert any("Danke, dass du uns hilfst" in str(t.value) for t in at.text)

    at.radio(key="consent_who").set_value("Eine erwachsene Person (ab 18)")
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    at = at.run()
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id
    assert [t.value for t in at.title] == ["Vor dem Spiel"]
    assert any(str(c.value).startswith("Seite 1 von") for c in at.caption)
    assert any(b.label == "Weiter" for b in at.button)

    if survey_in_german(code, db):  # the survey's own texts too: none left in English
        english = untranslated_if_shown(code, db)
        assert english and not english & set(offered_texts(at))
    # the first page answered: stored with its language
    for radio in at.radio:
        radio.set_value(radio.options[0])
    next(b for b in at.button if b.label == "Weiter").click().run()
    assert repo.load_responses(db, code, str(pre_survey_of(code, db)))
    repo.advance_stage(db, code, "pre_survey", "play")
    at = open_as(code)
    assert not at.exception, at.exception
    board = board_shown(at)
    buttons = {b.label for b in at.button}
    assert {"Regeln", "Neu starten", "Zum Menü"} <= buttons
    assert not buttons & {"Rules", "Restart game", "Back to menu"}
    english = open_as_english_message(db, make_study, game)
    if german_files(game):  # its message line and turn line read in German
        said = (board["message"], board["turn"])
        assert any(said) and not set(said) & set(english) - {"", None}, (said, english)
    out = tmp_path / "study.jsonl"
    export_jsonl(db, study.study_id, out)
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    answers = [r for r in records if r["record"] == "response"]
    assert next(r for r in records if r["record"] == "study")["language"] == "de"
    assert answers and all(r["language"] == "de" for r in answers)


def pre_survey_of(code: str, db: Engine) -> str | None:
    """The pre-play survey the tester ``code`` is given."""
    from playtest import services

    tester = services.load_tester(db, code)
    assert tester is not None
    definition = services.survey_for(tester, "pre", db)
    return None if definition is None else definition.id


def survey_in_german(code: str, db: Engine) -> bool:
    from surveys.loader import survey_file

    survey = pre_survey_of(code, db)
    path = survey_file(survey) if survey else None
    return path is not None and po_path(path.parent / "locale", Language("de"),
                                        "surveys").is_file()


def untranslated_if_shown(code: str, db: Engine) -> set[str]:
    """The English texts of the tester's pre-play survey that German words differently."""
    from playtest.i18n.words import survey_words
    from surveys import load_survey
    from surveys.translate import texts

    survey = str(pre_survey_of(code, db))
    words = survey_words("de", survey)
    return {text for context, text in texts(load_survey(survey))
            if words.pgettext(context, text) != text}


def open_as_english_message(db: Engine, make_study: Callable[..., repo.Study],
                            game: str) -> tuple[str, str]:
    """The board's first message and turn line in the same study in English."""
    from tests.app.tester_support import playing_tester

    study = make_study(study_id=f"en-{game}", game=game)
    board = board_shown(open_as(playing_tester(db, study)))
    return board["message"], board["turn"]


def german_session(game: str, seats: tuple[str, ...], rules: object) -> GameSession:
    """A play of ``game`` by a tester of a German study (no database: its recorder)."""
    from playtest.demo import EventRecorder

    plugin = game_plugin(game)
    play = Play.new(plugin, game_id="g", participant_id="p", seats=seats, seed=5, rules=rules)
    session = GameSession(plugin, play, EventRecorder([], "p", "s", [0.0], [0], "g"),
                          wording=Wording(language="de"))
    session.start()
    return session


def board_in_german(session: GameSession, **extra: Any) -> str:
    """Everything the board shell is given for the session's play now, as JSON."""
    from playtest.board.page import board_data
    from playtest.i18n.words import study_words

    data = board_data(session, session.moment(extra=extra), token="t", muted=False,
                      words=study_words("de", session.plugin.name))
    return json.dumps(data, ensure_ascii=False)


def test_dokusens_progress_stage_line_and_stage_name_are_german() -> None:
    """The lines the view composes itself (the game of the study, the stages won, the
    stage of the course, the stage's name) read in German, the count agreeing."""
    session = german_session("dokusen", ("human",), "S2")
    board = board_in_german(session, study_rules="all", games=(2, 4))
    for english in ("Game 2 of 4", "stages won", "Stage 2 of 8", "Two Seeds", "\"Round\""):
        assert english not in board
    view = json.loads(board)["view"]
    assert (view["progress"], view["stageOf"], view["stageName"]) == (
        "Spiel 2 von 4 · 1 Stufe gewonnen", "Stufe 2 von 8", "Zwei Samen")
    extra = json.loads(board_in_german(session, study_rules="all", games=(5, 4)))["view"]
    assert extra["progress"] == "Spiel 5 (ein zusätzliches) · 1 Stufe gewonnen"


def test_vascos_counter_forced_tiles_and_tile_labels_are_german() -> None:
    """The tile counter, each forced tile's number and reason and each tile's words for a
    screen reader read in German."""
    session = german_session("vasco", ("human", "human"), "standard")
    for cell, tile in (("0,0", "ox*"), ("0,1", "xo*"), ("1,2", "ox*")):  # 3 slide in
        session.click(cell)
        session.click(tile)
    board = board_in_german(session)
    for english in ("tiles left", "Forced tile", "slid in", "Tile at", "left red", "flat purple"):
        assert english not in board
    view = json.loads(board)["view"]
    assert view["counter"] == "48 von 54 Plättchen übrig"
    assert [a["count_text"] for a in view["autos"]] == [
        f"Erzwungenes Plättchen {n} von 3." for n in (1, 2, 3)]
    assert view["labels"]["0,0"] == "Plättchen auf 0,0: links rot, rechts blau, flache Seite lila"


#: What each game's renderer says of its own (a screen reader's words for the board,
#: its spaces, dice and buttons), in English: none of it on a German study's board.
RENDERER_ENGLISH = {
    "dokusen": ("Dokusen board", "row {row}, column {col}: {what}", "yours", "{colour}'s"),
    "morris": ("white brick", "black brick", "walled", "brick just taken"),
    "vasco": ("Vasco board", "Zoom in", "Fit the board", "Green space", "placed by you",
              "slid in by itself", "Tile: left"),
    "vapoosh": ("{colour} die {value}", "column {n}", "row {n}", "Put a brown counter",
                "pink {pink}, green {green}", "empty", "pink dice", "Multiplication board"),
}
GAME_SEATS = {"dokusen": ("human",), "vasco": ("human", "human")}
GAME_RULES = {"dokusen": "S1"}


@pytest.mark.parametrize("game", sorted(RENDERER_ENGLISH))
def test_the_renderers_own_words_are_german(game: str) -> None:
    """The words each game's renderer says of its own (from the view: the renderer has
    English only as a fallback) are German; the English study's stay as they were."""
    session = german_session(game, GAME_SEATS.get(game, ("human", "ai:easy")),
                             GAME_RULES.get(game, "standard"))
    board = texts_in(json.loads(board_in_german(session)))
    assert [english for english in RENDERER_ENGLISH[game] if english in board] == []
    view = session.plugin.view
    assert view is not None
    english = texts_in(view(dataclasses.replace(session.moment(), language="en")))
    assert [text for text in RENDERER_ENGLISH[game] if text not in english] == []


def texts_in(data: Any) -> str:
    """Every text inside ``data`` (not the keys), one a line."""
    if isinstance(data, dict):
        return "\n".join(texts_in(v) for v in data.values())
    if isinstance(data, list):
        return "\n".join(texts_in(v) for v in data)
    return data if isinstance(data, str) else ""


def test_vapooshs_tiles_are_read_out_in_german() -> None:
    """A Vapoosh! tile's words (made by its view in English) read in German."""
    from playtest.games.vapoosh.session import tile_words
    from playtest.i18n.words import study_words

    gettext = study_words("de", "vapoosh").gettext
    label = "column 3, row 4, 12, computer (player 2), orange square, just placed"
    assert tile_words(label, gettext) == (
        "Spalte 3, Zeile 4, 12, Computer (Spieler 2), oranges Quadrat, eben gesetzt")
    assert tile_words("column 1, row 1, 1, yours, blue circle, a rolled option", gettext) == (
        "Spalte 1, Zeile 1, 1, deiner, blauer Kreis, gewürfelte Möglichkeit")


def test_the_rules_pictures_word_the_board_in_the_studys_language() -> None:
    """The boards drawn in a game's rules overlay say what the view words itself in the
    study's language (Vasco's tile counter here)."""
    from playtest.board.rules_overlay import load_rules, picture_view

    plugin = game_plugin("vasco")
    assert plugin.rules_path is not None
    pictures = [s.picture for s in load_rules(plugin.rules_path).sections if s.picture]
    assert pictures
    counters = {picture_view(plugin, p, "de")["counter"] for p in pictures}
    assert all("Plättchen übrig" in c for c in counters), counters
    assert all("tiles left" in picture_view(plugin, p)["counter"] for p in pictures)
