"""Vapoosh!'s play step: the board, the dice and tiles controller behind it, the computer
players' clock, the rules dialog, the menu, and the way on between games.

``playtest.app_pages.tester`` calls :func:`play_page` for a tester whose study plays
this game (``PLUGIN.play_module``); the play screen keeps its controller in
``st.session_state["ctrl"]`` and rebuilds it from the stored record after a reload. A
tester who stops from the menu sets ``st.session_state["stop_playing"]``, which the tester
page turns into the way to the last questions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from analytics.text_safety import markdown_literal
from playtest import resume_state, runtime, services
from playtest.app_pages.common import tester_session
from playtest.app_pages.tester import current_tester
from playtest.app_pages.trouble import guarded
from playtest.board.component import MuteEvent
from playtest.games.play_fragment import fragment_run, play_fragment, whole_page
from playtest.games.vapoosh.component import ClickEvent, RollEvent, render_board
from playtest.games.vapoosh.controller import PlayController, StaleGameError, TurnError
from playtest.games.vapoosh.cues import Cue, cue_to_show, seat_names
from playtest.games.vapoosh.session import open_game
from playtest.games.vapoosh.view import board_view, winning_tiles
from playtest.messages import MessageError, speed
from playtest.storage import repository as repo
from playtest.storage.game_counts import LEFT, RESTARTED

T = TypeVar("T")


def _controller(tester: services.Tester, *, new: bool = False) -> PlayController | None:
    engine = runtime.database()
    ctrl: PlayController | None = st.session_state.get("ctrl")
    if ctrl is not None and ctrl.participant_id != tester.code:
        ctrl = None  # another tester's game, left in this browser session: never played on
    if new or ctrl is None:
        if not new and repo.latest_unfinished_game(engine, tester.code) is None:
            if services.games_finished(engine, tester) >= tester.config.games_per_tester:
                return ctrl if ctrl is not None and ctrl.is_over else None
            new = True
        ctrl = open_game(engine, runtime.event_logger(), tester, tester_session(tester),
                                  new=new)
        st.session_state["ctrl"] = ctrl
        _after_action(ctrl, [])
        if not new and st.session_state.get("cue") is None:
            _restore_message(tester, ctrl)
    return ctrl


RESTORED_MESSAGE = "restored_message"
SETTINGS_RESTORED = "settings_restored"


def _restore_message(tester: services.Tester, ctrl: PlayController) -> None:
    """A game resumed in a new session (another process, a reload) shows the message its
    board last showed (as logged: not logged again, no sound)."""
    stored = resume_state.last_message(runtime.database(), tester.code, ctrl.game_id)
    if stored is None:
        return
    try:
        tone = runtime.catalog().entry(stored.key).tone
    except MessageError:
        tone = "info"
    st.session_state[RESTORED_MESSAGE] = (ctrl.game_id, stored.text, tone)


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


def _think_ms(tester: services.Tester) -> int:
    if tester.effective.ai_think_ms is not None:
        return tester.effective.ai_think_ms
    return int(speed(st.session_state.get("speed", tester.effective.speed)).think_s * 1000)


def _after_action(ctrl: PlayController, cues: list[Cue], *, after_tester: bool = True) -> None:
    """Let computers move (at once, or one visible step per think time) and queue the
    message.

    With a think time, the computer's turn is two steps the tester sees: its roll (after
    half a think time, so the tester's own message is read first), then, a whole think
    time later, its placement. Its dice are on screen while it "thinks".

    The computers' instant turn and the ``message`` event of the message shown after it
    are stored in one transaction (the event rides with their moves, or alone, instead
    of a commit of its own when the board is drawn); the message is queued only once
    that is stored, so a refused commit shows nothing of it and the game goes back.
    """
    with ctrl.one_transaction():
        reply = _reply(ctrl, cues, after_tester=after_tester)
    _queue(ctrl, reply)


# A message whose event is stored (in the transaction of what it answers): its cue, its
# number and its catalog key (None: a cue without a message), to queue once committed.
Reply = tuple[Cue, int, str | None] | None


def _reply(ctrl: PlayController, cues: list[Cue], *, after_tester: bool = True) -> Reply:
    """Inside a transaction of ``ctrl``'s: the computers' instant turn and the event of
    the message to show after it (see :func:`_after_action`)."""
    tester = current_tester()
    if ctrl.computer_to_act:
        think = _think_ms(tester)
        if think == 0:
            cues = cues + ctrl.play_computers()
        else:
            wait_ms = think / 2 if after_tester else think
            st.session_state["ai_due"] = time.monotonic() + wait_ms / 1000
    chosen = cue_to_show(cues)
    if chosen is None:
        return None
    cue_id = st.session_state.get("cue_id", 0) + 1
    return chosen, cue_id, _log_message(tester, ctrl, chosen, cue_id, log=ctrl.sink.log)


def _queue(ctrl: PlayController, reply: Reply) -> None:
    """Once the reply's transaction is committed: show its message (logged already)."""
    if reply is None:
        return
    cue, cue_id, key = reply
    _show(cue, cue_id)
    if key is not None:
        st.session_state.setdefault("cues_logged", set()).add(cue_id)
        _log_message_exposure(current_tester(), ctrl, key)


def _show(cue: Cue, cue_id: int | None = None) -> None:
    """Queue a message (and its sound) for the next drawing of the board (``cue_id``:
    its number, when its event was stored under it already; else the next one)."""
    st.session_state["cue"] = cue
    st.session_state["cue_id"] = (st.session_state.get("cue_id", 0) + 1 if cue_id is None
                                  else cue_id)
    st.session_state.pop(RESTORED_MESSAGE, None)


def _tester_input(act: Callable[[PlayController], T]) -> tuple[PlayController, T] | None:
    """Apply one input of the tester: a refused one shows why (a message, nothing stored);
    one from an outdated tab drops the controller, so the next run reloads the game."""
    ctrl: PlayController | None = st.session_state.get("ctrl")
    if ctrl is None or ctrl.participant_id != current_tester().code:
        st.session_state.pop("ctrl", None)  # not this tester's game: reload, store nothing
        return None
    try:
        return ctrl, act(ctrl)
    except TurnError as err:
        _show(Cue(err.key, {}))
    except StaleGameError:
        st.session_state.pop("ctrl", None)
    return None


@guarded
def _on_roll(event: RollEvent) -> None:
    done = _tester_input(lambda ctrl: _rolled(ctrl, event.nonce))
    if done is not None:
        ctrl, reply = done
        _queue(ctrl, reply)


def _rolled(ctrl: PlayController, nonce: str) -> Reply:
    """The tester's roll, the computers' turn it may pass to and the message after it: one
    transaction (a roll has nothing to log when refused by another tab: the controller
    is dropped and reloaded, as after the roll's own commit). A click keeps its own: a
    click refused so is logged as stale after its commit."""
    with ctrl.one_transaction():
        return _reply(ctrl, [ctrl.roll(client_event_id=nonce)])


@guarded
def _on_click(event: ClickEvent) -> None:
    # A brown counter is chosen on the board itself (the "Brown" button beside a tile).
    done = _tester_input(lambda ctrl: ctrl.click(
        event.c, event.r, brown=event.brown, client_ms=event.t_ms, client_event_id=event.nonce))
    if done is not None:
        ctrl, outcome = done
        _after_action(ctrl, [outcome.cue])


@guarded
def _on_mute(event: MuteEvent) -> None:
    st.session_state["muted"] = event.muted
    _log_setting("mute", event.muted)


def _log_setting(name: str, value: Any) -> None:
    tester = current_tester()
    runtime.event_logger().log(tester_session(tester), tester.code, "setting",
                               {"name": name, "value": value}, client_event_id=None)


# With the computer's dice hidden (a UI variant), its messages must not name them either.
_DICE_HIDDEN_KEYS = {"computer_moved": "computer_placed", "computer_rolled": "turn_computer"}


def _message_ms(tester: services.Tester, ctrl: PlayController) -> int | None:
    """How long a message stays: the speed's time, or (game over) until the tester moves on."""
    if ctrl.is_over:
        return None
    return speed(st.session_state.get("speed", tester.effective.speed)).message_ms


def _message_of(tester: services.Tester, cue: Cue) -> tuple[str, str, str, str, str | None]:
    """The catalog key, variant, text, tone and sound of a cue (with a key) for this tester."""
    key = cue.key
    assert key is not None
    if not tester.effective.show_computer_dice:
        key = _DICE_HIDDEN_KEYS.get(key, key)
    variant = tester.effective.message_variants.get(key, "default")
    try:
        message = runtime.catalog().render(key, variant, voice=cue.voice, **cue.values)
        return key, variant, message.text, message.tone, message.sound
    except MessageError:
        return key, "fallback", cue.fallback_text, "warn", "wrong"


def _log_message(tester: services.Tester, ctrl: PlayController, cue: Cue, cue_id: int, *,
                 log: Callable[[str, dict[str, Any], str | None], None]) -> str | None:
    """Log the ``message`` event of cue number ``cue_id`` through ``log`` (the game's
    sink's); returns its catalog key (None: a cue without a message)."""
    if cue.key is None:
        return None
    key, variant, text, _tone, _sound = _message_of(tester, cue)
    session_id = tester_session(tester)
    props: dict[str, Any] = {"key": key, "variant": variant, "text": text,
                             "ms_visible": _message_ms(tester, ctrl)}
    log("message", props, f"{session_id}:message:{cue_id}")
    return key


def _log_message_exposure(tester: services.Tester, ctrl: PlayController, key: str) -> None:
    experiment = tester.effective.varied.get(f"message:{key}")
    if experiment:
        repo.log_exposure(runtime.database(), tester.code, experiment,
                          tester.effective.variants[experiment],
                          {"message": key, "game_id": ctrl.game_id})


def _render_message(tester: services.Tester, ctrl: PlayController) -> tuple[str, str, str | None]:
    """The text, tone and sound of the current cue; logs it (and an exposure) once, if
    the input that queued it did not (a refused input's cue, a cue set by a test)."""
    cue: Cue | None = st.session_state.get("cue")
    if cue is None or cue.key is None:
        restored = st.session_state.get(RESTORED_MESSAGE)
        if isinstance(restored, tuple) and restored[0] == ctrl.game_id:
            return restored[1], restored[2], None
        return "", "info", None
    _key, _variant, text, tone, sound = _message_of(tester, cue)
    cue_id = st.session_state.get("cue_id", 0)
    logged: set[int] | None = st.session_state.get("cues_logged")
    if logged is None:
        logged = st.session_state["cues_logged"] = set()
    if cue_id not in logged:
        session_id = tester_session(tester)

        def log(type_: str, props: dict[str, Any], client_event_id: str | None) -> None:
            runtime.event_logger().log(session_id, tester.code, type_, props,
                                       client_event_id=client_event_id, game_id=ctrl.game_id)

        key = _log_message(tester, ctrl, cue, cue_id, log=log)
        logged.add(cue_id)
        if key is not None:
            _log_message_exposure(tester, ctrl, key)
    return text, tone, sound


def _log_ui_exposures(tester: services.Tester) -> None:
    """UI-setting variants count as shown once the board is drawn with them."""
    done: set[str] = st.session_state.setdefault("ui_exposed", set())
    for target, experiment in tester.effective.varied.items():
        if not target.startswith(("ui:", "rules")) or experiment in done:
            continue
        repo.log_exposure(runtime.database(), tester.code, experiment,
                          tester.effective.variants[experiment], {"target": target})
        done.add(experiment)


@st.fragment(run_every=0.5)
def _computer_clock() -> None:
    """Ticks only while a computer player thinks; makes its next step once time is up."""
    ctrl: PlayController | None = st.session_state.get("ctrl")
    due = st.session_state.get("ai_due")
    if ctrl is None or due is None or not ctrl.computer_to_act:
        st.session_state.pop("ai_due", None)
        return
    if time.monotonic() < due:
        return
    cue, _reason = ctrl.computer_step()
    st.session_state.pop("ai_due", None)
    _after_action(ctrl, [cue], after_tester=False)
    st.rerun(scope="app")


# The play page uses the whole width: the board on the left, its controls beside it (on
# a phone, Streamlit stacks them under the board), and less empty space above the board.
_PLAY_CSS = """<style>
.stMainBlockContainer { padding-top: 2.5rem; padding-bottom: 1rem; }
</style>"""


def _paused() -> bool:
    return any(k in st.session_state for k in ("rules_open", "menu_open", "restart_ask"))


def _turn_text(ctrl: PlayController, names: dict[int, str]) -> str | None:
    """The board's top line once the game is over: who won (None while it goes on)."""
    if not ctrl.is_over:
        return None
    winner = ctrl.state.winner
    if not winner:
        return "It's a draw"
    name = names.get(int(winner), f"player {winner}")
    return "You won!" if name == "you" else f"{name[0].upper()}{name[1:]} won!"


def _shown_dice(tester: services.Tester, ctrl: PlayController) -> tuple[Any, int | None]:
    """The dice of the last roll made in the game and who made it (the computer's only
    when the study shows them): a computer's roll is shown for the move it is making."""
    if ctrl.last_roll is None:
        return None, None
    seat, dice = ctrl.last_roll
    if ctrl.seat_kind(seat) != "human" and not tester.effective.show_computer_dice:
        return None, None
    return dice, seat


def _board_glow(ctrl: PlayController) -> dict[tuple[int, int], str]:
    glow = dict(ctrl.glow)
    winner = ctrl.state.winner if ctrl.is_over else None
    if winner:
        last = next(iter(glow), None)
        for tile in winning_tiles(ctrl.board_rows(), int(winner), last):
            glow[tile] = "win"
    return glow


def _games_finished(tester: services.Tester, ctrl: PlayController | None) -> int:
    """:func:`services.games_finished`, counted again only when it can have changed: a
    finished game (in any tab) raises the tester's ``games_completed``, which the run
    reloaded, and a game finished during this run is the current game now over."""
    key = (tester.code, tester.participant.games_completed,
           None if ctrl is None else ctrl.game_id, None if ctrl is None else ctrl.is_over)
    cached = st.session_state.get(FINISHED_GAMES)
    if isinstance(cached, tuple) and cached[0] == key:
        return int(cached[1])
    finished = services.games_finished(runtime.database(), tester)
    st.session_state[FINISHED_GAMES] = (key, finished)
    return finished


FINISHED_GAMES = "finished_games"


def play_page(tester: services.Tester, *, to_post_survey: Callable[[], None]) -> None:
    """The tester's play step: the board, its controls, and the way on after a game.

    The board is a fragment of its own (:mod:`playtest.games.play_fragment`): a roll or a
    click reruns the board alone, not this page nor the controls beside it. What the
    controls show changes only in a full run of the app: the side of the board changing
    (the game over, a brown counter to play) makes the board's run ask for one, and every
    control beside the board (Rules, Speed, Restart, Menu, the way on) is a widget of
    the page, whose use reruns the whole app."""
    _restore_settings(tester)
    st.session_state.setdefault("speed", tester.effective.speed)
    st.html(_PLAY_CSS)
    ctrl = _controller(tester)
    finished = _games_finished(tester, ctrl)
    if ctrl is None:
        _between_games(tester, finished, None, to_post_survey)
        return
    _log_ui_exposures(tester)
    paused = _paused()
    board_col, side_col = st.columns([3, 1], gap="medium")
    with board_col:
        _board()
    with side_col:
        st.session_state[SIDE_SHOWN] = _side_key(ctrl)
        if ctrl.is_over:  # first: on a phone this column is under the board
            _between_games(tester, finished, ctrl, to_post_survey)
        st.caption(f"Game {finished + (0 if ctrl.is_over else 1)} · "
                   f"{markdown_literal(tester.study.title)}")  # the designer's text, as text
        if _brown_forced(ctrl):
            st.info("Vapooh! Your counter this time is a brown one.")
        _game_controls(tester, ctrl, paused=paused)
    # Nothing since `paused` was read opens or closes a dialog (those are callbacks, which
    # run before the script), so a run that is not paused has no dialog to show.
    if not paused:
        return
    if "rules_open" in st.session_state:
        _rules_dialog()
    elif "menu_open" in st.session_state:
        _menu_dialog()
    elif "restart_ask" in st.session_state:
        _restart_dialog()


# What the column beside the board shows of the game, as the last full run drew it.
SIDE_SHOWN = "side_shown"


def _brown_forced(ctrl: PlayController) -> bool:
    return ctrl.human_to_act and ctrl.brown_choice() == "forced"


def _side_key(ctrl: PlayController) -> tuple[str, bool, bool]:
    """What the column beside the board shows of the game: which game, whether it is
    over (the way on), and the note on a brown counter."""
    return ctrl.game_id, ctrl.is_over, _brown_forced(ctrl)


def _needs_whole_page(tester: services.Tester, paused: bool) -> bool:
    """In the board's own run: whether the page around the board must change (no game of
    this tester's in this session: a fault, another tab's move; a dialog (``paused``); or
    what the column beside the board shows of the game)."""
    ctrl: PlayController | None = st.session_state.get("ctrl")
    return (ctrl is None or ctrl.participant_id != tester.code or paused
            or st.session_state.get(SIDE_SHOWN) != _side_key(ctrl))


@play_fragment
def _board() -> None:
    """The board (and the computer's clock while it thinks), drawn from the game in the
    session: a full run of the page draws it, and a roll or click reruns it alone."""
    tester = current_tester()
    # Read once: every Streamlit session-state lookup costs (a lock, and a KeyError
    # raised inside for each key that is absent).
    paused = _paused()
    if fragment_run() and _needs_whole_page(tester, paused):
        whole_page()
    ctrl = _controller(tester)
    if ctrl is None:  # only in a full run (a fragment run has asked for the page above)
        return
    text, tone, sound = _render_message(tester, ctrl)
    message_ms = _message_ms(tester, ctrl)
    state = ctrl.state
    seats = ["human" if k == "human" else "computer" for k in ctrl.seats]
    names = seat_names(ctrl.seats)
    dice, dice_seat = _shown_dice(tester, ctrl)
    thinking = ctrl.computer_to_act and st.session_state.get("ai_due") is not None
    phase = state.phase if state.phase in ("roll", "place", "over") else "roll"
    brown = ctrl.brown_choice()
    view = board_view(
        ctrl.board_rows(),
        dice=dice,
        dice_seat=dice_seat,
        # the tester's options only: the computer's would breathe as if waiting for a click
        options=state.options if state.phase == "place" and ctrl.human_to_act else (),
        highlight=tester.effective.highlight_options,
        glow=_board_glow(ctrl),
        seats=seats,
        to_move=None if ctrl.is_over else ctrl.to_move,
        phase=phase,
        turn=state.turns,
        turn_text=_turn_text(ctrl, names),
        message=text,
        tone=tone if tone in ("info", "good", "bad", "warn", "celebrate") else "info",
        message_ms=message_ms,
        sound=sound,
        nonce=str(st.session_state.get("cue_id", 0)),
        muted=bool(st.session_state.get("muted", False)),
        interactive=ctrl.human_to_act and not thinking and not paused,
        names=[names[s] for s in range(1, len(seats) + 1)],
        zoom=True,
        brown_tiles=ctrl.legal_tiles() if brown == "optional" and ctrl.human_to_act else (),
    )
    render_board(view, key=f"board-{ctrl.game_id}", on_click=_on_click, on_roll=_on_roll,
                 on_mute=_on_mute)
    if thinking and not paused:
        _computer_clock()  # draws nothing: a timer of the board's, which its run restarts


def _game_controls(tester: services.Tester, ctrl: PlayController, *, paused: bool) -> None:
    st.button("Rules", key="rules_button", on_click=_open_rules, args=(tester, ctrl),
              disabled=paused, width="stretch", wrap=True, icon=":material/menu_book:")
    level = st.segmented_control("Speed", [1, 2, 3], key="speed", wrap=True,
                                 format_func=lambda s: speed(s).name, width="stretch")
    if level is not None and st.session_state.get("speed_logged") != level:
        if "speed_logged" in st.session_state:
            _log_setting("speed", level)
        st.session_state["speed_logged"] = level
    st.button("Restart game", key="restart", on_click=_ask_restart, disabled=paused or ctrl.is_over,
              width="stretch", wrap=True, icon=":material/restart_alt:")
    st.button("Back to menu", key="menu_button", on_click=_open_menu, args=(tester, ctrl),
              disabled=paused or ctrl.is_over, width="stretch", wrap=True,
              icon=":material/menu:")


def _new_game(tester: services.Tester, ctrl: PlayController) -> None:
    """Leave this game unfinished ("restarted": it does not count) and start another."""
    ctrl.abandon(RESTARTED)
    st.session_state.pop("cue", None)
    _controller(tester, new=True)


def _ask_restart() -> None:
    """Restart asks first (a dialog): a slip of the finger must not throw a game away."""
    st.session_state["restart_ask"] = {"at": time.monotonic()}


def _end_restart_ask(restart: bool) -> None:
    asked = st.session_state.pop("restart_ask", None)
    if asked is None:
        return
    _resume_clock(asked["at"])
    tester = current_tester()
    ctrl: PlayController | None = st.session_state.get("ctrl")
    if restart and ctrl is not None:
        _new_game(tester, ctrl)


@st.dialog("Start a new game?", on_dismiss=lambda: _end_restart_ask(False))
def _restart_dialog() -> None:
    st.write("This game stops here and does not count. The new game starts with an empty board.")
    if st.button("Yes, start a new game", key="restart_yes", type="primary", width="stretch",
                 wrap=True):
        _end_restart_ask(True)
        st.rerun()
    if st.button("No, keep playing", key="restart_no", width="stretch", wrap=True):
        _end_restart_ask(False)
        st.rerun()


@guarded
def _open_rules(tester: services.Tester, ctrl: PlayController) -> None:
    """The rules dialog pauses the game: no clicks, and the computer's clock stops."""
    cue: Cue | None = st.session_state.get("cue")
    context = cue.key if cue else None
    st.session_state["rules_open"] = {"context": context, "at": time.monotonic()}
    runtime.event_logger().log(tester_session(tester), tester.code, "rules_open",
                               {"context": context}, client_event_id=None,
                               game_id=ctrl.game_id)


@guarded
def _close_rules(tester: services.Tester, ctrl: PlayController) -> None:
    opened = st.session_state.pop("rules_open", None)
    if opened is None:
        return
    paused = _resume_clock(opened["at"])
    runtime.event_logger().log(tester_session(tester), tester.code, "rules_close",
                               {"context": opened["context"], "seconds": round(paused, 3)},
                               client_event_id=None, game_id=ctrl.game_id)


def _resume_clock(paused_at: float) -> float:
    """Seconds the game was paused; the computer's think time moves on by as much."""
    paused = time.monotonic() - paused_at
    if st.session_state.get("ai_due") is not None:
        st.session_state["ai_due"] += paused
    return paused


# The seed game's "Back to menu". In a study the tester does not pick a mode (the study
# does), so the menu offers what is left to choose: carry on, a new game, or stop playing
# and go to the last questions (a tester may always stop; the game is logged as left).
@guarded
def _open_menu(tester: services.Tester, ctrl: PlayController) -> None:
    st.session_state["menu_open"] = {"at": time.monotonic()}
    runtime.event_logger().log(tester_session(tester), tester.code, "menu_open", {},
                               client_event_id=None, game_id=ctrl.game_id)


@guarded
def _close_menu(tester: services.Tester, ctrl: PlayController, choice: str) -> None:
    opened = st.session_state.pop("menu_open", None)
    if opened is None:  # a second press of a menu button (double click): already handled
        return
    paused = _resume_clock(opened["at"])
    runtime.event_logger().log(tester_session(tester), tester.code, "menu_close",
                               {"choice": choice, "seconds": round(paused, 3)},
                               client_event_id=None, game_id=ctrl.game_id)
    if choice == "new_game":
        _new_game(tester, ctrl)
    elif choice == "stop":
        ctrl.abandon(LEFT)
        st.session_state.pop("ctrl", None)
        st.session_state["stop_playing"] = True


def _dismissed(close: Callable[[services.Tester, PlayController], None]) -> Callable[[], None]:
    """A dialog closed with its X, Escape or a click outside: closed like its own button."""
    def on_dismiss() -> None:
        ctrl: PlayController | None = st.session_state.get("ctrl")
        if ctrl is not None:
            close(current_tester(), ctrl)
    return on_dismiss


@st.dialog("Menu", on_dismiss=_dismissed(lambda t, c: _close_menu(t, c, "resume")))
def _menu_dialog() -> None:
    tester, ctrl = current_tester(), st.session_state["ctrl"]
    st.write("The game is paused.")
    choice = None
    if st.button("Back to the game", key="menu_resume", type="primary", width="stretch",
                 wrap=True):
        choice = "resume"
    if st.button("New game", key="menu_new_game", width="stretch", wrap=True):
        choice = "new_game"
    if st.button("Stop playing and answer the last questions", key="menu_stop",
                 width="stretch", wrap=True):
        choice = "stop"
    if choice is not None:
        _close_menu(tester, ctrl, choice)
        st.rerun()


@st.dialog("How to play", width="medium", on_dismiss=_dismissed(_close_rules))
def _rules_dialog() -> None:
    st.markdown(RULES_SUMMARY)
    if st.button("Back to the game", key="rules_close", type="primary", width="stretch",
                 wrap=True):
        _close_rules(current_tester(), st.session_state["ctrl"])
        st.rerun()


RULES_SUMMARY = """
**Your turn:** roll the four dice. Add the two pink dice and the two green dice.
Multiply them and find that number on the board: your counter goes on column *pink*,
row *green* or column *green*, row *pink*.

- **Empty tiles first.** If one of your two tiles is empty, your counter must go there.
- **Capture:** if both tiles are taken, you can take over another player's counter.
- **Surround:** close in another player's counter on every side and it becomes yours.
- **Surrounded tiles:** you cannot go on an empty tile boxed in by one other player.
- **Same total on pink and green:** one tile, and you get an extra go.
- **Both tiles already yours:** the next player misses a turn.
- **Three sixes (Vapooh):** you may put down a brown counter that belongs to nobody:
  press **Brown** next to the tile instead of the tile itself.
- **Four sixes (VAPOOSH!):** you win straight away.

**Win** with four in a row (across, down or diagonal) or a 2 × 2 square.

**What glows on the board**
- **Every square number glows gold** (1, 4, 9, 16, 25, …, 144), all game long. The glow
  only shows where the square numbers are: landing on one does **not** give an extra go.
- **An extra go comes only from the dice:** when the pink total and the green total are
  the same (pink 2 + 4 = 6 and green 5 + 1 = 6: 6 × 6 = 36).
- The last counter put down is outlined; the computer's move has a dotted outline and
  a ⚙; a captured counter has a dashed outline; the winning four shine at the end.
"""


def _between_games(tester: services.Tester, finished: int, ctrl: PlayController | None,
                   to_post_survey: Callable[[], None]) -> None:
    """After a game: the result stays, and the way on is right beside the board."""
    needed = tester.config.games_per_tester
    if finished < needed:
        if ctrl is not None and ctrl.is_over:
            st.button(f"Next game ({finished + 1} of {needed})", type="primary",
                      key="next_game", on_click=_next_game, width="stretch", wrap=True)
        return
    # One short line: on a phone the buttons below must still be in view under the board.
    st.markdown(f"**You have played {finished} game{'s' if finished != 1 else ''}. Thank you!**")
    if st.button("Continue to the last questions", type="primary", key="to_post",
                 width="stretch", wrap=True):
        st.session_state.pop("ctrl", None)
        to_post_survey()
    if tester.config.allow_more_games:
        st.button("Play another game", key="play_more", on_click=_next_game, width="stretch",
                  wrap=True)


def _next_game() -> None:
    st.session_state.pop("cue", None)
    _controller(current_tester(), new=True)

