"""Benchmarks, load tests, dev servers and harness apps: tools for the people building the
lab, kept out of the product packages (``engine``, ``surveys``, ``analytics``,
``playtest``) and out of the wheel. Run them from a source checkout.

Each prints numbers and asserts nothing; speed is judged by people reading them:

- ``bench_engine``: ``python -m engine bench`` (forwards here): random self-play games/s,
  decision time per level, ``--strength`` win-rate tables;
- ``bench_storage``: ``python -m benchmarks.bench_storage`` (``playtest bench-db``):
  event logging latency, concurrent writers, a 1M-event import;
- ``bench_analytics``: the analytics functions on a synthetic study of ~1M events;
- ``bench_board_latency``: click-to-repaint of the board in headless Chromium against
  ``one_button_app`` (one ``st.button``);
- ``bench_dashboard``: the designer pages and the report at 10k testers;
- ``loadtest``: many simulated testers playing at once over Streamlit's websocket.

Helpers and apps:

- ``devserver``: start ``streamlit run <script>`` on a free port and wait until healthy
  (browser tests, reliability tests, the latency benchmark and the load test use it);
- ``board_harness_app``: the board component alone, for browser tests and manual viewing;
- ``one_button_app``: the latency benchmark's baseline;
- ``surveys_demo_app``: every bundled survey, answered and scored.
"""
