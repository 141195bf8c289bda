"""Files with tester data are their owner's only (issue 25, "Also").

Before: the database, its ``-wal``/``-shm`` and the dashboard's cache were created 0644,
so any local user could read every tester's answers. Here the lab is used as a designer
uses it, from a folder of its own with the usual umask 022: the served app creates the
database and writes its log, ``playtest demo`` fills the cache, ``playtest export``
writes tables. Every file and folder it made is then checked.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from faults_support import ROOT
from served_app import Shown, pressed, serve, typed, visit


def _wrong_password(page: Shown) -> list:
    return [typed(page.widget("designer_password"), "not the password at all"),
            pressed(page.widget("FormSubmitter:designer_login"))]


def test_every_file_the_lab_makes_is_its_owners_only(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    env = {"DATABASE_URL": f"sqlite:///{folder / 'playtest.sqlite'}",
           "PLAYTEST_DESIGNER_PASSWORD_HASH": "scrypt$AAAA$AAAA"}
    before = os.umask(0o022)  # what a login shell has: files 0644 unless the lab says not
    try:
        served = serve(folder, env)  # the app creates and migrates the database
        try:
            visit(served.url, "", [_wrong_password])  # a failed sign-in is logged
            run = {**os.environ, "PYTHONPATH": str(ROOT), **env}
            for command in (["demo", "--testers", "2"],
                            ["export", "--study", "demo", "--out", "t.csv"]):
                done = subprocess.run([sys.executable, "-m", "playtest", *command],
                                      cwd=folder, env=run, capture_output=True, text=True,
                                      timeout=600)
                assert done.returncode == 0, done.stderr
            made = {path.relative_to(folder).as_posix(): stat.S_IMODE(path.stat().st_mode)
                    for path in folder.rglob("*") if not path.name.startswith("server-")}
        finally:
            served.stop()
    finally:
        os.umask(before)
    assert {"playtest.sqlite", "playtest.sqlite-wal", "playtest-logs/app.log",
            "t.responses.csv"} <= set(made), sorted(made)
    assert any(name.startswith("playtest.sqlite.cache/") for name in made)
    readable = {name: oct(mode) for name, mode in made.items() if mode & 0o077}
    assert readable == {}
