"""The study funnel (consent → pre-survey → game 1 … → post-survey → done) and filters.

A participant reaches ``consent`` by existing (a participant record or a ``page``
``consent`` event); ``pre_survey``, ``post_survey`` and ``done`` by a ``page`` event of
that name; ``game k`` by their k-th ``game_start``. Time spent on a step is the time from
reaching it to reaching the next step the participant reached (median over those who
reached both).

Games beyond the study's ``games_per_tester`` are optional ("May play more"): their
steps are named ``game k (optional)`` and marked ``optional``; nobody drops off by not
playing one, so they have no drop-off (rate NaN) and the next required step counts its
drop-off from the last required step, not from the optional game.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData

FUNNEL_COLUMNS = ["step", "reached", "drop_off", "drop_off_rate", "median_seconds",
                  "optional"]


def _step_times(data: StudyData, max_games: int) -> pd.DataFrame:
    """participant_id × step → first time reached (columns in funnel order)."""
    pages = derive.props_of(data, "page", ["page"])
    at = pd.to_datetime(pages["at"], utc=True)
    first_page = pages.assign(at=at).groupby(["participant_id", "page"])["at"].min().unstack()
    starts = derive.props_of(data, "game_start", ["game_id", "seats"])
    starts = starts.assign(at=pd.to_datetime(starts["at"], utc=True)).sort_values("row")
    starts["k"] = starts.groupby("participant_id").cumcount() + 1
    games = starts[starts["k"] <= max_games].pivot_table(
        index="participant_id", columns="k", values="at", aggfunc="min")
    created = pd.Series(pd.to_datetime(data.participants["created_at"], utc=True).to_numpy(),
                        index=data.participants["participant_id"].to_numpy())
    ids = pd.Index(pd.unique(np.concatenate([
        data.participants["participant_id"].to_numpy(object),
        pages["participant_id"].to_numpy(object)]))) if len(pages) or len(created) \
        else pd.Index([])
    table = pd.DataFrame(index=ids)
    consent = first_page["consent"] if "consent" in first_page else pd.Series(dtype=object)
    table["consent"] = created.reindex(ids)
    table["consent"] = table["consent"].fillna(consent.reindex(ids))
    table["pre_survey"] = (first_page["pre_survey"].reindex(ids)
                           if "pre_survey" in first_page else pd.NaT)
    game_count = int(games.columns.max()) if len(games.columns) else 0
    for k in range(1, game_count + 1):
        table[f"game {k}"] = games[k].reindex(ids) if k in games else pd.NaT
    for page in ("post_survey", "done"):
        table[page] = first_page[page].reindex(ids) if page in first_page else pd.NaT
    return table


def required_games(data: StudyData) -> int | None:
    """The games every tester is asked to play (the study's ``games_per_tester``), or
    None when the study record does not say (then every game step counts as required).

    >>> required_games(StudyData.empty("s")) is None
    True
    """
    value = data.study.get("games_per_tester")
    return int(value) if isinstance(value, int | float) and value >= 1 else None


def funnel(data: StudyData, max_games: int = 10,
           games_required: int | None = None) -> pd.DataFrame:
    """Participants reaching each step, drop-off from the previous step, median time.

    Columns: ``step, reached, drop_off, drop_off_rate, median_seconds`` (time spent on
    the step before the next one the participant reached; NaN for ``done``) and
    ``optional`` (a game beyond ``games_required``, default :func:`required_games`;
    it has no drop-off). A participant "reaches" a step if they have it, whether or not
    they skipped earlier. Drop-off is from the previous required step.
    """
    table = _step_times(data, max_games)
    required = games_required if games_required is not None else required_games(data)
    optional = [required is not None and step.startswith("game ")
                and int(step.split()[1]) > required for step in table.columns]
    table.columns = [f"{step} (optional)" if extra else step
                     for step, extra in zip(table.columns, optional, strict=True)]
    columns = list(table.columns)
    # Seconds since the epoch as floats (NaN: not reached); the time of the next reached
    # step is found by sweeping the steps backwards, vectorised over participants.
    epoch = pd.Timestamp(0, tz="UTC")
    times = np.column_stack([
        (pd.to_datetime(table[step], utc=True) - epoch).dt.total_seconds().to_numpy(float)
        for step in columns]) if columns and len(table) else np.empty((len(table),
                                                                        len(columns)))
    next_reached = np.full(times.shape, np.nan)
    running = np.full(len(table), np.nan)
    for index in range(len(columns) - 1, -1, -1):
        next_reached[:, index] = running
        running = np.where(np.isnan(times[:, index]), running, times[:, index])
    rows = []
    previous: int | None = None
    for index, step in enumerate(columns):
        reached = int(np.count_nonzero(~np.isnan(times[:, index])))
        seconds = next_reached[:, index] - times[:, index]
        median = float(np.nanmedian(seconds)) if np.any(~np.isnan(seconds)) else np.nan
        if optional[index]:  # an extra game: not playing it is no drop-off
            rows.append({"step": step, "reached": reached, "drop_off": 0,
                         "drop_off_rate": np.nan, "median_seconds": median,
                         "optional": True})
            continue
        drop = 0 if previous is None else max(previous - reached, 0)
        rate = (drop / previous) if previous else 0.0
        rows.append({"step": step, "reached": reached, "drop_off": drop,
                     "drop_off_rate": rate, "median_seconds": median, "optional": False})
        previous = reached
    return pd.DataFrame(rows, columns=FUNNEL_COLUMNS)


def _utc(moment: pd.Timestamp | str) -> pd.Timestamp:
    """A timestamp in UTC; a naive one (e.g. from a date picker) is read as UTC."""
    stamp = pd.Timestamp(moment)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def filter_study(data: StudyData, start: pd.Timestamp | str | None = None,
                 end: pd.Timestamp | str | None = None,
                 age_bands: Iterable[str] | None = None,
                 experiment: str | None = None,
                 variants: Iterable[str] | None = None) -> StudyData:
    """The same study restricted to matching participants (all their records).

    ``start``/``end`` bound the participant's ``created_at`` (inclusive; naive times are
    UTC); ``age_bands`` match ``attributes["age_band"]``; ``variants`` match the
    participant's variant in ``experiment``. ``None`` means no filter. A study passed
    through :func:`analytics.derive.prepare` gives a prepared subset (its derived tables
    are filtered, not recomputed).
    """
    if start is None and end is None and age_bands is None and variants is None:
        return data  # nothing to filter: the same (possibly prepared) study
    keep = pd.Series(True, index=data.participants["participant_id"].to_numpy())
    created = pd.to_datetime(data.participants["created_at"], utc=True)
    created.index = keep.index
    if start is not None:
        keep &= created >= _utc(start)
    if end is not None:
        keep &= created <= _utc(end)
    if age_bands is not None:
        bands = set(age_bands)
        attrs = data.attributes
        band = (pd.Series(attrs["age_band"].to_numpy(), index=attrs["participant_id"])
                if "age_band" in attrs.columns else pd.Series(dtype=object))
        keep &= keep.index.map(band.to_dict()).isin(bands)
    if experiment is not None and variants is not None:
        chosen = set(variants)
        table = data.assignments[data.assignments["experiment"] == experiment]
        ids = set(table.loc[table["variant"].isin(chosen), "participant_id"])
        keep &= keep.index.isin(list(ids))
    ids = set(keep.index[keep.to_numpy()])

    def only(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[derive.member_mask(frame["participant_id"], ids)].reset_index(drop=True)

    subset = StudyData(study=data.study, participants=only(data.participants),
                       assignments=only(data.assignments), events=only(data.events),
                       responses=only(data.responses),
                       attributes=only(data.attributes))
    derive.carry_over(data, subset, ids)
    return subset
