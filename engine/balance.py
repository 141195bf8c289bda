"""Balance simulation of any registered game: computer players play many seeded games
and the numbers a designer asks about come back as frozen values.

:func:`simulate` plays ``games`` games of a game (:func:`engine.core.make_game`) whose
seats are computer levels (:mod:`engine.players`), and sums them up in a
:class:`SimulationReport`:

- **wins per seat** and **per level**: wins among *decided* games (draws left out), each
  with its 95% Wilson interval (statsmodels);
- **draws**: the share of all games without a winner, with its Wilson interval;
- **game length**: in the game's own unit (moves unless the game says rolls or rounds),
  the quantiles, and the median's 95% distribution-free interval (binomial order
  statistics);
- **the game's own section**: whatever a game adds through its :class:`BalanceHooks`
  (registered in ``engine/<game>/balance.py``); a game without hooks gets how often each
  kind of engine event happens (:class:`CountRates`).

Chance (dice, draws, deals) is sampled from ``state.chance_outcomes()`` with a numpy
``Generator`` that the simulator owns, seeded per game; the engine keeps no random
generator. Every game's seeds derive from ``seed`` and the game's number only, so the
same seed gives the same report whatever the number of worker processes, and ``2n``
games begin with the same ``n`` games as a run of ``n`` (so "run more" extends a run).
With ``rotate`` the seats shift by one every game, so every level plays every position
equally often and the level table measures strength, not the seat.

A game whose designer fills fewer seats than the game has (a one-player game against the
stage's own computer colours) names the other seats' moves in its hooks
(:meth:`BalanceHooks.house_action`); their wins count as the **house**'s.

>>> from engine.players import levels
>>> game = default_game()
>>> easy = levels(game)[0]
>>> report = simulate(game, None, [easy, easy], games=12, seed=1)
>>> report.games, report.decided + report.draws, len(report.seat_wins)
(12, 12, 2)
>>> report == simulate(game, None, [easy, easy], games=12, seed=1, workers=2)
True
"""

from __future__ import annotations

import bisect
import hashlib
import importlib
import itertools
import json
import math
import multiprocessing
import random
import statistics
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np

from engine.core import CHANCE, EngineError, Event, Game, RulesError, State, make_game
from engine.players import PlayerError, default_rules, levels, make_player

__all__ = [
    "HOUSE",
    "BalanceHooks",
    "CountRates",
    "GameResult",
    "GameSection",
    "Interval",
    "LengthStats",
    "RuleRate",
    "SectionTable",
    "SimulationError",
    "SimulationReport",
    "balance_hooks",
    "default_game",
    "derive_seed",
    "length_stats",
    "median_interval",
    "play_game",
    "register_balance",
    "simulate",
    "simulate_parts",
    "summarise",
    "wilson",
]

#: ``GameResult.winner`` when the seats the designer did not fill won (the stage's own
#: computer colours of a one-player game).
HOUSE = 0


class SimulationError(EngineError):
    """Bad simulation parameters (seats, games, workers); the message names the field."""


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (same in every process and Python run).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    True
    """
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# -- intervals ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A proportion with its 95% Wilson score interval.

    >>> i = wilson(60, 100)
    >>> (i.share, round(i.low, 3), round(i.high, 3))
    (0.6, 0.502, 0.691)
    """

    successes: int
    trials: int
    share: float
    low: float
    high: float


def wilson(successes: int, trials: int) -> Interval:
    """95% Wilson score interval for ``successes`` out of ``trials`` (0..1 when trials is 0):
    statsmodels' ``proportion_confint(method="wilson")``."""
    if trials == 0:
        return Interval(0, 0, 0.0, 0.0, 1.0)
    # imported here: the engine's play loop never needs statsmodels (slow to import)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, trials, alpha=0.05, method="wilson")
    return Interval(successes, trials, successes / trials, max(0.0, float(low)),
                    min(1.0, float(high)))


@dataclass(frozen=True)
class LengthStats:
    """Game length in the game's unit: summary and a histogram of (from, to_exclusive, games)."""

    mean: float
    median: float
    p10: float
    p25: float
    p75: float
    p90: float
    p99: float
    minimum: int
    maximum: int
    histogram: tuple[tuple[int, int, int], ...]


def length_stats(lengths: list[int]) -> LengthStats:
    """Summary of sorted game lengths: numpy's default (linear) quantiles, 20-odd bins.

    >>> s = length_stats([3, 5, 8, 13])
    >>> s.median, s.minimum, s.maximum, sum(b[2] for b in s.histogram)
    (6.5, 3, 13, 4)
    """
    width = max(1, math.ceil((lengths[-1] + 1) / 20 / 5) * 5) if lengths else 5
    bins: dict[int, int] = {}
    for t in lengths:
        bins[t // width] = bins.get(t // width, 0) + 1
    histogram = tuple(
        (b * width, (b + 1) * width, bins.get(b, 0))
        for b in range(min(bins, default=0), max(bins, default=-1) + 1)
    )
    # numpy's default (linear) quantiles; 0 for no games
    median, p10, p25, p75, p90, p99 = (
        np.quantile(lengths, [0.5, 0.10, 0.25, 0.75, 0.90, 0.99]).tolist()
        if lengths else [0.0] * 6)
    return LengthStats(
        mean=statistics.fmean(lengths) if lengths else 0.0,
        median=median,
        p10=p10,
        p25=p25,
        p75=p75,
        p90=p90,
        p99=p99,
        minimum=lengths[0] if lengths else 0,
        maximum=lengths[-1] if lengths else 0,
        histogram=histogram,
    )


def median_interval(lengths: Sequence[int]) -> tuple[float, float]:
    """A 95% interval for the median game length that assumes no distribution: the
    order statistics ``x(k)`` and ``x(n+1-k)`` of the sorted lengths, ``k`` the largest
    count with ``P(Binomial(n, 1/2) < k) <= 2.5%`` (coverage at least 95%; with fewer
    than 6 games no such ``k`` exists and the interval is the whole range).

    >>> median_interval(list(range(1, 101)))
    (40.0, 61.0)
    >>> median_interval([4, 9])
    (4.0, 9.0)
    """
    ordered = sorted(lengths)
    n = len(ordered)
    if n == 0:
        return (0.0, 0.0)
    from scipy.stats import binom

    k = int(binom.ppf(0.025, n, 0.5))  # smallest k with P(X <= k) >= 2.5%
    if binom.cdf(k, n, 0.5) > 0.025:
        k -= 1  # then P(X <= k) <= 2.5%: x(k+1) is a lower bound with that error
    if k < 0:
        return (float(ordered[0]), float(ordered[-1]))
    return (float(ordered[k]), float(ordered[n - 1 - k]))


# -- one game -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One simulated game: the winning seat (1-based; :data:`HOUSE` for the seats the
    designer did not fill; None for a draw), its length in the game's unit, why it ended,
    the level of each seat, and the game's own counts (event kinds, ...)."""

    winner: int | None
    turns: int
    reason: str
    levels: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RuleRate:
    """How often something happened: mean times per game, and share of games with it."""

    per_game: float
    games_share: float


@dataclass(frozen=True)
class SectionTable:
    """One table of a game's own section, for the Balance page.

    ``rows`` are records (column → value); ``percent`` the columns shown as percentages;
    ``definition`` says what every number in it is.
    """

    key: str
    title: str
    definition: str
    rows: tuple[Mapping[str, Any], ...]
    percent: tuple[str, ...] = ()
    #: the chart the page draws of it: (label column, value column, chart title), or None
    chart: tuple[str, str, str] | None = None


class GameSection(Protocol):
    """A game's own statistics over a whole run (:meth:`BalanceHooks.section`)."""

    def to_dict(self) -> dict[str, Any]: ...

    def text_lines(self) -> list[str]: ...

    def tables(self) -> list[SectionTable]: ...


def rates(results: Sequence[GameResult], kinds: Sequence[str] | None = None
          ) -> dict[str, RuleRate]:
    """Per kind of count: mean per game, and share of games where it was above 0 (kinds
    in ``kinds`` order when given, else in order of first appearance).

    >>> r = GameResult(1, 9, "win", ("a", "b"), (("wall", 2),))
    >>> rates([r, GameResult(None, 3, "draw", ("a", "b"), ())])
    {'wall': RuleRate(per_game=1.0, games_share=0.5)}
    """
    games = len(results)
    per_game = [dict(r.counts) for r in results]
    if kinds is None:
        kinds = list(dict.fromkeys(k for c in per_game for k in c))
    out = {}
    for kind in kinds:
        if games and any(kind in c for c in per_game):
            values = [c.get(kind, 0) for c in per_game]
            out[kind] = RuleRate(sum(values) / games, sum(1 for v in values if v) / games)
    return out


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% t-interval of a mean (statsmodels' ``tconfint_mean``); NaN for fewer than two
    values, the mean itself when they are all equal.

    >>> [round(x, 3) for x in mean_interval([1, 2, 3, 4])]
    [0.446, 4.554]
    >>> mean_interval([2, 2, 2])
    (2.0, 2.0)
    """
    if len(values) < 2:
        return (math.nan, math.nan)
    if min(values) == max(values):
        return (float(values[0]), float(values[0]))
    from statsmodels.stats.weightstats import DescrStatsW

    low, high = DescrStatsW(np.asarray(values, dtype=float)).tconfint_mean(alpha=0.05)
    return (float(low), float(high))


@dataclass(frozen=True)
class CountRates:
    """How often each kind of count happened over a run: the section of a game without
    its own (``key`` ``"events"``: every engine event kind), and the shape of a game's
    own counts (its rules felt).

    ``rates`` are in ``to_dict()`` (mean per game, share of games); ``intervals`` hold
    each kind's 95% intervals for the page: the share of games (Wilson) and the mean
    per game (t).
    """

    rates: Mapping[str, RuleRate]
    intervals: Mapping[str, tuple[Interval, tuple[float, float]]]
    key: str = "events"
    label: str = "event"
    header: str = "event"
    title: str = "How often each event happens"
    definition: str = ("per_game: the mean number of times a game had the event (the "
                       "engine's events: a placement, a removal, a draw of chance, ...); "
                       "share_of_games: the share of the simulated games that had it at "
                       "least once.")

    @classmethod
    def of(cls, results: Sequence[GameResult], kinds: Sequence[str] | None = None,
           **texts: str) -> CountRates:
        """The rates and intervals of ``results`` (see :func:`rates`)."""
        found = rates(results, kinds)
        per_game = [dict(r.counts) for r in results]
        intervals = {}
        for kind in found:
            values = [c.get(kind, 0) for c in per_game]
            low, high = mean_interval(values)
            # a count is never below 0 (the t-interval of a few 0/1 games can reach it)
            intervals[kind] = (wilson(sum(1 for v in values if v), len(values)),
                               (max(0.0, low) if not math.isnan(low) else low, high))
        return cls(found, intervals, **texts)

    def to_dict(self) -> dict[str, Any]:
        return {self.key: {k: asdict(v) for k, v in self.rates.items()}}

    def text_lines(self) -> list[str]:
        lines = ["", f"{self.header:<18}{'per game':>10}{'games':>9}"]
        for kind, rate in self.rates.items():
            lines.append(f"{kind:<18}{rate.per_game:>10.2f}{rate.games_share:>9.1%}")
        return lines

    def tables(self) -> list[SectionTable]:
        ranked = sorted(self.rates.items(), key=lambda item: -item[1].games_share)
        rows = []
        for kind, rate in ranked:
            share, (mean_low, mean_high) = self.intervals[kind]
            rows.append({self.label: kind.replace("_", " "), "per_game": rate.per_game,
                         "per_game_ci95_low": mean_low, "per_game_ci95_high": mean_high,
                         "share_of_games": rate.games_share, "ci95_low": share.low,
                         "ci95_high": share.high})
        return [SectionTable(
            key=self.key, title=self.title,
            definition=(f"{self.definition} Intervals are 95%: per_game_ci95 a t-interval "
                        "of the mean, ci95 a Wilson interval of the share."),
            rows=tuple(rows), percent=("share_of_games", "ci95_low", "ci95_high"),
            chart=(self.label, "share_of_games", f"Share of games with the {self.label}"))]


class BalanceHooks:
    """What a game may add to the generic simulator; the defaults fit any game of the
    engine core. A game registers a subclass in ``engine/<game>/balance.py`` with
    :func:`register_balance`.
    """

    #: The game's name for people (the text report's first line); "" for the engine name.
    title: str = ""
    #: What a game's length counts ("moves": every seat's decisions).
    length_unit: str = "moves"
    #: A game stops as a draw after this many actions (None: the game's rules end it).
    max_actions: int | None = 2000
    #: The fewest and most computer levels a run names (None: as many as the game has
    #: seats, which ``make_game`` checks).
    seat_range: tuple[int, int] | None = None

    def rules_label(self, rules_obj: Any) -> str:
        """The rules in a few words for the report: a preset's name, else its JSON."""
        return rules_obj if isinstance(rules_obj, str) else json.dumps(rules_obj, sort_keys=True)

    def parts(self, rules: Any) -> list[tuple[str, Any]]:
        """The rule sets one study's rules stand for, each simulated on its own (a course
        of stages); one unnamed part by default."""
        return [("", rules)]

    def chance(self, game: Game, seed: int) -> Callable[[State], int]:
        """How chance nodes are drawn in the game seeded ``seed``: a numpy Generator
        over ``state.chance_outcomes()`` (:func:`numpy_chance`)."""
        return numpy_chance(np.random.default_rng(derive_seed(seed, "chance")))

    def fast_game(self, game: Game, levels: tuple[str, ...], seed: int) -> GameResult | None:
        """A faster loop with the same rules and players for these levels, or None."""
        return None

    def house_action(self, state: State, rng: random.Random) -> int:
        """The move of a seat the designer did not fill (the game's own computer)."""
        raise SimulationError(
            f"seats: seat {state.current_player() + 1} has no computer level "
            "(name one level per seat)")

    def observe(self, state: State, mover: int, events: list[Event],
                counts: dict[str, int]) -> None:
        """After each action (``mover``: the seat that acted, or CHANCE): count events."""
        for event in events:
            counts[event.kind] = counts.get(event.kind, 0) + 1

    def winner(self, state: State, seats: int) -> int | None:
        """The 1-based winning seat of a finished game: the one seat with the highest
        return; :data:`HOUSE` when all seats sharing the highest return are seats the
        designer did not fill; None for a draw (all returns equal, or a win shared by
        filled seats)."""
        returns = list(state.returns())
        best = max(returns)
        top = [s for s, r in enumerate(returns) if r >= best - 1e-12]
        if len(top) == len(returns):
            return None
        if all(s >= seats for s in top):
            return HOUSE
        return top[0] + 1 if len(top) == 1 else None

    def finish(self, state: State, moves: int, counts: dict[str, int], winner: int | None
               ) -> tuple[int, str, tuple[tuple[str, int], ...]]:
        """A finished (or capped) game's length, end reason and counts (``winner``: what
        :meth:`winner` said, None for a draw or a capped game)."""
        if not state.is_terminal():
            return moves, "action_cap", tuple(counts.items())
        return moves, "draw" if winner is None else "win", tuple(counts.items())

    def section(self, results: Sequence[GameResult]) -> GameSection:
        """The game's own statistics over the run."""
        return CountRates.of(results)


_HOOKS: dict[str, BalanceHooks] = {}


def register_balance(game: str, hooks: BalanceHooks) -> None:
    """Make the simulator use ``hooks`` for ``game``."""
    _HOOKS[game] = hooks


def balance_hooks(game: str) -> BalanceHooks:
    """``game``'s hooks (imports ``engine.<game>.balance`` on first use), else the
    defaults."""
    if game not in _HOOKS:
        try:
            importlib.import_module(f"engine.{game}.balance")
        except ModuleNotFoundError as err:
            if err.name not in (f"engine.{game}", f"engine.{game}.balance"):
                raise
        _HOOKS.setdefault(game, BalanceHooks())
    return _HOOKS[game]


def default_game() -> str:
    """The engine's first game: the one whose scenarios need not name it
    (:func:`engine.scenario.unnamed_reader`)."""
    from engine.scenario import unnamed_reader

    return unnamed_reader().__name__.split(".")[1]


def numpy_chance(rng: np.random.Generator) -> Callable[[State], int]:
    """Draw a chance node's outcome with one ``rng.random()`` against the cumulative
    probabilities of ``state.chance_outcomes()``.

    >>> class Coin:
    ...     def chance_outcomes(self): return [(7, 0.25), (9, 0.75)]
    >>> draw = numpy_chance(np.random.default_rng(1))
    >>> sorted({draw(Coin()) for _ in range(50)})
    [7, 9]
    """

    def draw(state: Any) -> int:
        outcomes = state.chance_outcomes()
        cumulative = list(itertools.accumulate(p for _, p in outcomes))
        k = bisect.bisect_right(cumulative, float(rng.random()) * cumulative[-1])
        return int(outcomes[min(k, len(outcomes) - 1)][0])

    return draw


def _rules_key(rules: Any) -> str:
    return repr(rules) if not isinstance(rules, dict | list) else json.dumps(
        rules, sort_keys=True, default=repr)


_GAMES: dict[tuple[str, str, int], Game] = {}


def _game(name: str, rules: Any, players: int) -> Game:
    # Games are immutable; building one can list its deals (~20 ms): keep them per process.
    key = (name, _rules_key(rules), players)
    if key not in _GAMES:
        if len(_GAMES) > 64:
            _GAMES.clear()
        _GAMES[key] = make_game(name, rules, players)
    return _GAMES[key]


def play_game(game: str, rules: Any, levels: Sequence[str], seed: int) -> GameResult:
    """Play one game to the end: seat s is a computer of ``levels[s-1]``, chance and
    every player seeded from ``seed``.

    >>> from engine.players import levels as named
    >>> g = default_game(); lv = named(g)[:2]
    >>> play_game(g, None, lv, seed=5) == play_game(g, None, lv, seed=5)
    True
    """
    hooks = balance_hooks(game)
    rules = default_rules(game) if rules is None else rules
    levels = tuple(levels)
    g = _game(game, rules, len(levels))
    fast = hooks.fast_game(g, levels, seed)
    if fast is not None:
        return fast
    players = [make_player(level, seed=derive_seed(seed, "seat", s), game=game)
               for s, level in enumerate(levels)]
    draw = hooks.chance(g, seed)
    house = random.Random(derive_seed(seed, "house"))
    state = g.new_initial_state()
    counts: dict[str, int] = {}
    moves = actions = 0
    cap = hooks.max_actions
    while not state.is_terminal() and (cap is None or actions < cap):
        mover = state.current_player()
        if mover == CHANCE:
            action = draw(state)
        elif mover < len(players):
            action = players[mover].decide(state).action
            moves += 1
        else:
            action = hooks.house_action(state, house)
            moves += 1
        events = state.apply_action(action)
        actions += 1
        hooks.observe(state, mover, events, counts)
    winner = hooks.winner(state, len(players)) if state.is_terminal() else None
    length, reason, counted = hooks.finish(state, moves, counts, winner)
    return GameResult(winner, length, reason, levels, counted)


# -- many games ---------------------------------------------------------------------------


def levels_for(seats: Sequence[str], game: int, rotate: bool) -> tuple[str, ...]:
    """The levels in each seat in game number ``game`` (shifted by one a game if rotated).

    >>> [levels_for(["a", "b", "c"], g, True) for g in range(2)]
    [('a', 'b', 'c'), ('b', 'c', 'a')]
    """
    n = len(seats)
    shift = game % n if rotate else 0
    return tuple(seats[(s + shift) % n] for s in range(n))


_Job = tuple[str, Any, tuple[str, ...], int, bool, str, int, int]


def game_seed(seed: int, part: str, number: int) -> int:
    """The seed of game ``number`` of a run (of one part of the rules, if named)."""
    return derive_seed(seed, "game", number) if not part else derive_seed(
        seed, "part", part, "game", number)


def _run_chunk(args: _Job) -> list[GameResult]:
    game, rules, seats, seed, rotate, part, start, stop = args
    return [
        play_game(game, rules, levels_for(seats, g, rotate), game_seed(seed, part, g))
        for g in range(start, stop)
    ]


def play_games(game: str, rules: Any, seats: Sequence[str], seed: int, rotate: bool,
               start: int, stop: int, workers: int = 1, part: str = "") -> list[GameResult]:
    """Games number ``start`` to ``stop - 1`` of a run, in game order (the same results
    whatever ``workers`` is, and whatever the run's total number of games)."""
    seats_t = tuple(seats)
    chunks = _chunks(start, stop, workers)
    jobs: list[_Job] = [(game, rules, seats_t, seed, rotate, part, a, b) for a, b in chunks]
    if workers == 1 or len(jobs) <= 1:
        parts = [_run_chunk(j) for j in jobs]
    else:
        # fork starts fastest, but forking a process that runs threads (a Streamlit
        # server) can deadlock; then use forkserver.
        method = "fork" if threading.active_count() == 1 else "forkserver"
        context = multiprocessing.get_context(method)
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            parts = list(pool.map(_run_chunk, jobs))
    return [r for part in parts for r in part]


def _chunks(start: int, stop: int, workers: int) -> list[tuple[int, int]]:
    # Several chunks per worker even out slow games. Each game's seed depends only on its
    # number and results are put back in game order, so chunking never changes the report.
    games = stop - start
    count = max(1, min(games, workers * 4 if workers > 1 else 1))
    edges = [start + games * k // count for k in range(count + 1)]
    return [(edges[k], edges[k + 1]) for k in range(count) if edges[k] < edges[k + 1]]


def check(game: str, rules: Any, seats: Sequence[str], games: int, workers: int
          ) -> tuple[str, ...]:
    """The seats as a tuple, or :class:`SimulationError` naming the bad field."""
    try:
        known = levels(game)
    except PlayerError as err:
        raise SimulationError(f"game: {err}") from None
    allowed = balance_hooks(game).seat_range
    if allowed is not None and not allowed[0] <= len(seats) <= allowed[1]:
        low, high = allowed
        need = f"{low}" if low == high else f"{low} to {high}"
        raise SimulationError(f"seats: need {need} computer levels, got {len(seats)}")
    if not seats:
        raise SimulationError("seats: name at least one computer level")
    for level in seats:
        if level not in known:
            raise SimulationError(f"seats: unknown level {level!r} (choose {', '.join(known)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games: must be a whole number of at least 1, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise SimulationError(f"workers: must be a whole number from 1 to 64, got {workers!r}")
    try:
        _game(game, default_rules(game) if rules is None else rules, len(seats))
    except RulesError as err:
        message = str(err)
        if message.startswith("players:"):
            raise SimulationError(f"seats: {message.split(':', 1)[1].strip()}") from None
        raise
    return tuple(seats)


def simulate(game: str, rules: Any, seats: Sequence[str], games: int, seed: int,
             workers: int = 1, rotate: bool = False, part: str = "") -> SimulationReport:
    """Play ``games`` seeded games of ``game`` (rules: a preset name or rules object;
    None for the rules its levels are registered with) with computer ``seats``, and sum
    them up (``part``: the name of the part of a study's rules these rules are, which
    gives the games their own seeds). Raises :class:`SimulationError` (or RulesError) on
    bad parameters."""
    seats_t = check(game, rules, seats, games, workers)
    rules = default_rules(game) if rules is None else rules
    results = play_games(game, rules, seats_t, seed, rotate, 0, games, workers, part)
    return summarise(game, rules, seats_t, rotate, seed, results, part)


def simulate_parts(game: str, rules: Any, seats: Sequence[str], games: int, seed: int,
                   workers: int = 1, rotate: bool = False
                   ) -> tuple[tuple[str, SimulationReport], ...]:
    """:func:`simulate` for each part of ``rules`` (:meth:`BalanceHooks.parts`: the
    stages of a course), each with its own seeds; ``(label, report)`` pairs."""
    hooks = balance_hooks(game)
    rules = default_rules(game) if rules is None else rules
    out = []
    for label, part in hooks.parts(rules):
        out.append((label, simulate(game, part, seats, games, seed, workers, rotate, label)))
    return tuple(out)


@dataclass(frozen=True)
class SimulationReport:
    """What :func:`simulate` measured. ``to_dict()`` is JSON-ready; ``to_text()`` a table.

    ``first_seat`` is seat 1's share of decided games, ``first_seat_fair`` the fair share
    1/seats; ``house`` the share of decided games the seats nobody filled won (None
    when the designer fills every seat); ``draw_rate`` draws among all games;
    ``median_ci`` the median length's 95% interval.
    """

    rules: Any
    seats: tuple[str, ...]
    rotate: bool
    games: int
    seed: int
    decided: int
    draws: int
    first_seat: Interval
    first_seat_fair: float
    seat_wins: tuple[Interval, ...]
    level_wins: dict[str, Interval]
    end_reasons: dict[str, int]
    length: LengthStats
    section: GameSection
    game: str = ""
    title: str = ""
    length_unit: str = "moves"
    rules_label: str = ""
    draw_rate: Interval = field(default_factory=lambda: wilson(0, 0))
    median_ci: tuple[float, float] = (0.0, 0.0)
    house: Interval | None = None
    part: str = ""

    @property
    def first_seat_advantage(self) -> float:
        """Seat 1's win share among decided games minus the fair share 1/players."""
        return self.first_seat.share - self.first_seat_fair

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON: the same keys for every game, then the game's section's
        keys, then the numbers added with the platform (``game``, ``draw_rate``,
        ``median_ci95``, ``house``)."""
        out: dict[str, Any] = {
            "rules": self.rules,
            "seats": list(self.seats),
            "rotate": self.rotate,
            "games": self.games,
            "seed": self.seed,
            "decided": self.decided,
            "draws": self.draws,
            "first_seat": asdict(self.first_seat),
            "first_seat_fair": self.first_seat_fair,
            "seat_wins": [asdict(i) for i in self.seat_wins],
            "level_wins": {k: asdict(v) for k, v in self.level_wins.items()},
            "end_reasons": dict(self.end_reasons),
            "length": asdict(self.length),
        }
        out["length"]["histogram"] = [list(b) for b in self.length.histogram]
        out.update(self.section.to_dict())
        out["first_seat_advantage"] = self.first_seat_advantage
        out["game"] = self.game
        out["draw_rate"] = asdict(self.draw_rate)
        out["median_ci95"] = list(self.median_ci)
        out["house"] = asdict(self.house) if self.house is not None else None
        return out

    def to_text(self) -> str:
        lines = [
            f"{self.title or self.game} simulation: rules {self.rules_label}, seats "
            f"{','.join(self.seats)}{' (rotated each game)' if self.rotate else ''}, "
            f"{self.games} games, seed {self.seed}",
            f"decided {self.decided}, draws {self.draws} ({_pct(self.draws, self.games)})",
        ]
        if len(self.seats) > 1:  # one filled seat has no other seat to be fair to
            lines += [
                "",
                "first-seat advantage (seat 1's win share among decided games minus fair "
                "share):",
                f"  seat 1 wins {_interval_text(self.first_seat)}, fair "
                f"{self.first_seat_fair:.1%}, advantage {self.first_seat_advantage:+.1%}",
                *(
                    ["  (the seats hold different levels: use --rotate to measure the seat "
                     "alone)"]
                    if len(set(self.seats)) > 1 and not self.rotate
                    else []
                ),
            ]
        lines += ["", f"{'seat':<6}{'level':<10}{'wins':>8}{'share':>9}  95% interval"]
        for s, (level, i) in enumerate(zip(self.seats, self.seat_wins, strict=True), start=1):
            lvl = "(rotated)" if self.rotate else level
            lines.append(
                f"{s:<6}{lvl:<10}{i.successes:>8}{i.share:>9.1%}  [{i.low:.1%}, {i.high:.1%}]"
            )
        if self.house is not None:
            i = self.house
            lines.append(
                f"{'-':<6}{'(house)':<10}{i.successes:>8}{i.share:>9.1%}  "
                f"[{i.low:.1%}, {i.high:.1%}]")
        if len(self.level_wins) > 1 or self.rotate:
            lines += ["", f"{'level':<10}{'wins':>8}{'share':>9}  95% interval (of decided games)"]
            for level, i in self.level_wins.items():
                lines.append(
                    f"{level:<10}{i.successes:>8}{i.share:>9.1%}  [{i.low:.1%}, {i.high:.1%}]"
                )
        ln = self.length
        lines += [
            "",
            f"game length in {self.length_unit}: mean {ln.mean:.1f}, median {ln.median:g}, "
            f"p10 {ln.p10:g}, p25 {ln.p25:g}, p75 {ln.p75:g}, p90 {ln.p90:g}, p99 {ln.p99:g}, "
            f"min {ln.minimum}, max {ln.maximum}",
        ]
        peak = max((b[2] for b in ln.histogram), default=1) or 1
        for lo, hi, n in ln.histogram:
            bar = "#" * round(40 * n / peak)
            lines.append(f"  {lo:>4}-{hi - 1:<4}{n:>7}  {bar}")
        lines += ["", "end reasons: " + ", ".join(f"{k} {v}" for k, v in self.end_reasons.items())]
        lines += self.section.text_lines()
        return "\n".join(lines)


def _pct(n: int, d: int) -> str:
    return f"{n / d:.1%}" if d else "-"


def _interval_text(i: Interval) -> str:
    return f"{i.successes}/{i.trials} = {i.share:.1%} [{i.low:.1%}, {i.high:.1%}]"


def summarise(game: str, rules: Any, seats: tuple[str, ...], rotate: bool, seed: int,
              results: list[GameResult], part: str = "") -> SimulationReport:
    """Turn per-game results (in game order) into a report."""
    hooks = balance_hooks(game)
    g = _game(game, rules, len(seats))
    n = len(seats)
    games = len(results)
    decided = [r for r in results if r.winner is not None]
    seat_counts = [sum(1 for r in decided if r.winner == s) for s in range(1, n + 1)]
    house_wins = sum(1 for r in decided if r.winner == HOUSE)
    level_counts: dict[str, int] = {level: 0 for level in dict.fromkeys(seats)}
    for r in decided:
        if r.winner is not None and r.winner != HOUSE:
            level_counts[r.levels[r.winner - 1]] += 1
    lengths = sorted(r.turns for r in results)
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    rules_obj = g.rules_obj()
    has_house = g.num_players > n
    return SimulationReport(
        rules=rules_obj,
        seats=seats,
        rotate=rotate,
        games=games,
        seed=seed,
        decided=len(decided),
        draws=games - len(decided),
        first_seat=wilson(seat_counts[0], len(decided)),
        first_seat_fair=1 / n,
        seat_wins=tuple(wilson(c, len(decided)) for c in seat_counts),
        level_wins={lv: wilson(c, len(decided)) for lv, c in level_counts.items()},
        end_reasons=dict(sorted(reasons.items())),
        length=length_stats(lengths),
        section=hooks.section(results),
        game=game,
        title=hooks.title or game,
        length_unit=hooks.length_unit,
        rules_label=hooks.rules_label(rules_obj),
        draw_rate=wilson(games - len(decided), games),
        median_ci=median_interval(lengths),
        house=wilson(house_wins, len(decided)) if has_house else None,
        part=part,
    )

