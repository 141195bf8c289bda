"""A survey with the fluency probe, alone (the browser tests' harness).

Per-test state is in the URL: ``?store=<name>`` keeps the answers in
``<temp dir>/fluency-probe-app/<name>.json`` (and picks the tester's form); the survey has
three pages, the second the probe, whose time limit is ``&seconds=`` (``none``: untimed)
and number of questions ``&count=``.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import streamlit as st

from surveys import parse_survey
from surveys.streamlit_renderer import JsonFileStore, render_survey

SURVEY = """
id: probe_harness
version: "1"
title: Times tables
phase: pre
audience: child
pages:
- id: first
  items:
  - {{id: ready, type: yes_maybe_no, text: "Ready to play?"}}
- id: tt
  title: Times tables
  items:
  - {{id: intro, type: info, text: "How many can you answer in one minute? Tap the numbers, then tap OK."}}
  - {{id: fluency, type: fluency_probe, text: "Times tables", seconds: {seconds}, count: {count}}}
- id: last
  items:
  - {{id: fun, type: face_scale, text: "How was it?"}}
"""

name = re.sub(r"[^A-Za-z0-9_-]", "", st.query_params.get("store", "default"))[:40] or "default"
given = st.query_params.get("seconds", "60")
seconds = "null" if given == "none" else str(int(given))
count = str(int(st.query_params["count"])) if "count" in st.query_params else "null"
folder = Path(tempfile.gettempdir()) / "fluency-probe-app"
store = JsonFileStore(folder / f"{name}.json")
definition = parse_survey(SURVEY.format(seconds=seconds, count=count))
if render_survey(definition, store, key="h", rng_seed=name):
    st.success("All done")
