"""Click-to-repaint latency of the board, against a one-button Streamlit app.

    python -m benchmarks.bench_board_latency [--clicks 30] [--warmup 3] [--json] [--stages]

Starts both apps with `streamlit run` (the project's .streamlit/config.toml applies),
opens each in headless Debian Chromium, and for every sample does a real mouse click:
the time runs from the click's `pointerdown.timeStamp` to the first animation frame in
which the page shows the result (the board: the clicked tile carries a counter; the
baseline: the counter text has gone up). Between clicks it waits for the app to finish
its run and then pauses like a person would (--pause-ms). Prints median, p95, mean and
the board/baseline ratio. Targets (issue 5): median <= 30 ms, p95 <= 80 ms, median within
1.5x of the one-button app.

--stages also prints where the time goes (medians, ms after pointerdown): the WebSocket
send of the click's rerun request, the first and last server message received before
the page changed, the DOM change itself (a MutationObserver on the tile / the counter),
and the repainted frame (the latency above).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from benchmarks.devserver import CHROMIUM, CHROMIUM_ARGS, start_streamlit

IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"

# --stages: timestamps (performance.now) of the page's WebSocket sends and receipts.
_WS_HOOK = """
(() => {
  window.__ws = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    window.__ws.push(["send", performance.now()]);
    if (!this.__timed) {
      this.__timed = true;
      this.addEventListener("message", () => window.__ws.push(["recv", performance.now()]));
    }
    return send.call(this, d);
  };
})();
"""

# Resolves with ms from pointerdown to the first frame where `done()` holds (-1: timeout).
_ARM = """
([el, kind, target, watch]) => {
  window.__lat = new Promise((resolve) => {
    let t0 = null;
    window.__ws = [];
    window.__t0 = null;
    window.__mut = null;
    document.addEventListener("pointerdown", (e) => { t0 = e.timeStamp; window.__t0 = t0; },
                              {capture: true, once: true});
    const start = performance.now();
    const done = () => kind === "tile"
      ? !el.classList.contains("o0")
      : (document.querySelector(".st-key-counter [data-testid=stText]")?.innerText === target);
    if (watch) {  // --stages: when the DOM changed (only then: no observer otherwise)
      const watched = kind === "tile" ? el : document.querySelector(".st-key-counter");
      const mo = new MutationObserver(() => {
        if (t0 !== null && done() && window.__mut === null) {
          window.__mut = performance.now();
          mo.disconnect();
        }
      });
      mo.observe(watched, {attributes: true, childList: true, subtree: true, characterData: true});
    }
    const tick = (ts) => {
      if (t0 !== null && done()) { resolve(performance.now() - t0); return; }
      if (performance.now() - start > 5000) { resolve(-1); return; }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
"""


@dataclass(frozen=True)
class LatencyResult:
    app: str
    samples: int
    failures: int
    median_ms: float
    p95_ms: float
    mean_ms: float
    min_ms: float
    max_ms: float


def _summary(app: str, times: list[float]) -> LatencyResult:
    ok = [t for t in times if t >= 0]
    if not ok:
        raise RuntimeError(f"{app}: no click was repainted within 5 s")
    return LatencyResult(
        app,
        len(ok),
        len(times) - len(ok),
        round(statistics.median(ok), 1),
        round(float(np.quantile(ok, 0.95)), 1),
        round(statistics.fmean(ok), 1),
        round(min(ok), 1),
        round(max(ok), 1),
    )


_STAGE_NAMES = ("ws send", "first msg", "last msg", "DOM change", "repainted")

# ms after pointerdown: [send, first receipt, last receipt before the DOM change, DOM change]
_STAGES = """
() => {
  const t0 = window.__t0, mut = window.__mut;
  if (t0 === null || mut === null) return null;
  const after = (kind) => window.__ws.filter(([k, t]) => k === kind && t >= t0).map(([, t]) => t);
  const sends = after("send"), recvs = after("recv").filter((t) => t <= mut);
  if (!sends.length || !recvs.length) return null;
  return [sends[0] - t0, recvs[0] - t0, recvs[recvs.length - 1] - t0, mut - t0];
}
"""


def _stage_medians(rows: list[list[float]]) -> dict[str, float]:
    return {
        name: round(statistics.median(row[i] for row in rows), 1)
        for i, name in enumerate(_STAGE_NAMES)
    }


def _click_and_time(
    page: Any,
    el: Any,
    kind: str,
    target: str,
    pause_ms: int,
    stages: list[list[float]] | None = None,
) -> float:
    page.locator(IDLE).wait_for()
    page.wait_for_timeout(pause_ms)  # human pacing between clicks, not synchronisation
    page.evaluate(_ARM, [el, kind, target, stages is not None])
    box = el.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    latency = float(page.evaluate("window.__lat"))
    if stages is not None and latency >= 0:
        marks = page.evaluate(_STAGES)
        if marks is not None:
            stages.append([*marks, latency])
    return latency


def bench_board(
    browser: Any,
    url: str,
    clicks: int,
    warmup: int,
    pause_ms: int,
    stages: list[list[float]] | None = None,
) -> list[float]:
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    if stages is not None:
        page.add_init_script(_WS_HOOK)
    page.goto(f"{url}/?free=1&log=0")
    tiles = page.locator(".st-key-board button.tile")
    tiles.nth(143).wait_for()
    # empty tiles only, spread over the board (the harness starts with a few counters)
    empty = [i for i in range(144) if "o0" in (tiles.nth(i).get_attribute("class") or "")]
    order = empty[::3] + empty[1::3] + empty[2::3]
    if len(order) < clicks + warmup:
        raise ValueError(f"at most {len(order) - warmup} clicks fit on the board")
    times = []
    for n, i in enumerate(order[: clicks + warmup]):
        kept = stages if n >= warmup else None
        t = _click_and_time(page, tiles.nth(i).element_handle(), "tile", "", pause_ms, kept)
        if n >= warmup:
            times.append(t)
    page.close()
    return times


def bench_button(
    browser: Any,
    url: str,
    clicks: int,
    warmup: int,
    pause_ms: int,
    stages: list[list[float]] | None = None,
) -> list[float]:
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    if stages is not None:
        page.add_init_script(_WS_HOOK)
    page.goto(url)
    page.locator(".st-key-counter [data-testid=stText]").wait_for()
    button = page.locator(".st-key-one_button button").element_handle()
    times = []
    for n in range(clicks + warmup):
        kept = stages if n >= warmup else None
        t = _click_and_time(page, button, "button", f"clicks={n + 1}", pause_ms, kept)
        if n >= warmup:
            times.append(t)
    page.close()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_board_latency", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--pause-ms", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--stages", action="store_true", help="also print where the time goes (medians)"
    )
    args = parser.parse_args(argv)
    if args.clicks < 1 or args.warmup < 0 or args.clicks + args.warmup > 120:
        print("error: need 1 <= clicks and clicks + warmup <= 120", file=sys.stderr)
        return 2
    if not CHROMIUM.is_file():
        print(f"error: Chromium not found at {CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    button_stages: list[list[float]] | None = [] if args.stages else None
    board_stages: list[list[float]] | None = [] if args.stages else None
    board_srv = start_streamlit("benchmarks/board_harness_app.py")
    button_srv = start_streamlit("benchmarks/one_button_app.py")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            button = _summary(
                "one-button app",
                bench_button(
                    browser, button_srv.url, args.clicks, args.warmup, args.pause_ms, button_stages
                ),
            )
            board = _summary(
                "board harness",
                bench_board(
                    browser, board_srv.url, args.clicks, args.warmup, args.pause_ms, board_stages
                ),
            )
            browser.close()
    finally:
        board_srv.stop()
        button_srv.stop()
    ratio = round(board.median_ms / button.median_ms, 2) if button.median_ms else float("inf")
    stage_medians = {
        name: _stage_medians(rows)
        for name, rows in (("board", board_stages), ("button", button_stages))
        if rows
    }
    if args.json:
        print(
            json.dumps(
                {
                    "board": asdict(board),
                    "button": asdict(button),
                    "ratio": ratio,
                    "loadavg": os.getloadavg(),
                    **({"stages": stage_medians} if stage_medians else {}),
                }
            )
        )
        return 0
    print(
        f"{'app':<16} {'n':>3} {'fail':>4} {'median':>7} {'p95':>7} {'mean':>7} {'min':>6} {'max':>6}  (ms)"
    )
    for r in (board, button):
        print(
            f"{r.app:<16} {r.samples:>3} {r.failures:>4} {r.median_ms:>7} {r.p95_ms:>7} "
            f"{r.mean_ms:>7} {r.min_ms:>6} {r.max_ms:>6}"
        )
    print(f"board/button median ratio: {ratio}  (targets: median <= 30, p95 <= 80, ratio <= 1.5)")
    if stage_medians:
        print("stages, median ms after pointerdown: " + ", ".join(_STAGE_NAMES))
        for name, values in stage_medians.items():
            print(f"  {name:<7} " + " ".join(f"{v:>7}" for v in values.values()))
    one, five, fifteen = os.getloadavg()
    print(
        f"load average (1, 5, 15 min): {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
