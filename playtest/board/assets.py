"""HTML, CSS and JavaScript of the board component, and the one file they are served from.

The board's front end is one ES module, `static/board.js`, generated from the strings
here (`BOARD_JS`) and committed, so a normal install ships it as package data:

    python -m playtest.board.assets          # rewrite static/board.js after an edit here
    python -m playtest.board.assets --check  # exit 1 if the file is out of date

Streamlit serves that file from the component's asset directory, so a rerun's
BidiComponent message carries only its path and the view data, not ~17 KB of code (see
`playtest.board.component`). The module's default export is called on mount and again
whenever `data` changes; on first call for a `parentElement` it inserts the markup and a
<style> with the CSS itself (no separately loaded stylesheet: nothing is drawn unstyled),
builds the grid once (a WeakMap per `parentElement`), and after that only updates text,
classes and attributes, so a rerun repaints in one frame.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from playtest.board.sounds import cue_spec
from playtest.board.view import SEAT_STYLES

HTML: Final = """
<div class="vb" data-testid="vapoosh-board">
 <div class="vb-body">
  <div class="vb-panel">
   <div class="vb-top">
    <div class="vb-turn" data-role="turn"><span class="vb-swatch"></span><span class="vb-turn-text"></span></div>
    <div class="vb-controls">
      <button type="button" class="vb-roll" data-role="roll">Roll the dice</button>
      <button type="button" class="vb-mute" data-role="mute" aria-pressed="false">Sound on</button>
    </div>
   </div>
   <div class="vb-dicebar" data-role="dicebar">
    <span class="vb-dice-by"></span>
    <span class="vb-dice"><span class="vb-pair vb-pink" role="group" aria-label="pink dice"></span>
    <span class="vb-pair vb-green" role="group" aria-label="green dice"></span></span>
    <span class="vb-sums"></span>
   </div>
   <div class="vb-msg" role="status" aria-live="polite" data-role="message"></div>
  </div>
  <div class="vb-board">
   <div class="vb-grid" role="grid" aria-label="Multiplication board, 12 columns by 12 rows"></div>
   <div class="vb-zoom" role="group" aria-label="Magnified part of the board: tap your tile" hidden></div>
  </div>
 </div>
</div>
"""


def _seat_css() -> str:
    lines = []
    for owner, style in SEAT_STYLES.items():
        lines.append(
            f".tile.o{owner}{{color:{style.text_colour};}}"
            f".tile.o{owner}::before{{background:{style.colour};clip-path:var(--shape-{style.shape});}}"
            f".vb-swatch.o{owner}{{background:{style.colour};clip-path:var(--shape-{style.shape});}}"
        )
    return "\n".join(lines)


CSS: Final = "\n".join(
    line.strip()
    for line in (
        """
:host, .vb {
  --shape-circle: circle(50% at 50% 50%);
  --shape-square: inset(6% round 10%);
  --shape-triangle: polygon(50% 2%, 98% 94%, 2% 94%);
  --shape-diamond: polygon(50% 0, 100% 50%, 50% 100%, 0 50%);
  --shape-hexagon: polygon(25% 4%, 75% 4%, 100% 50%, 75% 96%, 25% 96%, 0 50%);
  --tile-bg: var(--st-secondary-background-color, #f0f2f6);
  --ink: var(--st-text-color, #31333f);
  --accent: var(--st-primary-color, #ff4b4b);
}
.vb {
  container-type: inline-size;
  width: 100%;
  margin: 0 auto;
  box-sizing: border-box;
  color: var(--ink);
  font-family: var(--st-font, sans-serif);
  -webkit-tap-highlight-color: transparent;
}
.vb *, .vb *::before, .vb *::after { box-sizing: border-box; }
/* Narrow (phone): the panel (turn, roll, dice, message) above the board, every part of
   it a fixed height, so a new message or dice never move the board under a finger.
   Wide: the panel beside the board, and the board no taller than the window. */
.vb-body { display: flex; flex-direction: column; gap: 4px; }
.vb-board { position: relative; width: 100%; max-width: min(100%, calc(100dvh - 40px)); margin: 0 auto; }
@container (min-width: 560px) {
  .vb-body { flex-direction: row-reverse; align-items: flex-start; gap: 14px; }
  .vb-panel { flex: 0 0 230px; position: sticky; top: 0; }
  .vb-board { flex: 1 1 auto; max-width: calc(100dvh - 64px); margin: 0; }
  .vb-dicebar { height: auto; flex-wrap: wrap; }
  .vb-dice-by { flex-basis: 100%; }
  .vb .vb-msg { height: auto; min-height: 5.2em; font-size: 17px; }
}
.vb-top { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; justify-content: space-between; }
.vb-turn { display: flex; align-items: center; gap: 6px; font-weight: 600; font-size: clamp(14px, 3.6cqi, 20px); }
.vb-swatch { display: inline-block; width: 1.1em; height: 1.1em; }
.vb-swatch:not(.o1):not(.o2):not(.o3):not(.o4) { display: none; }
.vb-controls { display: flex; gap: 6px; }
.vb button.vb-roll, .vb button.vb-mute {
  font: inherit; font-size: 16px; border-radius: 8px; padding: 8px 14px; min-height: 44px;
  cursor: pointer; border: 1px solid rgba(128,128,128,.5); background: var(--tile-bg); color: var(--ink);
  touch-action: manipulation;
}
.vb button.vb-roll { background: var(--accent); color: #fff; border-color: transparent; font-weight: 700; }
.vb button.vb-roll[hidden], .vb button.vb-mute[hidden] { display: none; }
.vb button:focus-visible { outline: 3px solid #000; outline-offset: 2px; box-shadow: 0 0 0 5px #fff; }
.vb-dicebar { display: flex; flex-wrap: nowrap; align-items: center; gap: 6px 10px; height: 40px; margin: 4px 0; overflow: hidden; }
.vb-dice-by { font-size: 14px; white-space: nowrap; }
.vb-dice { display: inline-flex; gap: 10px; }
.vb-pair { display: inline-flex; gap: 4px; }
.die {
  width: 34px; height: 34px; border-radius: 7px; display: grid; padding: 4px;
  grid-template-columns: repeat(3, 1fr); grid-template-rows: repeat(3, 1fr);
  border: 2px solid rgba(0,0,0,.55);
}
.vb-pink .die { background: #f9b8d3; }
.vb-green .die { background: #9fdca0; border-radius: 50% 7px 7px 7px; }
.pip { width: 6px; height: 6px; border-radius: 50%; background: #111; place-self: center; visibility: hidden; }
.pip.on { visibility: visible; }
.vb-sums { font-size: 14px; }
.vb-msg {
  height: calc(3.75em + 8px); line-height: 1.25; overflow: hidden;
  padding: 4px 10px; border-radius: 8px; margin-bottom: 4px;
  font-size: clamp(14px, 3.4cqi, 18px); display: flex; align-items: center;
  transition: opacity .3s;
}
.vb-msg:empty { opacity: 0; }
.vb-msg.t-info { background: rgba(0,114,178,.12); }
.vb-msg.t-good { background: rgba(0,158,115,.18); font-weight: 700; }
.vb-msg.t-bad { background: rgba(213,94,0,.16); }
.vb-msg.t-warn { background: rgba(240,228,66,.35); }
.vb-msg.t-celebrate { background: rgba(230,159,0,.3); font-weight: 800; }
.vb-grid {
  display: grid;
  grid-template-columns: minmax(0, .62fr) repeat(12, minmax(0, 1fr));
  gap: clamp(1px, .5cqi, 3px);
  width: 100%;
  user-select: none;
  contain: layout style;  /* changes inside the grid stay inside it (no paint containment: focus rings may overflow) */
}
.vb-grid [role=row] { display: contents; }
.hdr {
  display: flex; align-items: center; justify-content: center;
  font-size: clamp(8px, 2.3cqi, 13px); font-weight: 700; opacity: .7; min-width: 0;
}
.hdr.col { aspect-ratio: 1 / .62; }
.cell { min-width: 0; aspect-ratio: 1; }
.tile {
  position: relative; width: 100%; height: 100%; margin: 0; padding: 0; min-width: 0;
  border: 1px solid rgba(128,128,128,.35); border-radius: clamp(2px, .8cqi, 6px);
  background: var(--tile-bg); color: var(--ink);
  font: inherit; font-size: clamp(9px, 2.2cqi, 15px); font-weight: 600; font-variant-numeric: tabular-nums;
  display: flex; align-items: center; justify-content: center; overflow: hidden;
  cursor: pointer; touch-action: manipulation; isolation: isolate;
}
/* Hit tests stop at the tile: its number, counter shape (clip-path) and icon never take
   pointer events, so the browser does not test each shape on every pointer move. */
.tile span, .tile::before, .tile::after, .hdr { pointer-events: none; }
.tile span { position: relative; z-index: 1; }
.tile::before { content: ""; position: absolute; inset: 8%; z-index: 0; }
.tile.o0::before { display: none; }
.tile.sq { box-shadow: inset 0 0 0 2px #E69F00, 0 0 6px 1px rgba(230,159,0,.75); background: #fff7e0; color: #5a3b00; }
.tile.sq.o0 { font-weight: 800; }
.tile.g-placed { outline: 3px solid #000; outline-offset: -3px; animation: pulse 1.2s ease-out 2; }
.tile.g-square { outline: 3px solid #E69F00; outline-offset: -3px; animation: sparkle 1s ease-in-out 3; }
.tile.g-captured { outline: 3px dashed #D55E00; outline-offset: -3px; animation: shake .35s ease-in-out 2; }
.tile.g-computer { outline: 3px dotted #000; outline-offset: -3px; box-shadow: 0 0 0 3px #56B4E9; animation: pulse 1.2s ease-out 3; }
.tile.g-computer::after { content: "\\2699"; position: absolute; top: -1px; right: 1px; font-size: .75em; z-index: 2; color: #000; }
.tile.g-captured::after { content: "!"; position: absolute; top: -1px; right: 2px; font-size: .8em; font-weight: 900; z-index: 2; color: #D55E00; }
.tile.g-win { outline: 4px solid #009E73; outline-offset: -4px; box-shadow: 0 0 12px 4px rgba(0,158,115,.85); z-index: 2; animation: sparkle 1.2s ease-in-out infinite; }
.tile.g-win::after { content: "\2605"; position: absolute; top: -2px; right: 1px; font-size: .8em; z-index: 2; color: #009E73; }
.cell { position: relative; }
.vb button.vb-brown {
  position: absolute; left: 50%; bottom: 88%; transform: translateX(-50%); z-index: 4;
  font: inherit; font-size: 13px; font-weight: 700; padding: 4px 10px; min-height: 30px; min-width: 56px;
  border-radius: 15px; border: 2px solid #fff; background: #7B4A1E; color: #fff; cursor: pointer;
  box-shadow: 0 1px 4px rgba(0,0,0,.45); touch-action: manipulation; white-space: nowrap;
}
.vb button.vb-brown.below { bottom: auto; top: 88%; }
.vb button.vb-brown.first { left: 0; transform: none; }
.vb button.vb-brown.last { left: auto; right: 0; transform: none; }
.vb button.vb-brown.on {
inset: 0; left: 0; bottom: 0; transform: none; min-width: 0; min-height: 0; width: 100%; height: 100%;
padding: 0; border-radius: clamp(2px, .8cqi, 6px); font-size: clamp(7px, 2cqi, 13px); overflow: hidden;
}
.vb-zoom {
  position: absolute; inset: 0; z-index: 6; display: grid; gap: 4px; padding: 6px;
  grid-template-columns: .45fr repeat(5, minmax(0, 1fr)); grid-template-rows: .45fr repeat(5, minmax(0, 1fr));
  background: var(--st-background-color, #fff); border: 2px solid var(--ink); border-radius: 10px;
  box-shadow: 0 4px 18px rgba(0,0,0,.35);
}
.vb-zoom[hidden] { display: none; }
.vb[data-zoom] .vb-grid button.vb-brown { visibility: hidden; }
.vb-zoom .tile { font-size: 20px; border-radius: 8px; }
.vb-zoom .hdr { font-size: 15px; }
.vb-zoom button.vb-brown { min-height: 26px; font-size: 12px; padding: 2px 8px; }
.vb button.vb-zclose {
  font: inherit; font-size: 13px; font-weight: 700; line-height: 1.1; border-radius: 8px; padding: 2px;
  border: 1px solid rgba(128,128,128,.6); background: var(--tile-bg); color: var(--ink); cursor: pointer;
}
.tile.hl { box-shadow: inset 0 0 0 3px var(--accent); animation: breathe 1.4s ease-in-out infinite; }
.tile:focus-visible { outline: 3px solid #000; outline-offset: 1px; box-shadow: 0 0 0 5px #fff; z-index: 3; }
.tile.pressed { transform: scale(.92); }
.tile.nope { animation: shake .3s ease-in-out 1; }
.vb.busy .tile { cursor: not-allowed; }
.vb.busy .vb-grid { opacity: .85; }
/* Only opacity moves: the compositor animates it without repainting the tiles each frame
   (filter and box-shadow animations kept the main thread painting), and a tile's box stays
   still, so it can be clicked (and tested) while it breathes. */
@keyframes pulse { 0% { opacity: .4; } 100% { opacity: 1; } }
@keyframes sparkle { 50% { opacity: .55; } }
@keyframes breathe { 50% { opacity: .55; } }
@keyframes shake { 25% { transform: translateX(-2px); } 75% { transform: translateX(2px); } }
@media (prefers-reduced-motion: reduce) { .vb * { animation: none !important; transition: none !important; } }
"""
        + _seat_css()
    ).splitlines()
    if line.strip()
)

_JS_TEMPLATE: Final = """
const HTML = __HTML__;
const CSS = __CSS__;
const CUES = __CUES__;
const SIZE = 12;
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};
const STATE = new WeakMap();
let AUDIO = null;

function nonce() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function audio() {
  // Created on the first gesture inside the board: browsers allow sound only after one.
  if (!AUDIO) {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return null;
    AUDIO = new Ctx();
  }
  if (AUDIO.state === "suspended") AUDIO.resume();
  return AUDIO;
}

function play(name) {
  const notes = CUES[name];
  const ctx = audio();
  if (!notes || !ctx) return false;
  const t0 = ctx.currentTime + 0.01;
  for (const [at, dur, wave, f0, f1, gain] of notes) {
    const n = {at, dur, wave, f0, f1, gain};
    const g = ctx.createGain();
    const start = t0 + n.at, end = start + n.dur;
    g.gain.setValueAtTime(0.0001, start);
    g.gain.linearRampToValueAtTime(n.gain, start + 0.006);
    g.gain.exponentialRampToValueAtTime(0.0001, end);
    g.connect(ctx.destination);
    let src;
    if (n.wave === "noise") {
      const len = Math.max(1, Math.floor(n.dur * ctx.sampleRate));
      const buf = ctx.createBuffer(1, len, ctx.sampleRate);
      const ch = buf.getChannelData(0);
      for (let i = 0; i < len; i++) ch[i] = Math.random() * 2 - 1;
      src = ctx.createBufferSource();
      src.buffer = buf;
    } else {
      src = ctx.createOscillator();
      src.type = n.wave;
      src.frequency.setValueAtTime(n.f0, start);
      if (n.f1 !== n.f0) src.frequency.linearRampToValueAtTime(n.f1, end);
    }
    src.connect(g);
    src.start(start);
    src.stop(end + 0.02);
  }
  return true;
}

function makeDie(value, colour) {
  const d = document.createElement("span");
  d.className = "die";
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", colour + " die " + value);
  d.dataset.value = String(value);
  const on = PIPS[value] || [];
  for (let i = 0; i < 9; i++) {
    const p = document.createElement("span");
    p.className = on.includes(i) ? "pip on" : "pip";
    d.appendChild(p);
  }
  return d;
}

function build(root) {
  // Markup and style go in on the first call (the component sends no html/css): the
  // style is in place before the grid is drawn, so the board never shows unstyled.
  const style = document.createElement("style");
  style.textContent = CSS;
  const holder = document.createElement("div");
  holder.innerHTML = HTML;
  root.append(style, holder);
  const st = {
    root, tiles: [], focus: 0, data: null, nonce: null, token: "",
    shownAt: performance.now(), turnKey: null, msgTimer: null, muted: false, seq: 0,
    vb: root.querySelector(".vb"),
    grid: root.querySelector(".vb-grid"),
    roll: root.querySelector(".vb-roll"),
    mute: root.querySelector(".vb-mute"),
    msg: root.querySelector(".vb-msg"),
    turnText: root.querySelector(".vb-turn-text"),
    swatch: root.querySelector(".vb-swatch"),
    diceBy: root.querySelector(".vb-dice-by"),
    pink: root.querySelector(".vb-pink"),
    green: root.querySelector(".vb-green"),
    sums: root.querySelector(".vb-sums"),
    zoom: root.querySelector(".vb-zoom"),
    zoomAt: null, browns: "[]",
    trigger: () => {},
  };
  const frag = document.createDocumentFragment();
  const head = document.createElement("div");
  head.setAttribute("role", "row");
  const corner = document.createElement("span");
  corner.className = "hdr col corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = "\\u00d7";
  head.appendChild(corner);
  for (let c = 1; c <= SIZE; c++) {
    const h = document.createElement("span");
    h.className = "hdr col";
    h.setAttribute("role", "columnheader");
    h.setAttribute("aria-label", "column " + c);
    h.textContent = String(c);
    head.appendChild(h);
  }
  frag.appendChild(head);
  for (let r = 1; r <= SIZE; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    const h = document.createElement("span");
    h.className = "hdr row";
    h.setAttribute("role", "rowheader");
    h.setAttribute("aria-label", "row " + r);
    h.textContent = String(r);
    row.appendChild(h);
    for (let c = 1; c <= SIZE; c++) {
      const i = (r - 1) * SIZE + (c - 1);
      const cell = document.createElement("span");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tile o0";
      b.dataset.index = String(i);
      b.dataset.c = String(c);
      b.dataset.r = String(r);
      b.tabIndex = i === 0 ? 0 : -1;
      const s = document.createElement("span");
      s.textContent = String(c * r);
      b.appendChild(s);
      cell.appendChild(b);
      row.appendChild(cell);
      st.tiles.push(b);
    }
    frag.appendChild(row);
  }
  st.grid.appendChild(frag);

  st.grid.onpointerdown = () => { audio(); };
  st.grid.onclick = (e) => {
    const chip = e.target.closest("button.vb-brown");
    const b = chip ? st.tiles[Number(chip.dataset.index)] : e.target.closest("button.tile");
    if (!b) return;
    const i = Number(b.dataset.index);
    moveFocus(st, i, false);
    // A touch on a small tile opens the magnifier first; the tap there is the click.
    if (!chip && wantsZoom(st, b, e)) { openZoom(st, i); return; }
    sendClick(st, b, e, !!chip);
  };
  st.zoom.onclick = (e) => {
    if (e.target.closest("button.vb-zclose")) { closeZoom(st); return; }
    const chip = e.target.closest("button.vb-brown");
    const z = chip || e.target.closest("button.tile");
    if (!z) return;
    const b = st.tiles[Number(z.dataset.index)];
    closeZoom(st);
    sendClick(st, b, e, !!chip);
  };
  st.zoom.onkeydown = (e) => { if (e.key === "Escape") { e.preventDefault(); closeZoom(st); } };
  st.grid.onkeydown = (e) => {
    const b = e.target.closest("button.tile");
    if (!b) return;
    const i = Number(b.dataset.index);
    const c = i % SIZE, r = Math.floor(i / SIZE);
    let j = null;
    if (e.key === "ArrowRight") j = r * SIZE + Math.min(SIZE - 1, c + 1);
    else if (e.key === "ArrowLeft") j = r * SIZE + Math.max(0, c - 1);
    else if (e.key === "ArrowDown") j = Math.min(SIZE - 1, r + 1) * SIZE + c;
    else if (e.key === "ArrowUp") j = Math.max(0, r - 1) * SIZE + c;
    else if (e.key === "Home") j = e.ctrlKey ? 0 : r * SIZE;
    else if (e.key === "End") j = e.ctrlKey ? SIZE * SIZE - 1 : r * SIZE + SIZE - 1;
    if (j !== null) { e.preventDefault(); moveFocus(st, j, true); }
  };
  st.roll.onclick = (e) => {
    audio();
    if (!st.data || !st.data.can_roll || st.roll.disabled) return;
    st.roll.disabled = true;  // one roll per view: re-enabled by the next data ...
    const shown = st.data;
    setTimeout(() => {  // ... or, if the app answered with the same view, after a pause
      if (st.data === shown) st.roll.disabled = !shown.can_roll;
    }, 1500);
    st.trigger("roll", {nonce: nonce(), t_ms: Math.round(performance.now() - st.shownAt),
      via: e.detail === 0 ? "keyboard" : (e.pointerType || "mouse"), token: st.token});
  };
  st.mute.onclick = () => {
    audio();
    st.muted = !st.muted;
    paintMute(st);
    st.trigger("mute", {muted: st.muted, nonce: nonce()});
  };
  return st;
}

function sendClick(st, b, e, brown) {
  const i = Number(b.dataset.index);
  if (!st.data || !st.data.interactive) {
    b.classList.remove("nope"); void b.offsetWidth; b.classList.add("nope");
    return;
  }
  b.classList.add("pressed");
  // the next data repaints the tile; this only matters if the app sends nothing new
  setTimeout(() => b.classList.remove("pressed"), 600);
  st.seq += 1;
  st.trigger("click", {
    index: i, c: Number(b.dataset.c), r: Number(b.dataset.r), nonce: nonce(), seq: st.seq,
    t_ms: Math.round(performance.now() - st.shownAt), via: e.detail === 0 ? "keyboard" : (e.pointerType || "mouse"),
    token: st.token, brown: brown,
  });
}

const ZOOM_N = 5;        // the magnifier shows 5 x 5 tiles ...
const ZOOM_BELOW = 40;   // ... when a touched tile is narrower than this (CSS px)

function wantsZoom(st, b, e) {
  const d = st.data;
  if (!d || !d.zoom || !d.interactive || d.phase !== "place") return false;
  if (e.detail === 0 || e.pointerType !== "touch") return false;
  return b.getBoundingClientRect().width < ZOOM_BELOW;
}

function openZoom(st, i) {
  const c0 = i % SIZE, r0 = Math.floor(i / SIZE);
  const cs = Math.max(0, Math.min(SIZE - ZOOM_N, c0 - 2));
  const rs = Math.max(0, Math.min(SIZE - ZOOM_N, r0 - 2));
  const z = st.zoom;
  const brown = new Set(st.data.brown || []);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "vb-zclose";
  close.textContent = "\u2715 Back";
  close.setAttribute("aria-label", "Back to the whole board");
  const parts = [close];
  for (let c = cs; c < cs + ZOOM_N; c++) {
    const h = document.createElement("span");
    h.className = "hdr col";
    h.textContent = String(c + 1);
    parts.push(h);
  }
  for (let r = rs; r < rs + ZOOM_N; r++) {
    const h = document.createElement("span");
    h.className = "hdr row";
    h.textContent = String(r + 1);
    parts.push(h);
    for (let c = cs; c < cs + ZOOM_N; c++) {
      const j = r * SIZE + c;
      const src = st.tiles[j];
      const cell = document.createElement("span");
      cell.className = "cell";
      const b = document.createElement("button");
      b.type = "button";
      b.className = src.className.replace(/ ?(pressed|nope)/g, "");
      b.dataset.index = String(j);
      b.setAttribute("aria-label", src.getAttribute("aria-label") || "");
      const num = document.createElement("span");
      num.textContent = String((c + 1) * (r + 1));
      b.appendChild(num);
      cell.appendChild(b);
      if (brown.has(j)) cell.appendChild(brownChip(j, r === rs, c === cs, c === cs + ZOOM_N - 1));
      parts.push(cell);
    }
  }
  z.replaceChildren(...parts);
  z.hidden = false;
  const zoomTiles = Array.from(z.querySelectorAll("button.tile"));
  for (const chip of z.querySelectorAll("button.vb-brown")) {
    placeChip(chip, zoomTiles.find((t) => t.dataset.index === chip.dataset.index), zoomTiles);
  }
  st.zoomAt = i;
  st.vb.dataset.zoom = String(i);
}

function closeZoom(st) {
  if (st.zoomAt === null) return;
  st.zoom.hidden = true;
  st.zoom.replaceChildren();
  st.zoomAt = null;
  delete st.vb.dataset.zoom;
}

function brownChip(j, below, first, last) {
  // Beside its tile (above it; below it on the top row), never over the tile itself, so
  // a tap on the tile stays a normal counter.
  const chip = document.createElement("button");
  chip.type = "button";
  chip.className = "vb-brown" + (below ? " below" : "") + (first ? " first" : "") + (last ? " last" : "");
  chip.dataset.index = String(j);
  chip.textContent = "Brown";
  chip.setAttribute("aria-label", "Put a brown counter on column " + (j % SIZE + 1) + ", row " + (Math.floor(j / SIZE) + 1));
  return chip;
}

function paintBrowns(st, list) {
  // Only when the list changes (a Vapooh roll): no work on an ordinary rerun.
  const key = JSON.stringify(list || []);
  if (key === st.browns) return;
  st.browns = key;
  for (const chip of st.grid.querySelectorAll("button.vb-brown")) chip.remove();
  for (const j of list || []) {
    const c = j % SIZE;
    const chip = brownChip(j, Math.floor(j / SIZE) === 0, c === 0, c === SIZE - 1);
    st.tiles[j].parentElement.appendChild(chip);
    placeChip(chip, st.tiles[j], st.tiles);
  }
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function coversAnOption(chip, own, tiles) {
  const a = chip.getBoundingClientRect();
  for (const t of tiles) {
    if (t !== own && t.classList.contains("hl") && overlaps(a, t.getBoundingClientRect())) return true;
  }
  return false;
}

function placeChip(chip, own, tiles) {
  // A chip must never lie over a tile the tester may tap for a normal counter: on a phone
  // a chip beside its tile is wider than a tile and covered the option above it, so a tap
  // meant for that option put a brown counter elsewhere. When the tile itself takes no
  // normal counter (the tester's own tile after three 6s), the chip sits on it; otherwise
  // it goes above or below, on the side where it covers no other option.
  if (!own) return;
  if (!own.classList.contains("hl")) {
    chip.classList.remove("below");
    chip.classList.add("on");
    return;
  }
  const first = chip.classList.contains("below");
  for (const below of [first, !first]) {
    chip.classList.toggle("below", below);
    if (!coversAnOption(chip, own, tiles)) return;
  }
  chip.classList.toggle("below", first);
}

function moveFocus(st, j, focus) {
  if (j === st.focus && !focus) return;
  st.tiles[st.focus].tabIndex = -1;
  st.focus = j;
  st.tiles[j].tabIndex = 0;
  if (focus) st.tiles[j].focus();
}

function paintMute(st) {
  st.mute.setAttribute("aria-pressed", String(st.muted));
  st.mute.textContent = st.muted ? "Sound off" : "Sound on";
  st.mute.setAttribute("aria-label", st.muted ? "Sound is off: turn it on" : "Sound is on: turn it off");
}

function update(st, d) {
  const prev = st.data;
  st.data = d;
  st.token = d.token;
  const hl = new Set(d.hl);
  for (let i = 0; i < st.tiles.length; i++) {
    const b = st.tiles[i];
    const c = i % SIZE + 1, r = Math.floor(i / SIZE) + 1, n = c * r;
    const sq = Number.isInteger(Math.sqrt(n));
    let cls = "tile o" + ".1234B".indexOf(d.owners[i]);
    if (sq) cls += " sq";
    if (d.glow[i]) cls += " g-" + d.glow[i];
    if (hl.has(i)) cls += " hl";
    if (b.className !== cls) b.className = cls;
    const label = d.labels[i] || ("column " + c + ", row " + r + ", " + n + ", empty");
    if (b.getAttribute("aria-label") !== label) b.setAttribute("aria-label", label);
    if (!prev || prev.interactive !== d.interactive) b.setAttribute("aria-disabled", String(!d.interactive));
  }
  st.vb.classList.toggle("busy", !d.interactive);
  st.vb.dataset.token = d.token;
  st.vb.dataset.phase = d.phase;
  st.grid.setAttribute("aria-disabled", String(!d.interactive));

  st.turnText.textContent = d.turn_text;
  st.swatch.className = "vb-swatch" + (d.to_move ? " o" + d.to_move : "");
  st.swatch.setAttribute("aria-hidden", "true");

  st.roll.hidden = !d.can_roll;
  st.roll.disabled = !d.can_roll;
  st.mute.hidden = !d.mute_control;
  st.muted = !!d.muted;
  paintMute(st);

  const turnKey = [d.turn, d.phase, d.to_move, JSON.stringify(d.dice)].join("|");
  if (turnKey !== st.turnKey) { st.turnKey = turnKey; st.shownAt = performance.now(); closeZoom(st); }
  if (!d.interactive) closeZoom(st);
  paintBrowns(st, d.interactive ? d.brown : []);

  const diceKey = JSON.stringify([d.dice, d.dice_by, d.show_sums]);
  if (!prev || diceKey !== JSON.stringify([prev.dice, prev.dice_by, prev.show_sums])) {
    st.pink.replaceChildren(); st.green.replaceChildren();
    if (d.dice) {
      st.diceBy.textContent = d.dice_by ? d.dice_by[0].toUpperCase() + d.dice_by.slice(1) + " rolled:" : "Dice:";
      st.pink.append(makeDie(d.dice[0], "pink"), makeDie(d.dice[1], "pink"));
      st.green.append(makeDie(d.dice[2], "green"), makeDie(d.dice[3], "green"));
      st.sums.textContent = d.show_sums
        ? "pink " + (d.dice[0] + d.dice[1]) + ", green " + (d.dice[2] + d.dice[3]) : "";
    } else {
      st.diceBy.textContent = ""; st.sums.textContent = "";
    }
  }

  if (d.nonce !== st.nonce) {
    const first = st.nonce === null;
    st.nonce = d.nonce;
    st.msg.className = "vb-msg t-" + d.tone;
    st.msg.textContent = d.message;
    clearTimeout(st.msgTimer);
    if (d.message && d.message_ms) {
      st.msgTimer = setTimeout(() => { st.msg.textContent = ""; }, d.message_ms);
    }
    // A fresh page (reload) must not replay the last cue; a board mounted later in the
    // same page (a new game) plays its first cue, since the audio is already unlocked.
    if (d.sound && !st.muted && d.nonce && (!first || AUDIO)) {
      st.vb.dataset.lastSound = d.sound + ":" + d.nonce;
      play(d.sound);
    }
  } else if (!prev || prev.message !== d.message || prev.tone !== d.tone) {
    st.msg.className = "vb-msg t-" + d.tone;
    st.msg.textContent = d.message;
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let st = STATE.get(parentElement);
  if (!st) {
    st = build(parentElement);
    STATE.set(parentElement, st);
  }
  st.trigger = setTriggerValue;
  if (data) update(st, data);
  return () => { clearTimeout(st.msgTimer); };
}
"""


def _cues_js() -> str:
    # [at, dur, wave, f0, f1, gain] per note: the same table sounds.py renders to WAV
    return json.dumps(
        {
            name: [[n["at"], n["dur"], n["wave"], n["f0"], n["f1"], n["gain"]] for n in notes]
            for name, notes in cue_spec().items()
        },
        separators=(",", ":"),
    )


STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
BOARD_JS_FILE: Final = "board.js"
_GENERATED_NOTE: Final = (
    "// Generated by `python -m playtest.board.assets` from playtest/board/assets.py:"
    " edit that file, not this one.\n"
)

# The whole front end as one ES module (what static/board.js holds).
BOARD_JS: Final = _GENERATED_NOTE + (
    _JS_TEMPLATE.replace("__HTML__", json.dumps(HTML.strip()))
    .replace("__CSS__", json.dumps(CSS))
    .replace("__CUES__", _cues_js())
    .lstrip("\n")
)


def static_is_current(static_dir: Path = STATIC_DIR) -> bool:
    """True when static/board.js holds exactly `BOARD_JS`."""
    path = static_dir / BOARD_JS_FILE
    return path.is_file() and path.read_text(encoding="utf-8") == BOARD_JS


def write_static(static_dir: Path = STATIC_DIR) -> Path:
    """Write `BOARD_JS` to static/board.js (the file the component serves); return its path."""
    static_dir.mkdir(parents=True, exist_ok=True)
    path = static_dir / BOARD_JS_FILE
    path.write_text(BOARD_JS, encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m playtest.board.assets",
        description="Write (or --check) the board's generated static/board.js.",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    if args.check:
        if static_is_current():
            return 0
        print(
            f"{STATIC_DIR / BOARD_JS_FILE} is out of date: run python -m playtest.board.assets",
            file=sys.stderr,
        )
        return 1
    print(write_static())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
