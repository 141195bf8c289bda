"""The app (``playtest/app.py``) with every rerun profiled: a diagnosis for the load test.

    python -m benchmarks.loadtest --testers 20 --turns 10 --postgres auto --profile /tmp/rerun.prof

runs this script instead of ``playtest/app.py``. Every rerun runs under its own
``cProfile.Profile`` (Python 3.11's profiler follows one thread, and Streamlit runs each
browser session's script in a thread of its own) and the script thread's CPU time is
measured with ``time.thread_time``: the whole of Streamlit's ``ScriptRunner._run_script``
(a full run of the app, or a fragment's own run, which does not run the app's file at
all), so the widget callbacks before the script, the script or fragment, and any
``st.rerun`` it chains are all in it. The first ``PLAYTEST_PROFILE_SKIP`` reruns (first
pages and consents) are not profiled. The stats of all reruns are merged and written every
few seconds to the file named by ``PLAYTEST_PROFILE_OUT`` (a ``pstats`` file), and the
per-rerun CPU times to ``<that file>.cpu`` (one number of milliseconds per line), so a
server stopped with SIGTERM or SIGKILL leaves them behind. Read them with::

    python -m benchmarks.profiled_app /tmp/rerun.prof   # top entries, script CPU per rerun

With ``PLAYTEST_PROFILE_CLOCK_ONLY=1`` in the load test's environment only the script
thread's CPU per run is measured (no cProfile, so no inflation): the ``.cpu`` file and the
last line of the summary are then the true script-thread share of the load test's
"server CPU per rerun".

The app is the real one: this file only wraps ``playtest/app.py``'s ``main``. Profiling
roughly doubles a rerun's CPU, so the load test's round trips are not the app's while it
runs; its *shares* are what this is for.
"""

from __future__ import annotations

import cProfile
import io
import marshal
import os
import pstats
import runpy
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

APP = Path(__file__).resolve().parents[1] / "playtest" / "app.py"
OUT_ENV = "PLAYTEST_PROFILE_OUT"
WRITE_EVERY_S = 3.0


class _Collector:
    """The merged stats of every rerun of this process (one per process, kept in
    ``sys.modules`` across reruns because this module is imported, not run). A rerun only
    hands its raw stats over; a thread of its own merges and writes them, so reruns do not
    queue behind the merging."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.pending: list[dict[Any, Any]] = []
        self.merged: dict[Any, Any] = {}
        self.cpu_ms: list[float] = []
        threading.Thread(target=self._write_forever, daemon=True,
                         name="profile-writer").start()

    def add(self, profile: cProfile.Profile, cpu_ms: float) -> None:
        profile.create_stats()
        with self.lock:
            self.pending.append(profile.stats)
            self.cpu_ms.append(cpu_ms)

    def _write_forever(self) -> None:
        while True:  # a daemon thread: ends with the server process
            time.sleep(WRITE_EVERY_S)
            with self.lock:
                pending, self.pending = self.pending, []
                cpu_ms = list(self.cpu_ms)
            if not pending:
                continue
            for stats in pending:
                _merge(self.merged, stats)
            tmp = self.out.with_suffix(".tmp")
            with tmp.open("wb") as f:
                marshal.dump(self.merged, f)  # the format pstats.Stats(file) reads
            os.replace(tmp, self.out)
            Path(f"{self.out}.cpu").write_text("".join(f"{v:.3f}\n" for v in cpu_ms))


def _add(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _merge(into: dict[Any, Any], stats: dict[Any, Any]) -> None:
    """Add one profile's ``{func: (cc, nc, tt, ct, callers)}`` to `into`."""
    for func, (cc, nc, tt, ct, callers) in stats.items():
        old = into.get(func)
        if old is None:
            into[func] = (cc, nc, tt, ct, dict(callers))
            continue
        merged_callers = dict(old[4])
        for caller, figures in callers.items():
            seen = merged_callers.get(caller)
            merged_callers[caller] = figures if seen is None else _add(seen, figures)
        into[func] = (old[0] + cc, old[1] + nc, old[2] + tt, old[3] + ct, merged_callers)


_collectors: dict[str, _Collector] = {}
_lock = threading.Lock()
_app_lock = threading.Lock()  # the first reruns wait while one of them imports the app


def collector() -> _Collector:
    out = os.environ.get(OUT_ENV, "playtest-profile.prof")
    with _lock:
        if out not in _collectors:
            _collectors[out] = _Collector(Path(out))
        return _collectors[out]


_main: list[Callable[[], None]] = []


def _app_main() -> Callable[[], None]:
    """``playtest/app.py``'s ``main``, its module run once without calling it (the name
    ``__mp_main__`` is the one under which the app file draws nothing)."""
    with _app_lock:
        if not _main:
            module = runpy.run_path(str(APP), run_name="__mp_main__")
            _main.append(module["main"])
        return _main[0]


SKIP_ENV = "PLAYTEST_PROFILE_SKIP"
# Set (to anything): only the script thread's CPU per run, without cProfile, whose own
# cost inflates a run several times over; the server's CPU per rerun minus this is what
# Streamlit spends outside the script thread (websocket, messages, the event writer).
CLOCK_ONLY_ENV = "PLAYTEST_PROFILE_CLOCK_ONLY"
_reruns = [0]


def _warmed_up() -> bool:
    """False for the first ``PLAYTEST_PROFILE_SKIP`` reruns of the process (imports,
    first pages and consents), so the stats are those of the play phase."""
    with _lock:
        _reruns[0] += 1
        return _reruns[0] > int(os.environ.get(SKIP_ENV, "0") or 0)


def profile_runs() -> None:
    """Profile every later run of a script thread (``ScriptRunner._run_script``: widget
    callbacks, then the app's file or only the fragments the browser asked for), each
    under its own profiler with a CPU clock."""
    from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

    original = ScriptRunner._run_script
    if getattr(original, "_profiled", False):
        return

    clock_only = bool(os.environ.get(CLOCK_ONLY_ENV))

    def run_script(self: ScriptRunner, *args: Any, **kwargs: Any) -> Any:
        if not _warmed_up():
            return original(self, *args, **kwargs)
        profile = cProfile.Profile(time.thread_time)  # CPU, not time spent waiting
        started = time.thread_time()
        if not clock_only:
            profile.enable()
        try:
            return original(self, *args, **kwargs)
        finally:
            profile.disable()
            collector().add(profile, (time.thread_time() - started) * 1000.0)

    run_script._profiled = True  # type: ignore[attr-defined]
    ScriptRunner._run_script = run_script  # type: ignore[method-assign]


def run_profiled() -> None:
    """One run of the real app; from the next run on, every run is profiled."""
    profile_runs()
    _app_main()()


def summary(path: Path, top: int = 45) -> str:
    """The top entries by cumulative time, by own time, and the script CPU per rerun."""
    out = io.StringIO()
    with path.open("rb") as f:
        profiled = bool(marshal.load(f))  # empty with PLAYTEST_PROFILE_CLOCK_ONLY
    if profiled:
        stats = pstats.Stats(str(path), stream=out)
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(top)
    cpu = sorted(float(x) for x in Path(f"{path}.cpu").read_text().split())
    if cpu:
        out.write(f"script thread CPU per rerun over {len(cpu)} reruns: "
                  f"median {cpu[len(cpu) // 2]:.2f} ms, mean {sum(cpu) / len(cpu):.2f} ms, "
                  f"p95 {cpu[int(len(cpu) * 0.95)]:.2f} ms\n")
    return out.getvalue()


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] not in ("-h", "--help"):
        print(summary(Path(sys.argv[1])))
    else:
        from streamlit import runtime

        if runtime.exists():  # run by ``streamlit run``: state lives in the imported module
            from benchmarks.profiled_app import run_profiled as run_imported

            run_imported()
        else:
            print(__doc__)
