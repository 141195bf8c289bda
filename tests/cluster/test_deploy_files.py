"""The files in ``deploy/`` are the ones the tests use (issue 12): the systemd unit is how
the cluster test starts its processes, and systemd accepts it; the compose file's nginx
site proxies to an app process; the Dockerfile's command is the unit's and it copies the
whole product. (Docker's engine is not on this machine, so the image is not built here;
``tests/packaging/test_wheel.py`` runs the lab from exactly what its ``pip install .``
installs.)
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import cluster  # noqa: E402
from benchmarks.devserver import healthy  # noqa: E402


def test_an_app_process_starts_with_the_units_command_paths_moved_only(tmp_path: Path) -> None:
    proc = cluster.unit_process(8517, tmp_path)
    (exec_start,) = cluster.unit_settings()["ExecStart"]
    production = shlex.split(exec_start.replace("%i", "8517"))
    assert len(proc.argv) == len(production)
    # Only the interpreter's path differs; every argument is the unit's own.
    assert proc.argv[0] == sys.executable and production[0] == cluster.UNIT_PYTHON
    assert list(proc.argv[1:]) == production[1:]
    assert proc.cwd == ROOT
    # Each process its own log folder, named by its port; one cache shared by all.
    assert proc.env["PLAYTEST_LOG_DIR"] == str(tmp_path / "logs" / "8517")
    other = cluster.unit_process(8518, tmp_path)
    assert other.env["PLAYTEST_LOG_DIR"] != proc.env["PLAYTEST_LOG_DIR"]
    assert other.env["PLAYTEST_CACHE_DIR"] == proc.env["PLAYTEST_CACHE_DIR"]


def test_a_unit_with_another_command_starts_that_command(tmp_path: Path) -> None:
    unit = tmp_path / "other@.service"
    unit.write_text(cluster.UNIT.read_text(encoding="utf-8").replace(
        "--server.fileWatcherType none",
        "--server.fileWatcherType none \\\n    --server.maxUploadSize 5"),
        encoding="utf-8")
    argv = cluster.unit_process(9000, tmp_path, unit=unit).argv
    assert argv[-2:] == ("--server.maxUploadSize", "5")


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # The unit as it would be installed for this checkout: its paths moved here, nothing
    # else changed, so systemd checks every directive and that ExecStart can run.
    text = (cluster.UNIT.read_text(encoding="utf-8")
            .replace(cluster.UNIT_PYTHON, sys.executable)
            .replace(cluster.UNIT_CHECKOUT, str(ROOT)))
    unit = tmp_path / "playtest@.service"
    unit.write_text(text, encoding="utf-8")
    found = subprocess.run([analyze, "verify", str(tmp_path / "playtest@8501.service")],
                           capture_output=True, text=True, timeout=60)
    complaints = [line for line in (found.stdout + found.stderr).splitlines()
                  if str(tmp_path) in line or "playtest@" in line]
    assert found.returncode == 0 and complaints == [], found.stdout + found.stderr


def test_systemd_would_name_a_broken_directive(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    text = (cluster.UNIT.read_text(encoding="utf-8")
            .replace(cluster.UNIT_PYTHON, sys.executable)
            .replace(cluster.UNIT_CHECKOUT, str(ROOT))
            .replace("Restart=always", "Restart=sometimes"))
    (tmp_path / "playtest@.service").write_text(text, encoding="utf-8")
    found = subprocess.run([analyze, "verify", str(tmp_path / "playtest@8501.service")],
                           capture_output=True, text=True, timeout=60)
    assert "sometimes" in found.stdout + found.stderr


def _dockerfile() -> list[str]:
    text = (cluster.DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    return [line for line in re.sub(r"\\\n\s*", " ", text).splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_image_copies_every_product_package_and_runs_the_units_command() -> None:
    lines = _dockerfile()
    copied = {line.split()[1] for line in lines if line.startswith("COPY ")}
    assert {"engine", "surveys", "analytics", "playtest", "pyproject.toml"} <= copied
    (cmd,) = [line for line in lines if line.startswith("CMD ")]
    argv = json.loads(cmd[len("CMD "):])
    (exec_start,) = cluster.unit_settings()["ExecStart"]
    unit = shlex.split(exec_start.replace("%i", "8501"))
    # The same command as the unit, but listening on the container's network.
    expected = [a if a != "127.0.0.1" else "0.0.0.0" for a in unit[1:]]
    assert argv[0] == "python" and argv[1:] == expected


def test_the_compose_nginx_site_proxies_to_an_app_process(tmp_path: Path) -> None:
    if cluster.nginx_binary() is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    (app,) = cluster.start_app_processes(1, {"DATABASE_URL": f"sqlite:///{tmp_path / 'lab.db'}"},
                                         tmp_path / "apps")
    try:
        site = cluster.render_site([app.port], 9000, cluster.COMPOSE_SITE)
        # Only the upstream's host (the compose service "app") and the listen port differ.
        original = cluster.COMPOSE_SITE.read_text(encoding="utf-8").splitlines()
        changed = [line.strip() for line in original if line not in site.splitlines()]
        assert changed == ["server app:8501 max_fails=0;", "listen 80;"]
        nginx = cluster.start_nginx(tmp_path / "nginx", [app.port], cluster.COMPOSE_SITE)
        try:
            assert healthy(nginx.url)
        finally:
            nginx.stop()
    finally:
        app.stop()


def test_the_procfile_runs_the_units_command_on_the_sites_ports() -> None:
    """deploy/Procfile is the unit's process for honcho/foreman: per line, the unit's
    ExecStart for that port (its python the checkout's .venv, as the unit's is), and the
    same ports as the nginx site's upstream."""
    (exec_start,) = cluster.unit_settings()["ExecStart"]
    ports = []
    for line in (cluster.DEPLOY / "Procfile").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _name, command = line.split(":", 1)
        argv = shlex.split(command)
        settings = [a for a in argv if "=" in a and not a.startswith("-")]
        argv = argv[len(settings):]
        port = argv[argv.index("--server.port") + 1]
        unit = shlex.split(exec_start.replace("%i", port))
        assert unit[0] == cluster.UNIT_PYTHON and argv[0] == ".venv/bin/python"
        assert argv[1:] == unit[1:]
        # each its own log; nginx on this machine is the trusted proxy, as in the unit
        assert settings == ["PLAYTEST_TRUSTED_PROXIES=127.0.0.1,::1",
                            f"PLAYTEST_LOG_DIR=playtest-logs/{port}"]
        ports.append(int(port))
    site = cluster.SITE.read_text(encoding="utf-8")
    upstream = [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+)", site)]
    assert ports == upstream == [8501, 8502, 8503]


def test_the_units_processes_do_not_watch_their_files() -> None:
    """An update is `git pull` into the checkout the processes run from, then a restart
    one at a time. With Streamlit's default file watcher a running process saw the pull:
    every open page got "script_changed_on_disk" at once, and the next rerun imported the
    new playtest/ modules beside the old engine/ ones (tried on a fresh clone: README,
    "Update the app"). The unit's command (and so the Procfile's and the image's, the
    tests above) turns the watcher off."""
    (exec_start,) = cluster.unit_settings()["ExecStart"]
    argv = shlex.split(exec_start)
    assert argv[argv.index("--server.fileWatcherType") + 1] == "none"
