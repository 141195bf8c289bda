// Bricks & Walls board (playtest/games/morris/component.py draws it through Streamlit's
// Components v2). Python sends the position as `data`; every click goes back through the
// "click" trigger as {clicks: [...every click since the last drawing]}.
const SVGNS = "http://www.w3.org/2000/svg";
const STATE = new WeakMap();
let AUDIO = null;

function nonce() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function el(tag, attrs, parent, ns) {
  const e = ns ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function audio() {
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctx) return null;
  if (!AUDIO) AUDIO = new Ctx();
  if (AUDIO.state === "suspended") AUDIO.resume();
  return AUDIO;
}

function playNotes(notes) {
  if (!notes || !notes.length || !audio()) return;
  const t0 = AUDIO.currentTime + 0.01;
  for (const n of notes) {
    const g = AUDIO.createGain();
    const start = t0 + n.at, end = start + n.dur;
    g.gain.setValueAtTime(0.0001, start);
    g.gain.linearRampToValueAtTime(n.gain, start + 0.006);
    g.gain.exponentialRampToValueAtTime(0.0001, end);
    g.connect(AUDIO.destination);
    let src;
    if (n.wave === "noise") {
      const len = Math.max(1, Math.floor(n.dur * AUDIO.sampleRate));
      const buf = AUDIO.createBuffer(1, len, AUDIO.sampleRate);
      const ch = buf.getChannelData(0);
      for (let i = 0; i < len; i++) ch[i] = Math.random() * 2 - 1;
      src = AUDIO.createBufferSource();
      src.buffer = buf;
    } else {
      src = AUDIO.createOscillator();
      src.type = n.wave;
      src.frequency.setValueAtTime(n.f0, start);
      if (n.f1 !== n.f0) src.frequency.linearRampToValueAtTime(n.f1, end);
    }
    src.connect(g);
    src.start(start);
    src.stop(end + 0.02);
  }
}

function build(parent, data) {
  const root = el("div", { class: "mb", "data-testid": "morris-board" }, parent);
  const top = el("div", { class: "mb-top" }, root);
  const turn = el("div", { class: "mb-turn", "data-testid": "morris-turn" }, top);
  const sound = el("button", { type: "button", class: "mb-sound", "aria-pressed": "false" }, top);
  const msg = el("div", { class: "mb-msg", role: "status", "aria-live": "polite", "data-testid": "morris-message" }, root);
  const last = el("div", { class: "mb-last", "data-testid": "morris-last" }, root);
  const body = el("div", { class: "mb-body" }, root);
  const sides = {};
  for (const c of ["W", "B"]) {
    const side = el("div", { class: `mb-side mb-side-${c}`, "data-testid": `morris-side-${c}` }, body);
    const who = el("div", { class: "who" }, side);
    el("span", { class: "swatch" }, who);
    const name = el("span", {}, who);
    const kind = el("div", { class: "kind" }, side);
    const count = el("div", { class: "count" }, side);
    const label = el("div", { class: "label" }, side);
    sides[c] = { side, name, kind, count, label };
  }
  const wrap = el("div", { class: "mb-svgwrap" }, body);
  const svg = el("svg", { viewBox: "-0.6 -0.6 7.2 7.2", role: "group", "aria-label": data.labels.board }, wrap, true);
  const pos = {};
  for (const p of data.points) pos[p.id] = p;
  for (const [a, b] of data.edges) {
    el("line", { class: "edge", x1: pos[a].x, y1: pos[a].y, x2: pos[b].x, y2: pos[b].y }, svg, true);
  }
  const pts = {};
  data.points.forEach((p, i) => {
    const g = el("g", { class: "pt", "data-point": p.id, role: "button", tabindex: i === 0 ? "0" : "-1",
      transform: `translate(${p.x} ${p.y})` }, svg, true);
    el("circle", { class: "hit", r: "0.46" }, g, true);
    el("circle", { class: "focus", r: "0.5" }, g, true);
    el("circle", { class: "ring", r: "0.44" }, g, true);
    el("circle", { class: "dot", r: "0.13" }, g, true);
    el("circle", { class: "brick", r: "0.36" }, g, true);
    el("circle", { class: "inner", r: "0.16" }, g, true);
    pts[p.id] = g;
  });
  const st = { root, turn, sound, msg, last, sides, svg, pts, pos, data, selection: null, pending: [],
    token: null, shownAt: performance.now(), busy: false, soundKey: null, pointerType: null,
    muted: (globalThis.localStorage && localStorage.getItem("morris-muted") === "1") || false, focus: data.points[0].id };

  const via = () => st.pointerType || "mouse";
  svg.addEventListener("pointerdown", (ev) => { st.pointerType = ev.pointerType || "mouse"; });
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest && ev.target.closest(".pt");
    if (!g) return;
    setFocus(st, g.dataset.point, false);
    press(st, g.dataset.point, via());
    st.pointerType = null;
  });
  svg.addEventListener("keydown", (ev) => {
    const g = ev.target.closest && ev.target.closest(".pt");
    if (!g) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      press(st, g.dataset.point, "keyboard");
    } else if (dirs[ev.key]) {
      ev.preventDefault();
      const next = neighbour(st, g.dataset.point, dirs[ev.key]);
      if (next) setFocus(st, next, true);
    }
  });
  sound.addEventListener("click", () => {
    st.muted = !st.muted;
    try { localStorage.setItem("morris-muted", st.muted ? "1" : "0"); } catch (e) { /* private mode */ }
    drawSound(st);
  });
  return st;
}

function neighbour(st, from, [dx, dy]) {
  // the nearest point in the arrow's direction, preferring points on the same line
  const a = st.pos[from];
  let best = null, bestScore = Infinity;
  for (const p of Object.values(st.pos)) {
    const along = (p.x - a.x) * dx + (p.y - a.y) * dy;
    if (along <= 0) continue;
    const across = Math.abs((p.x - a.x) * dy) + Math.abs((p.y - a.y) * dx);
    const score = along + 3 * across;
    if (score < bestScore) { bestScore = score; best = p.id; }
  }
  return best;
}

function setFocus(st, id, focus) {
  for (const [pid, g] of Object.entries(st.pts)) g.setAttribute("tabindex", pid === id ? "0" : "-1");
  st.focus = id;
  if (focus) st.pts[id].focus();
}

function blink(st, id, times) {
  const g = st.pts[id];
  if (!g) return;
  g.classList.remove("blink1", "blink2");
  void g.getBoundingClientRect();  // restart the animation
  g.classList.add(times === 1 ? "blink1" : "blink2");
  setTimeout(() => g.classList.remove("blink1", "blink2"), 900);
}

function press(st, id, via) {
  const d = st.data;
  const from = st.selection;
  if (!d.interactive || st.busy) {
    // still sent: Python counts it as dropped (not the tester's turn, or an outdated board)
    send(st, id, from, via);
    return;
  }
  if (!st.muted) audio();
  const mine = d.cells[id] === d.toMove;
  // instant feedback; the engine in Python is the judge and the next drawing the truth
  if (d.phase === "move" || d.phase === "fly") {
    if (mine) {
      if (from === id) st.selection = null;
      else if ((d.movable[id] || []).length) st.selection = id;
      else { st.selection = null; blink(st, id, 1); }
    } else if (from) {
      if ((d.movable[from] || []).includes(id)) { st.selection = null; st.busy = true; }
      else blink(st, from, 2);
    }
  } else if (d.phase === "place" || d.phase === "remove") {
    if (d.targets.includes(id)) st.busy = true;
  }
  draw(st);
  send(st, id, from, via);
}

function send(st, id, from, via) {
  st.pending.push({ point: id, from: from, nonce: nonce(), ms: Math.round(performance.now() - st.shownAt),
    via: via, token: st.data.token });
  if (st.pending.length > 32) st.pending.splice(0, st.pending.length - 32);  // Python reads 32
  st.trigger("click", { clicks: st.pending.slice() });
}

function drawSound(st) {
  st.sound.textContent = st.muted ? st.data.labels.sound_off : st.data.labels.sound_on;
  st.sound.setAttribute("aria-pressed", st.muted ? "true" : "false");
}

function draw(st) {
  const d = st.data;
  const root = st.root;
  root.classList.toggle("turn-W", d.toMove === "W" || (!d.toMove && d.winner === "W"));
  root.classList.toggle("turn-B", d.toMove === "B" || (!d.toMove && d.winner === "B"));
  root.classList.toggle("over", !d.toMove);
  root.classList.toggle("busy", st.busy);
  root.classList.toggle("idle", !d.interactive);
  root.dataset.phase = d.phase;
  root.dataset.toMove = d.toMove || "";
  root.dataset.token = d.token;
  root.dataset.selection = st.selection || "";
  const mover = d.toMove ? d.counts[d.toMove] : null;
  st.turn.textContent = mover ? `${mover.name} ${d.labels.turn}` : d.labels.over;
  st.msg.className = `mb-msg t-${d.message.tone}`;
  st.msg.textContent = d.message.text;
  st.msg.dataset.key = d.message.key;
  st.last.textContent = d.last || "";
  for (const c of ["W", "B"]) {
    const s = st.sides[c], info = d.counts[c];
    s.side.classList.toggle("active", d.toMove === c);
    s.name.textContent = info.name;
    s.kind.textContent = info.kind === "computer" ? d.labels.computer : "";
    s.count.textContent = d.placing ? info.reserve : info.board;
    s.label.textContent = d.placing ? d.labels.placements : d.labels.bricks;
  }
  const sel = st.selection;
  // where a click completes an action: the empty points (placing), the bricks that may be
  // taken (removing), the selected brick's destinations (moving); nothing before a selection
  const moving = d.phase === "move" || d.phase === "fly";
  const targets = new Set(moving ? (sel ? d.movable[sel] || [] : []) : d.targets);
  const grey = new Set(d.grey), last = new Set(d.lastPoints), walls = new Set(d.walls);
  for (const [id, g] of Object.entries(st.pts)) {
    const owner = d.cells[id] || "";
    g.classList.toggle("W", owner === "W");
    g.classList.toggle("B", owner === "B");
    g.classList.toggle("sel", id === sel);
    g.classList.toggle("grey", grey.has(id));
    g.classList.toggle("last", last.has(id));
    g.classList.toggle("wall", walls.has(id));
    const isTarget = d.interactive && d.highlight && targets.has(id);
    g.classList.toggle("target", isTarget);
    const what = owner ? (owner === "W" ? "white brick" : "black brick") : "empty";
    const extra = grey.has(id) ? ", walled" : (id === sel ? ", selected" : "");
    g.setAttribute("aria-label", `${id}, ${what}${extra}`);
  }
  drawSound(st);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let st = STATE.get(parentElement);
  if (!st) {
    st = build(parentElement, data);
    STATE.set(parentElement, st);
  }
  st.trigger = setTriggerValue;
  st.data = data;
  const newPosition = data.token !== st.token;
  if (newPosition) {
    st.token = data.token;
    st.shownAt = performance.now();
  }
  // clicks Python has judged are not sent again; the others stay queued (a drawing from an
  // earlier run may arrive while they are in flight)
  const ack = new Set(data.ack || []);
  st.pending = st.pending.filter((c) => !ack.has(c.nonce));
  if (newPosition || st.pending.length === 0) st.busy = false;
  if (st.pending.length === 0) st.selection = data.selection;
  const soundKey = `${data.token}|${data.message.text}|${data.refused}`;
  // no sound before the first gesture inside the board (browsers forbid it): AUDIO is made then
  if (data.sound && !st.muted && soundKey !== st.soundKey && AUDIO) playNotes(data.sound.notes);
  st.soundKey = soundKey;
  draw(st);
  return () => {};
}
