"""The fluency probe's number pad: one small Streamlit custom component (Components v2).

The page draws the question and twelve big keys (``1``–``9``, ``0``, delete, OK) as real
``<button>`` elements: nothing on the page is a text field, so a phone shows no on-screen
keyboard over the question. A keyboard works too (digits, Backspace, Enter), on the pad's
own focusable area. Everything between *Start* and the last answer happens in the browser,
timed with ``performance.now()`` (no round trip to the server per key, which would add the
network's delay to every answer's time); when the time runs out, or every question is
answered, the page sends one trigger::

    done: {"nonce": "<uuid>", "token": "<the probe's token>",
           "answers": [{"i": 0, "given": 42, "ms": 2310}, …, {"i": 7, "given": null, "ms": 950}]}

``i`` counts the questions shown from 0, ``given`` is the number typed (null: the time ran
out on it), ``ms`` runs from the question appearing to OK. The Python side
(:func:`surveys.fluency.entries_from_browser`) checks it against the questions it sent.

A reload in the middle of a probe starts it again from its first question (nothing is
sent before the end).

The pad's own words (:data:`WORDS`) are English; a page in another language gives its
translation of each (``pad_data(words=...)``).

>>> sorted(pad_data([(6, 7)], 60, "t", "Start"))
['questions', 'seconds', 'start_label', 'token', 'words']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

COMPONENT_NAME: Final = "playtest-lab-surveys.fluency_pad"

#: The pad's own words (the page gives their translation: :func:`pad_data`): what a
#: screen reader says of the pad, its bar and keys, the line above each question and the
#: end's words.
WORDS: Final = {"pad": "Times tables", "time_left": "Time left", "delete": "Delete",
                "ok": "OK: enter the answer", "question": "Question {n}",
                "done": "Well done! Saving your answers…", "resend": "Send my answers again"}

HTML: Final = """
<div class="fp" tabindex="0" aria-label="Times tables">
  <div class="fp-ready">
    <button type="button" class="fp-start"></button>
  </div>
  <div class="fp-run" hidden>
    <div class="fp-bar" role="progressbar" aria-label="Time left"><span></span></div>
    <div class="fp-status" aria-live="polite"></div>
    <div class="fp-question"><span class="fp-q"></span>
      <span class="fp-answer" aria-live="polite"></span></div>
    <div class="fp-pad">
      <button type="button" data-key="1">1</button><button type="button" data-key="2">2</button>
      <button type="button" data-key="3">3</button><button type="button" data-key="4">4</button>
      <button type="button" data-key="5">5</button><button type="button" data-key="6">6</button>
      <button type="button" data-key="7">7</button><button type="button" data-key="8">8</button>
      <button type="button" data-key="9">9</button>
      <button type="button" data-key="del" class="fp-del" aria-label="Delete">&#9003;</button>
      <button type="button" data-key="0">0</button>
      <button type="button" data-key="ok" class="fp-ok" aria-label="OK: enter the answer">OK</button>
    </div>
  </div>
  <div class="fp-done" hidden>
    <p class="fp-done-text">Well done! Saving your answers…</p>
    <button type="button" class="fp-resend" hidden>Send my answers again</button>
  </div>
</div>
"""

CSS: Final = """
.fp { max-width: 420px; margin: 0 auto; outline: none; font-family: inherit;
      user-select: none; -webkit-user-select: none; }
.fp:focus-visible { outline: 3px solid #1c6dd0; outline-offset: 4px; border-radius: 12px; }
.fp button { font: inherit; touch-action: manipulation; cursor: pointer;
             -webkit-tap-highlight-color: transparent; }
.fp .fp-start, .fp .fp-resend { width: 100%; min-height: 64px; font-size: 1.6rem; font-weight: 700;
             border: none; border-radius: 14px; background: #1c6dd0; color: #fff; }
.fp-bar { height: 12px; border-radius: 6px; background: #dde3ea; overflow: hidden; }
.fp-bar span { display: block; height: 100%; width: 100%; background: #2e9e5b;
               transition: width 0.25s linear; }
.fp-status { margin: 6px 2px 0; font-size: 1rem; color: #444; text-align: right; }
.fp-question { display: flex; justify-content: center; align-items: baseline; gap: 0.4em;
               margin: 10px 0 14px; font-size: 2.6rem; font-weight: 700; }
.fp-answer { display: inline-block; min-width: 2.6em; border-bottom: 4px solid #1c6dd0;
             text-align: center; color: #1c6dd0; min-height: 1.2em; }
.fp-pad { display: grid; grid-template-columns: repeat(3, 1fr); gap: 10px; }
.fp-pad button { min-height: 64px; font-size: 1.9rem; font-weight: 700; border-radius: 14px;
                 border: 2px solid #b7c3d0; background: #f5f8fb; color: #111; }
.fp-pad button:active { background: #d8e6f7; }
.fp-pad .fp-ok { background: #2e9e5b; border-color: #2e9e5b; color: #fff; }
.fp-pad .fp-del { font-size: 1.6rem; }
.fp-done-text { font-size: 1.4rem; text-align: center; margin: 18px 0; }
"""

JS: Final = """
const STATE = new WeakMap();

// The pad's words in the page's language (the probe's words), else the English here.
const ENGLISH = { pad: "Times tables", time_left: "Time left", delete: "Delete",
  ok: "OK: enter the answer", question: "Question {n}",
  done: "Well done! Saving your answers\u2026", resend: "Send my answers again" };

function word(s, key) {
  return ((s.probe && s.probe.words) || {})[key] || ENGLISH[key];
}

function relabel(s) {
  s.box.setAttribute("aria-label", word(s, "pad"));
  s.bar.parentElement.setAttribute("aria-label", word(s, "time_left"));
  s.root.querySelector(".fp-del").setAttribute("aria-label", word(s, "delete"));
  s.root.querySelector(".fp-ok").setAttribute("aria-label", word(s, "ok"));
  s.root.querySelector(".fp-done-text").textContent = word(s, "done");
  s.resend.textContent = word(s, "resend");
}

function nonce() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function build(root) {
  const el = (sel) => root.querySelector(sel);
  const s = { root, box: el(".fp"), ready: el(".fp-ready"), run: el(".fp-run"),
              done: el(".fp-done"), start: el(".fp-start"), bar: el(".fp-bar span"),
              status: el(".fp-status"), q: el(".fp-q"), answer: el(".fp-answer"),
              resend: el(".fp-resend"), phase: "ready", token: null, typed: "",
              answers: [], index: 0, shownAt: 0, startedAt: 0, timer: null, payload: null };
  s.start.addEventListener("click", () => begin(s));
  el(".fp-pad").addEventListener("click", (ev) => {
    const key = ev.target.closest("button");
    if (key) press(s, key.dataset.key);
  });
  s.box.addEventListener("keydown", (ev) => {
    if (s.phase === "ready" && (ev.key === "Enter" || ev.key === " ")) { begin(s); }
    else if (/^[0-9]$/.test(ev.key)) { press(s, ev.key); }
    else if (ev.key === "Backspace" || ev.key === "Delete") { press(s, "del"); }
    else if (ev.key === "Enter") { press(s, "ok"); }
    else { return; }
    ev.preventDefault();
  });
  s.resend.addEventListener("click", () => { if (s.payload) s.trigger("done", s.payload); });
  return s;
}

function show(s, phase) {
  s.phase = phase;
  s.ready.hidden = phase !== "ready";
  s.run.hidden = phase !== "run";
  s.done.hidden = phase !== "done";
}

function ask(s) {
  const [a, b] = s.probe.questions[s.index];
  s.q.textContent = a + " \\u00d7 " + b + " =";
  s.typed = "";
  s.answer.textContent = "";
  s.status.textContent = word(s, "question").replace("{n}", String(s.index + 1));
  s.shownAt = performance.now();
}

function tick(s) {
  if (s.phase !== "run" || s.probe.seconds == null) return;
  const left = s.probe.seconds * 1000 - (performance.now() - s.startedAt);
  s.bar.style.width = Math.max(0, 100 * left / (s.probe.seconds * 1000)) + "%";
  if (left <= 0) {
    s.answers.push({ i: s.index, given: null, ms: Math.round(performance.now() - s.shownAt) });
    finish(s);
  }
}

function begin(s) {
  if (s.phase !== "ready") return;
  show(s, "run");
  s.index = 0;
  s.answers = [];
  s.startedAt = performance.now();
  ask(s);
  s.box.focus({ preventScroll: true });
  if (s.probe.seconds != null) s.timer = setInterval(() => tick(s), 200);
  else s.bar.parentElement.hidden = true;
}

function press(s, key) {
  if (s.phase !== "run") return;
  if (key === "del") { s.typed = s.typed.slice(0, -1); }
  else if (key === "ok") {
    if (!s.typed) return;
    s.answers.push({ i: s.index, given: parseInt(s.typed, 10),
                     ms: Math.round(performance.now() - s.shownAt) });
    s.index += 1;
    if (s.index >= s.probe.questions.length) { finish(s); return; }
    ask(s);
    return;
  } else if (s.typed.length < 3) { s.typed += key; }
  s.answer.textContent = s.typed;
}

function finish(s) {
  clearInterval(s.timer);
  s.timer = null;
  show(s, "done");
  s.payload = { nonce: nonce(), token: s.token, answers: s.answers };
  s.trigger("done", s.payload);
  setTimeout(() => { s.resend.hidden = false; }, 5000);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let s = STATE.get(parentElement);
  if (!s) { s = build(parentElement); STATE.set(parentElement, s); }
  s.trigger = setTriggerValue;
  const probe = data && data.probe;
  if (probe && probe.token !== s.token) {
    clearInterval(s.timer);
    s.token = probe.token;
    s.probe = probe;
    s.start.textContent = probe.start_label;
    relabel(s);
    show(s, "ready");
  }
}
"""


def pad_data(questions: Sequence[tuple[int, int]], seconds: int | None, token: str,
             start_label: str, words: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the page sends the pad: the questions in order, the time limit, a token
    naming this probe (its survey, item and form), the start button's label and the
    pad's own words (:data:`WORDS`) in the page's language (English without).

    >>> pad_data([], None, "t", "Los", {"delete": "Löschen"})["words"]["delete"]
    'Löschen'
    """
    return {"questions": [list(q) for q in questions], "seconds": seconds, "token": token,
            "start_label": start_label, "words": {**WORDS, **(words or {})}}


_renderer: list[Any] = []


def widget_key(key: str) -> str:
    """``key`` as the pad's Streamlit key: Streamlit refuses a custom component whose key
    holds ``__`` (its delimiter), and a tester's code may hold it (a URL-safe token: about
    1 code in 200), so ``%`` and ``_`` are written as ``%25`` and ``%5F`` (one key to one
    key; the rest unchanged).

    >>> widget_key("pre-Ab__c%::times_tables::fluency")
    'pre-Ab%5F%5Fc%25::times%5Ftables::fluency'
    >>> widget_key("t::tt::fluency")
    't::tt::fluency'
    """
    return key.replace("%", "%25").replace("_", "%5F")


def pad() -> Any:
    """The mount command (the component is registered once per process)."""
    import streamlit as st

    if not _renderer:
        _renderer.append(st.components.v2.component(COMPONENT_NAME, html=HTML, css=CSS, js=JS))
    return _renderer[0]
