"""The filters the Overview and Confusion pages share (join dates, age bands, an
experiment's variants), drawn from the study's records, and the study they leave."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from playtest.app_pages.designer.opening import experiment_picker
from playtest.app_pages.designer.study_cache import Loaded, bundle
from playtest.storage import repository as repo

#: The filters' key when nothing is filtered (see :func:`filters`).
UNFILTERED: tuple[Any, ...] = (None, None, (), None, ())


def filters(study: repo.Study, data: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The filters' widgets: the choice's key, and the arguments of
    ``funnel.filter_study`` that apply it."""
    with st.expander("Filters"):
        created = pd.to_datetime(data.participants["created_at"], utc=True)
        dates = None
        if len(created):
            dates = st.date_input("Joined between",
                                  (created.min().date(), created.max().date()), key="f_dates")
        bands: list[str] = []
        if "age_band" in data.attributes.columns:
            bands = sorted(str(band) for band in data.attributes["age_band"].dropna().unique())
        chosen_bands = st.multiselect("Age band", bands, key="f_bands")
        key = experiment_picker(study, "Variant filter: experiment")
        chosen_variants: list[str] = []
        if key:
            names = next(e["variants"] for e in study.experiment_records if e["key"] == key)
            chosen_variants = st.multiselect("Variants", names, key="f_variants")
    start = end = None
    if dates and isinstance(dates, tuple) and len(dates) == 2:
        start = pd.Timestamp(dates[0], tz="UTC")
        end = pd.Timestamp(dates[1], tz="UTC") + pd.Timedelta(days=1)
        if created.min() >= start and created.max() < end:
            start = end = None  # the whole range: no filter
    fkey = (start, end, tuple(chosen_bands), key if chosen_variants else None,
            tuple(chosen_variants))
    return fkey, {"start": start, "end": end, "age_bands": chosen_bands or None,
                  "experiment": key if chosen_variants else None,
                  "variants": chosen_variants or None}


def filtered(study_id: str, fkey: tuple[Any, ...], chosen: dict[str, Any]) -> tuple[Loaded, Any]:
    """The study's bundle, and the study restricted by the filters (kept per choice)."""
    from analytics import funnel

    loaded = bundle(study_id)
    return loaded, loaded.memo(("filter", *fkey),
                               lambda: funnel.filter_study(loaded.bundle.data, **chosen))
