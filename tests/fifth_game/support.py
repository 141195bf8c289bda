"""What the fifth game's tests share: the game configured in an environment, and in this
process's registry (which reads its configuration once per process).

>>> configured({"PYTHONPATH": ""})["PLAYTEST_GAMES"]
'tests.fifth_game.plugin:PLUGIN'
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = "tests.fifth_game.plugin:PLUGIN"
GAME = "tictactoe"


def configured(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the fifth game configured (and the checkout importable, where the
    plug-in lives)."""
    listed = [r for r in env.get("PLAYTEST_GAMES", "").split(",") if r.strip()]
    paths = [str(ROOT), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
    return {**env, "PLAYTEST_GAMES": ",".join(dict.fromkeys([*listed, REFERENCE])),
            "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}


@contextlib.contextmanager
def registered_here() -> Iterator[None]:
    """The fifth game in this process's registry while the block runs, out of it after."""
    from playtest.games import registry

    before = os.environ.get("PLAYTEST_GAMES")
    os.environ["PLAYTEST_GAMES"] = configured(dict(os.environ))["PLAYTEST_GAMES"]
    registry.reload()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PLAYTEST_GAMES", None)
        else:
            os.environ["PLAYTEST_GAMES"] = before
        registry.reload()
