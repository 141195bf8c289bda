"""Vasco's analytics (pure functions over a study's telemetry; no playtest import).

- :mod:`analytics.games.vasco.decisions`: the tester's decisions (one per tile they
  placed), the refusals with the engine's reason, and each reason's occasions, rate and
  interval (the ``rule:<reason>`` confusion points' tallies);
- :mod:`analytics.games.vasco.cascades`: how often a forced cascade surprised the tester
  (a slow first click after it, compared with decisions that followed no cascade);
(The planted studies that test them, real engine games with planted refusals and
hesitation, are ``tests/analytics/vasco_planted.py``: analytics may not import the engine.)

Telemetry read (telemetry-format.md): ``click`` with ``seat``, ``ok``, ``reason``, ``ms``,
``cell``, ``tile``; engine events ``place``, ``auto`` (a forced tile), ``win``, ``draw``
with ``seat``. The wiring into the analytics core's ``GameAnalytics`` (``ANALYTICS``) is
left to the merge with the platform's analytics plug-in interface.
"""
