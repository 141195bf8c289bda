"""Click-to-repaint time of the Bricks & Walls board in Chromium, printed as numbers:

    .venv/bin/python benchmarks/morris_board_latency.py [--actions 40]

Starts the harness app (benchmarks/morris_board_app.py), places bricks (and takes them
after walls) by clicking points, and measures in the page the time from the click to the board showing the next
position (Python judged the click, applied it, and the component redrew).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.morris import MorrisGame, Place, decode


def _devserver() -> Any:
    """The dev server module: benchmarks/devserver.py once the "house" work moves it there."""
    for name in ("benchmarks.devserver", "playtest.board.devserver"):
        with contextlib.suppress(ImportError):
            return importlib.import_module(name)
    raise ImportError("no dev server module (benchmarks/devserver.py)")


MEASURE = """(root, [point, before]) => new Promise(resolve => {
  const t0 = performance.now();
  const obs = new MutationObserver(() => {
    if (root.dataset.token !== before) { obs.disconnect(); resolve(performance.now() - t0); }
  });
  obs.observe(root, {attributes: true});
  root.querySelector(`.pt[data-point=${point}]`).dispatchEvent(new MouseEvent("click", {bubbles: true}));
})"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=60)
    args = parser.parse_args()
    dev = _devserver()
    server = dev.start_streamlit("benchmarks/morris_board_app.py", {}, Path(tempfile.gettempdir()))
    times: list[float] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(dev.CHROMIUM), args=dev.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(server.url)
            board = page.locator("[data-testid=morris-board]")
            board.wait_for(timeout=30_000)
            rng = random.Random(1)
            while len(times) < args.actions:
                state = MorrisGame().new_initial_state()
                while len(times) < args.actions and not state.placement_over:
                    action = rng.choice(state.legal_actions())
                    obj = decode(action)
                    point = obj.to if isinstance(obj, Place) else obj.at  # type: ignore[union-attr]
                    before = board.get_attribute("data-token")
                    times.append(board.evaluate(MEASURE, [point, before]))
                    state.apply_action(action)
                page.get_by_role("button", name="New game").click()
                page.wait_for_timeout(500)
            browser.close()
    finally:
        server.stop()
    print(
        f"click to repaint over {len(times)} placements: median {statistics.median(times):.0f} ms, "
        f"p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.0f} ms, max {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
