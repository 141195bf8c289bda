// The board shell: ONE Streamlit component (Components v2) for every game's board
// (playtest/board/component.py mounts it). It owns what every board shares: the input
// protocol (each input with a nonce, the position token it was made on and how it was
// made, re-sent until Python acknowledges it), the sounds, the sound button, the message
// line and its timer, the turn line, the end banner, keyboard focus and activation, and
// resizing. A game gives a small renderer script (playtest/games/<game>/static/), an ES
// module whose default export is {build(el, shell), update(view, shell), press?(el, ev,
// shell), resize?(shell)} (build may return the elements it places itself, {turn, message,
// mute, end}; end: null, no end banner): it draws its view data and marks what a click chooses with
// data-target (data-hold: what the click holds with it) or data-input="draw" (a button
// that makes a draw, such as rolling the dice); elements with data-nav, data-x and
// data-y take part in arrow-key moves.
//
// Data: {board: {renderer, token, interactive, picture, ack, turn, message: {text, tone,
// key, ms, nonce, notes}, end: {title, text}, muted, mute_control, labels, view}}.
// Trigger "input": {inputs: [{kind: "click" | "draw" | "mute", nonce, ms, via, token,
// target?, hold?, value?}, ...every input not yet acknowledged]}.
const STATE = new WeakMap();
const RENDERERS = new Map();
const MAX_PENDING = 32; // Python reads 32 inputs of one trigger
// An input not yet acknowledged is sent again after these waits (then every last one):
// a trigger can be lost on the way (a rerun that swallowed it, a dropped connection), and
// a tester must not be left looking at a move that never arrives. Python drops a nonce it
// has seen, so a repeat does nothing twice.
const RESEND_MS = [2500, 5000, 10000];
let AUDIO = null;

function nonce() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function audio() {
  // Made on the first gesture inside a board: browsers allow sound only after one.
  if (!AUDIO) {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return null;
    AUDIO = new Ctx();
  }
  if (AUDIO.state === "suspended") AUDIO.resume();
  return AUDIO;
}

// A cue's notes come with the data (playtest/board/sounds.py): [{at, dur, wave, f0, f1, gain}].
function playNotes(notes) {
  const ctx = AUDIO;
  if (!Array.isArray(notes) || !notes.length || !ctx) return 0;
  const t0 = ctx.currentTime + 0.01;
  for (const n of notes) {
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
  return notes.length;
}

// A renderer and its stylesheet (its "css" file beside it, put in place before it draws,
// so a board is never drawn unstyled).
function loadRenderer(url) {
  if (!RENDERERS.has(url)) {
    RENDERERS.set(url, import(url).then(async (m) => {
      const game = m.default;
      if (game.css) {
        const resp = await fetch(new URL(game.css, url));
        if (!resp.ok) throw new Error("board: could not load " + game.css + " (HTTP " + resp.status + ")");
        game.cssText = await resp.text();
      }
      return game;
    }));
  }
  return RENDERERS.get(url);
}

// An element with attributes (and text), appended to ``parent``: for the renderers too.
function el(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function svg(tag, attrs, parent) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// What a renderer may call.
function api(st) {
  return {
    get data() { return st.data; },
    get interactive() { return !!(st.data && st.data.interactive) && !st.data.picture; },
    get picture() { return !!(st.data && st.data.picture); },
    get shownAt() { return st.shownAt; },
    root: st.root,
    get el() { return st.gameEl; },
    click(target, via, hold) { send(st, "click", { target, hold: hold || null }, via); },
    draw(via) { send(st, "draw", {}, via); },
    unlockAudio() { audio(); },
    playNotes,
    make: el,
    makeSvg: svg,
    focus(target) { focusTarget(st, target, true); },
  };
}

function send(st, kind, fields, via) {
  const d = st.data;
  if (!d || d.picture || !st.trigger) return;
  if (kind !== "mute") audio();
  st.pending.push({ kind, nonce: nonce(), ms: Math.round(performance.now() - st.shownAt),
    via: via || "mouse", token: d.token, ...fields });
  if (st.pending.length > MAX_PENDING) st.pending.splice(0, st.pending.length - MAX_PENDING);
  st.trigger("input", { inputs: st.pending.slice() });
  st.root.dataset.resent = "0";
  scheduleResend(st);
}

// The one count of re-sends, since the newest input was sent: the board's `data-resent`
// (the backoff's step, and what a test reads).
function scheduleResend(st) {
  clearTimeout(st.resendTimer);
  if (!st.pending.length) return;
  const resends = Number(st.root.dataset.resent || 0);
  const wait = RESEND_MS[Math.min(resends, RESEND_MS.length - 1)];
  st.resendTimer = setTimeout(() => {
    // a board taken off the page (another game, another step) sends nothing
    if (!st.pending.length || !st.trigger || !st.root.isConnected) return;
    st.root.dataset.resent = String(resends + 1);
    st.trigger("input", { inputs: st.pending.slice() });
    scheduleResend(st);
  }, wait);
}

function viaOf(st, ev) {
  if (ev && ev.detail === 0) return "keyboard";
  return st.pointerType || (ev && ev.pointerType) || "mouse";
}

function activate(st, target, ev) {
  const game = st.game;
  // the renderer's instant feedback first: false cancels the input, {hold} sets what the
  // click holds with it (the brick the browser has selected)
  const said = game.press ? game.press(target, ev, st.api) : true;
  if (said === false) return;
  const via = viaOf(st, ev);
  if (target.dataset.input === "draw") { send(st, "draw", {}, via); return; }
  let hold = target.dataset.hold ? target.dataset.hold.split(" ") : null;
  if (said && typeof said === "object" && "hold" in said) hold = said.hold;
  send(st, "click", { target: target.dataset.target, hold }, via);
}

function navItems(st) {
  return Array.from(st.gameEl.querySelectorAll("[data-nav][data-x][data-y]"));
}

function focusTarget(st, target, focus) {
  const items = navItems(st);
  const chosen = items.find((e) => e.dataset.target === target) || items[0];
  if (!chosen) return;
  for (const e of items) if (e !== chosen && e.tabIndex !== -1) e.tabIndex = -1;
  chosen.tabIndex = 0;
  st.focus = chosen.dataset.target;
  if (focus) chosen.focus();
}

// The nearest item in the arrow's direction, preferring items on the same line.
function neighbour(st, from, dx, dy) {
  const x0 = Number(from.dataset.x), y0 = Number(from.dataset.y);
  let best = null, bestScore = Infinity;
  for (const e of navItems(st)) {
    const ex = Number(e.dataset.x), ey = Number(e.dataset.y);
    const along = (ex - x0) * dx + (ey - y0) * dy;
    if (along <= 0) continue;
    const across = Math.abs((ex - x0) * dy) + Math.abs((ey - y0) * dx);
    const score = along + 3 * across;
    if (score < bestScore) { bestScore = score; best = e; }
  }
  return best;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function build(st) {
  const root = el("div", { class: "sh", "data-testid": "board-shell" }, st.parent);
  st.root = root;
  if (st.game.cssText) el("style", {}, root).textContent = st.game.cssText;
  st.gameEl = el("div", { class: "sh-game" }, root);
  st.api = api(st);
  const parts = st.game.build(st.gameEl, st.api) || {};
  // What the renderer does not place itself, the shell places: turn and sound above,
  // the message line, the end banner below.
  if (!parts.turn || !parts.mute) {
    const top = el("div", { class: "sh-top" });
    root.insertBefore(top, st.gameEl);
    parts.turn = parts.turn || el("span", { class: "sh-turn", "data-role": "turn" }, top);
    if (!parts.mute) {
      el("span", { class: "sh-gap" }, top);
      parts.mute = el("button", { type: "button", class: "sh-mute", "aria-pressed": "false" }, top);
    }
  }
  if (!parts.message) {
    parts.message = el("div", { class: "sh-msg", role: "status", "aria-live": "polite",
      "data-role": "message" });
    root.insertBefore(parts.message, st.gameEl);
  }
  // end: null means the renderer says the end itself (its turn and message lines)
  if (parts.end === undefined) {
    parts.end = el("div", { class: "sh-end", "data-role": "end", role: "status", hidden: "" }, root);
    el("div", { class: "sh-end-title" }, parts.end);
    el("div", { class: "sh-end-text" }, parts.end);
  }
  parts.message.dataset.role = "message";
  parts.turn.dataset.role = parts.turn.dataset.role || "turn";
  parts.mute.dataset.role = "mute";
  st.parts = parts;
  parts.mute.addEventListener("click", () => {
    audio();
    st.muted = !st.muted;
    paintMute(st);
    send(st, "mute", { value: st.muted }, "mouse");
  });
  st.gameEl.addEventListener("pointerdown", (ev) => {
    st.pointerType = ev.pointerType || "mouse";
    if (!st.muted) audio();
  });
  st.gameEl.addEventListener("click", (ev) => {
    const target = ev.target.closest && ev.target.closest("[data-target], [data-input]");
    if (!target || !st.gameEl.contains(target)) return;
    if (target.dataset.nav !== undefined) focusTarget(st, target.dataset.target, false);
    activate(st, target, ev);
    st.pointerType = null;
  });
  st.gameEl.addEventListener("keydown", (ev) => {
    const target = ev.target.closest && ev.target.closest("[data-target], [data-input]");
    if (!target) return;
    if ((ev.key === "Enter" || ev.key === " ") && target.tagName !== "BUTTON") {
      ev.preventDefault();
      activate(st, target, { detail: 0, key: ev.key });
      return;
    }
    const dir = ARROWS[ev.key];
    if (!dir || target.dataset.nav === undefined) return;
    ev.preventDefault();
    const next = neighbour(st, target, dir[0], dir[1]);
    if (next) focusTarget(st, next.dataset.target, true);
  });
  if (globalThis.ResizeObserver && st.game.resize) {
    st.resizer = new ResizeObserver(() => st.game.resize(st.api));
    st.resizer.observe(root);
  }
}

function paintMute(st) {
  const b = st.parts.mute, labels = (st.data && st.data.labels) || {};
  b.hidden = !st.data || !st.data.mute_control || st.data.picture;
  b.setAttribute("aria-pressed", String(st.muted));
  b.textContent = st.muted ? (labels.sound_off || "Sound off") : (labels.sound_on || "Sound on");
  b.setAttribute("aria-label", st.muted ? (labels.sound_off_aria || "Sound is off: turn it on")
    : (labels.sound_on_aria || "Sound is on: turn it off"));
}

function paintMessage(st, d) {
  const m = d.message || { text: "", tone: "info", nonce: "" };
  const box = st.parts.message;
  const fresh = m.nonce !== st.messageNonce;
  if (fresh || box.dataset.text !== m.text || box.dataset.tone !== m.tone) {
    for (const c of Array.from(box.classList)) if (c.startsWith("t-")) box.classList.remove(c);
    box.classList.add("t-" + (m.tone || "info"));
    box.dataset.tone = m.tone || "info";
    box.dataset.key = m.key || "";
    box.dataset.text = m.text || "";
    box.textContent = m.text || "";
  }
  if (!fresh) return;
  const first = st.messageNonce === null;
  st.messageNonce = m.nonce;
  clearTimeout(st.messageTimer);
  if (m.text && m.ms) st.messageTimer = setTimeout(() => { box.textContent = ""; }, m.ms);
  // A fresh page (reload) does not replay the last cue; a board mounted later in the
  // same page (a new game) plays its first one, the audio being unlocked already.
  if (m.notes && !st.muted && m.nonce && (!first || AUDIO) && !d.picture) {
    st.root.dataset.lastSound = (m.sound || "") + ":" + m.nonce;
    st.root.dataset.soundVoices = String(playNotes(m.notes));
  }
}

function paint(st) {
  const d = st.data;
  const root = st.root;
  if (d.token !== st.token) {
    st.token = d.token;
    st.shownAt = performance.now();
  }
  // inputs Python has judged are not sent again; the others stay queued (a drawing from
  // an earlier run may arrive while they are on their way)
  const ack = new Set(d.ack || []);
  st.pending = st.pending.filter((p) => !ack.has(p.nonce));
  if (!st.pending.length) clearTimeout(st.resendTimer);
  root.dataset.token = d.token || "";
  root.classList.toggle("sh-idle", !d.interactive);
  root.classList.toggle("sh-picture", !!d.picture);
  root.classList.toggle("sh-over", !!d.end);
  st.muted = !!d.muted;
  paintMute(st);
  if (d.turn !== undefined && d.turn !== null) st.parts.turn.textContent = d.turn;
  paintMessage(st, d);
  const end = st.parts.end;
  if (end) end.hidden = !d.end;
  if (end && d.end) {
    const title = end.querySelector(".sh-end-title"), text = end.querySelector(".sh-end-text");
    if (title) title.textContent = d.end.title || "";
    if (text) text.textContent = d.end.text || "";
  }
  st.game.update(d.view || {}, st.api);
  if (!d.picture && navItems(st).length && !st.gameEl.contains(document.activeElement)) {
    focusTarget(st, st.focus, false);
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const d = data && data.board;
  let st = STATE.get(parentElement);
  if (!st) {
    st = { parent: parentElement, pending: [], token: null, shownAt: performance.now(),
      messageNonce: null, muted: false, focus: null, pointerType: null, resendTimer: null };
    STATE.set(parentElement, st);
  }
  st.trigger = setTriggerValue;
  if (!d) return () => {};
  st.data = d;
  const url = new URL(d.renderer, import.meta.url).href;
  loadRenderer(url).then((game) => {
    if (!st.game) {
      st.game = game;
      build(st);
    }
    paint(st);
  });
  return () => { clearTimeout(st.messageTimer); };
}
