// Vasco's renderer for the board shell (playtest/board/static/shell.js): SVG triangles
// that fit themselves to the tiles, with pan and zoom (mouse wheel, drag, pinch,
// buttons), candidate cells, tile previews, forced tiles animated in order with why, the
// tile counter and the end highlight. A cell "r,c" or a tile preview "ox*" is what a
// click chooses (data-target); a drag is a pan, not a click.
//
// View (playtest/games/vasco/session.py): tiles, candidates, selected, previews, autos,
// placed, counter, turn_text, interactive, over, highlight, labels, pick_text, blocked,
// refused, origins, computer_placed, pace_ms, computer_text, playing_text, legend,
// fit_text, autos[].count_text (the catalog's words, in the tester's wording, of
// everything the board itself shows; only screen-reader labels are fixed here).
//
// The computer's move is played out before the board takes input again: its tile
// outlined and named first, then its forced tiles one by one, pace_ms each; meanwhile
// the turn line says the computer is playing, the end line waits, and a press is
// ignored (data-playing="1" on .vb; data-ignored counts the presses it ignored).

const NS = "http://www.w3.org/2000/svg";
const S = 60; // side length in SVG units
const H = S * Math.sqrt(3) / 2;
const BOARDS = new WeakMap();
const COLOUR = { o: "red", x: "blue", "*": "purple" };

function isUp(r, c) { return ((r + c) % 2 + 2) % 2 === 0; }

// corners in SVG units: up = apex, bottom-left, bottom-right; down = TL, TR, apex
function corners(r, c) {
  const p = (X, Y) => [X * S / 2, Y * H];
  return isUp(r, c) ? [p(c + 1, r), p(c, r + 1), p(c + 2, r + 1)]
                    : [p(c, r), p(c + 2, r), p(c + 1, r + 1)];
}

// the two corners of edge e (0 = L, 1 = R, 2 = H)
function edgeEnds(r, c, e) {
  const [a, b, d] = corners(r, c);
  if (isUp(r, c)) return [[a, b], [a, d], [b, d]][e];
  return [[a, d], [b, d], [a, b]][e];
}

function mid(p, q) { return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]; }

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// the arc of colour k: from the middle of the k edge to the middle of the * edge,
// centred on the corner the two edges share, radius S/2 (a 60 degree arc)
function arcPath(r, c, state, k) {
  const ek = state.indexOf(k), es = state.indexOf("*");
  const [p1, p2] = edgeEnds(r, c, ek), [q1, q2] = edgeEnds(r, c, es);
  const shared = [p1, p2].find((p) => [q1, q2].some((q) => q[0] === p[0] && q[1] === p[1]));
  const a = mid(p1, p2), b = mid(q1, q2);
  // sweep: the arc bulges away from the shared corner
  const cross = (a[0] - shared[0]) * (b[1] - shared[1]) - (a[1] - shared[1]) * (b[0] - shared[0]);
  const sweep = cross > 0 ? 1 : 0;
  return `M ${a[0].toFixed(2)} ${a[1].toFixed(2)} A ${S / 2} ${S / 2} 0 0 ${sweep} ${b[0].toFixed(2)} ${b[1].toFixed(2)}`;
}

// Who put a tile there, as a mark (a shape, not a colour) near the corner away from
// its lines, and a tint of the tile.
const ORIGINS = {
  tester: "vo-tester", computer: "vo-computer", forced: "vo-forced",
};

function originMark(group, t, origin) {
  const cs = corners(t.r, t.c);
  const [q1, q2] = edgeEnds(t.r, t.c, t.state.indexOf("*"));
  const far = cs.find((p) => ![q1, q2].some((q) => q[0] === p[0] && q[1] === p[1]));
  const cx = (cs[0][0] + cs[1][0] + cs[2][0]) / 3, cy = (cs[0][1] + cs[1][1] + cs[2][1]) / 3;
  const x = far[0] + 0.42 * (cx - far[0]), y = far[1] + 0.42 * (cy - far[1]);
  const m = 4;
  let shape;
  if (origin === "tester") shape = el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: m }, group);
  else if (origin === "computer") {
    shape = el("rect", { x: (x - m).toFixed(2), y: (y - m).toFixed(2), width: 2 * m, height: 2 * m }, group);
  } else {
    shape = el("polygon", { points: [[x, y - m - 1], [x + m + 1, y], [x, y + m + 1], [x - m - 1, y]]
      .map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ") }, group);
  }
  shape.setAttribute("class", "vo-mark");
  shape.setAttribute("aria-hidden", "true");
}

const ORIGIN_WORDS = {
  tester: "placed by you", computer: "placed by the computer", forced: "slid in by itself",
};

// The view's words (d.words: the tester's language) for `key`, else the English here.
function word(d, key, english) {
  return ((d && d.words) || {})[key] || english;
}

// The words a screen reader says of the board's own parts, in the view's language.
const ARIA = [
  [".vb-svg", "board", "Vasco board: triangular tiles"], [".vb-zoom", "zoom", "Zoom"],
  ["[data-zoom=in]", "zoom_in", "Zoom in"], ["[data-zoom=out]", "zoom_out", "Zoom out"],
  ["[data-zoom=fit]", "zoom_fit", "Fit the board"],
  [".vb-picker", "picker", "Choose a tile for the glowing space"],
];

function drawTile(g, t, cls, origin) {
  const pts = corners(t.r, t.c).map((p) => p.join(",")).join(" ");
  const oc = origin ? " " + ORIGINS[origin] : "";
  const group = el("g", { class: "vt " + (cls || "") + oc, "data-cell": t.cell, "data-state": t.state }, g);
  if (origin) group.dataset.origin = origin;
  el("polygon", { points: pts, class: "vt-face vt-" + (t.face || "front") }, group);
  el("path", { d: arcPath(t.r, t.c, t.state, "x"), class: "vt-arc vt-x" }, group);
  el("path", { d: arcPath(t.r, t.c, t.state, "o"), class: "vt-arc vt-o" }, group);
  // the shared * end carries both colours: a purple mark where the arcs overlap
  const es = t.state.indexOf("*");
  const m = mid(...edgeEnds(t.r, t.c, es));
  el("circle", { cx: m[0].toFixed(2), cy: m[1].toFixed(2), r: 4, class: "vt-star" }, group);
  if (origin) originMark(group, t, origin);
  return group;
}

function previewState(cell, st) {
  const [r, c] = cell.split(",").map(Number);
  return { r, c, cell, state: st, face: "front" };
}

function build(parent) {
  // a container of our own: the parent also holds the stylesheet Streamlit put there
  const root = document.createElement("div");
  parent.appendChild(root);
  root.innerHTML = `
<div class="vb" data-testid="vasco-board">
  <div class="vb-top">
    <span class="vb-turn" data-role="turn"></span>
    <span class="vb-counter" data-role="counter" aria-live="polite"></span>
    <button type="button" class="vb-mute"></button>
  </div>
  <div class="vb-msg" role="status" aria-live="polite" data-role="message"></div>
  <div class="vb-stage">
    <svg class="vb-svg" role="application" aria-label="Vasco board: triangular tiles" tabindex="-1"></svg>
    <div class="vb-zoom" role="group" aria-label="Zoom">
      <button type="button" data-zoom="in" aria-label="Zoom in">+</button>
      <button type="button" data-zoom="out" aria-label="Zoom out">&minus;</button>
      <button type="button" data-zoom="fit" aria-label="Fit the board"></button>
    </div>
  </div>
  <div class="vb-picker" role="group" aria-label="Choose a tile for the glowing space" data-role="picker"></div>
  <div class="vb-result" role="status" data-role="result" hidden><span class="sh-end-title"></span>
    <span class="sh-end-text"></span></div>
  <div class="vb-legend"><span class="lg-o" data-legend="red"></span>
    <span class="lg-x" data-legend="blue"></span><span class="lg-s" data-legend="both"></span></div>
  <div class="vb-legend vb-origins" data-role="origins">
    <span class="lg-tester"><b aria-hidden="true">&#9679;</b> <span data-legend="tester"></span></span>
    <span class="lg-computer"><b aria-hidden="true">&#9632;</b> <span data-legend="computer"></span></span>
    <span class="lg-forced"><b aria-hidden="true">&#9670;</b> <span data-legend="forced"></span></span></div>
</div>`;
  const st = {
    root, svg: root.querySelector("svg"), data: null,
    view: null, fitted: null, pointers: new Map(), animId: 0,
  };
  BOARDS.set(parent, st);
  st.layer = el("g", { class: "vb-layer" }, st.svg);
  for (const b of root.querySelectorAll("[data-zoom]")) {
    b.addEventListener("click", () => zoom(st, b.dataset.zoom));
  }
  st.svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoom(st, e.deltaY < 0 ? "in" : "out");
  }, { passive: false });
  // drag to pan; two fingers to pinch-zoom
  st.svg.addEventListener("pointerdown", (e) => {
    st.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, moved: 0 });
  });
  st.svg.addEventListener("pointermove", (e) => {
    const p = st.pointers.get(e.pointerId);
    if (!p || !st.view) return;
    const rect = st.svg.getBoundingClientRect();
    const scale = st.view[2] / Math.max(rect.width, 1);
    if (st.pointers.size === 1) {
      const dx = e.clientX - p.x, dy = e.clientY - p.y;
      p.moved += Math.abs(dx) + Math.abs(dy);
      if (p.moved > 6) {
        st.view = [st.view[0] - dx * scale, st.view[1] - dy * scale, st.view[2], st.view[3]];
        applyView(st);
      }
    } else if (st.pointers.size === 2) {
      const others = [...st.pointers.entries()].filter(([id]) => id !== e.pointerId);
      const q = others[0][1];
      const before = Math.hypot(p.x - q.x, p.y - q.y);
      const after = Math.hypot(e.clientX - q.x, e.clientY - q.y);
      if (before > 0 && after > 0) scaleView(st, before / after);
      p.moved += 10;
    }
    p.x = e.clientX; p.y = e.clientY;
  });
  const up = (e) => { setTimeout(() => st.pointers.delete(e.pointerId), 0); };
  st.svg.addEventListener("pointerup", up);
  st.svg.addEventListener("pointercancel", up);
  return {
    turn: root.querySelector("[data-role=turn]"),
    mute: root.querySelector(".vb-mute"),
    message: root.querySelector("[data-role=message]"),
    end: root.querySelector("[data-role=result]"),
  };
}

function scaleView(st, f) {
  const [x, y, w, h] = st.view;
  const nw = Math.min(Math.max(w * f, S * 2), S * 80), nh = nw * h / w;
  st.view = [x + (w - nw) / 2, y + (h - nh) / 2, nw, nh];
  applyView(st);
}

function zoom(st, how) {
  if (!st.view) return;
  if (how === "fit") { st.view = st.fitted.slice(); applyView(st); return; }
  scaleView(st, how === "in" ? 0.8 : 1.25);
}

function applyView(st) {
  st.svg.setAttribute("viewBox", st.view.map((v) => v.toFixed(1)).join(" "));
}

function fitView(cells) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [r, c] of cells) {
    for (const [x, y] of corners(r, c)) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  if (!isFinite(x0)) { x0 = -S; y0 = -H; x1 = 2 * S; y1 = 2 * H; }
  const pad = S * 0.6;
  let w = x1 - x0 + 2 * pad, h = y1 - y0 + 2 * pad;
  // at least three tiles across, so one tile is not drawn huge
  const minW = S * 4;
  if (w < minW) { x0 -= (minW - w) / 2; w = minW; }
  if (h < minW * 0.75) { y0 -= (minW * 0.75 - h) / 2; h = minW * 0.75; }
  return [x0 - pad, y0 - pad, w, h];
}

// A click that ended a drag was a pan: not sent.
function press(target, ev, shell) {
  const st = BOARDS.get(shell.el);
  const p = ev && ev.pointerId !== undefined ? st.pointers.get(ev.pointerId) : null;
  if (p && p.moved > 6) return false;
  const vb = st.root.querySelector(".vb");
  vb.dataset.lastClick = target.dataset.target;
  if (st.playing) {
    // the computer's move is still being shown: the tester watches it first
    vb.dataset.ignored = String(Number(vb.dataset.ignored || 0) + 1);
    return false;
  }
  return shell.interactive;
}

function render(st, d, shell) {
  const vb = st.root.querySelector(".vb");
  // A new move (not a new selection): only then are forced tiles animated again and
  // the view refitted; choosing a space keeps the tester's pan and zoom.
  const moveKey = [d.tiles_left, d.placed, (d.tiles || []).length, d.over].join("|");
  const changedMove = !st.data || st.moveKey !== moveKey;
  st.moveKey = moveKey;
  st.data = d;
  vb.classList.toggle("vb-over", !!d.over);
  vb.classList.toggle("vb-interactive", !!d.interactive);
  st.root.querySelector("[data-role=counter]").textContent = d.counter || "";
  for (const [sel, key, english] of ARIA) {
    st.root.querySelector(sel).setAttribute("aria-label", word(d, key, english));
  }
  st.root.querySelector("[data-zoom=fit]").textContent = d.fit_text || "";
  // the legend's words are the catalog's (a wording experiment may vary them)
  for (const span of st.root.querySelectorAll("[data-legend]")) {
    span.textContent = (d.legend || {})[span.dataset.legend] || "";
  }

  const layer = st.layer;
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  const autoCells = new Set((d.autos || []).map((a) => a.cell));
  const highlight = new Set(d.highlight || []);
  const cells = [];
  // spaces where no tile may go now: faint, and a tap there is answered with why
  for (const c of d.blocked || []) {
    const [r, cc] = c.split(",").map(Number);
    const pts = corners(r, cc).map((p) => p.join(",")).join(" ");
    el("polygon", {
      points: pts, class: "vc-blocked" + (c === d.refused ? " vc-refused" : ""), "data-cell": c,
      "data-target": c, role: "button", "aria-label": word(d, "blocked", "Space where no tile fits now"),
    }, layer);
  }
  for (const c of d.candidates || []) {
    const [r, cc] = c.split(",").map(Number);
    cells.push([r, cc]);
    const pts = corners(r, cc).map((p) => p.join(",")).join(" ");
    let cls = "vc" + (c === d.selected ? " vc-selected" : "");
    if (c === d.refused) cls += " vc-refused";
    el("polygon", {
      points: pts, class: cls, "data-cell": c, "data-target": c, tabindex: "0", role: "button",
      "aria-label": c === d.selected ? word(d, "chosen", "The glowing space (chosen)")
        : word(d, "open", "Green space: a tile fits here"),
    }, layer);
  }
  const tilesLayer = el("g", { class: "vb-tiles" }, layer);
  for (const t of d.tiles || []) {
    cells.push([t.r, t.c]);
    let cls = highlight.has(t.cell) ? "vt-win" : "";
    if (t.cell === d.placed) cls += " vt-placed";
    if (t.cell === d.computer_placed && changedMove) cls += " vt-computer-move";
    if (autoCells.has(t.cell) && changedMove) cls += " vt-auto vt-hidden";
    const origin = (d.origins || {})[t.cell];
    const g = drawTile(tilesLayer, t, cls, origin);
    const label = (d.labels || {})[t.cell] || t.cell;
    g.setAttribute("aria-label", origin ? label + ", " + word(d, origin, ORIGIN_WORDS[origin]) : label);
    g.setAttribute("role", "img");
  }
  // the selected cell's preview stays drawn in place, faintly
  if (d.selected && d.previews && d.previews.length) {
    const faint = drawTile(layer, previewState(d.selected, d.previews[0]), "vt-ghost");
    faint.setAttribute("aria-hidden", "true");
  }
  st.fitted = fitView(cells);
  if (!st.view || changedMove) st.view = st.fitted.slice();
  applyView(st);
  renderPicker(st, d);
  if (changedMove) animateAutos(st, d, shell);
  else if (st.playing) holdShell(st, shell);
}

// While the computer's move plays out: its turn, no end line yet.
function holdShell(st, shell) {
  const turn = st.root.querySelector("[data-role=turn]");
  const end = st.root.querySelector("[data-role=result]");
  // a picture in the Rules overlay shows a position, not a game being played
  const picture = !!(shell && shell.data && shell.data.picture);
  if (turn) turn.textContent = picture ? "" : (st.data && st.data.playing_text) || "";
  if (end) end.hidden = true;
  st.root.querySelector(".vb").classList.remove("vb-interactive");
}

// The shell's own lines again once the move has been shown.
function releaseShell(st, shell) {
  const d = shell.data || {};
  const turn = st.root.querySelector("[data-role=turn]");
  const end = st.root.querySelector("[data-role=result]");
  if (turn && d.turn !== undefined && d.turn !== null) turn.textContent = d.turn;
  else if (turn && d.picture) turn.textContent = "";
  if (end) end.hidden = !d.end;
  st.root.querySelector(".vb").classList.toggle("vb-interactive", !!(st.data && st.data.interactive));
}

function renderPicker(st, d) {
  const picker = st.root.querySelector("[data-role=picker]");
  const vb = st.root.querySelector(".vb");
  const shown = !!(d.selected && d.previews && d.previews.length);
  // The same offer drawn again (Streamlit re-sends the data) keeps its buttons and does
  // not scroll: a finger on its way to a tile must find it where it was.
  const key = shown ? [st.moveKey, d.selected, d.previews.join(" "), d.pick_text].join("|") : "";
  if (key && key === st.pickerKey && picker.childElementCount) return;
  st.pickerKey = key;
  picker.innerHTML = "";
  vb.classList.toggle("vb-has-picker", shown);
  if (!shown) { picker.hidden = true; return; }
  picker.hidden = false;
  const label = document.createElement("div");
  label.className = "vb-picker-label";
  label.textContent = d.pick_text || "";
  picker.appendChild(label);
  const [r, c] = d.selected.split(",").map(Number);
  for (const s of d.previews) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "vb-preview";
    b.dataset.state = s;
    b.dataset.target = s;
    const [left, right, flat] = [...s].map((k) => word(d, COLOUR[k], COLOUR[k]));
    b.setAttribute("aria-label", word(d, "preview", "Tile: left {left}, right {right}, flat side {flat}")
      .replace("{left}", left).replace("{right}", right).replace("{flat}", flat));
    const svg = el("svg", { class: "vb-preview-svg", "aria-hidden": "true" });
    // just the one triangle, with a small margin: the tile fills its button
    const pts = corners(r, c), pad = S * 0.1;
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
    svg.setAttribute("viewBox", [x0, y0, S + 2 * pad, H + 2 * pad].map((v) => v.toFixed(1)).join(" "));
    drawTile(svg, previewState(d.selected, s), "");
    b.appendChild(svg);
    picker.appendChild(b);
  }
  // on a phone the previews sit under the board: bring them on screen (instantly, so
  // a finger never taps where a scroll is still moving them)
  picker.scrollIntoView({ block: "nearest", behavior: "auto" });
}

function animateAutos(st, d, shell) {
  const autos = d.autos || [];
  const msg = st.root.querySelector("[data-role=message]");
  const id = ++st.animId;
  const vb = st.root.querySelector(".vb");
  vb.dataset.autosShown = "0";
  const lead = d.computer_placed ? 1 : 0;
  if (!autos.length && !lead) {
    if (st.playing) { st.playing = false; releaseShell(st, shell); }
    vb.dataset.playing = "0";
    return;
  }
  const reduce = globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const step = reduce ? 0 : Math.max(Number(d.pace_ms) || 0, 300);
  // the computer's move (and what the tester's own tile forced) is shown before the
  // board takes input again; the end line waits for it
  st.playing = true;
  vb.dataset.playing = "1";
  holdShell(st, shell);
  // the steps in order: the tester's forced tiles, the computer's tile named, its forced
  // tiles; one pace each
  const before = lead ? Math.min(Number(d.autos_before_computer) || 0, autos.length) : 0;
  const announce = () => {
    msg.textContent = d.computer_text || "";
    vb.dataset.announced = d.computer_placed;
    const g = st.layer.querySelector(`.vt[data-cell="${d.computer_placed}"]`);
    if (g) g.classList.remove("vt-hidden");
  };
  if (lead) {
    const g = st.layer.querySelector(`.vt[data-cell="${d.computer_placed}"]`);
    if (g && before) g.classList.add("vt-hidden");
  }
  if (lead && !before) announce();
  else delete vb.dataset.announced;
  autos.forEach((a, i) => {
    const at = i < before ? i : i + lead;
    setTimeout(() => {
      if (id !== st.animId) return;
      const g = st.layer.querySelector(`.vt[data-cell="${a.cell}"]`);
      if (g) g.classList.remove("vt-hidden");
      msg.textContent = (a.count_text ? a.count_text + " " : "") + a.why;
      vb.dataset.autosShown = String(i + 1);
    }, step * at);
  });
  if (lead && before) setTimeout(() => { if (id === st.animId) announce(); }, step * before);
  // then the board's own message again (whose turn it is, or the result), and input
  setTimeout(() => {
    if (id !== st.animId) return;
    if (msg.dataset.text !== undefined) msg.textContent = msg.dataset.text;
    st.playing = false;
    vb.dataset.playing = "0";
    releaseShell(st, shell);
  }, step * (autos.length + lead));
}

export default {
  css: "board.css",
  build,
  update(view, shell) { render(BOARDS.get(shell.el), view, shell); },
  press,
};
