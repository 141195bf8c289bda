"""The play page of every game: the board shell beside the controls every game gets.

``playtest.app_pages.tester`` calls :func:`play_page` for a tester at the play step,
whatever the study's game: the game's plug-in gives the board's view and words, the
one game session (:mod:`playtest.session`) stores and applies every input, and this
page draws:

- the board (a fragment of its own, :mod:`playtest.board.fragment`: an input reruns the
  board alone) and, while the computer thinks, its clock (a fragment that ticks only
  then; the computer's moves are paced by the tester's speed);
- beside it: the end of a game (its result stays on the board) and the way on, the game's
  number, and the controls: **Rules** (the game's rules with pictures of its own board),
  **Speed**, **Restart** (asks first) and **Menu** (back to the game, a new game, or stop
  playing and go to the last questions); a dialog open pauses the game (no input taken,
  the computer's clock stops);
- the tester's settings (sound, speed) and the board's last message come back on a new
  browser session (another process, a reload).

A tester who stops from the menu sets ``st.session_state["stop_playing"]``, which the
tester page turns into the way to the last questions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

import streamlit as st

from analytics.text_safety import markdown_literal
from playtest import resume_state, runtime, services
from playtest.app_pages import trouble
from playtest.app_pages.common import tester_session
from playtest.app_pages.trouble import guarded
from playtest.board import rules_overlay
from playtest.board.component import mount
from playtest.board.fragment import fragment_run, play_fragment, whole_page
from playtest.board.protocol import BoardInput, EventGate, position_token
from playtest.board.sounds import cue_notes
from playtest.games.plugin import GamePlugin
from playtest.games.registry import game_plugin
from playtest.i18n import N_, Translator
from playtest.i18n.words import study_words
from playtest.messages import speed
from playtest.session import MAIN, GameSession, Moment, Next, Pace, Play
from playtest.session.store import finished_records, open_session, session_of, settings_of
from playtest.storage import repository as repo
from playtest.storage.game_counts import LEFT, RESTARTED

#: Where the page keeps the tester's game between runs (rebuilt from the database when
#: missing).
PLAY = trouble.GAME_KEY
TESTER = "play_tester"
RESTORED_MESSAGE = "restored_message"
SETTINGS_RESTORED = "settings_restored"
FINISHED_GAMES = "finished_games"
#: What the column beside the board shows of the game, as the last full run drew it.
SIDE_SHOWN = "side_shown"
DIALOGS = ("rules_open", "menu_open", "restart_ask")

# The play page uses the whole width: the board on the left, its controls beside it (on
# a phone, Streamlit stacks them under the board), and less empty space above the board.
_PLAY_CSS = """<style>
.stMainBlockContainer { padding-top: 2.5rem; padding-bottom: 1rem; }
</style>"""


def _tester() -> services.Tester:
    tester = st.session_state.get(TESTER)
    assert isinstance(tester, services.Tester)
    return tester


def _settings(tester: services.Tester) -> dict[str, Any]:
    """The tester's display settings, with the speed they chose on this page."""
    return {**settings_of(tester), "speed": st.session_state.get("speed", tester.effective.speed)}


def _pace(tester: services.Tester) -> Pace:
    """How the computer's moves are spread out: the study's think time, else the speed's
    (at once for a game whose board animates the computer's round itself)."""
    if not game_plugin(tester.config.game).paced:
        return Pace(0)
    if tester.effective.ai_think_ms is not None:
        return Pace(tester.effective.ai_think_ms)
    return Pace(int(speed(st.session_state.get("speed", tester.effective.speed)).think_s * 1000))


def _session(tester: services.Tester, *, new: bool = False,
             rules: Any = None) -> GameSession | None:
    """The tester's game session: this tab's, the stored game in progress, a new one while
    the study's games last (or asked for: ``new``), or None when they are played."""
    engine, logger = runtime.database(), runtime.event_logger()
    play: Play | None = st.session_state.get(PLAY)
    if play is not None and play.participant_id != tester.code:
        play = None  # another tester's game, left in this browser session: never played on
    if play is not None and not new:
        return session_of(engine, logger, tester, tester_session(tester), play,
                          _settings(tester))
    if not new and repo.latest_unfinished_game(engine, tester.code) is None and \
            services.games_finished(engine, tester) >= tester.config.games_per_tester:
        return None
    session = open_session(engine, logger, tester, tester_session(tester), new=new,
                           rules=rules, pace=_pace(tester), settings=_settings(tester))
    st.session_state[PLAY] = session.play
    _after_input(session)
    if session.play.shown_count == 0 and not session.play.shown:
        _restore_message(tester, session.play)
    return session


def _restore_message(tester: services.Tester, play: Play) -> None:
    """A game resumed in a new session (another process, a reload) shows the message its
    board last showed (as logged: not logged again, no sound)."""
    stored = resume_state.last_message(runtime.database(), tester.code, play.game_id)
    if stored is not None:
        st.session_state[RESTORED_MESSAGE] = (play.game_id, stored.text, stored.key)


def _restore_settings(tester: services.Tester) -> None:
    """Sound and speed as the tester last set them (their ``setting`` events), once per
    session: a session that starts on another process keeps them."""
    if st.session_state.get(SETTINGS_RESTORED):
        return
    st.session_state[SETTINGS_RESTORED] = True
    settings = resume_state.last_settings(runtime.database(), tester.code)
    if isinstance(settings.get("mute"), bool):
        st.session_state["muted"] = settings["mute"]
    if settings.get("speed") in (1, 2, 3) and "speed" not in st.session_state:
        st.session_state["speed"] = settings["speed"]


def _log(tester: services.Tester, type_: str, props: dict[str, Any],
         game_id: str | None = None) -> None:
    runtime.event_logger().log(tester_session(tester), tester.code, type_, props,
                               client_event_id=None, game_id=game_id)


def _after_input(session: GameSession) -> None:
    """A stale tab's game is dropped (the next run reloads it from the record); a game
    that says something new no longer shows the message restored from the log."""
    if session.stale:
        st.session_state.pop(PLAY, None)
    elif session.play.shown_count:
        st.session_state.pop(RESTORED_MESSAGE, None)


@guarded
def _on_input(item: BoardInput) -> None:
    """One input from the board (already checked and gated)."""
    tester = _tester()
    if item.kind == "mute":
        st.session_state["muted"] = item.value
        _log(tester, "setting", {"name": "mute", "value": item.value})
        return
    play: Play | None = st.session_state.get(PLAY)
    if play is None or play.participant_id != tester.code:
        st.session_state.pop(PLAY, None)  # not this tester's game: reload, store nothing
        return
    session = session_of(runtime.database(), runtime.event_logger(), tester,
                         tester_session(tester), play, _settings(tester))
    if item.kind == "draw":
        session.draw(nonce=item.nonce, pace=_pace(tester))
    else:
        session.click(item.target, ms=item.ms, via=item.via, nonce=item.nonce,
                      selection=item.hold, pace=_pace(tester))
    _after_input(session)
    if session.play.over:
        whole_page()  # the end and the way on: drawn by a full run


def _token_now() -> str | None:
    """The token of the game's position after an input (None: the game was dropped)."""
    play: Play | None = st.session_state.get(PLAY)
    return None if play is None else position_token(play.game_id, len(play.actions))


def _paused() -> bool:
    return any(k in st.session_state for k in DIALOGS)


def _gate(key: str) -> EventGate:
    name = f"_board_gate_{key}"
    gate: EventGate | None = st.session_state.get(name)  # one lookup on every rerun
    if gate is None:
        gate = st.session_state[name] = EventGate()
    return gate


def _message(session: GameSession) -> dict[str, Any]:
    """The board's main message line: what it says now (or, resumed, what it last said),
    its tone, how long it stays, its sound and the number of its showing."""
    play = session.play
    shown = next((s for s in play.shown if s.slot == MAIN), None)
    if shown is None:
        restored = _restored(play)
        return {"text": restored[0] if restored else "", "tone": "info",
                "key": restored[1] if restored else "", "ms": None,
                "nonce": str(play.shown_count), "notes": None, "sound": None}
    ms = speed(int(session.settings.get("speed", 2))).message_ms if shown.transient else None
    return {"text": shown.text, "tone": shown.tone, "key": shown.key, "ms": ms,
            "nonce": f"{play.instance}:{play.shown_count}", "sound": shown.sound,
            "notes": cue_notes(shown.sound) if shown.sound else None}


def _restored(play: Play) -> tuple[str, str] | None:
    """The text and key of the message this game's board showed last before this browser
    session (read from the log when the game was resumed), if it still stands."""
    restored = st.session_state.get(RESTORED_MESSAGE)
    if isinstance(restored, tuple) and restored[0] == play.game_id:
        return restored[1], restored[2]
    return None


def _same(text: str) -> str:
    return text


def _words(tester: services.Tester) -> Translator:
    """What the play page says, in the tester's study's language (its game's words too)."""
    return study_words(tester.config.language, tester.config.game)


def game_count(number: int, needed: int, _: Callable[[str], str] = _same) -> str:
    """Which game this is of the games the study asks for.

    >>> game_count(2, 4), game_count(5, 4)
    ('Game 2 of 4', 'Game 5 (an extra one)')
    """
    if number <= needed:
        return _("Game {number} of {needed}").format(number=number, needed=needed)
    return _("Game {number} (an extra one)").format(number=number)


def end_title(plugin: GamePlugin, play: Play, _: Callable[[str], str] = _same) -> str:
    """The result in a few words: who won (the tester "you" against the computer), or a
    draw, or a solo game lost."""
    result = plugin.result(play.state, len(play.actions))
    if result.title:
        return _(result.title)
    humans = sum(1 for s in play.seats if s.is_human)
    if result.winner is None:
        return _("It's a draw") if len(play.seats) > 1 else _("Not this time!")
    seat = play.seat_of(result.winner - 1)
    name = _(plugin.seat_name(result.winner))
    if seat is not None and seat.is_human:
        return _("You won!") if humans == 1 else _("{name} won!").format(name=name)
    computers = sum(1 for s in play.seats if s.is_computer)
    return _("The computer won") if computers == 1 else _("{name} won").format(name=name)


def _end(session: GameSession, _: Callable[[str], str] = _same) -> dict[str, str] | None:
    """The end screen: the result and its reason (the board's words at the end)."""
    play = session.play
    if not play.over:
        return None
    # A game that says why in its message line (no "end" words of its own) shows the
    # title alone: the banner does not repeat the line above it.
    reason = next((s for s in play.shown if s.slot == "end"), None)
    return {"title": end_title(session.plugin, play, _),
            "text": "" if reason is None else reason.text}


#: The board's own words (the shell draws them as given).
SHELL_LABELS = {"sound_on": N_("Sound on"), "sound_off": N_("Sound off"),
                "sound_on_aria": N_("Sound is on: turn it off"),
                "sound_off_aria": N_("Sound is off: turn it on")}


#: The keys of a game's view under which its texts are (every string inside them is
#: shown): labels, side names, turn lines. Other strings are data ("computer" as a kind).
VIEW_TEXT_KEYS = frozenset({"labels", "name", "who", "turn_text", "pick_text", "title", "text",
                            "legend", "fit_text", "playing_text", "computer_text", "words",
                            "note", "dice_by"})


def view_in(view: Any, gettext: Callable[[str], str], inside: bool = False) -> Any:
    """A game's view with each text its renderer shows (:data:`VIEW_TEXT_KEYS`) in the
    tester's language; numbers, ids and data as they are.

    >>> view_in({"labels": {"bricks": "Bricks left"}, "kind": "Bricks left"},
    ...         lambda t: {"Bricks left": "Steine übrig"}.get(t, t))
    {'labels': {'bricks': 'Steine übrig'}, 'kind': 'Bricks left'}
    """
    if isinstance(view, str):
        return gettext(view) if inside else view
    if isinstance(view, dict):
        return {k: view_in(v, gettext, inside or k in VIEW_TEXT_KEYS) for k, v in view.items()}
    if isinstance(view, list):
        return [view_in(v, gettext, inside) for v in view]
    return view


def board_data(session: GameSession, moment: Moment, *, token: str, muted: bool,
               picture: bool = False, words: Translator | None = None) -> dict[str, Any]:
    """What the shell draws: the game's view, its turn line, message, end and the
    protocol's token and interactivity, in the language of ``words`` (the tester's:
    the view's texts too, :func:`view_in`)."""
    plugin = session.plugin
    assert plugin.view is not None, f"{plugin.name} has no board view"
    view = plugin.view(moment)
    turn = view.get("turn_text")
    _: Callable[[str], str] = _same
    if words is not None and not words.language.is_source:
        view, turn, _ = view_in(view, words.gettext), view_in(turn, words.gettext, True), words
    return {"token": token, "interactive": moment.interactive, "picture": picture,
            "turn": turn, "message": _message(session),
            "end": _end(session, _), "muted": muted, "mute_control": not picture,
            "labels": {k: _(v) for k, v in SHELL_LABELS.items()}, "view": view}


def _needs_whole_page(tester: services.Tester, paused: bool) -> bool:
    """In the board's own run: whether the page around the board must change (no game of
    this tester's in this session: a fault, another tab's move; a dialog (``paused``); or
    what the column beside the board shows of the game)."""
    play: Play | None = st.session_state.get(PLAY)
    return (play is None or play.participant_id != tester.code or paused
            or st.session_state.get(SIDE_SHOWN) != _side_key(play))


def _side_key(play: Play) -> tuple[str, bool]:
    """What the column beside the board shows of the game: which game and whether it is
    over (the way on)."""
    return play.game_id, play.over


@play_fragment
def _board() -> None:
    """The board (and the computer's clock while it thinks), drawn from the game in the
    session: a full run of the page draws it, and an input reruns it alone."""
    tester = _tester()
    # Read once: every Streamlit session-state lookup costs (a lock, and a KeyError
    # raised inside for each key that is absent).
    paused = _paused()
    if fragment_run() and _needs_whole_page(tester, paused):
        whole_page()
    session = _session(tester)
    if session is None:  # only in a full run (a fragment run has asked for the page above)
        return
    play = session.play
    thinking = session.computer_due
    interactive = session.tester_to_act and not thinking and not paused
    token = position_token(play.game_id, len(play.actions))
    key = f"board-{play.game_id}"
    gate = _gate(key)
    gate.shown(token, interactive=interactive)
    # the tester's way through the study, as the caption beside the board counts it
    finished = _finished(tester, play)
    games = (finished.counted + (0 if play.over else 1),
             tester.config.games_per_tester)
    moment = session.moment(interactive=interactive, thinking=thinking,
                            extra={"zoom": True, "study_rules": tester.effective.rules,
                                   "games": games, "played": finished.records})
    mount(session.plugin, board_data(session, moment, token=token,
                                     muted=bool(st.session_state.get("muted", False)),
                                     words=_words(tester)),
          key=key, gate=gate, on_input=_on_input, token_now=_token_now)
    if thinking and not paused:
        _computer_clock()  # draws nothing: a timer of the board's, which its run restarts


@st.fragment(run_every=0.5)
def _computer_clock() -> None:
    """Ticks only while a computer's step is due; makes it once its time has come."""
    tester = _tester()
    play: Play | None = st.session_state.get(PLAY)
    if play is None or play.due_ms is None:
        return
    session = session_of(runtime.database(), runtime.event_logger(), tester,
                         tester_session(tester), play, _settings(tester))
    if session.next() is not Next.COMPUTER:
        play.due_ms = None
        return
    if session.clock() < play.due_ms:
        return
    session.step(pace=_pace(tester))
    _after_input(session)
    st.rerun(scope="app")


class _Finished(NamedTuple):
    """The tester's finished games: how many count towards the study, and the ``(rules,
    reason)`` of each (a game of stages shows its progress from them)."""

    counted: int
    records: tuple[tuple[Any, str | None], ...]


def _finished(tester: services.Tester, play: Play | None) -> _Finished:
    """:func:`services.games_finished` and :func:`~playtest.session.store.finished_records`,
    read again only when they can have changed: a finished game (in any tab) raises the
    tester's ``games_completed``, which the run reloaded, and a game finished during this
    run is the current game now over."""
    key = (tester.code, tester.participant.games_completed,
           None if play is None else play.game_id, None if play is None else play.over)
    cached = st.session_state.get(FINISHED_GAMES)
    if isinstance(cached, tuple) and cached[0] == key and isinstance(cached[1], _Finished):
        return cached[1]
    engine = runtime.database()
    # only a game whose next game follows from the finished ones reads their records
    records = (tuple(finished_records(engine, tester))
               if game_plugin(tester.config.game).next_rules is not None else ())
    finished = _Finished(services.games_finished(engine, tester), records)
    st.session_state[FINISHED_GAMES] = (key, finished)
    return finished


def _log_ui_exposures(tester: services.Tester) -> None:
    """UI-setting and rules variants count as shown once the board is drawn with them."""
    done: set[str] = st.session_state.setdefault("ui_exposed", set())
    for target, experiment in tester.effective.varied.items():
        if not target.startswith(("ui:", "rules")) or experiment in done:
            continue
        repo.log_exposure(runtime.database(), tester.code, experiment,
                          tester.effective.variants[experiment], {"target": target})
        done.add(experiment)


def play_page(tester: services.Tester, *, to_post_survey: Callable[[], None]) -> None:
    """The tester's play step: the board, its controls, and the way on after a game.

    The board is a fragment of its own: an input reruns the board alone, not this page
    nor the controls beside it. What the controls show changes only in a full run of
    the app: the side of the board changing (the game over) makes the board's run ask for
    one, and every control beside the board (Rules, Speed, Restart, Menu, the way on) is
    a widget of the page, whose use reruns the whole app."""
    st.session_state[TESTER] = tester
    _restore_settings(tester)
    st.session_state.setdefault("speed", tester.effective.speed)
    st.html(_PLAY_CSS)
    session = _session(tester)
    play = None if session is None else session.play
    finished = _finished(tester, play).counted
    if session is None or play is None:
        _between_games(tester, finished, None, to_post_survey)
        return
    _log_ui_exposures(tester)
    paused = _paused()
    board_col, side_col = st.columns([3, 1], gap="medium")
    with board_col:
        _board()
    with side_col:
        st.session_state[SIDE_SHOWN] = _side_key(play)
        if play.over:  # first: on a phone this column is under the board
            _between_games(tester, finished, session, to_post_survey)
        count = game_count(finished + (0 if play.over else 1), tester.config.games_per_tester,
                           _words(tester))
        st.caption(f"{count} · {markdown_literal(tester.study.title)}")  # the designer's text, as text
        _game_controls(tester, session, paused=paused)
    # Nothing since `paused` was read opens or closes a dialog (those are callbacks, which
    # run before the script), so a run that is not paused has no dialog to show.
    if not paused:
        return
    _ = _words(tester)
    # each dialog's title in the tester's language (a dialog is made where it opens)
    if "rules_open" in st.session_state:
        st.dialog(_("How to play"), width="medium", on_dismiss=_close_rules)(_rules_dialog)()
    elif "menu_open" in st.session_state:
        st.dialog(_("Menu"), on_dismiss=lambda: _close_menu("resume"))(_menu_dialog)()
    elif "restart_ask" in st.session_state:
        st.dialog(_("Start a new game?"),
                  on_dismiss=lambda: _end_restart_ask(False))(_restart_dialog)()


def _game_controls(tester: services.Tester, session: GameSession, *, paused: bool) -> None:
    over = session.play.over
    _ = _words(tester)
    st.button(_("Rules"), key="rules_button", on_click=_open_rules, disabled=paused,
              width="stretch", wrap=True, icon=":material/menu_book:")
    if session.plugin.ui_setting("speed") is not None:
        level = st.segmented_control(_("Speed"), [1, 2, 3], key="speed", wrap=True,
                                     format_func=lambda s: _(speed(s).name), width="stretch")
        if level is not None and st.session_state.get("speed_logged") != level:
            if "speed_logged" in st.session_state:
                _log(tester, "setting", {"name": "speed", "value": level})
            st.session_state["speed_logged"] = level
    st.button(_("Restart game"), key="restart", on_click=_ask_restart, disabled=paused or over,
              width="stretch", wrap=True, icon=":material/restart_alt:")
    st.button(_("Back to menu"), key="menu_button", on_click=_open_menu,
              disabled=paused or over, width="stretch", wrap=True, icon=":material/menu:")


def _pause(name: str, **extra: Any) -> None:
    st.session_state[name] = {"at": time.monotonic(), **extra}


def _resume_clock(paused_at: float) -> float:
    """Seconds the game was paused; the computer's step moves on by as much."""
    paused = time.monotonic() - paused_at
    play: Play | None = st.session_state.get(PLAY)
    if play is not None and play.due_ms is not None:
        play.due_ms += paused * 1000.0
    return paused


def _kept_session() -> GameSession | None:
    tester = _tester()
    play: Play | None = st.session_state.get(PLAY)
    if play is None or play.participant_id != tester.code:
        return None
    return session_of(runtime.database(), runtime.event_logger(), tester,
                      tester_session(tester), play, _settings(tester))


def _new_game(tester: services.Tester, session: GameSession | None, reason: str = RESTARTED,
              rules: Any = None) -> None:
    """Leave this game unfinished (it does not count) and start another."""
    if session is not None:
        session.abandon(reason)
    st.session_state.pop(RESTORED_MESSAGE, None)
    _session(tester, new=True, rules=rules)


def _ask_restart() -> None:
    """Restart asks first (a dialog): a slip of the finger must not throw a game away."""
    _pause("restart_ask")


def _end_restart_ask(restart: bool) -> None:
    asked = st.session_state.pop("restart_ask", None)
    if asked is None:
        return
    _resume_clock(asked["at"])
    if restart:
        _new_game(_tester(), _kept_session())


def _restart_dialog() -> None:
    _ = _words(_tester())
    st.write(_("This game stops here and does not count. The new game starts with an empty "
               "board."))
    if st.button(_("Yes, start a new game"), key="restart_yes", type="primary", width="stretch",
                 wrap=True):
        _end_restart_ask(True)
        st.rerun()
    if st.button(_("No, keep playing"), key="restart_no", width="stretch", wrap=True):
        _end_restart_ask(False)
        st.rerun()


def _context() -> str | None:
    """The key of the board's last message (what a rules lookup was about)."""
    play: Play | None = st.session_state.get(PLAY)
    if play is None:
        return None
    shown = next((s for s in play.shown if s.slot == MAIN), None)
    if shown is not None:
        return shown.key
    restored = _restored(play)
    return restored[1] if restored else None


@guarded
def _open_rules() -> None:
    """The rules dialog pauses the game: no input, and the computer's clock stops."""
    tester, context = _tester(), _context()
    _pause("rules_open", context=context)
    play: Play | None = st.session_state.get(PLAY)
    _log(tester, "rules_open", {"context": context}, None if play is None else play.game_id)


@guarded
def _close_rules() -> None:
    opened = st.session_state.pop("rules_open", None)
    if opened is None:
        return
    paused = _resume_clock(opened["at"])
    play: Play | None = st.session_state.get(PLAY)
    _log(_tester(), "rules_close", {"context": opened["context"], "seconds": round(paused, 3)},
         None if play is None else play.game_id)


# In a study the tester does not pick a mode (the study does), so the menu offers what is
# left to choose: carry on, a new game, or stop playing and go to the last questions (a
# tester may always stop; the game is logged as left).
@guarded
def _open_menu() -> None:
    _pause("menu_open")
    play: Play | None = st.session_state.get(PLAY)
    _log(_tester(), "menu_open", {}, None if play is None else play.game_id)


@guarded
def _close_menu(choice: str) -> None:
    opened = st.session_state.pop("menu_open", None)
    if opened is None:  # a second press of a menu button (double click): already handled
        return
    paused = _resume_clock(opened["at"])
    tester, session = _tester(), _kept_session()
    _log(tester, "menu_close", {"choice": choice, "seconds": round(paused, 3)},
         None if session is None else session.play.game_id)
    if choice == "new_game":
        _new_game(tester, session)
    elif choice == "stop":
        if session is not None:
            session.abandon(LEFT)
        st.session_state.pop(PLAY, None)
        st.session_state["stop_playing"] = True


def _menu_dialog() -> None:
    _ = _words(_tester())
    st.write(_("The game is paused."))
    choice = None
    if st.button(_("Back to the game"), key="menu_resume", type="primary", width="stretch",
                 wrap=True):
        choice = "resume"
    if st.button(_("New game"), key="menu_new_game", width="stretch", wrap=True):
        choice = "new_game"
    if st.button(_("Stop playing and answer the last questions"), key="menu_stop",
                 width="stretch", wrap=True):
        choice = "stop"
    if choice is not None:
        _close_menu(choice)
        st.rerun()


def _rules_dialog() -> None:
    session = _kept_session()
    tester = _tester()
    if session is not None:
        rules_overlay.draw(session.plugin, tester, _words(tester))
    if st.button(_words(tester)("Back to the game"), key="rules_close", type="primary",
                 width="stretch",
                 wrap=True):
        _close_rules()
        st.rerun()


def _between_games(tester: services.Tester, finished: int, session: GameSession | None,
                   to_post_survey: Callable[[], None]) -> None:
    """After a game: the result stays, and the way on is right beside the board."""
    needed = tester.config.games_per_tester
    plugin = game_plugin(tester.config.game)
    _ = _words(tester)
    if finished < needed or tester.config.allow_more_games:
        choices = _next_choices(plugin, session, tester.effective.rules)
    if finished < needed:
        if session is not None and session.play.over:
            for number, (label, rules) in enumerate(choices):
                st.button(_("{label} ({number} of {needed})").format(
                    label=_(label), number=finished + 1, needed=needed), key=f"next_game_{number}"
                          if number else "next_game", on_click=_next_game, args=(rules,),
                          type="primary" if number == 0 else "secondary", width="stretch",
                          wrap=True)
        return
    # One short line: on a phone the buttons below must still be in view under the board.
    played = (_("You have played {n} game. Thank you!") if finished == 1 else
              _("You have played {n} games. Thank you!")).format(n=finished)
    st.markdown(f"**{played}**")
    if st.button(_("Continue to the last questions"), type="primary", key="to_post",
                 width="stretch", wrap=True):
        st.session_state.pop(PLAY, None)
        to_post_survey()
    if tester.config.allow_more_games:
        label, rules = choices[0]
        st.button(_("Play another game"), key="play_more", on_click=_next_game, args=(rules,),
                  width="stretch", wrap=True)


def _next_choices(plugin: GamePlugin, session: GameSession | None,
                  study_rules: Any) -> list[tuple[str, Any]]:
    """The ways to the next game: the game's own (a next stage, the same one again), else
    one "Next game" with the rules the session works out."""
    if session is not None and plugin.next_choices is not None:
        own = plugin.next_choices(session.play, study_rules)
        if own:
            return list(own)
    return [(N_("Next game"), None)]


def _next_game(rules: Any = None) -> None:
    st.session_state.pop(RESTORED_MESSAGE, None)
    _session(_tester(), new=True, rules=rules)

