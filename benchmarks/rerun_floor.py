"""The floor under the load test's "CPU per rerun": what Streamlit itself costs per rerun.

    python -m benchmarks.rerun_floor [--testers 50] [--reruns 20] [--think-ms 500:1500]
                                     [--modes bare,component,page] [--seed 1]

It starts :mod:`benchmarks.rerun_floor_app` once (``streamlit run``, the project's
``.streamlit/config.toml`` applies) and, for each mode in turn (the page's ``?mode=``),
connects ``--testers`` simulated browsers at once over Streamlit's websocket protocol
(the load test's client, :class:`benchmarks.loadtest.StreamlitSession`), and lets each
send ``--reruns`` reruns with think time between them: in the modes with the board, each
rerun carries a board click (the component's trigger, as the board's JavaScript sends
it), so Streamlit dispatches a trigger callback before the script, as in the play screen.
A mode's figures start once each of its testers has drawn the first page (the imports of
the mode's first rerun are not counted), so the modes before it do not change them.

Printed per mode: the server's CPU per rerun (user + system CPU of the server process
over the measured phase, divided by the reruns, as the load test prints it), round trip
median and p95, throughput, and the bytes of the board's data per rerun. Modes:

- ``bare``: a one-line script: Streamlit's cost of any rerun (websocket message in,
  script thread, session state, deltas out);
- ``component``: Vapoosh!'s board component with the play screen's payload: the floor of
  a play-screen rerun (nothing of the game, storage or telemetry runs);
- ``page``: the component plus the play screen's layout and Streamlit widgets;
- ``fragment``: ``page`` in an ``st.fragment`` (the click reruns it alone, as the play
  screen's do);
- ``board-fragment``: only the board in a fragment (a click does not draw the widgets
  beside it again).

Compare with ``python -m benchmarks.loadtest --testers 50`` (same testers and think time)
run in the same conditions: the machine's load moves these numbers.

>>> Mode.parse("bare,page")
('bare', 'page')
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from benchmarks.devserver import start_streamlit
from benchmarks.loadtest import (
    RERUN_TIMEOUT_S,
    LoadTestError,
    StreamlitSession,
    _connect,
    _trigger,
    parse_think,
    percentile,
    process_cpu_seconds,
    run_coroutine,
)
from benchmarks.rerun_floor_app import MODE_PARAM, MODES

APP: Final = "benchmarks/rerun_floor_app.py"


class Mode:
    @staticmethod
    def parse(text: str) -> tuple[str, ...]:
        modes = tuple(m.strip() for m in text.split(",") if m.strip())
        bad = [m for m in modes if m not in MODES]
        if bad or not modes:
            raise ValueError(f"--modes {text!r}: use a comma-separated list of {', '.join(MODES)}")
        return modes


@dataclass(frozen=True)
class FloorResult:
    """One mode's measurements."""

    mode: str
    reruns: int
    server_cpu_s: float
    wall_s: float
    round_trips_ms: tuple[float, ...]
    board_bytes: int  # JSON bytes of the board's view data in a rerun, median (0: no board)
    errors: tuple[str, ...]

    @property
    def cpu_ms_per_rerun(self) -> float:
        return 1000 * self.server_cpu_s / max(self.reruns, 1)

    def line(self) -> str:
        trips = self.round_trips_ms or (0.0,)
        return (f"{self.mode:<14} {self.cpu_ms_per_rerun:>9.2f} {percentile(trips, 50):>8.1f} "
                f"{percentile(trips, 95):>8.1f} {self.reruns / max(self.wall_s, 1e-9):>9.1f} "
                f"{self.board_bytes:>11} {len(self.errors):>6}")


async def _tester(url: str, mode: str, reruns: int, think_ms: tuple[int, int],
                  rng: random.Random, ready: asyncio.Event, arrived: list[int],
                  testers: int, trips: list[float], board_bytes: list[int]) -> None:
    async with _connect(url) as ws:
        session = StreamlitSession(ws, f"{MODE_PARAM}={mode}")
        run = await session.rerun()
        arrived[0] += 1
        if arrived[0] == testers:
            ready.set()
        await asyncio.wait_for(ready.wait(), RERUN_TIMEOUT_S * 4)
        for _ in range(reruns):
            if think_ms[1]:
                await asyncio.sleep(rng.uniform(*think_ms) / 1000)
            if mode == "bare":
                run = await session.rerun()
            else:
                if run.board_id is None or run.board is None:
                    raise LoadTestError(f"no board drawn in mode {mode} {run.exceptions}")
                value = {"target": "5,8", "nonce": str(uuid.uuid4()),
                         "ms": rng.randint(300, 3000), "via": "mouse",
                         "token": run.board["token"]}
                run = await session.rerun([_trigger(run.board_id, "click", value)],
                                          source=run.board_id)
                if run.board is not None:
                    board_bytes.append(len(json.dumps(run.board)))
            if run.exceptions:
                raise LoadTestError(f"app exception {run.exceptions[0]}")
            trips.append(run.ms)


async def _measure(url: str, mode: str, testers: int, reruns: int, think_ms: tuple[int, int],
                   seed: int, pid: int) -> FloorResult:
    ready = asyncio.Event()
    arrived = [0]
    trips: list[float] = []
    board_bytes: list[int] = []
    mark: dict[str, float] = {}

    async def start_mark() -> None:
        await ready.wait()
        mark["wall"] = time.perf_counter()
        mark["cpu"] = process_cpu_seconds(pid) or 0.0

    marker = asyncio.create_task(start_mark())
    results = await asyncio.gather(
        *(_tester(url, mode, reruns, think_ms, random.Random(seed * 1000 + n), ready,
                  arrived, testers, trips, board_bytes) for n in range(testers)),
        return_exceptions=True)
    await marker
    cpu = (process_cpu_seconds(pid) or 0.0) - mark["cpu"]
    errors = tuple(f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException))
    return FloorResult(mode, len(trips), cpu, time.perf_counter() - mark["wall"], tuple(trips),
                       int(percentile(board_bytes, 50)) if board_bytes else 0, errors)


def run_modes(modes: Sequence[str], testers: int, reruns: int, think_ms: tuple[int, int],
              seed: int) -> Iterator[FloorResult]:
    """Start the floor app once, measure each mode in turn (yielded as it is measured),
    stop it (when the iteration ends or is closed)."""
    with tempfile.TemporaryDirectory(prefix="playtest-floor-") as tmp:
        server = start_streamlit(APP, {}, Path(tmp))
        try:
            for mode in modes:
                yield run_coroutine(_measure(server.url, mode, testers, reruns, think_ms,
                                             seed, server.proc.pid))
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rerun_floor",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--testers", type=int, default=50)
    parser.add_argument("--reruns", type=int, default=20, help="reruns per tester (default 20)")
    parser.add_argument("--think-ms", default="500:1500")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        think = parse_think(args.think_ms)
        modes = Mode.parse(args.modes)
        if not 1 <= args.testers <= 200 or not 1 <= args.reruns <= 500:
            raise ValueError("--testers must be 1-200 and --reruns 1-500")
    except ValueError as err:
        print(f"rerun_floor: {err}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"rerun floor: {args.testers} testers x {args.reruns} reruns, think {args.think_ms} ms,"
          f" load average {load:.2f} before")
    print(f"{'mode':<14} {'CPU/rerun':>9} {'p50 ms':>8} {'p95 ms':>8} {'reruns/s':>9} "
          f"{'board bytes':>11} {'errors':>6}")
    failed = False
    for result in run_modes(modes, args.testers, args.reruns, think, args.seed):
        print(result.line(), flush=True)
        for error in result.errors[:3]:
            print(f"  {error}")
        failed = failed or bool(result.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
