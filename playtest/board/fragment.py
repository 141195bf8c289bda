"""The play screen as a Streamlit fragment: a board click reruns the play screen only.

The play page (:mod:`playtest.board.page`) draws the board in a function decorated with
:func:`play_fragment`. On a full run of the app (a page load, a stage
change) that function runs inline like any other; a widget inside it (the board, the
speed control, "Next game") makes the browser send its rerun with the fragment's id, and
Streamlit then runs the widget's callback and this function alone: not ``st.navigation``,
the page list, the tester's lookup in the database, the page's CSS and whatever else
stands outside (issue 12: a click's server CPU).

What a fragment run cannot do is change what stands outside it: the page (the stage
after the last game, "Stop playing"), a dialog drawn by the page, the calm notice of a
database fault. For those the play step calls :func:`whole_page`, which reruns the app
(a full run: the same as without the fragment); in a full run it does nothing, so the
same code serves both. A database fault while a fragment run draws becomes the calm
notice, as :func:`playtest.app_pages.trouble.run_page` makes it in a full run.

Everything that matters stays where it was: the game in ``st.session_state`` (rebuilt
from the database when missing), every action stored before it is applied.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec

import streamlit as st

from playtest.app_pages import trouble
from playtest.streamlit_private import fragment_run

P = ParamSpec("P")

__all__ = ["fragment_run", "play_fragment", "whole_page"]


def whole_page() -> None:
    """In a fragment run: stop it and rerun the whole app, which draws what the page
    around the fragment must show now. In a full run: nothing (it is drawing the page)."""
    if fragment_run():
        st.rerun(scope="app")


def play_fragment(draw: Callable[P, None]) -> Callable[P, None]:
    """``draw`` as a fragment whose database faults, in its own reruns, become the calm
    notice above the page (the app reruns to show it, as after a fault in a full run)."""

    @functools.wraps(draw)
    def guarded_draw(*args: P.args, **kwargs: P.kwargs) -> None:
        if fragment_run() and st.session_state.get(trouble.FRESH):
            # a callback of this run met a fault: the notice stands outside the fragment
            st.rerun(scope="app")
        try:
            draw(*args, **kwargs)
        except trouble.DB_ERRORS as err:
            if not fragment_run():
                raise  # the page's own guard (trouble.run_page) shows it
            trouble.note_failure("page", err)
            st.rerun(scope="app")

    return st.fragment(guarded_draw)
