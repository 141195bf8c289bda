"""Vasco's analytics (pure functions over a study's telemetry; no playtest import).

- :mod:`analytics.games.vasco.decisions`: the tester's decisions (one per tile they
  placed), the refusals with the engine's reason, and each reason's occasions, rate and
  interval (the ``rule:<reason>`` confusion points' tallies);
- :mod:`analytics.games.vasco.cascades`: how often a forced cascade surprised the tester
  (a slow first click after it, compared with decisions that followed no cascade);
- :mod:`analytics.games.vasco.planted`: studies of real engine games with planted
  refusals and planted hesitation, where the truth is known (for the tests).

Telemetry read (telemetry-format.md): ``click`` with ``seat``, ``ok``, ``reason``, ``ms``,
``cell``, ``tile``; engine events ``place``, ``auto`` (a forced tile), ``win``, ``draw``
with ``seat``. The wiring into the analytics core's ``GameAnalytics`` (``ANALYTICS``) is
left to the merge with the platform's analytics plug-in interface.
"""
