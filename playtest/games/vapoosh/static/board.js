// The board component's front end: an ES module that Streamlit loads from this folder
// (the component's asset dir, playtest/games/vapoosh/static/). Its markup (board.html) and
// style (board.css) sit beside it and are fetched once, before the default export can run: on the first call for a
// parentElement it inserts the markup and a <style> with the CSS (so nothing is drawn
// unstyled), builds the grid once, and after that only updates text, classes and
// attributes, so a rerun repaints in one frame.
async function asset(name) {
  const resp = await fetch(new URL(name, import.meta.url));
  if (!resp.ok) throw new Error("board: could not load " + name + " (HTTP " + resp.status + ")");
  return resp;
}
const [HTML, CSS] = await Promise.all([
  asset("board.html").then((r) => r.text()),
  asset("board.css").then((r) => r.text()),
]);
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

// A cue's notes come with the view data (the Python side's cue table,
// playtest/board/sounds.py): [{at, dur, wave, f0, f1, gain}, ...].
function play(notes) {
  const ctx = audio();
  if (!Array.isArray(notes) || !notes.length || !ctx) return false;
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
  corner.textContent = "\u00d7";
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
      // how many voices were scheduled (0: no notes or no audio): for tests and debugging
      st.vb.dataset.soundVoices = String(play(d.sound_notes) ? d.sound_notes.length : 0);
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
  // The app sends {view: <the board's data>} (one top-level key: Streamlit checks each
  // top-level value for a dataframe on every rerun).
  if (data && data.view) update(st, data.view);
  return () => { clearTimeout(st.msgTimer); };
}
