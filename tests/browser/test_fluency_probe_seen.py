"""The fluency probe's number pad in Debian's Chromium (issue 27, item 1): what needs a
browser. On a 360×740 touch phone a child taps Start, then big keys drawn by the page;
nothing on the page takes text input, so no on-screen keyboard comes up over the question,
and every answer is stored with its correctness and its time. On a laptop the keyboard's
digits and Enter work too, and a timed probe ends by itself when the time runs out.

One Streamlit server for the module (the harness ``apps/fluency_probe_app.py``); each
test's answers go to a store file named in its URL. No screenshots here: the probe's pages
are among ``python -m benchmarks.screenshots``'s tester pages (the demo study's forms).
"""

from __future__ import annotations

import json
import re
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

HARNESS = Path(__file__).parent / "apps" / "fluency_probe_app.py"
STORES = Path(tempfile.gettempdir()) / "fluency-probe-app"
QUESTION = re.compile(r"^(\d+) × (\d+) =$")
# What makes a phone show its keyboard: a focused text field, or one that asks for it.
TEXT_INPUT = ("() => { const a = document.activeElement; const inner = a && a.shadowRoot"
              " ? a.shadowRoot.activeElement : null; const f = inner || a;"
              " return !!f && (['INPUT', 'TEXTAREA', 'SELECT'].includes(f.tagName)"
              " || f.isContentEditable || f.hasAttribute('inputmode')); }")


@pytest.fixture(scope="module")
def harness(streamlit_app: Callable[..., Any]) -> Any:
    return streamlit_app(HARNESS)


def _open(new_page: Callable[..., Any], harness: Any, query: str, **size: Any) -> tuple[Any, Path]:
    name = f"t{uuid.uuid4().hex[:12]}"
    page = new_page(harness, f"?store={name}&{query}", **size)
    page.get_by_text("Yes").first.click()
    page.get_by_role("button", name="Continue").click()
    expect(page.locator(".fp-start")).to_be_visible(timeout=30_000)
    return page, STORES / f"{name}.json"


def _question(page: Any) -> tuple[int, int]:
    text = page.locator(".fp-q").inner_text().strip()
    match = QUESTION.match(text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def _stored(path: Path) -> list[str]:
    return list(json.loads(path.read_text(encoding="utf-8"))["answers"]["fluency"])


def test_a_child_taps_the_pad_on_a_phone_and_no_keyboard_comes_up(
        new_page: Callable[..., Any], harness: Any) -> None:
    page, store = _open(new_page, harness, "seconds=none&count=3", width=360, height=740,
                        has_touch=True, is_mobile=True)
    page.locator(".fp-start").tap()
    keys = page.locator(".fp-pad button")
    expect(keys).to_have_count(12)
    assert page.locator(".fp input, .fp textarea, .fp [contenteditable]").count() == 0
    for key in keys.all():  # big enough for a child's finger, all on the screen
        box = key.bounding_box()
        assert box is not None and box["width"] >= 60 and box["height"] >= 56, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["y"] + box["height"] <= 740, box  # the whole pad without scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    answers = []
    for number in range(3):
        a, b = _question(page)
        typed = str(a * b + (1 if number == 1 else 0))  # the second one wrong on purpose
        page.locator(".fp-pad button[data-key='9']").tap()  # a slip, deleted
        page.locator(".fp-pad button[data-key='del']").tap()
        for digit in typed:
            page.locator(f".fp-pad button[data-key='{digit}']").tap()
        expect(page.locator(".fp-answer")).to_have_text(typed)
        assert not page.evaluate(TEXT_INPUT)
        page.locator(".fp-pad .fp-ok").tap()
        answers.append((a, b, int(typed)))
    expect(page.get_by_text("How was it?")).to_be_visible(timeout=30_000)
    stored = _stored(store)
    assert [s.rsplit(";", 1)[0] for s in stored] == [
        f"{a}x{b}={given};{'ok' if given == a * b else 'wrong'}" for a, b, given in answers]
    assert all(int(s.rsplit(";", 1)[1]) > 0 for s in stored)


def test_on_a_laptop_the_keyboard_types_and_the_time_runs_out(
        new_page: Callable[..., Any], harness: Any) -> None:
    page, store = _open(new_page, harness, "seconds=10", width=1280, height=800)
    page.locator(".fp-start").click()
    a, b = _question(page)
    page.keyboard.type(str(a * b))
    page.keyboard.press("Enter")
    expect(page.locator(".fp-status")).to_have_text("Question 2")
    # nothing more is answered: the probe ends by itself at 10 s and is stored
    expect(page.get_by_text("How was it?")).to_be_visible(timeout=40_000)
    stored = _stored(store)
    assert stored[0].startswith(f"{a}x{b}={a * b};ok;") and stored[-1].split(";")[1] == "none"
    assert len(stored) == 2
