"""The Balance page: computer players play many games of the study's game and rules
(:mod:`engine.balance`), and the page shows who wins, how long games are and the game's
own section, each number with its definition and its 95% interval.

The game comes from the study (the registry's plug-in); nothing here knows a game. A
game whose designer fills one seat (a tester against the stage) compares levels: each
chosen level plays every part of the rules (each stage of a course) as the tester.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from engine.balance import (
    GameResult,
    SimulationError,
    SimulationReport,
    balance_hooks,
    check,
    play_games,
    summarise,
)
from engine.core import EngineError
from playtest.app_pages.designer.balance_draw import details, several
from playtest.app_pages.designer.opening import open_page
from playtest.app_pages.designer.study_form import stored_config
from playtest.balance_tables import DEFAULT_GAMES, POOL_FROM, RunSpec, default_seats
from playtest.games.registry import game_plugin


def balance_page() -> None:
    study = open_page("Balance")
    if study is None:
        return
    config, problem = stored_config(study)
    if problem:
        return
    plugin = game_plugin(config.game)  # the study's game, through the registry
    page(study.study_id, plugin.name, plugin.title, config.rules, plugin.ai_levels(),
         plugin.seats)


@st.cache_data(max_entries=256, show_spinner=False)
def _results(spec: RunSpec, part: str, part_rules_json: str, start: int, stop: int
             ) -> list[GameResult]:
    # Games start..stop-1 of one part: a pure function of its arguments (seeds derive from
    # the game's number), so "run more" only plays the new games.
    workers = 2 if stop - start >= POOL_FROM else 1
    return play_games(spec.game, json.loads(part_rules_json), spec.seats, spec.seed,
                      spec.rotate, start, stop, workers, part)


def run(spec: RunSpec, games: int) -> list[tuple[str, SimulationReport]]:
    """The reports of ``games`` games per part (played in chunks of the page's runs, each
    cached)."""
    hooks = balance_hooks(spec.game)
    out = []
    for label, part_rules in hooks.parts(json.loads(spec.rules_json)):
        check(spec.game, part_rules, spec.seats, games, 1)
        part_json = json.dumps(part_rules, sort_keys=True)
        results: list[GameResult] = []
        start = 0
        while start < games:
            stop = min(games, max(start + DEFAULT_GAMES, start * 2))
            results += _results(spec, label, part_json, start, stop)
            start = stop
        out.append((label, summarise(spec.game, part_rules, spec.seats, spec.rotate,
                                     spec.seed, results, label)))
    return out


def page(study_id: str, game: str, title: str, rules: Any, levels: tuple[str, ...],
         seats: tuple[int, int]) -> None:
    """The Balance page of a study playing ``game`` under ``rules``: ``levels`` are its
    computer levels, ``seats`` the fewest and most a run may fill."""
    if not levels:
        st.info(f"{title} has no computer players, so it cannot be simulated.")
        return
    hooks = balance_hooks(game)
    allowed = hooks.seat_range or seats
    one_seat = allowed[1] == 1
    try:
        parts = hooks.parts(rules)
    except (EngineError, ValueError) as err:
        st.error(f"These rules cannot be simulated: {err}")
        return
    st.write(
        f"Computer players play many games of {title} under this study's rules, so you "
        "can see who wins, how long games are and how often each rule is felt before "
        "testing it. Every game is seeded: the same settings give the same numbers.")
    if one_seat:
        st.caption(
            f"{title} has one tester's seat: each level below plays it, against the game's "
            "own computer players" + (f", on each of the {len(parts)} parts of the rules "
                                      f"({', '.join(label for label, _ in parts)})"
                                      if len(parts) > 1 else "") + ".")
    default = default_seats(levels, allowed)
    if st.session_state.get("bal_for") != study_id:
        # the seats are the study's game's levels: a field kept from another study's game
        # would name levels this game does not have
        st.session_state["bal_for"] = study_id
        st.session_state["bal_seats"] = default
    with st.form("balance"):
        label = ("Levels to compare (each plays the tester's seat)" if one_seat else
                 f"Seats ({allowed[0]}–{allowed[1]} computer levels, one per seat)"
                 if allowed[0] != allowed[1] else f"Seats ({allowed[0]} computer levels)")
        chosen = st.text_input(label, key="bal_seats",
                               help=f"Levels, easiest first: {', '.join(levels)}.")
        games = st.number_input("Games", 1, 20000, DEFAULT_GAMES, step=10, key="bal_games")
        st.caption("Games are per part of the rules and per level compared. The hardest "
                   "levels search and are slow: start small, then run more.")
        seed = st.number_input("Seed", 0, 10**9, 1, key="bal_seed")
        rotate = False if one_seat else st.checkbox(
            "Rotate the seats every game", key="bal_rotate",
            help="Every level plays every seat equally often: the level table then "
                 "measures strength, not the seat.")
        submitted = st.form_submit_button("Simulate")
    names = [s.strip() for s in chosen.split(",") if s.strip()]
    key = "balance_run"
    if submitted:
        specs = ([RunSpec(game, json.dumps(rules, sort_keys=True), (name,), int(seed), False)
                  for name in dict.fromkeys(names)] if one_seat else
                 [RunSpec(game, json.dumps(rules, sort_keys=True), tuple(names), int(seed),
                          bool(rotate))])
        st.session_state[key] = (study_id, specs, int(games))
    kept = st.session_state.get(key)
    if not kept or kept[0] != study_id:
        return
    _, specs, count = kept
    if st.button(f"Run {count} more games", key="bal_more",
                 help="The first games stay the same (each game has its own seed); only "
                      "the new ones are played."):
        count *= 2
        st.session_state[key] = (study_id, specs, count)
    try:
        with st.spinner(f"Playing {count} games…"):
            runs = [(spec, run(spec, count)) for spec in specs]
    except (SimulationError, EngineError, ValueError) as err:
        st.error(str(err))
        return
    flat = [(label, report) for _, reports in runs for label, report in reports]
    if len(flat) == 1:
        details(flat[0][1])
    else:
        several(flat)
