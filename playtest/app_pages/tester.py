"""The tester's pages: consent, pre-play survey, play, post-play survey, thank-you.

Each page reads the tester from the URL code and the database, calls into
``playtest.services`` and draws. Only the page of the tester's current stage is in the
navigation, so no URL skips ahead.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from playtest import runtime, services
from playtest.app_pages import identity
from playtest.app_pages.common import log_page, plain, tester_session
from playtest.app_pages.trouble import guarded
from playtest.board import board_view
from playtest.board.component import ClickEvent, MuteEvent, RollEvent, render_board
from playtest.cues import Cue
from playtest.game_controller import PlayController, StaleGameError, TurnError
from playtest.messages import MessageError, speed
from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError
from surveys.streamlit_renderer import render_survey

T = TypeVar("T")

CONSENT_TEXT = (
    "Thank you for helping us test Vapoosh!, a dice and times-tables board game.\n\n"
    "What happens: you answer a few short questions, play one or more games, and answer a "
    "few more questions. It takes about 15 minutes.\n\n"
    "What we keep: your answers and every click in the game, so we can see which rules and "
    "messages are confusing. We never ask for your name or e-mail: you get a random code "
    "instead. You can stop at any time; ask the study team to delete your data with your code.\n\n"
    "Nothing is saved until you press \"I agree\"."
)


def current_tester() -> services.Tester:
    tester = st.session_state.get("tester")
    assert isinstance(tester, services.Tester)
    return tester


def _advance(tester: services.Tester, current: str, new: str) -> None:
    # ConflictError: another tab moved on already; the rerun shows where the tester is.
    with contextlib.suppress(ConflictError):
        repo.advance_stage(runtime.database(), tester.code, current, new)
    st.rerun()


# -- consent ----------------------------------------------------------------------------


def consent_page() -> None:
    study: repo.Study = st.session_state["study"]
    config = services.study_config(study)
    st.title("Vapoosh! playtest")
    plain(study.title)
    plain(CONSENT_TEXT)
    with st.form("consent"):
        who = "adult"
        if config.audience == "children":
            who = "child"
            st.write("This study is for children playing with a parent or guardian.")
        elif config.audience == "mixed":
            who_label = st.radio(
                "Who is playing?",
                ["An adult (18 or over)", "A child, with a parent or guardian here"],
                index=None, key="consent_who",
            )
            who = "child" if who_label and who_label.startswith("A child") else (
                "adult" if who_label else "")
        parent_ok = st.checkbox(
            "I am the child's parent or guardian and I agree to my child taking part.",
            key="consent_parent",
        ) if config.audience in ("children", "mixed") else False
        agree = st.checkbox("I have read the above and I agree to take part.", key="consent_agree")
        submitted = st.form_submit_button("I agree", type="primary")
    if not submitted:
        return
    if not who:
        st.error("Please say who is playing.")
        return
    if who == "child" and not parent_ok:
        st.error("A parent or guardian must agree for a child to take part.")
        return
    if not agree:
        st.error("Please tick the box to agree, or close this page if you do not want to take part.")
        return
    engine = runtime.database()
    participant = services.register_consent(
        engine, study, {"child": who == "child", "parent_consent": bool(parent_ok),
                        "text_version": "1"},
    )
    # Remembered at once: if what follows fails (a locked database), the retry finishes
    # this tester's consent instead of making another one.
    identity.remember(study.study_id, participant.participant_id)
    services.finish_consent(engine, study, participant.participant_id)
    tester = services.load_tester(engine, participant.participant_id)
    assert tester is not None
    st.session_state["tester"] = tester
    # The consent page view is logged now that there is someone to log it for.
    log_page(tester, "consent")
    st.query_params.clear()
    st.query_params["p"] = participant.participant_id
    st.rerun()


# -- surveys ----------------------------------------------------------------------------


def _survey_page(phase: str) -> None:
    tester = current_tester()
    page_name = f"{phase}_survey"
    log_page(tester, page_name)
    engine = runtime.database()
    definition = services.survey_for(tester, phase)
    nxt = "play" if phase == "pre" else "done"
    if definition is None:
        _advance(tester, page_name, nxt)
        return
    st.title("Before you play" if phase == "pre" else "After playing")
    _resume_link(tester)
    store = services.DbResponseStore(engine, tester, definition, phase, runtime.event_logger(),
                                     tester_session(tester))
    done = render_survey(definition, store, context={"title": tester.study.title},
                         key=f"{phase}-{tester.code}", rng_seed=tester.code)
    if done:
        if phase == "post":
            repo.set_completion_code(engine, tester.code)
        _advance(tester, page_name, nxt)


def pre_survey_page() -> None:
    _survey_page("pre")


def post_survey_page() -> None:
    _survey_page("post")


def _resume_link(tester: services.Tester) -> None:
    with st.expander("Need a break? Keep your link"):
        st.write("Open this page's address later (or on another device) to carry on where you left off. Your code:")
        st.code(tester.code, language=None)


# -- play -------------------------------------------------------------------------------


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
        ctrl = services.open_game(engine, runtime.event_logger(), tester, tester_session(tester),
                                  new=new)
        st.session_state["ctrl"] = ctrl
        _after_action(ctrl, [])
    return ctrl


def _think_ms(tester: services.Tester) -> int:
    if tester.effective.ai_think_ms is not None:
        return tester.effective.ai_think_ms
    return int(speed(st.session_state.get("speed", tester.effective.speed)).think_s * 1000)


def _after_action(ctrl: PlayController, cues: list[Cue]) -> None:
    """Let computers move (at once, or after their think time) and queue the message."""
    tester = current_tester()
    if ctrl.computer_to_act:
        if _think_ms(tester) == 0:
            cues = cues + ctrl.play_computers()
        else:
            st.session_state["ai_due"] = time.monotonic() + _think_ms(tester) / 1000
    shown = [c for c in cues if c.key]
    if shown:
        own = [c for c in shown if not c.computer and c.key in _STICKY]
        _show(own[0] if own else shown[-1])


# Messages about the tester's own move that computer moves must not hide.
_STICKY = {"win_row", "win_square", "vapoosh", "extra_turn", "capture", "surround", "blocked_own"}


def _show(cue: Cue) -> None:
    """Queue a message (and its sound) for the next drawing of the board."""
    st.session_state["cue"] = cue
    st.session_state["cue_id"] = st.session_state.get("cue_id", 0) + 1


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
    done = _tester_input(lambda ctrl: ctrl.roll(client_event_id=event.nonce))
    if done is not None:
        ctrl, cue = done
        _after_action(ctrl, [cue])


@guarded
def _on_click(event: ClickEvent) -> None:
    brown = st.session_state.get("brown_mode") == "Brown counter"
    done = _tester_input(lambda ctrl: ctrl.click(
        event.c, event.r, brown=brown, client_ms=event.t_ms, client_event_id=event.nonce))
    if done is not None:
        ctrl, outcome = done
        st.session_state["brown_mode"] = "Normal counter"
        _after_action(ctrl, [outcome.cue])


@guarded
def _on_mute(event: MuteEvent) -> None:
    st.session_state["muted"] = event.muted
    _log_setting("mute", event.muted)


def _log_setting(name: str, value: Any) -> None:
    tester = current_tester()
    runtime.event_logger().log(tester_session(tester), tester.code, "setting",
                               {"name": name, "value": value}, client_event_id=None)


def _render_message(tester: services.Tester, ctrl: PlayController) -> tuple[str, str, str | None]:
    """The text, tone and sound of the current cue; logs it (and an exposure) once."""
    cue: Cue | None = st.session_state.get("cue")
    if cue is None or cue.key is None:
        return "", "info", None
    variant = tester.effective.message_variants.get(cue.key, "default")
    try:
        message = runtime.catalog().render(cue.key, variant, **cue.values)
        text, tone, sound = message.text, message.tone, message.sound
    except MessageError:
        text, tone, sound = cue.fallback_text, "warn", "wrong"
        variant = "fallback"
    cue_id = st.session_state.get("cue_id", 0)
    logged: set[int] = st.session_state.setdefault("cues_logged", set())
    if cue_id not in logged:
        logged.add(cue_id)
        ms_visible = speed(st.session_state.get("speed", tester.effective.speed)).message_ms
        session_id = tester_session(tester)
        runtime.event_logger().log(
            session_id, tester.code, "message",
            {"key": cue.key, "variant": variant, "text": text, "ms_visible": ms_visible},
            client_event_id=f"{session_id}:message:{cue_id}", game_id=ctrl.game_id,
        )
        experiment = tester.effective.varied.get(f"message:{cue.key}")
        if experiment:
            repo.log_exposure(runtime.database(), tester.code, experiment,
                              tester.effective.variants[experiment],
                              {"message": cue.key, "game_id": ctrl.game_id})
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
    """Ticks only while a computer player thinks; moves it once its time is up."""
    ctrl: PlayController | None = st.session_state.get("ctrl")
    due = st.session_state.get("ai_due")
    if ctrl is None or due is None or not ctrl.computer_to_act:
        st.session_state.pop("ai_due", None)
        return
    if time.monotonic() < due:
        return
    cue, _reason = ctrl.computer_turn()
    st.session_state.pop("ai_due", None)
    _after_action(ctrl, [cue])
    st.rerun(scope="app")


def play_page() -> None:
    tester = current_tester()
    log_page(tester, "play")
    if st.session_state.pop("stop_playing", False):
        _advance(tester, "play", "post_survey")
    engine = runtime.database()
    st.session_state.setdefault("speed", tester.effective.speed)
    ctrl = _controller(tester)
    finished = services.games_finished(engine, tester)
    if ctrl is None:
        _between_games(tester, finished)
        return
    _log_ui_exposures(tester)
    text, tone, sound = _render_message(tester, ctrl)
    state = ctrl.state
    seats = ["human" if k == "human" else "computer" for k in ctrl.seats]
    show_dice = ctrl.human_to_act or tester.effective.show_computer_dice
    thinking = ctrl.computer_to_act and st.session_state.get("ai_due") is not None
    paused = "rules_open" in st.session_state or "menu_open" in st.session_state
    if "menu_open" in st.session_state:
        _menu_overlay(tester, ctrl)
    elif paused:
        _rules_overlay(tester, ctrl)
    phase = state.phase if state.phase in ("roll", "place", "over") else "roll"
    view = board_view(
        state.board_rows(),
        dice=(state.dice or ctrl.last_dice.get(ctrl.to_move)) if show_dice else None,
        dice_seat=ctrl.to_move,
        options=state.options if state.phase == "place" else (),
        highlight=tester.effective.highlight_options,
        glow=ctrl.glow,
        seats=seats,
        to_move=None if ctrl.is_over else ctrl.to_move,
        phase=phase,
        turn=state.turns,
        message=text,
        tone=tone if tone in ("info", "good", "bad", "warn", "celebrate") else "info",
        message_ms=speed(st.session_state["speed"]).message_ms,
        sound=sound,
        nonce=str(st.session_state.get("cue_id", 0)),
        muted=bool(st.session_state.get("muted", False)),
        interactive=ctrl.human_to_act and not thinking and not paused,
    )
    st.caption(f"Game {finished + (0 if ctrl.is_over else 1)} · {tester.study.title}")
    render_board(view, key=f"board-{ctrl.game_id}", on_click=_on_click, on_roll=_on_roll,
                 on_mute=_on_mute)
    choice = ctrl.brown_choice()
    if choice == "optional" and ctrl.human_to_act:
        # The click callback resets the choice through session state, so the widget takes
        # its start value from there too (a default as well would make Streamlit warn).
        st.session_state.setdefault("brown_mode", "Normal counter")
        st.segmented_control("Vapooh! Which counter?", ["Normal counter", "Brown counter"],
                             key="brown_mode")
    elif choice == "forced" and ctrl.human_to_act:
        st.info("Vapooh! Your counter this time is a brown one.")
    if thinking and not paused:
        _computer_clock()
    _game_controls(tester, ctrl)
    if ctrl.is_over:
        _between_games(tester, finished)


def _game_controls(tester: services.Tester, ctrl: PlayController) -> None:
    cols = st.columns(4)
    paused = "rules_open" in st.session_state or "menu_open" in st.session_state
    with cols[0]:
        st.button("Rules", key="rules_button", on_click=_open_rules, args=(tester, ctrl),
                  disabled=paused)
    with cols[1]:
        level = st.segmented_control("Speed", [1, 2, 3], key="speed",
                                     format_func=lambda s: speed(s).name)
        if level is not None and st.session_state.get("speed_logged") != level:
            if "speed_logged" in st.session_state:
                _log_setting("speed", level)
            st.session_state["speed_logged"] = level
    with cols[2]:
        if st.button("Restart game", key="restart"):
            _restart(tester, ctrl)
    with cols[3]:
        st.button("Back to menu", key="menu_button", on_click=_open_menu, args=(tester, ctrl),
                  disabled=paused or ctrl.is_over)


def _new_game(tester: services.Tester, ctrl: PlayController) -> None:
    """Leave this game unfinished ("restarted": it does not count) and start another."""
    ctrl.abandon("restarted")
    st.session_state.pop("cue", None)
    _controller(tester, new=True)


def _restart(tester: services.Tester, ctrl: PlayController) -> None:
    _new_game(tester, ctrl)
    st.rerun()


@guarded
def _open_rules(tester: services.Tester, ctrl: PlayController) -> None:
    """The rules overlay pauses the game: no clicks, and the computer's clock stops."""
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
        ctrl.abandon("left")
        st.session_state.pop("ctrl", None)
        st.session_state["stop_playing"] = True


def _menu_overlay(tester: services.Tester, ctrl: PlayController) -> None:
    with st.container(border=True, key="menu_overlay"):
        st.subheader("Menu")
        st.write("The game is paused.")
        cols = st.columns(3)
        cols[0].button("Back to the game", key="menu_resume", type="primary",
                       on_click=_close_menu, args=(tester, ctrl, "resume"))
        cols[1].button("New game", key="menu_new_game",
                       on_click=_close_menu, args=(tester, ctrl, "new_game"))
        cols[2].button("Stop playing: go to the last questions", key="menu_stop",
                       on_click=_close_menu, args=(tester, ctrl, "stop"))


def _rules_overlay(tester: services.Tester, ctrl: PlayController) -> None:
    with st.container(border=True, key="rules_overlay"):
        st.subheader("How to play")
        st.markdown(RULES_SUMMARY)
        st.button("Back to the game", key="rules_close", type="primary",
                  on_click=_close_rules, args=(tester, ctrl))


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
- **Three sixes (Vapooh):** you may put down a brown counter that belongs to nobody.
- **Four sixes (VAPOOSH!):** you win straight away.

**Win** with four in a row (across, down or diagonal) or a 2 × 2 square.
"""


def _between_games(tester: services.Tester, finished: int) -> None:
    needed = tester.config.games_per_tester
    if finished < needed:
        return
    st.success(f"You have played {finished} game{'s' if finished != 1 else ''}. Thank you!")
    cols = st.columns(2)
    with cols[0]:
        if st.button("Continue to the last questions", type="primary", key="to_post"):
            st.session_state.pop("ctrl", None)
            _advance(tester, "play", "post_survey")
    if tester.config.allow_more_games:
        with cols[1]:
            if st.button("Play another game", key="play_more"):
                st.session_state.pop("cue", None)
                _controller(tester, new=True)
                st.rerun()


# -- done -------------------------------------------------------------------------------


def done_page() -> None:
    tester = current_tester()
    log_page(tester, "done")
    code = tester.participant.completion_code or repo.set_completion_code(
        runtime.database(), tester.code)
    st.title("Thank you!")
    st.write("You have finished. Your completion code is:")
    st.code(code, language=None)
    st.write("Keep it if the study team asks for it. You can close this page now.")


PAGES = {
    "pre_survey": (pre_survey_page, "Before you play"),
    "play": (play_page, "Play"),
    "post_survey": (post_survey_page, "After playing"),
    "done": (done_page, "Thank you"),
}

# Every tester page has the same address: Streamlit identifies a page by its url_path,
# so a stage change is not a page change for the browser (which would run the new page
# a second time and reset a form the tester has begun to fill in).
TESTER_PATH = "playtest"


def page_for_stage(stage: str) -> st.Page:
    func, title = PAGES.get(stage, PAGES["pre_survey"])
    return st.Page(func, title=title, url_path=TESTER_PATH, default=True)


def consent_st_page() -> st.Page:
    return st.Page(consent_page, title="Welcome", url_path=TESTER_PATH, default=True)
