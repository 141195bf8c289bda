// Bricks & Walls' renderer for the board shell (playtest/board/static/shell.js): the three
// squares and their connectors, the 24 points, each side's bricks to place and on the
// board, the last move's points and a new wall. A point is what a click chooses
// (data-target); a click holds the brick the browser has selected, so a quick
// select-then-move loses nothing. The board's frame takes the colour of the side to move;
// its paper stays light, so black bricks stay readable on every turn and at the end.
const BOARDS = new WeakMap();
let el, svgEl;  // the shell's element makers

function build(parent, shell) {
  el = shell.make;
  svgEl = shell.makeSvg;
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
  const st = { root, last, sides, wrap, svg: null, pts: {}, data: null, selection: null, busy: false };
  BOARDS.set(parent, st);
  return { turn, message: msg, mute: sound };
}

// The points and lines, drawn once (the board's shape never changes).
function drawBoard(st, d) {
  const svg = svgEl("svg", { viewBox: "-1.05 -0.6 7.65 7.65", role: "group", "aria-label": d.labels.board }, st.wrap);
  const pos = {};
  for (const p of d.points) pos[p.id] = p;
  // the points' names around the board (a–g under it, 1–7 beside it): the messages say
  // "the computer put a brick on d6", so a child can find d6
  const cols = {}, rows = {};
  for (const p of d.points) { cols[p.x] = p.id[0]; rows[p.y] = p.id.slice(1); }
  for (const [x, name] of Object.entries(cols)) {
    svgEl("text", { class: "coord", x, y: 6.82, "text-anchor": "middle", "aria-hidden": "true" }, svg).textContent = name;
  }
  for (const [y, name] of Object.entries(rows)) {
    svgEl("text", { class: "coord", x: -0.72, y, "dominant-baseline": "central", "text-anchor": "middle", "aria-hidden": "true" }, svg).textContent = name;
  }
  for (const [a, b] of d.edges) {
    svgEl("line", { class: "edge", x1: pos[a].x, y1: pos[a].y, x2: pos[b].x, y2: pos[b].y }, svg);
  }
  d.points.forEach((p, i) => {
    const g = svgEl("g", { class: "pt", "data-point": p.id, "data-target": p.id, "data-nav": "",
      "data-x": p.x, "data-y": p.y, role: "button", tabindex: i === 0 ? "0" : "-1",
      transform: `translate(${p.x} ${p.y})` }, svg);
    svgEl("circle", { class: "hit", r: "0.46" }, g);
    svgEl("circle", { class: "focus", r: "0.5" }, g);
    svgEl("circle", { class: "ring", r: "0.44" }, g);
    svgEl("circle", { class: "dot", r: "0.13" }, g);
    svgEl("circle", { class: "brick", r: "0.36" }, g);
    svgEl("circle", { class: "inner", r: "0.16" }, g);
    svgEl("circle", { class: "taken", r: "0.3" }, g);  // a brick just taken from here
    st.pts[p.id] = g;
  });
  st.svg = svg;
}

function blink(st, id, times) {
  const g = st.pts[id];
  if (!g) return;
  g.classList.remove("blink1", "blink2");
  void g.getBoundingClientRect();  // restart the animation
  g.classList.add(times === 1 ? "blink1" : "blink2");
  setTimeout(() => g.classList.remove("blink1", "blink2"), 900);
}

// Instant feedback before the click goes to Python (the engine there is the judge and
// the next drawing the truth); the click holds the brick selected here.
function press(target, ev, shell) {
  const st = BOARDS.get(shell.el);
  const d = st.data;
  const id = target.dataset.target;
  const from = st.selection;
  if (!shell.interactive || st.busy) return { hold: from ? [from] : null };
  const mine = d.cells[id] === d.toMove;
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
  return { hold: from ? [from] : null };
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
  root.dataset.selection = st.selection || "";
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
  const taken = new Set(d.taken || []);
  for (const [id, g] of Object.entries(st.pts)) {
    const owner = d.cells[id] || "";
    g.classList.toggle("W", owner === "W");
    g.classList.toggle("B", owner === "B");
    g.classList.toggle("sel", id === sel);
    g.classList.toggle("grey", grey.has(id));
    g.classList.toggle("last", last.has(id));
    g.classList.toggle("wall", walls.has(id));
    g.classList.toggle("taken", taken.has(id) && !owner);
    g.classList.toggle("target", d.interactive && d.highlight && targets.has(id));
    const L = d.labels;
    const what = owner ? (owner === "W" ? L.W || "white brick" : L.B || "black brick")
      : L.empty || "empty";
    const extra = grey.has(id) ? L.walled || "walled" : (id === sel ? L.selected || "selected"
      : (taken.has(id) && !owner ? L.taken || "brick just taken" : ""));
    g.setAttribute("aria-label", [id, what, extra].filter(Boolean).join(", "));
  }
}

function update(view, shell) {
  const st = BOARDS.get(shell.el);
  const newPosition = !st.data || st.data.token !== view.token;
  st.data = view;
  if (!st.svg) drawBoard(st, view);
  if (newPosition) st.busy = false;
  if (newPosition || !st.busy) st.selection = view.selection;
  draw(st);
}

export default { css: "board.css", build, update, press };
