"""Dokusen's computer levels for the generic players (:mod:`engine.players`), and the
per-stage win-rate table that stands in for a strength table in a one-player game.

The levels, easiest first (``levels("dokusen")``):

- ``random``: :class:`~engine.players.RandomPlayer` (a uniform legal square);
- ``greedy``: §3.6's greedy, deterministic (:func:`engine.dokusen.ai.greedy_action`:
  own tile, one growth, own squares minus the largest other colour's, first best square
  in row-major order);
- ``lookahead``: §3.6's two-ply greedy (:func:`engine.dokusen.ai.lookahead_action`);
- ``search``: the generic :class:`~engine.players.SearchPlayer` (expectimax over the
  placements, the other colours' replies and the meteors' draws) on
  :data:`engine.dokusen.heuristics.HEURISTICS`, within :data:`SEARCH_BUDGET` positions.

Any level can play any colour: the user (a simulated tester) or a computer colour.

Dokusen has one human seat, so level-against-level matches (the other games' strength
rows) mean nothing here; :func:`stage_win_rates` instead plays each level as the user
against every stage's own computer colours and meteors and counts the stages won, with
95% Wilson intervals: how hard each stage is for a player of that level.

>>> from engine.players import levels, make_player
>>> levels("dokusen")
('random', 'greedy', 'lookahead', 'search')
>>> from engine.dokusen.state import DokusenGame, Place
>>> s = DokusenGame("S5").new_initial_state()
>>> _ = s.apply(Place(0, 4))
>>> make_player("greedy", game="dokusen").choose(s).action      # D13: re-takes the fresh tile
Place(r=0, c=4)
>>> row = stage_win_rates(["greedy"], games=2, seed=1, stages=["S1"])[0]
>>> row["pair"], row["wins"], row["games"]
('greedy on S1', 2, 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from engine.core import CHANCE, State, sample_chance
from engine.dokusen.ai import computer_action, greedy_action, lookahead_action
from engine.dokusen.heuristics import HEURISTICS
from engine.dokusen.stage import Stage, builtin_stages
from engine.dokusen.state import DokusenGame, DokusenState
from engine.players import Player, register_levels, standard_levels
from engine.players.arena import derive_seed
from engine.players.base import Decision, capitalised

__all__ = ["LEVELS", "SEARCH_BUDGET", "play_stage", "stage_win_rates", "strength_rows"]

#: Positions one ``search`` decision may create: two full plies on boards up to 50
#: squares (S1-S5), one on the larger ones (it keeps the strength table quick).
SEARCH_BUDGET = 2500


class _RulePlayer(Player):
    """A §3.6 level as a generic player: deterministic, the generator is never drawn."""

    def _pick(self, state: DokusenState) -> int:
        raise NotImplementedError

    def _decide(self, state: State, legal: list[int]) -> Decision:
        assert isinstance(state, DokusenState)
        action = self._pick(state)
        parts = [capitalised(HEURISTICS.describe(state, action)), *HEURISTICS.notes(state, action)]
        return Decision(action, f"{self.level.capitalize()}: " + "; ".join(parts))


class GreedyRulePlayer(_RulePlayer):
    """§3.6 greedy: the first square with the best margin after one growth."""

    level = "greedy"

    def _pick(self, state: DokusenState) -> int:
        return greedy_action(state)


class LookaheadRulePlayer(_RulePlayer):
    """§3.6 lookahead: greedy over two plies (the other side replies greedily)."""

    level = "lookahead"

    def _pick(self, state: DokusenState) -> int:
        return lookahead_action(state)


#: The generic levels on Dokusen's heuristics: ``easy`` is ``random``, ``hard`` is ``search``.
_GENERIC = standard_levels(HEURISTICS, SEARCH_BUDGET)

#: The levels, easiest first.
LEVELS: dict[str, Any] = {
    "random": _GENERIC["easy"],
    "greedy": partial(GreedyRulePlayer, heuristics=HEURISTICS),
    "lookahead": partial(LookaheadRulePlayer, heuristics=HEURISTICS),
    "search": _GENERIC["hard"],
}
register_levels("dokusen", LEVELS, rules="S1")


def play_stage(stage: Stage | str, user: Player, seed: int) -> DokusenState:
    """One whole stage: ``user`` places for blue, the stage's computer colours play their
    own levels and the meteors fall, all drawn from generators seeded from ``seed``."""
    state = DokusenGame(stage).new_initial_state()
    draws = random.Random(derive_seed(seed, "dokusen", "draws"))
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            action = sample_chance(state, draws)
        elif who == 0:
            action = user.decide(state).action
        else:
            action = computer_action(state, draws)
        state.apply_action(action)
    return state


def stage_win_rates(
    level_names: Sequence[str],
    games: int,
    seed: int,
    stages: Sequence[Stage | str] | None = None,
    games_for: dict[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Per stage and user level: stages won out of ``games`` (``games_for[level]``
    overrides it, e.g. fewer for the slow search), with a 95% Wilson interval; rows in the
    shape of ``benchmarks.bench_engine``'s strength rows (``pair`` = "level on stage")."""
    from statsmodels.stats.proportion import proportion_confint
    chosen = list(stages) if stages is not None else list(builtin_stages())
    out = []
    for stage_ref in chosen:
        stage = Stage.from_obj(stage_ref) if not isinstance(stage_ref, Stage) else stage_ref
        for level in level_names:
            n = (games_for or {}).get(level, games)
            start = time.perf_counter()
            wins = rounds = 0
            for g in range(n):
                user = LEVELS[level](derive_seed(seed, "dokusen", stage.id, level, g))
                end = play_stage(stage, user, derive_seed(seed, "dokusen", stage.id, g))
                wins += bool(end.outcome is not None and end.outcome.won)
                rounds += end.round
            low, high = proportion_confint(wins, n, alpha=0.05, method="wilson")
            out.append({
                "game": "dokusen", "pair": f"{level} on {stage.id}", "stage": stage.id,
                "level": level, "games": n, "wins": wins, "losses": n - wins, "draws": 0,
                "share": wins / n, "low": float(low), "high": float(high),
                "mean_rounds": rounds / n, "actions": 0,
                "seconds": time.perf_counter() - start,
            })
    return out


def strength_rows(
    games: int, search_games: int, seed: int, stages: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """``python -m engine bench --strength``'s rows for Dokusen: every level as the user
    on every built-in stage (``search_games`` games for the search level, ``games`` for
    the others; the deterministic levels play each stage once when nothing in it is
    random). The verdict says whether the level wins the stage more often than not."""
    rows = []
    for stage in builtin_stages():
        if stages is not None and stage.id not in stages:
            continue
        chance = bool(stage.schedule or stage.meteors) or any(
            p.ai == "random" for p in stage.players)
        counts = {"random": games, "search": search_games}
        for level in ("greedy", "lookahead"):
            counts[level] = games if chance else 1
        for row in stage_win_rates(list(LEVELS), games, seed, [stage], counts):
            row["verdict"] = (
                "wins" if row["low"] > 0.5 else ("loses" if row["high"] < 0.5 else "unclear"))
            row["note"] = (
                "dokusen has one player: 'level on stage' is the level as the tester against "
                "the stage's own computer colours and meteors; its stages won, 95% Wilson "
                "interval (greedy and lookahead play a stage without chance once)")
            rows.append(row)
    return rows
