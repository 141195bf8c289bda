"""Dokusen per stage: wins, rounds, and squares that flip against the tester.

Definitions (read from the study's events; engine events are logged as their kind with
``seat`` (1-based: the user is seat 1), ``tiles`` and the event's data as props):

- **game**: the events between a ``game_start`` (props ``game_id``, ``rules``: the stage
  id, or a stage object whose ``id`` names it, else ``"custom"``) and the next one in
  the same session. It is **finished** when a ``win`` or ``loss`` event ends it (props
  ``rounds``); a game left or restarted has no result.
- **first-attempt win rate** of a stage: among the testers whose first game of that stage
  finished, the share who won it. Testers are independent, so the 95 % interval is
  Wilson's.
- **rounds**: the rounds a finished game lasted; per stage the median with a
  distribution-free 95 % interval (binomial order statistics; none below 6 games).
- **fresh flip** (the "I placed it and it turned orange" signal): a tester's placement
  whose square belongs to another colour right after the growth that ends the same
  round, because the growth flipped it (``grow`` lists it with ``after`` ≠ 0), not
  because an active colour placed on it first (that is **taken**, counted apart).
  Per stage the share of placements with a fresh flip; a tester's placements are not
  independent, so the 95 % interval is a cluster bootstrap over testers (2000
  resamples, fixed seed: the same data give the same interval).

>>> from analytics.data import StudyData
>>> empty = StudyData.empty("s")
>>> games(empty).empty, stage_summary(empty).empty, fresh_flips(empty).empty
(True, True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData
from analytics.game_parts import wilson

GAME_COLUMNS = ["participant_id", "session_id", "game_id", "stage", "result", "rounds", "attempt"]
FLIP_COLUMNS = [
    "participant_id",
    "game_id",
    "stage",
    "round",
    "at",
    "taken",
    "flipped",
    "lost",
    "turn_id",
]
SUMMARY_COLUMNS = [
    "stage",
    "games",
    "finished",
    "testers",
    "first_wins",
    "first_finished",
    "win_rate",
    "win_low",
    "win_high",
    "rounds_median",
    "rounds_low",
    "rounds_high",
    "placements",
    "flip_rate",
    "flip_low",
    "flip_high",
    "taken_rate",
]
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 14


def stage_label(rules: Any) -> str:
    """The stage a game's ``rules`` names.

    >>> stage_label("S4"), stage_label({"id": "S9", "board": ["."]}), stage_label({"board": ["."]})
    ('S4', 'S9', 'custom')
    """
    if isinstance(rules, str) and rules:
        return rules
    if isinstance(rules, dict) and isinstance(rules.get("id"), str) and rules["id"]:
        return str(rules["id"])
    return "custom"


#: The events the per-stage walk reads, with their props (a study's prepared tables:
#: ``GameAnalytics.prepared``).
LOG: dict[str, list[str]] = {
    "game_start": ["game_id", "rules"],
    "place": ["seat", "tiles"],
    "grow": ["tiles", "before", "after", "round"],
    "win": ["rounds"],
    "loss": ["rounds"],
}


def _walk(data: StudyData) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One pass over the game's events: the games and the tester's placements."""
    wanted = derive.log_of(data, LOG)
    if wanted.empty:
        return [], []
    games_out: list[dict[str, Any]] = []
    flips: list[dict[str, Any]] = []
    attempts: dict[tuple[str, str], int] = {}
    game: dict[str, Any] | None = None
    pending: list[dict[str, Any]] = []  # the tester's placements of the running round
    session = None
    rounds_seen = 0
    for ev in wanted.to_dict("records"):
        if ev["session_code"] != session:
            session, game, pending = ev["session_code"], None, []
        props = {key: ev.get(key) for key in LOG[ev["type"]]}
        if "game_id" in props:
            props["game_id"] = ev.get("prop_game_id")
        props = {key: value for key, value in props.items() if _present(value)}
        present: dict[str, Any] = props
        kind = ev["type"]
        if kind == "game_start":
            stage = stage_label(props.get("rules"))
            key = (str(ev["participant_id"]), stage)
            attempts[key] = attempts.get(key, 0) + 1
            game = {
                "participant_id": ev["participant_id"],
                "session_id": ev["session_id"],
                "game_id": props.get("game_id", ev.get("game_id")),
                "stage": stage,
                "result": None,
                "rounds": np.nan,
                "attempt": attempts[key],
            }
            games_out.append(game)
            pending, rounds_seen = [], 0
        elif game is None:
            continue
        elif kind == "place":
            tiles = props.get("tiles") or []
            if not tiles:
                continue
            at = (int(tiles[0][0]), int(tiles[0][1]))
            if props.get("seat") == 1:
                # the tester's decision this placement closed (the core's turn)
                pending.append({"at": at, "taken": False, "turn_id": int(ev["turn_no"])})
            else:
                for p in pending:
                    if p["at"] == at:
                        p["taken"] = True
        elif kind == "grow":
            rounds_seen += 1
            tiles = [tuple(int(v) for v in t) for t in props.get("tiles") or []]
            before = props.get("before") or []
            after = props.get("after") or []
            flipped_to = dict(zip(tiles, after, strict=False))
            lost = sum(1 for b, a in zip(before, after, strict=False) if b == 0 and a != 0)
            for p in pending:
                flips.append(
                    {
                        "participant_id": game["participant_id"],
                        "game_id": game["game_id"],
                        "stage": game["stage"],
                        "round": int(present.get("round", rounds_seen)),
                        "at": p["at"],
                        "taken": p["taken"],
                        "flipped": (not p["taken"]) and flipped_to.get(p["at"], 0) != 0,
                        "lost": lost,
                        "turn_id": p["turn_id"],
                    }
                )
            pending = []
        elif kind in ("win", "loss"):
            game["result"] = kind
            game["rounds"] = float(present.get("rounds", rounds_seen))
            game = None
    return games_out, flips


def _present(value: Any) -> bool:
    """A prop the event logged (a table's NaN is a prop it did not)."""
    return value is not None and not (isinstance(value, float) and np.isnan(value))


def games(data: StudyData) -> pd.DataFrame:
    """One row per Dokusen game: tester, stage, ``result`` (``win``/``loss``/None),
    ``rounds`` (NaN unless finished) and ``attempt`` (1 = the tester's first game of it)."""
    def build() -> pd.DataFrame:
        table = pd.DataFrame(_walk(data)[0], columns=GAME_COLUMNS)
        # an unfinished game's result is None (not NaN), like the engine's outcome
        table["result"] = table["result"].astype(object).where(table["result"].notna(), None)
        return table

    return derive.remember(data, "dokusen:games", build).copy()


def fresh_flips(data: StudyData) -> pd.DataFrame:
    """One row per tester placement followed by a growth (see the module docstring)."""
    return derive.remember(
        data, "dokusen:flips", lambda: pd.DataFrame(_walk(data)[1], columns=FLIP_COLUMNS)
    ).copy()


def median_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Median and a distribution-free 95 % interval from order statistics (NaN ends below 6).

    >>> median_interval(np.arange(1.0, 21.0))
    (10.5, 6.0, 15.0)
    """
    from scipy.stats import binom
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n == 0:
        return (float("nan"), float("nan"), float("nan"))
    med = float(np.median(x))
    if n < 6:
        return (med, float("nan"), float("nan"))
    # largest k with P(Bin(n, 1/2) < k) <= 2.5 %: [x_(k), x_(n+1-k)] covers the median
    k = int(binom.ppf(0.025, n, 0.5))
    k = max(k, 1)
    while k > 1 and binom.cdf(k - 1, n, 0.5) > 0.025:
        k -= 1
    return (med, float(x[k - 1]), float(x[n - k]))


def cluster_rate(flags: pd.Series, clusters: pd.Series) -> tuple[float, float, float]:
    """The pooled share of True ``flags`` and its 95 % cluster-bootstrap interval."""
    if len(flags) == 0:
        return (float("nan"), float("nan"), float("nan"))
    frame = pd.DataFrame({"hit": flags.astype(float).to_numpy(), "c": clusters.to_numpy()})
    per = frame.groupby("c")["hit"].agg(["sum", "count"])
    hits, counts = per["sum"].to_numpy(), per["count"].to_numpy()
    rate = float(hits.sum() / counts.sum())
    if len(per) < 2:
        return (rate, float("nan"), float("nan"))
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    pick = rng.integers(0, len(per), size=(BOOTSTRAP_RESAMPLES, len(per)))
    rates = hits[pick].sum(axis=1) / counts[pick].sum(axis=1)
    low, high = np.quantile(rates, [0.025, 0.975])
    return (rate, float(low), float(high))


def stage_summary(data: StudyData) -> pd.DataFrame:
    """Per stage: games, first-attempt win rate (Wilson), rounds (median and interval),
    fresh-flip rate (cluster bootstrap) and the share of placements taken before growth."""
    table = games(data)
    flips = fresh_flips(data)
    rows = []
    for stage in sorted(set(table["stage"]) | set(flips["stage"])):
        g = table[table["stage"] == stage]
        done = g[g["result"].notna()]
        first = done[done["attempt"] == 1]
        wins = int((first["result"] == "win").sum())
        low, high = wilson(wins, len(first))
        med, r_low, r_high = median_interval(done["rounds"].to_numpy(dtype=float))
        f = flips[flips["stage"] == stage]
        rate, f_low, f_high = cluster_rate(f["flipped"], f["participant_id"])
        rows.append(
            {
                "stage": stage,
                "games": len(g),
                "finished": len(done),
                "testers": int(g["participant_id"].nunique()),
                "first_wins": wins,
                "first_finished": len(first),
                "win_rate": wins / len(first) if len(first) else float("nan"),
                "win_low": low,
                "win_high": high,
                "rounds_median": med,
                "rounds_low": r_low,
                "rounds_high": r_high,
                "placements": len(f),
                "flip_rate": rate,
                "flip_low": f_low,
                "flip_high": f_high,
                "taken_rate": float(f["taken"].mean()) if len(f) else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def refused_clicks(data: StudyData) -> pd.DataFrame:
    """Refused clicks per reason (``own_square``, ``void``, ``not_your_turn`` …): counts,
    testers, and the share of all clicks.

    >>> refused_clicks(StudyData.empty("s")).empty
    True
    """
    clicks = derive.clicks(data)
    if clicks.empty:
        return pd.DataFrame(columns=["reason", "clicks", "testers", "share"])
    bad = clicks[~clicks["ok"] & clicks["reason"].notna()]
    out = (
        bad.groupby("reason")
        .agg(clicks=("reason", "size"), testers=("participant_id", "nunique"))
        .reset_index()
    )
    out["share"] = out["clicks"] / len(clicks)
    return out.sort_values(["clicks", "reason"], ascending=[False, True]).reset_index(drop=True)
