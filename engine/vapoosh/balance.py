"""Vapoosh!'s hooks of the balance simulator (:mod:`engine.balance`): its dice, its fast
random playout, and how often each rule is felt.

- **Length** counts rolls (re-rolls included), the unit designers think in.
- **Chance**: the dice are ``randrange(1296)`` of a ``random.Random`` the simulator seeds
  per game (the 1296 ordered rolls are equally likely, ``engine.vapoosh.actions``), and
  the preplaced counters are dealt by :func:`deal_preplaced` from the game's seed: the
  draws the simulator made before it served every game, so every number it printed
  before is printed again.
- **Easy against easy** plays the rules' fast random playout
  (:func:`engine.vapoosh.playout.random_playout`: the same rules and uniform random
  moves, about ten times faster); it reports the rule events except ``place`` and no
  suicide counts, and not whether a pattern win was a line or a square (``"pattern"``).
- **The section** (``rules_fired``): for each rule event of scenario-format.md, and the
  rolled options that were empty but suicide for the roller, the mean times per game and
  the share of games where it fired.

>>> from engine.balance import simulate
>>> report = simulate("vapoosh", "standard", ["easy", "easy"], games=20, seed=1)
>>> report.games, report.decided + report.draws, report.length_unit
(20, 20, 'rolls')
>>> "roll" in report.to_dict()["rules_fired"]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.balance import (
    BalanceHooks,
    CountRates,
    GameResult,
    derive_seed,
    register_balance,
)
from engine.core import CHANCE, EngineError, Event, Game, State
from engine.vapoosh.playout import RULE_EVENTS, random_playout
from engine.vapoosh.rules import Rules
from engine.vapoosh.state import VapooshGame, deal_preplaced

#: Event kinds of scenario-format.md, counted per game.
EVENT_KINDS: tuple[str, ...] = ("roll", "place", *RULE_EVENTS, "win", "draw")
#: Counted by the simulator itself: a rolled option that was empty but suicide for the roller.
SUICIDE_OPTION = "suicide_option"
COUNTED: tuple[str, ...] = (*EVENT_KINDS, SUICIDE_OPTION)
#: The ordered rolls of four dice (action ids 0..1295), all equally likely.
ROLLS = 1296


#: The section's words: its JSON key and text header are the ones the simulator had.
RULES_FIRED = {
    "key": "rules_fired",
    "label": "rule",
    "header": "rule fired",
    "title": "How often each rule is felt",
    "definition": (
        "per_game: the mean number of times the rule fired in a game (a roll, a "
        "placement, a capture, ...); share_of_games: the share of the simulated games in "
        "which it fired at least once. suicide option: a rolled option that was empty but "
        "would have been suicide for the roller. Easy against easy plays the fast random "
        "playout, which counts neither placements nor suicide options."),
}


class VapooshBalance(BalanceHooks):
    title = "Vapoosh!"
    length_unit = "rolls"
    max_actions = None  # max_turns ends every game
    seat_range = (2, 4)

    def rules_label(self, rules_obj: Any) -> str:
        try:
            name = Rules.from_obj(rules_obj).name
        except EngineError:
            name = "custom"
        return name if name != "custom" else json.dumps(rules_obj, sort_keys=True)

    def chance(self, game: Game, seed: int) -> Callable[[State], int]:
        assert isinstance(game, VapooshGame)
        dice = random.Random(derive_seed(seed, "dice"))
        deal_seed = derive_seed(seed, "deal")

        def draw(state: Any) -> int:
            if state.phase == "setup":
                return game.encode(deal_preplaced(game.rules, game.num_players, deal_seed))
            return dice.randrange(ROLLS)

        return draw

    def fast_game(self, game: Game, levels: tuple[str, ...], seed: int) -> GameResult | None:
        if not all(level == "easy" for level in levels):
            return None
        assert isinstance(game, VapooshGame)
        winner, turns, rule_counts = random_playout(
            game, random.Random(derive_seed(seed, "playout")))
        if winner is None:
            reason = "max_turns"
        elif rule_counts.get("vapoosh"):
            reason = "vapoosh"
        else:
            reason = "pattern"
        counts = {
            "roll": turns,
            **rule_counts,
            "win": int(winner is not None),
            "draw": int(winner is None),
        }
        return GameResult(
            winner, turns, reason, levels, tuple((k, counts[k]) for k in COUNTED if k in counts)
        )

    def observe(self, state: State, mover: int, events: list[Event],
                counts: dict[str, int]) -> None:
        if not events or events[0].kind == "deal":
            return  # the deal is setup, not a rule
        if mover == CHANCE and state.rules.suicide:  # type: ignore[attr-defined]
            counts[SUICIDE_OPTION] = counts.get(SUICIDE_OPTION, 0) + _suicide_options(
                state, events)
        for event in events:
            counts[event.kind] = counts.get(event.kind, 0) + 1

    def winner(self, state: State, seats: int) -> int | None:
        return state.winner  # type: ignore[attr-defined]

    def finish(self, state: State, moves: int, counts: dict[str, int], winner: int | None
               ) -> tuple[int, str, tuple[tuple[str, int], ...]]:
        outcome = state.outcome  # type: ignore[attr-defined]
        return (state.turns,  # type: ignore[attr-defined]
                outcome.reason if outcome is not None else "unknown",
                tuple((k, counts.get(k, 0)) for k in COUNTED))

    def section(self, results: Sequence[GameResult]) -> CountRates:
        return CountRates.of(results, COUNTED, **RULES_FIRED)


def _suicide_options(state: Any, events: list[Event]) -> int:
    """How many rolled options were empty but suicide for the roller (after a roll)."""
    found = 0
    for event in events:
        if event.kind == "reroll":
            found += 1  # a re-roll means one option own, the other suicide
        elif event.kind == "miss_turn":
            found += str(event.data.get("why", "")).split("/").count("suicide")
    if state.phase == "place":
        found += sum(1 for c, r in state.options if state.rule_reason(c, r) == "suicide")
    return found


register_balance("vapoosh", VapooshBalance())
