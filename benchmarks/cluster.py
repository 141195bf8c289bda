"""Several app processes on one database behind nginx, on this machine: what
``deploy/`` describes, started for a test or a benchmark.

The nginx site is ``deploy/nginx/playtest.conf`` itself (with its snippet), only with
the ports of this run: its upstream's ``server`` lines are replaced by one line per
process (same options), its ``listen`` by a free local port. The surrounding
``nginx.conf`` (pid, logs, temp folders under the run's folder) is what Debian's
``/etc/nginx/nginx.conf`` provides in production. The app processes are started the way
``deploy/systemd/playtest@.service`` starts them: its ``ExecStart``, ``WorkingDirectory``
and ``Environment`` lines, read from the unit, with only its paths moved to this
checkout and the run's folder (:func:`unit_process`); every process gets the same
``DATABASE_URL``.

>>> site = render_site([9001, 9002], listen_port=9000)
>>> [line.strip() for line in site.splitlines() if line.strip().startswith(("server 1", "listen"))]
['server 127.0.0.1:9001 max_fails=1 fail_timeout=5s;', 'server 127.0.0.1:9002 max_fails=1 fail_timeout=5s;', 'listen 127.0.0.1:9000;']
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.devserver import ROOT, StreamlitServer, free_port, healthy

DEPLOY = ROOT / "deploy"
SITE = DEPLOY / "nginx" / "playtest.conf"
SNIPPET = DEPLOY / "nginx" / "snippets" / "playtest-proxy.conf"
UNIT = DEPLOY / "systemd" / "playtest@.service"
#: Where the unit expects things in production (its paths), in the order they are moved.
UNIT_CHECKOUT = "/srv/playtest"
UNIT_PYTHON = UNIT_CHECKOUT + "/.venv/bin/python"
UNIT_LOGS = "/var/log/playtest"
UNIT_CACHE = "/var/cache/playtest"
APP = ROOT / "playtest" / "app.py"
START_TIMEOUT_S = 120.0
_UPSTREAM_SERVER = re.compile(r"^(\s*)server [\w.-]+:\d+(.*);\s*$")
COMPOSE_SITE = DEPLOY / "nginx" / "compose.conf"


class ClusterError(RuntimeError):
    """nginx or an app process did not start (the message has its log's tail)."""


def nginx_binary() -> str | None:
    """Debian's nginx (``apt-get install nginx``), or None when it is not installed."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)


def render_site(ports: Sequence[int], listen_port: int, site: Path = SITE) -> str:
    """``deploy/nginx/playtest.conf`` for these app ports, listening on ``listen_port``."""
    lines: list[str] = []
    upstream_done = False
    for line in site.read_text(encoding="utf-8").splitlines():
        match = _UPSTREAM_SERVER.match(line)
        if match:
            if not upstream_done:
                indent, options = match.groups()
                lines += [f"{indent}server 127.0.0.1:{port}{options};" for port in ports]
                upstream_done = True
            continue
        stripped = line.strip()
        if stripped.startswith("listen [::]"):
            continue
        if stripped.startswith("listen "):
            line = line[: len(line) - len(line.lstrip())] + f"listen 127.0.0.1:{listen_port};"
        lines.append(line)
    if not upstream_done:
        raise ClusterError(f"{site} has no 'server HOST:PORT' line in its upstream")
    return "\n".join(lines) + "\n"


def _main_conf(folder: Path) -> str:
    user = ""
    if os.geteuid() == 0:  # nginx's workers would be 'nobody', who cannot write here
        user = (f"user {pwd.getpwuid(os.geteuid()).pw_name} "
                f"{grp.getgrgid(os.getegid()).gr_name};\n")
    temp = "\n".join(f"    {kind}_temp_path {folder / 'tmp' / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} warn;\n"
            "events { worker_connections 4096; }\n"
            "http {\n"
            f"    access_log {folder / 'access.log'};\n{temp}\n"
            "    include sites/playtest.conf;\n}\n")


@dataclass
class Nginx:
    """A running nginx master process (ours: stopped by its pid)."""

    proc: subprocess.Popen[bytes]
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = (self.folder / "error.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_nginx(folder: Path, ports: Sequence[int], site: Path = SITE) -> Nginx:
    """nginx in the foreground with ``deploy/``'s site (or ``site``, e.g. the compose
    file's) for ``ports``; returns once it answers ``/_stcore/health`` through the proxy."""
    binary = nginx_binary()
    if binary is None:
        raise ClusterError("nginx is not installed (apt-get install nginx)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sites").mkdir(exist_ok=True)
    (folder / "snippets").mkdir(exist_ok=True)
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / "tmp" / kind).mkdir(parents=True, exist_ok=True)
    port = free_port()
    (folder / "sites" / "playtest.conf").write_text(render_site(ports, port, site),
                                                    encoding="utf-8")
    shutil.copyfile(SNIPPET, folder / "snippets" / SNIPPET.name)
    conf = folder / "nginx.conf"
    conf.write_text(_main_conf(folder), encoding="utf-8")
    checked = subprocess.run([binary, "-t", "-p", str(folder), "-c", str(conf)],
                             capture_output=True, text=True, timeout=30, check=False)
    if checked.returncode != 0:
        raise ClusterError(f"nginx -t failed: {checked.stderr.strip()[-600:]}")
    with (folder / "nginx.out").open("wb") as out:
        proc = subprocess.Popen([binary, "-p", str(folder), "-c", str(conf),
                                 "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
    nginx = Nginx(proc, port, folder)
    deadline = time.monotonic() + 30
    while not healthy(nginx.url):  # polls a condition, bounded by a deadline
        if proc.poll() is not None or time.monotonic() > deadline:
            nginx.stop()
            raise ClusterError(f"nginx did not answer:\n{nginx.log_tail()}")
        time.sleep(0.05)
    return nginx


def unit_settings(unit: Path = UNIT) -> dict[str, list[str]]:
    """The ``[Service]`` settings of a systemd unit file: name -> its values, in order
    (continuation lines joined, comments dropped).

    >>> settings = unit_settings()
    >>> settings["WorkingDirectory"] == [UNIT_CHECKOUT]
    True
    >>> settings["ExecStart"][0].split()[:4]
    ['/srv/playtest/.venv/bin/python', '-m', 'streamlit', 'run']
    """
    settings: dict[str, list[str]] = {}
    section = ""
    pending = ""
    for raw in unit.read_text(encoding="utf-8").splitlines():
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Service" and "=" in line:
            name, value = line.split("=", 1)
            settings.setdefault(name.strip(), []).append(" ".join(value.split()))
    return settings


@dataclass(frozen=True)
class UnitProcess:
    """One app process as the systemd unit starts it, on this machine."""

    argv: tuple[str, ...]
    cwd: Path
    env: dict[str, str]


def unit_process(port: int, folder: Path, unit: Path = UNIT) -> UnitProcess:
    """Instance ``port`` of ``deploy/systemd/playtest@.service``, moved to this checkout:
    the unit's python becomes this interpreter, its checkout this project, its log and
    cache folders ones under ``folder`` (each process its own logs, one shared cache, as
    in production). Nothing else of the unit changes.

    >>> proc = unit_process(8502, Path("/tmp/run"))
    >>> proc.argv[1:5], proc.argv[-6:]
    (('-m', 'streamlit', 'run', 'playtest/app.py'), ('--server.port', '8502', '--server.address', '127.0.0.1', '--server.headless', 'true'))
    >>> proc.env["PLAYTEST_LOG_DIR"], proc.env["PLAYTEST_CACHE_DIR"]
    ('/tmp/run/logs/8502', '/tmp/run/cache')
    >>> proc.cwd == ROOT
    True
    """
    settings = unit_settings(unit)
    moves = ((UNIT_PYTHON, sys.executable), (UNIT_CHECKOUT, str(ROOT)),
             (UNIT_LOGS, str(folder / "logs")), (UNIT_CACHE, str(folder / "cache")))

    def here(value: str) -> str:
        value = value.replace("%i", str(port))
        for production, local in moves:
            value = value.replace(production, local)
        return value

    (exec_start,) = settings["ExecStart"]
    env: dict[str, str] = {}
    for assignment in settings.get("Environment", []):
        for item in shlex.split(assignment):
            name, value = item.split("=", 1)
            env[name] = here(value)
    (cwd,) = settings["WorkingDirectory"]
    return UnitProcess(tuple(here(arg) for arg in shlex.split(exec_start)), Path(here(cwd)), env)


def start_app_processes(count: int, env: Mapping[str, str], folder: Path,
                        timeout_s: float = START_TIMEOUT_S,
                        script: Path = APP) -> list[StreamlitServer]:
    """``count`` processes started as ``deploy/systemd/playtest@.service`` starts them
    (:func:`unit_process`; ``script`` instead of the app for a harness app), together;
    returns once every one answers ``/_stcore/health``."""
    servers: list[StreamlitServer] = []
    for _ in range(count):
        port = free_port()
        own = folder / f"app-{port}"
        own.mkdir(parents=True, exist_ok=True)
        log_path = own / "streamlit.log"
        unit = unit_process(port, folder)
        argv = [str(script) if arg == str(APP.relative_to(ROOT)) else arg for arg in unit.argv]
        # The file watcher only costs CPU in a test (production runs from a fixed checkout).
        argv += ["--server.fileWatcherType", "none"]
        full_env = {**os.environ, "PYTHONPATH": str(ROOT), **unit.env, **env}
        with log_path.open("wb") as log:
            proc = subprocess.Popen(argv, cwd=unit.cwd, env=full_env, stdout=log,
                                    stderr=subprocess.STDOUT)
        servers.append(StreamlitServer(script, port, proc, log_path, dict(env)))
    deadline = time.monotonic() + timeout_s
    waiting = list(servers)
    while waiting:  # polls a condition, bounded by a deadline
        waiting = [s for s in waiting if not healthy(s.url)]
        broken = [s for s in waiting if s.proc.poll() is not None]
        if broken or (waiting and time.monotonic() > deadline):
            for server in servers:
                server.stop()
            culprit = (broken or waiting)[0]
            raise ClusterError(f"app process on port {culprit.port} did not become healthy:\n"
                               f"{culprit.log_tail()}")
        if waiting:
            time.sleep(0.1)
    return servers


@dataclass
class Cluster:
    """App processes behind nginx; :meth:`stop` ends exactly these processes."""

    apps: list[StreamlitServer]
    nginx: Nginx
    folder: Path
    killed: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.nginx.url

    def kill(self, index: int) -> int:
        """``kill -9`` app process ``index``; returns its pid."""
        proc = self.apps[index].proc
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        self.killed.append(proc.pid)
        return proc.pid

    def stop(self) -> None:
        self.nginx.stop()
        for app in self.apps:
            app.stop()


def start_cluster(count: int, env: Mapping[str, str], folder: Path) -> Cluster:
    """``count`` app processes on ``env``'s ``DATABASE_URL`` behind ``deploy/``'s nginx."""
    apps = start_app_processes(count, env, folder)
    try:
        nginx = start_nginx(folder / "nginx", [app.port for app in apps])
    except BaseException:
        for app in apps:
            app.stop()
        raise
    return Cluster(apps, nginx, folder)


def create_postgres_database(server_url: str) -> str:
    """A new empty database on the PostgreSQL server (its user may CREATE DATABASE)."""
    import psycopg

    name = f"playtest_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url.rpartition('/')[0]}/{name}"


def drop_postgres_database(server_url: str, database_url: str) -> None:
    import psycopg

    name = database_url.rpartition("/")[2]
    with psycopg.connect(server_url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
