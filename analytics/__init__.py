"""analytics: pure functions from study frames to numbers, tables and Plotly figures.

Imports nothing of ours but the engine's value objects (``engine.seats.Seat``). Modules:

- ``data``: :class:`StudyData` (exchange-format frames) and the ``scores`` / ``quiz`` input
  schemas (``SCORE_COLUMNS``, ``QUIZ_COLUMNS``), typed :class:`AnalyticsInputError`,
  ``UNNAMED_GAME`` (the game of records that name none).
- ``turns``: what a turn is in any game (a decision of a seat: its first click to the
  action accepted), each game's :class:`TurnRule`.
- ``derive``: turns, clicks and their refusals, messages and what followed them
  (definitions of turn / thinking time / the turn after a message), seats read once,
  memoised per StudyData; ``prepare(data)`` computes them all once.
- ``funnel``: ``funnel``, ``filter_study``.
- ``game_analytics``: what the core asks a game (:class:`GameAnalytics`: its turn rule,
  click props, the occasions of its refusal reasons, its own confusion families, advice,
  report sections, charts); ``games/<game>/`` holds each game's ``ANALYTICS`` (a dice game's
  dice, facts and heatmaps; each game's sections); the caller gives a study its game's
  plug-in (``use``).
- ``confusion``: refused clicks by reason, message aftermath per wording, rules-overlay
  use, ``confusion_points`` ranked by severity (the core's families on the core's turns,
  with the game's own).
- ``severity``: the one definition of a confusion point's severity (occasions, empirical
  Bayes shrinkage, reach, persistence, impact) and its evidence rule;
  ``calibrate_confusion``: the planted-study generator and checks of the ranking.
- ``questionnaires``: instrument scores with norms, item distributions, pre vs post, quiz
  correctness, free-text search, keyword themes by the question's intent (problems and
  what works).
- ``stats``: one function per test (Welch, Mann–Whitney, Boschloo/Fisher, SRM χ², Holm,
  probability to be best, power) and the always-valid ``sequential_test``.
- ``metrics``: experiment metrics as typed definitions (name, unit, direction, one value
  per tester, targets, definition, default ``min_effect``); ``metrics_for_target``,
  ``default_primary``, ``check_primary``.
- ``experiments``: ``analyze_experiment(s)``: the primary metric's verdict (``decide``),
  secondaries with Holm, guardrails, what each variant shows (``variant_shows``),
  ``readable_rows`` and ``variant_rows``; ``verdicts``: the verdict in one plain sentence
  with its "But …" caution (``verdict_text``).
- ``planted`` / ``calibrate``: planted studies with a documented error model and
  ``python -m analytics.calibrate`` (false alarms, power).
- ``figures``: Plotly builders; ``report``: ``build_report``, ``report_markdown``,
  ``report_html``, ``report_figures``; ``synth``: seeded synthetic studies (tests and
  ``benchmarks/bench_analytics.py``).
"""
