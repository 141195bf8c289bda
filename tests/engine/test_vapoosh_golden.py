"""Golden playthroughs (OpenSpiel-style): seeded random games written as text and diffed.

Each file in ``tests/engine/golden/`` records, for every step of one seeded
game, the state (phase, seat, turns, owed turns, dice, options), the legal
actions, the chosen action, the events, and the board whenever it changed.
A rules change that alters any game shows up as a diff. After an *intended*
change, regenerate and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_vapoosh_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.vapoosh import Rules, VapooshGame, VapooshState

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = {
    "standard-2p-seed40": ("standard", 2, 40),
    "classic-3p-seed2": ("classic", 3, 2),
    "house-4p-seed3": ("house", 4, 3),
    "group-2p-seed4": ({"base": "standard", "surround": "group"}, 2, 4),
    "house-2p-seed7": ("house", 2, 7),
    "standard-1p-seed5": ("standard", 1, 5),
}


def _line(state: VapooshState) -> str:
    return (
        f"phase {state.phase}, to_move {state.to_move}, turns {state.turns}, "
        f"skips {json.dumps(state.skips)}, dice {json.dumps(state.dice)}, "
        f"options {json.dumps(state.options)}"
    )


def playthrough(rules: object, players: int, seed: int) -> str:
    """The text of one seeded game (draws as in engine.vapoosh.playout)."""
    game = VapooshGame(Rules.from_obj(rules), players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [
        "# Vapoosh! golden playthrough",
        f"rules {json.dumps(game.rules.to_obj(), sort_keys=True)}",
        f"players {players}, seed {seed}",
    ]
    board = state.board_rows()
    step = 0
    while not state.is_terminal():
        out.append(f"## step {step}")
        out.append(_line(state))
        legal = state.legal_actions()
        if state.phase == "roll":
            out.append("legal: 1296 ordered rolls, each 1/1296")
            action = int(rng.random() * 1296)
        elif state.phase == "setup":
            outcomes = state.chance_outcomes()
            out.append(f"legal: {len(outcomes)} seeded deals, each 1/{len(outcomes)}")
            action = outcomes[int(rng.random() * len(outcomes))][0]
        else:
            shown = [game.action_to_json(a) for a in legal]
            out.append(f"legal: {json.dumps(legal)} {json.dumps(shown)}")
            action = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        out.append(f"action: {json.dumps(game.action_to_json(action))}")
        events = state.apply_action(action)
        out.append("events: " + "; ".join(json.dumps(e.to_dict(), sort_keys=True) for e in events))
        if state.board_rows() != board:
            board = state.board_rows()
            out.extend("  " + row for row in board)
        step += 1
    out.append("## end")
    out.append(_line(state))
    out.append(f"outcome {state.outcome}, returns {state.returns()}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(*GAMES[name])
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: run with UPDATE_GOLDEN=1 to create it"
    assert text.splitlines() == path.read_text(encoding="utf-8").splitlines()


def test_golden_files_cover_every_rule_event() -> None:
    text = "".join(p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.txt"))
    for kind in ("capture", "surround_capture", "extra_turn", "win", "skip", "deal"):
        assert f'"kind": "{kind}"' in text, kind
