"""Past one machine (issue 12): app processes on one PostgreSQL behind Debian's nginx with
``deploy/nginx/playtest.conf`` (its upstream's ports and the listening port replaced,
nothing else), a process killed with ``kill -9`` mid-run.

An action is *acknowledged* when its rerun finished (the app stores an action before it
draws the answer). Checked: every acknowledged roll and click is stored exactly once, an
unacknowledged one at most once, no stored click is one nobody sent, no session's ``seq``
has a gap, the killed process's testers reconnect through nginx and finish, and every
resumed board is the game they were playing, equal to the replay of its stored record.

Every tester moves, not only the killed process's: each also closes their connection
three times and opens their link again (nginx's round robin sends them on), so testers come
back to a process after playing on another one, which is when a process that trusts its
own memory of a tester shows something out of date (nginx's log says who served each
connection; the test asserts that this happened). After every move the board must show
the game's last stored message too and the tester's sound setting (half of them turn the
sound off first), and the study has a wording experiment: every message of it that any
process logged must be in the tester's stored variant.

Each kind of state kept in one process's memory was tried as a temporary change to the
app, and each made the kill test (or, for the sign-in, the test of a sign-in on another
process) fail: a game started afresh by a process that has not seen the tester; a
process's own copy of a game trusted over the database; the experiment variant
remembered by the process that assigned it (another one draws again); the last message
remembered instead of read from the events; the sound setting remembered instead of
read from the events; a cookie-signing key made per process.

The three app processes, their database and nginx are started once for the module
(each start costs seconds of CPU): the rolling restart, the sign-in tests and the kill
test share them, each load test with a study of its own; the kill test comes last, as
it leaves a process killed (a test after it would start that one again).

Speed is not asserted: ``python -m benchmarks.loadtest --processes 1,3 --kill-one`` prints it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import cluster, loadtest  # noqa: E402
from playtest import auth  # noqa: E402
from playtest.storage import sign_in  # noqa: E402
from playtest.storage.db import make_engine, upgrade  # noqa: E402
from tests.pg_server import (  # noqa: E402
    create_database,
    drop_database,
    in_ci,
    postgres_url_or_skip,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

# Enough testers that each process serves several at the kill and that most testers'
# four connections (the first, then one after each hop) land on more than one process.
TESTERS = 24
TURNS = 6
PROCESSES = 3
# Every tester reconnects after their 1st, 3rd and 5th click: four connections each (with
# 24 testers, two hops gave as few as 4 testers served again by a process after another).
HOPS = (1, 3, 5)
DOWNLOAD_APP = Path(__file__).parent / "apps" / "download_app.py"


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[str]:
    yield from postgres_url_or_skip()


@pytest.fixture(scope="module", autouse=True)
def nginx_installed() -> None:
    if cluster.nginx_binary() is None:
        message = "nginx is not installed (apt-get install nginx)"
        if in_ci():
            pytest.fail(f"nginx is required under CI=true: {message}")
        pytest.skip(message)


PASSWORD = "the right passphrase"


@pytest.fixture(scope="module")
def app_cluster(postgres_server: str, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[tuple[cluster.Cluster, Engine, str]]:
    """Three app processes on a new database, with a designer password, behind nginx,
    started once for the module: the load tests each play a study of their own on it (the
    rolling restart leaves three new processes; the kill test, last, one process fewer),
    the sign-in tests use it through nginx and each process directly. Yields the
    cluster, an engine on its database and the database's URL."""
    url = create_database(postgres_server)
    engine = make_engine(url)
    upgrade(engine)
    env = {"DATABASE_URL": url, "PLAYTEST_DESIGNER_PASSWORD_HASH": auth.hash_password(PASSWORD)}
    try:
        running = cluster.start_cluster(PROCESSES, env, tmp_path_factory.mktemp("cluster"))
        try:
            yield running, engine, url
        finally:
            running.stop()
    finally:
        engine.dispose()
        drop_database(postgres_server, url)


def _all_up(app_cluster: tuple[cluster.Cluster, Engine, str]) -> cluster.Cluster:
    """The module's cluster with every process running (one a test before killed, or a
    failed rolling restart left down, is started again)."""
    running = app_cluster[0]
    for index, app in enumerate(running.apps):
        if app.proc.poll() is not None:
            running.restart(index)
    return running


def _for_study(app_cluster: tuple[cluster.Cluster, Engine, str],
               study_id: str) -> loadtest.RunningCluster:
    """The module's cluster, every process running, for a load test's own study."""
    return loadtest.RunningCluster(_all_up(app_cluster), app_cluster[2], study_id)


ROLLING_TESTERS = 12
# Each tester's turns at least: they play on until they have an answer from after the
# restart (benchmarks.loadtest's play_on), however long it takes on a busy machine.
ROLLING_TURNS = 4


def test_a_rolling_restart_under_load_loses_nothing(
    postgres_server: str, app_cluster: tuple[cluster.Cluster, Engine, str], tmp_path: Path
) -> None:
    """The README's rolling update: each of three processes in turn is stopped with
    SIGTERM (what ``systemctl restart`` sends) and started again on its port, the next
    one only once it answers ``/_stcore/health``, while testers play through nginx (each
    on past their turns until an answer from after the restart). The testers of each
    stopped process reconnect to the others and carry on: nothing acknowledged is lost
    or doubled, and every resumed board is the replay of its record."""
    log: list[str] = []
    setup = loadtest.Deployment(processes=PROCESSES, postgres=postgres_server,
                                rolling_restart_after_clicks=ROLLING_TESTERS)
    report = loadtest.run_benchmark(ROLLING_TESTERS, ROLLING_TURNS, think_ms=(500, 1500),
                                    seed=7, time_limit_s=300, work_dir=tmp_path,
                                    server_log=log, deployment=setup,
                                    on=_for_study(app_cluster, "load-rolling"))
    print("\n" + "\n".join(report.lines()))
    assert report.errors == [], log
    restarts = report.restarts
    assert restarts is not None and restarts.error == "", restarts
    assert len(restarts.processes) == PROCESSES
    start, end = restarts.processes[0][0], restarts.processes[-1][1]
    # Testers played through the whole restart, and after it.
    assert report.round_trips_between(start, end)
    assert any(at > end for r in report.results for at in r.answered_at)
    assert all(len(r.clicks) >= ROLLING_TURNS for r in report.results)
    assert report.reconnected >= ROLLING_TESTERS // 2  # most testers lost a process
    storage = report.storage
    assert storage.missing == 0, "an acknowledged roll or click was lost"
    assert storage.duplicated == 0, "an event was stored twice"
    assert storage.unexpected == 0, "a click nobody sent was stored"
    assert storage.sessions_with_gaps == 0
    assert storage.clicks_sent >= ROLLING_TESTERS * ROLLING_TURNS
    resumes = report.resumes
    assert len(resumes) >= report.reconnected
    wrong_game = [c.participant_id for c in resumes if not c.continued]
    assert wrong_game == [], "resumed in another game than the one they were playing"
    unequal = [(c.participant_id, c.shown[1:], c.replayed[1:]) for c in resumes if not c.equal]
    assert unequal == [], "a resumed board differs from the replay of its stored record"
    assert all(c.ok for c in resumes)


async def _wrong_password_from(url: str, source: str, forged: str | None) -> None:
    """A visitor at ``source`` (a loopback address of its own) types a wrong password on
    the start page, through nginx."""
    headers = {"X-Forwarded-For": forged} if forged else None
    async with websockets.connect(
        url.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")], max_size=None,
        open_timeout=loadtest.RERUN_TIMEOUT_S, additional_headers=headers,
        local_addr=(source, 0),
    ) as ws:
        session = loadtest.StreamlitSession(ws, "")
        run = await session.rerun()
        field = run.widgets.get("designer_password")
        submit = next((i for k, i in run.widgets.items()
                       if k.startswith("FormSubmitter:designer_login")), None)
        assert field is not None and submit is not None, run.widgets
        await session.rerun([WidgetState(id=field, string_value="not the password at all"),
                             WidgetState(id=submit, trigger_value=True)])


def test_the_sign_in_limit_counts_each_visitor_behind_nginx(
    app_cluster: tuple[cluster.Cluster, Engine, str]
) -> None:
    running, engine = _all_up(app_cluster), app_cluster[1]
    with engine.begin() as conn:  # none of the other sign-in test's attempts
        conn.execute(delete(sign_in.attempts))
    for source, forged in (("127.0.0.2", None), ("127.0.0.3", None),
                           ("127.0.0.2", "6.6.6.6")):
        loadtest.run_coroutine(_wrong_password_from(running.url, source, forged))
    with engine.connect() as conn:
        clients = sorted(conn.execute(select(sign_in.attempts.c.client)).scalars())
    # Each visitor by their own address (not one "local" for all, the proxy's), and a
    # forged header does not make a visitor someone else.
    assert clients == ["ip:127.0.0.2", "ip:127.0.0.2", "ip:127.0.0.3"]


def test_the_site_file_is_deploys_with_only_the_ports_changed() -> None:
    ours = cluster.render_site([9101, 9102, 9103], listen_port=9100).splitlines()
    original = cluster.SITE.read_text(encoding="utf-8").splitlines()
    changed = [line for line in original if line not in ours]
    assert all(line.strip().startswith(("server 127.0.0.1:", "listen ")) for line in changed)
    assert "include snippets/playtest-proxy.conf;" in [line.strip() for line in ours]
    assert os.path.isfile(cluster.SNIPPET)


async def _download_url(url: str) -> str:
    """Draw the download page once (through nginx) and return its file's address."""
    async with websockets.connect(
        url.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")], max_size=None,
        open_timeout=loadtest.RERUN_TIMEOUT_S,
    ) as ws:
        message = BackMsg()
        message.rerun_script.query_string = ""
        await ws.send(message.SerializeToString())
        found = ""
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await asyncio.wait_for(ws.recv(), loadtest.RERUN_TIMEOUT_S))
            kind = forward.WhichOneof("type")
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                if element.WhichOneof("type") == "download_button":
                    found = element.download_button.url
            if kind == "script_finished":
                return found


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_a_download_is_found_whichever_process_nginx_asks(tmp_path: Path) -> None:
    """A page's files (the designer's report downloads) live in the memory of the process
    that drew it; round robin sends the browser's GET to any process. The site's /media/
    location asks the next process when one has no such file."""
    apps = cluster.start_app_processes(3, {}, tmp_path, script=DOWNLOAD_APP)
    try:
        nginx = cluster.start_nginx(tmp_path / "nginx", [app.port for app in apps])
        try:
            path = loadtest.run_coroutine(_download_url(nginx.url))
            assert path.startswith("/media/")
            direct = [_get(app.url + path) for app in apps]
            through_nginx = [_get(nginx.url + path) for _ in range(9)]
        finally:
            nginx.stop()
    finally:
        for app in apps:
            app.stop()
    assert sorted(direct) == [200, 404, 404]  # only the process that drew the page has it
    assert through_nginx == [200] * 9


async def _run_collecting_html(url: str, states: list[WidgetState] | None = None,
                               cookie: str | None = None) -> tuple[dict[str, str], list[str]]:
    """One visit to the start page (two runs when ``states`` are given): the widgets of
    the last run and every HTML body sent (the cookie-writing scripts)."""
    headers = {"Cookie": cookie} if cookie else None
    async with websockets.connect(
        url.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")], max_size=None,
        open_timeout=loadtest.RERUN_TIMEOUT_S, additional_headers=headers,
    ) as ws:
        session = loadtest.StreamlitSession(ws, "")
        run = await session.rerun()
        if not states:
            return run.widgets, []
        field = run.widgets["designer_password"]
        submit = next(i for k, i in run.widgets.items() if k.startswith("FormSubmitter:designer"))
        message = BackMsg()
        message.rerun_script.query_string = ""
        message.rerun_script.page_script_hash = session.page_hash
        message.rerun_script.widget_states.widgets.extend(
            [WidgetState(id=field, string_value=states[0].string_value),
             WidgetState(id=submit, trigger_value=True)])
        await ws.send(message.SerializeToString())
        bodies: list[str] = []
        widgets: dict[str, str] = {}
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await asyncio.wait_for(ws.recv(), loadtest.RERUN_TIMEOUT_S))
            kind = forward.WhichOneof("type")
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                if element.WhichOneof("type") == "html":
                    bodies.append(element.html.body)
                loadtest._collect(element, run)
            if kind == "script_finished" and forward.script_finished == \
                    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY:
                widgets = run.widgets
                return widgets, bodies


def test_a_sign_in_made_on_one_process_is_good_on_another(
    app_cluster: tuple[cluster.Cluster, Engine, str]
) -> None:
    """The designer's cookie is signed with a key kept in the database, not one per
    process: signed in through process A, the browser is signed in on process B."""
    apps = _all_up(app_cluster).apps
    _widgets, bodies = loadtest.run_coroutine(_run_collecting_html(
        apps[0].url, [WidgetState(string_value=PASSWORD)]))
    tokens = [part.split("=", 1)[1].split(";", 1)[0] for body in bodies
              for part in body.split('"') if part.startswith(f"{auth.COOKIE_NAME}=")]
    assert tokens, "process A set the sign-in cookie"
    cookie = f"{auth.COOKIE_NAME}={tokens[0]}"
    on_b, _ = loadtest.run_coroutine(_run_collecting_html(apps[1].url, cookie=cookie))
    stranger, _ = loadtest.run_coroutine(_run_collecting_html(apps[1].url))
    assert "sign_out" in on_b  # "Signed in as the designer." with its Sign out button
    assert "sign_out" not in stranger and "designer_password" in stranger


def test_three_processes_behind_nginx_lose_nothing_when_one_is_killed(
    postgres_server: str, app_cluster: tuple[cluster.Cluster, Engine, str], tmp_path: Path
) -> None:
    # The module's last test: it leaves one process of the shared cluster killed.
    log: list[str] = []
    setup = loadtest.Deployment(processes=PROCESSES, postgres=postgres_server,
                                kill_after_clicks=TESTERS * TURNS // 3,
                                hop_after_clicks=HOPS, experiment=True)
    report = loadtest.run_benchmark(TESTERS, TURNS, think_ms=(100, 400), seed=12,
                                    time_limit_s=300, work_dir=tmp_path, server_log=log,
                                    deployment=setup, on=_for_study(app_cluster, "load-kill"))
    print("\n" + "\n".join(report.lines()))
    assert report.errors == [], log
    assert report.killed_after_clicks is not None, "the kill happened mid-run"
    # Every tester finished, the killed process's ones through another process.
    assert all(len(r.clicks) == TURNS for r in report.results)
    assert report.reconnected > 0
    storage = report.storage
    assert storage.missing == 0, "an acknowledged roll or click was lost"
    assert storage.duplicated == 0, "an event was stored twice"
    assert storage.unexpected == 0, "a click nobody sent was stored"
    assert storage.sessions_with_gaps == 0
    assert storage.clicks_sent == TESTERS * TURNS
    assert all(r.hops == len(HOPS) for r in report.results)
    resumes = report.resumes
    # A board is checked after every reconnection (but one that shows a finished game).
    assert len(resumes) >= TESTERS * len(HOPS)
    wrong_game = [c.participant_id for c in resumes if not c.continued]
    assert wrong_game == [], "resumed in another game than the one they were playing"
    unequal = [(c.participant_id, c.shown[1:], c.replayed[1:]) for c in resumes if not c.equal]
    assert unequal == [], "a resumed board differs from the replay of its stored record"
    lost = [(c.participant_id, c.message_shown, c.message_stored)
            for c in resumes if not c.message_kept]
    assert lost == [], "a resumed board lost its message (or shows another one)"
    # Half the testers turned the sound off before playing: every board keeps it.
    assert any(c.muted_stored for c in resumes) and any(not c.muted_stored for c in resumes)
    unmuted = [c.participant_id for c in resumes if not c.setting_kept]
    assert unmuted == [], "a resumed board lost the tester's sound setting"
    # The moves that matter happened: testers on more than one process, and testers
    # back on a process after another one served them (round robin makes both likely
    # for most testers; nginx's log says which happened).
    moves = report.moves
    assert moves.located == moves.connections, moves  # each connection named in nginx's log
    assert moves.moved > TESTERS // 2 and moves.returned > 0, moves
    assignments = report.assignments
    assert assignments is not None and assignments.messages > 0
    assert assignments.without_one_assignment == 0
    assert assignments.messages_wrong_variant == 0, "a process showed another variant"
    assert assignments.exposures_wrong_variant == 0
