"""The app as a user serves it, for the hardening tests: a real ``streamlit run`` (or
``playtest serve``) started from a folder of its own, never the checkout, with its
standard output and error kept in a file; and a websocket visitor (no browser) that
reads what a page shows and answers its widgets, as ``benchmarks/loadtest.py`` does.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.devserver import free_port, healthy  # noqa: E402
from benchmarks.loadtest import RERUN_TIMEOUT_S, run_coroutine, user_key  # noqa: E402

APP = ROOT / "playtest" / "app.py"
LISTEN = "0A"
_FINISHED = ForwardMsg.ScriptFinishedStatus


@dataclass
class ServedApp:
    """A running server; :meth:`stop` ends exactly this process."""

    proc: subprocess.Popen[bytes]
    port: int
    output_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        """Everything the server wrote to its standard output and error so far."""
        return self.output_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def serve(folder: Path, env: Mapping[str, str], *flags: str, supported: bool = False,
          timeout_s: float = 90.0) -> ServedApp:
    """Start the app with ``folder`` as the working folder: ``streamlit run
    <checkout>/playtest/app.py`` (``supported``: ``python -m playtest serve``), on a free
    port; returns once ``/_stcore/health`` answers."""
    port = free_port()
    if supported:
        command = [sys.executable, "-m", "playtest", "serve", "--port", str(port), *flags]
    else:
        command = [sys.executable, "-m", "streamlit", "run", str(APP), "--server.port",
                   str(port), "--server.fileWatcherType", "none", *flags]
    output_path = folder / f"server-{port}.out"
    full_env = {key: value for key, value in os.environ.items()
                if not key.startswith("STREAMLIT_") and key != "FORWARDED_ALLOW_IPS"}
    full_env.update({"PYTHONPATH": str(ROOT), **env})
    with output_path.open("wb") as output:
        proc = subprocess.Popen(command, cwd=folder, env=full_env, stdout=output,
                                stderr=subprocess.STDOUT)
    served = ServedApp(proc, port, output_path)
    deadline = time.monotonic() + timeout_s
    while not healthy(served.url):  # polls a start-up, bounded by a deadline
        if proc.poll() is not None or time.monotonic() > deadline:
            served.stop()
            raise RuntimeError(f"the app did not start:\n{served.output()[-3000:]}")
        time.sleep(0.2)
    return served


def listening(port: int) -> set[str]:
    """Local addresses (the kernel's hex) of the sockets listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, _, hex_port = fields[1].rpartition(":")
            if int(hex_port, 16) == port and fields[3] == LISTEN:
                found.add(address)
    return found


# -- a visitor ---------------------------------------------------------------------------


@dataclass
class Shown:
    """What one script run (with the reruns it asked for) drew."""

    texts: list[str] = field(default_factory=list)
    widgets: dict[str, str] = field(default_factory=dict)  # user key (or id) -> widget id
    exceptions: list[str] = field(default_factory=list)
    gather_usage_stats: bool | None = None
    boards: dict[str, Any] = field(default_factory=dict)  # component id -> its data

    def text(self) -> str:
        return "\n".join(self.texts)

    def widget(self, prefix: str) -> str:
        """The id of the widget whose key starts with ``prefix``."""
        found = [ident for key, ident in self.widgets.items() if key.startswith(prefix)]
        assert len(found) == 1, (prefix, sorted(self.widgets))
        return found[0]


_TEXT_FIELDS = ("body", "code_text", "message", "stack_trace", "label", "type")


def _element_text(element: Any, kind: str) -> list[str]:
    proto = getattr(element, kind)
    out: list[str] = []
    for name in _TEXT_FIELDS:
        value = getattr(proto, name, None)
        if isinstance(value, str) and value:
            out.append(value)
        elif name == "stack_trace" and value:
            out.extend(str(line) for line in value)
    return out


class Visitor:
    """One browser tab's websocket session, without the browser."""

    def __init__(self, ws: Any, query_string: str) -> None:
        self.ws = ws
        self.query_string = query_string
        self.page_hash = ""

    async def rerun(self, states: Sequence[WidgetState] = ()) -> Shown:
        msg = BackMsg()
        msg.rerun_script.query_string = self.query_string
        msg.rerun_script.page_script_hash = self.page_hash
        msg.rerun_script.widget_states.widgets.extend(states)
        await self.ws.send(msg.SerializeToString())
        shown = Shown()
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await asyncio.wait_for(self.ws.recv(), RERUN_TIMEOUT_S))
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                stats = forward.new_session.config.gather_usage_stats
                shown = Shown(gather_usage_stats=stats)
            elif kind == "page_info_changed":
                self.query_string = forward.page_info_changed.query_string
            elif kind == "navigation":
                self.page_hash = forward.navigation.page_script_hash
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                element_kind = element.WhichOneof("type")
                if element_kind is None:
                    continue
                texts = _element_text(element, element_kind)
                shown.texts.extend(texts)
                if element_kind == "exception":
                    shown.exceptions.append("\n".join(texts))
                if element_kind == "bidi_component":
                    proto = element.bidi_component
                    shown.boards[proto.id] = json.loads(proto.json) if proto.json else None
                ident = getattr(getattr(element, element_kind), "id", "")
                if isinstance(ident, str) and ident:
                    shown.widgets[user_key(ident) or ident] = ident
            elif kind == "script_finished":
                if forward.script_finished == _FINISHED.FINISHED_SUCCESSFULLY:
                    return shown
                if forward.script_finished == _FINISHED.FINISHED_WITH_COMPILE_ERROR:
                    raise RuntimeError("the app failed to compile")


async def _visit(url: str, query: str, steps: Sequence[Any],
                 headers: Mapping[str, str] | None) -> list[Shown]:
    async with websockets.connect(
        url.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")], max_size=None,
        open_timeout=RERUN_TIMEOUT_S, additional_headers=dict(headers or {}),
    ) as ws:
        visitor = Visitor(ws, query)
        shown = [await visitor.rerun()]
        for step in steps:
            shown.append(await visitor.rerun(step(shown[-1])))
        return shown


def visit(url: str, query: str = "", steps: Sequence[Any] = (),
          headers: Mapping[str, str] | None = None) -> list[Shown]:
    """Open ``url`` with ``query`` (``p=CODE``), then for each step (a function of what the
    page shows, giving the widget states to send) rerun; what each run showed."""
    return run_coroutine(_visit(url, query, steps, headers))


def typed(widget: str, text: str) -> WidgetState:
    return WidgetState(id=widget, string_value=text)


def pressed(widget: str) -> WidgetState:
    return WidgetState(id=widget, trigger_value=True)
