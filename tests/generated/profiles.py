"""The Hypothesis settings of the generated-data tests, chosen by the environment
variable ``PLAYTEST_GENERATED_PROFILE``:

- ``ci`` (the default, what CI runs): a few examples per game, the same ones on every run
  (derandomized), so the four games' tests take about a minute together;
- ``deep``: many new examples per game, each failing one kept in Hypothesis's example
  database (``.hypothesis/`` of the working folder) and replayed first next time:
  ``PLAYTEST_GENERATED_PROFILE=deep .venv/bin/python -m pytest tests/generated``
  (about 25 minutes on two cores; ``PLAYTEST_GENERATED_EXAMPLES=N`` sets the number).

A failing example found is kept as a regression test: the file it built in
``tests/generated/regressions/`` (``test_regressions.py`` runs each), or its plan as an
``@example``.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase

PROFILE_VARIABLE = "PLAYTEST_GENERATED_PROFILE"
_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large,
                 HealthCheck.function_scoped_fixture]

settings.register_profile(
    "ci", max_examples=3, derandomize=True, deadline=None, database=None,
    print_blob=True, suppress_health_check=_SLOW_IS_FINE,
    # no shrinking in CI: a failure is reported as drawn (shrink it with the deep profile)
    phases=[Phase.explicit, Phase.generate])
settings.register_profile(
    "deep", max_examples=int(os.environ.get("PLAYTEST_GENERATED_EXAMPLES", "60")),
    deadline=None, print_blob=True, suppress_health_check=_SLOW_IS_FINE,
    database=DirectoryBasedExampleDatabase(str(Path.cwd() / ".hypothesis" / "examples")))


def chosen() -> settings:
    """The profile the environment asks for (``ci`` when it asks for none)."""
    return settings.get_profile(os.environ.get(PROFILE_VARIABLE) or "ci")
