"""What ``pip install .`` (and so ``deploy/Dockerfile``) installs is the whole product:
every file of the four product packages is in the wheel, and the lab runs from the wheel
alone, with no source tree on the path (its migrations, surveys, message catalogs, board
front ends and plan templates found inside the installed packages).

The Dockerfile's own build is not run here (this machine has Docker's client but no
engine); this is the part of it that can break when files move.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "surveys", "analytics", "playtest")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the checkout's files (as a fresh clone has them), so the build
    # leaves no build/ folder in the checkout and sees no untracked file.
    source = tmp_path_factory.mktemp("source")
    listed = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=ROOT,
                            check=True).stdout.split("\n")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                            "-w", str(out), str(source)], capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = out.glob("*.whl")
    yield path


def _tracked_product_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", *PRODUCT], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout.split()
    return [name for name in listed if not name.endswith(".md") and (ROOT / name).is_file()]


def test_every_product_file_is_in_the_wheel_and_nothing_else(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = _tracked_product_files()
    assert len(tracked) > 100  # the listing worked
    assert [name for name in tracked if name not in names] == []
    top = {name.split("/", 1)[0] for name in names if "/" in name}
    assert {t for t in top if not t.endswith(".dist-info")} == set(PRODUCT)


def test_the_lab_runs_from_the_wheel_alone(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1",
           "DATABASE_URL": f"sqlite:///{work / 'lab.db'}", "PLAYTEST_LOG_DIR": str(work / "logs"),
           "PLAYTEST_CACHE_DIR": str(work / "cache")}
    env.pop("PLAYTEST_DESIGNER_PASSWORD_HASH", None)

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=work, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    # Imported from the wheel, not from this checkout.
    where = run("-c", "import playtest, engine, surveys, analytics; "
                "print(*(m.__file__ for m in (playtest, engine, surveys, analytics)))")
    assert all(path.startswith(str(site)) for path in where.split()), where
    # Every game's plug-in finds its files inside the installed packages.
    check = run("-c", """
from pathlib import Path
from playtest.games.registry import games
from surveys.loader import load_survey
for plugin in games():
    for survey in (plugin.pre_survey, plugin.post_survey, *plugin.child_surveys.values()):
        if survey:
            load_survey(survey)
    if plugin.catalog_path is not None:
        assert plugin.catalog_path.is_file(), plugin.catalog_path
    if plugin.board is not None:
        assert plugin.board.script_path.is_file(), plugin.board.script_path
    print(plugin.name, "ok")
""")
    assert check.split() == [word for name in _game_names() for word in (name, "ok")]
    # The database's migrations, a demo study and the plan's templates, all from the wheel.
    run("-m", "playtest", "db", "upgrade")
    run("-m", "playtest", "demo", "--testers", "3")
    run("-m", "playtest", "report", "--study", "demo", "--out", str(work / "plan.md"))
    assert "<html" in (work / "plan.html").read_text(encoding="utf-8").lower()
    assert (work / "plan.md").read_text(encoding="utf-8").startswith("#")


def _game_names() -> list[str]:
    from playtest.games.registry import game_names

    return list(game_names())
