"""The questionnaires page is kept with the study's state like the other pages (issue 12):
its first view draws from the kept result without reading the study's tables, and every
other choice (a split, another item, a search) is computed and equals the same choice
made on a study with nothing kept."""

from __future__ import annotations

import shutil

import pandas as pd
import streamlit as st
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, page_results, study_snapshot
from tests.app.test_designer_pages import PAGE_APP


def _page() -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "questionnaires"
    at.session_state["designer_signed_in"] = True
    return at


def _tables(at: AppTest) -> list[pd.DataFrame]:
    assert not at.exception, at.exception
    return [frame.value for frame in at.dataframe]


def _choose(at: AppTest) -> list[list[pd.DataFrame]]:
    """The page's tables first, then split by the first experiment, with the second item
    and a search."""
    seen = [_tables(at.run())]
    at.selectbox(key="split-Split by experiment").select_index(1).run()
    seen.append(_tables(at))
    at.selectbox(key="dist_item").select_index(1).run()
    at.text_input(key="text_search").input("the").run()
    seen.append(_tables(at))
    return seen


def test_the_questionnaires_page_from_its_kept_result_equals_it_computed(db: Engine) -> None:
    demo.ensure_demo_study(db)
    demo.generate(db, 8, seed=4)
    loaded = study_snapshot.refresh(db, demo.DEMO_STUDY_ID)
    store = page_results.store_for(db, demo.DEMO_STUDY_ID, loaded.state)
    assert store.get("questionnaires") is not None  # kept by the refresh
    kept = _choose(_page())
    assert store.folder is not None
    page_results.wait_for_writes()
    study_snapshot.wait_for_writes()
    shutil.rmtree(store.folder.parent.parent)  # nothing kept: computed on the tables
    st.cache_resource.clear()  # nor in this process's memory
    computed = _choose(_page())
    page_results.wait_for_writes()
    assert store.get("questionnaires") is not None  # computed, and kept again
    assert len(kept) == len(computed) == 3
    for mine, theirs in zip(kept, computed, strict=True):
        assert len(mine) == len(theirs)
        for one, other in zip(mine, theirs, strict=True):
            pd.testing.assert_frame_equal(one, other)
    # the split shows per-variant rows the unsplit page has not
    assert kept[1][0].shape != kept[0][0].shape
