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
['server 127.0.0.1:9001 max_fails=0;', 'server 127.0.0.1:9002 max_fails=0;', 'listen 127.0.0.1:9000;']
"""

from __future__ import annotations

import grp
import json
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

from sqlalchemy.engine import Engine

from benchmarks.devserver import ROOT, StreamlitServer, free_port, healthy
from playtest.study_config import Experiment

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


UPSTREAM_LOG = "upstreams.log"
#: A load-test client names each connection in this header (nginx logs it with the app
#: process that served the connection).
CONNECTION_HEADER = "X-Loadtest-Connection"
UPSTREAM_LOG_FORMAT = "playtest_upstream '$http_x_loadtest_connection $upstream_addr $status'"


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
    # Besides Debian's access log: which app process served each connection, by the
    # name the load test's client gives it (:meth:`Nginx.upstreams`), so a test knows who
    # moved where.
    return (f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} warn;\n"
            "events { worker_connections 4096; }\n"
            "http {\n"
            f"    access_log {folder / 'access.log'};\n{temp}\n"
            f"    log_format {UPSTREAM_LOG_FORMAT};\n"
            f"    access_log {folder / UPSTREAM_LOG} playtest_upstream;\n"
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

    def upstreams(self) -> dict[str, str]:
        """The app process (``127.0.0.1:PORT``) that served each finished connection, by
        the name its client gave it; a connection first refused by a dead process and
        passed on counts for the one that answered."""
        return parse_upstreams(self.folder / UPSTREAM_LOG)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def parse_upstreams(path: Path) -> dict[str, str]:
    """Connection name -> app process, from nginx's ``playtest_upstream`` log lines
    (unnamed connections, "-", and names seen twice are left out).

    >>> import tempfile
    >>> log = Path(tempfile.mkdtemp()) / "upstreams.log"
    >>> _ = log.write_text("1.0 127.0.0.1:9001 101\\n1.1 127.0.0.1:9001, 127.0.0.1:9002 101\\n"
    ...                    "2.0 - 400\\n- 127.0.0.1:9001 200\\n3.0 127.0.0.1:9001 101\\n"
    ...                    "3.0 127.0.0.1:9002 101\\n")
    >>> parse_upstreams(log)
    {'1.0': '127.0.0.1:9001', '1.1': '127.0.0.1:9002'}
    """
    seen: dict[str, list[str]] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        addresses, _, _status = rest.rpartition(" ")
        served = addresses.split(",")[-1].strip()
        if name not in ("", "-") and served not in ("", "-"):
            seen.setdefault(name, []).append(served)
    return {name: found[0] for name, found in seen.items() if len(found) == 1}


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
    >>> proc.argv[1:5], proc.argv[-8:-2]
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


def _spawn(port: int, env: Mapping[str, str], folder: Path, script: Path) -> StreamlitServer:
    """Start one process as ``deploy/systemd/playtest@.service`` starts instance ``port``
    (:func:`unit_process`; ``script`` instead of the app for a harness app); its output
    goes to ``folder/app-PORT/streamlit.log`` (appended: a restarted process keeps the
    earlier lines, as the journal does)."""
    own = folder / f"app-{port}"
    own.mkdir(parents=True, exist_ok=True)
    log_path = own / "streamlit.log"
    unit = unit_process(port, folder)
    argv = [str(script) if arg == str(APP.relative_to(ROOT)) else arg for arg in unit.argv]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **unit.env, **env}
    with log_path.open("ab") as log:
        proc = subprocess.Popen(argv, cwd=unit.cwd, env=full_env, stdout=log,
                                stderr=subprocess.STDOUT)
    return StreamlitServer(script, port, proc, log_path, dict(env))


def _wait_healthy(servers: Sequence[StreamlitServer], timeout_s: float) -> None:
    """Returns once every server answers ``/_stcore/health``; otherwise stops them all
    and raises :class:`ClusterError` with the first culprit's log."""
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


def start_app_processes(count: int, env: Mapping[str, str], folder: Path,
                        timeout_s: float = START_TIMEOUT_S,
                        script: Path = APP) -> list[StreamlitServer]:
    """``count`` processes started as ``deploy/systemd/playtest@.service`` starts them
    (:func:`unit_process`; ``script`` instead of the app for a harness app), together;
    returns once every one answers ``/_stcore/health``."""
    servers = [_spawn(free_port(), env, folder, script) for _ in range(count)]
    _wait_healthy(servers, timeout_s)
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

    def restart(self, index: int, timeout_s: float = START_TIMEOUT_S) -> StreamlitServer:
        """What ``systemctl restart playtest@PORT`` does to app process ``index``: SIGTERM
        (the unit's ``KillSignal``), wait for it to exit, start it again on the same port
        with the same command; returns once the new process answers ``/_stcore/health``
        (the README's rolling update waits for that before restarting the next one)."""
        old = self.apps[index]
        old.stop()
        new = _spawn(old.port, old.env, self.folder, old.script)
        self.apps[index] = new
        _wait_healthy([new], timeout_s)
        return new

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


# -- what a process could keep that the others need --------------------------------------
#
# A tester whose connection moves to another process must find there everything the
# first one knew. The cluster test makes them move (a killed process, and every tester's
# own reconnections) and checks, besides the game (benchmarks.loadtest's replay check),
# the tester's experiment variant: the load study has a wording experiment on a message
# every turn shows, so each message logged by whichever process must carry the variant
# stored at consent.

#: The load study's experiment when state is checked: the wording of the message shown
#: after every computer move.
WORDING_EXPERIMENT = Experiment(key="moved_wording", target="message:computer_moved",
                                variants={"A": "default", "B": "formal"})


@dataclass(frozen=True)
class AssignmentCheck:
    """Each tester's stored variant against what every process showed them."""

    testers: int
    without_one_assignment: int  # testers with no stored variant, or more than one
    messages: int  # messages of the experiment's message logged
    messages_wrong_variant: int  # ... with another wording than the tester's variant
    exposures: int
    exposures_wrong_variant: int

    @property
    def ok(self) -> bool:
        return (self.without_one_assignment == self.messages_wrong_variant
                == self.exposures_wrong_variant == 0 and self.messages > 0)

    def line(self) -> str:
        return (f"experiment {WORDING_EXPERIMENT.key}: {self.testers} testers, "
                f"{self.without_one_assignment} without exactly one stored variant; "
                f"{self.messages} '{WORDING_EXPERIMENT.target}' messages, "
                f"{self.messages_wrong_variant} in another variant's wording; "
                f"{self.exposures} exposures, {self.exposures_wrong_variant} of another "
                f"variant [{'ok' if self.ok else 'MISSED'}]")


def check_assignments(engine: Engine, participant_ids: Sequence[str],
                      experiment: Experiment = WORDING_EXPERIMENT) -> AssignmentCheck:
    """Every tester has one stored variant of ``experiment``, and every message and
    exposure of it that any process logged for them is that variant's."""
    from sqlalchemy import select

    from playtest.storage.models import EventRow, assignments, exposures

    events = EventRow.__table__  # type: ignore[attr-defined]
    message_key = experiment.target.partition(":")[2]
    ids = list(participant_ids)
    with engine.connect() as conn:
        stored: dict[str, list[str]] = {}
        for row in conn.execute(select(assignments.c.participant_id, assignments.c.variant)
                                .where(assignments.c.participant_id.in_(ids),
                                       assignments.c.experiment == experiment.key)):
            stored.setdefault(row.participant_id, []).append(row.variant)
        shown = conn.execute(select(events.c.participant_id, events.c.props)
                             .where(events.c.participant_id.in_(ids),
                                    events.c.type == "message")).all()
        exposed = conn.execute(select(exposures.c.participant_id, exposures.c.variant)
                               .where(exposures.c.participant_id.in_(ids),
                                      exposures.c.experiment == experiment.key)).all()
    variant = {pid: found[0] for pid, found in stored.items() if len(found) == 1}
    messages = [(row.participant_id, _props(row.props)) for row in shown]
    messages = [(pid, props) for pid, props in messages if props.get("key") == message_key]
    return AssignmentCheck(
        testers=len(ids),
        without_one_assignment=sum(1 for pid in ids if pid not in variant),
        messages=len(messages),
        messages_wrong_variant=sum(
            1 for pid, props in messages
            if props.get("variant") != experiment.variants.get(variant.get(pid, ""))),
        exposures=len(exposed),
        exposures_wrong_variant=sum(1 for row in exposed
                                    if row.variant != variant.get(row.participant_id)),
    )


def _props(raw: object) -> dict[str, object]:
    value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class Moves:
    """Where the testers' connections went (by nginx's log of who served each).

    ``moved``: testers served by more than one process. ``returned``: testers served
    again by a process after another one had served them in between: the case in which a
    process's own memory of a tester (a cache it trusts) is out of date.
    """

    connections: int
    located: int  # connections whose process nginx's log names
    moved: int
    returned: int

    def line(self) -> str:
        return (f"moves: {self.located} of {self.connections} connections located in "
                f"nginx's log; {self.moved} testers served by more than one process, "
                f"{self.returned} served again by a process after another one")


def moves_of(connections_per_tester: Sequence[Sequence[str]],
             upstreams: Mapping[str, str]) -> Moves:
    """:class:`Moves` from each tester's connections (their names, in order).

    >>> moves_of([["1", "2", "3"], ["4", "5"], ["6"]],
    ...          {"1": "a", "2": "b", "3": "a", "4": "a", "5": "b", "6": "a"})
    Moves(connections=6, located=6, moved=2, returned=1)
    """
    moved = returned = located = connections = 0
    for names in connections_per_tester:
        connections += len(names)
        served = [upstreams[name] for name in names if name in upstreams]
        located += len(served)
        changes = [process for i, process in enumerate(served)
                   if i == 0 or process != served[i - 1]]
        moved += len(set(served)) > 1
        returned += len(changes) > len(set(changes))
    return Moves(connections, located, moved, returned)
