// Dokusen's renderer for the board shell (playtest/board/static/shell.js): the stage's
// grid, the owner counts with the 50 % line, the "Why?" neighbour counts, and the last
// round replayed square by square (placements, growth, meteors) before the next input.
// A square "r,c" is what a click chooses (data-target). View: view.py's board_data.
const BOARDS = new WeakMap();

let el;  // the shell's element maker

function build(parent, shell) {
  el = shell.make;
  const root = el("div", { class: "db", "data-testid": "dokusen-board" }, parent);
  const head = el("div", { class: "db-head" }, root);
  const title = el("div", { class: "db-title", "data-testid": "dokusen-title" }, head);
  const stageOf = el("div", { class: "db-stageof", "data-testid": "dokusen-stage-of" }, head);
  const round = el("div", { class: "db-round", "data-testid": "dokusen-round" }, head);
  const mute = el("button", { type: "button", class: "db-mute" }, head);
  // the tester's way through the study: which game of how many, the stages won
  const progress = el("div", { class: "db-progress", "data-testid": "dokusen-progress" }, root);
  const msg = el("div", { class: "db-msg", role: "status", "aria-live": "polite", "data-testid": "dokusen-message" }, root);
  // the end screen sits where the message was, above the board, so the final board stays in view
  const over = el("div", { class: "db-over", hidden: "", "data-testid": "dokusen-over", role: "status", "aria-live": "polite" }, root);
  el("div", { class: "db-over-title sh-end-title" }, over);
  el("div", { class: "db-over-text sh-end-text" }, over);
  const bar = el("div", { class: "db-bar", "data-testid": "dokusen-bar", "aria-hidden": "true" }, root);
  const segs = el("div", { class: "db-segs" }, bar);
  const half = el("div", { class: "db-half", title: "50%" }, bar);
  const legend = el("div", { class: "db-legend", "data-testid": "dokusen-counts" }, root);
  const gridWrap = el("div", { class: "db-gridwrap" }, root);
  const grid = el("div", { class: "db-grid", role: "grid", "aria-label": "Dokusen board" }, gridWrap);
  const tools = el("div", { class: "db-tools" }, root);
  const why = el("button", { type: "button", class: "db-why", "aria-pressed": "false", "data-testid": "dokusen-why" }, tools);
  const st = { root, title, stageOf, progress, round, msg, bar, segs, half, legend, grid, why,
    squares: [], shown: [], data: null, showWhy: false, focus: 0, timers: [], animating: false,
    token: null, layoutKey: null };
  why.addEventListener("click", () => {
    st.showWhy = !st.showWhy;
    draw(st);
  });
  BOARDS.set(parent, st);
  return { message: msg, end: over, mute };
}

function layout(st, data) {
  st.grid.textContent = "";
  st.squares = [];
  st.grid.style.gridTemplateColumns = `repeat(${data.cols}, 1fr)`;
  st.grid.style.setProperty("--cols", data.cols);
  st.layoutKey = `${data.rows}x${data.cols}:${data.cells.map(o => (o === -2 ? "#" : ".")).join("")}`;
  for (let i = 0; i < data.rows * data.cols; i++) {
    const r = Math.floor(i / data.cols), c = i % data.cols;
    if (data.cells[i] === -2) {
      st.squares.push(el("div", { class: "void", "aria-hidden": "true" }, st.grid));
      continue;
    }
    const b = el("button", { type: "button", class: "sq", "data-r": r, "data-c": c, "data-i": i,
      "data-target": `${r},${c}`, "data-nav": "", "data-x": c, "data-y": r, tabindex: "-1", role: "gridcell" }, st.grid);
    el("span", { class: "sym", "aria-hidden": "true" }, b);
    el("span", { class: "why", "aria-hidden": "true" }, b);
    st.squares.push(b);
  }
  const first = st.squares.findIndex(s => s.classList.contains("sq"));
  st.focus = first;
  if (first >= 0) st.squares[first].tabIndex = 0;
}

// Instant feedback before the click goes to Python: the square turns yours at once.
// Nothing is sent while the board still shows the last round.
function press(target, ev, shell) {
  const st = BOARDS.get(shell.el);
  if (st.animating) return false;
  const d = st.data;
  const i = Number(target.dataset.i);
  const r = Math.floor(i / d.cols), c = i % d.cols;
  if (shell.interactive && d.targets.includes(`${r},${c}`)) {
    st.root.classList.add("busy");
    paint(st, i, 0);
    st.squares[i].classList.add("pop");
  }
  return true;
}

function colourOf(d, owner) {
  return owner >= 0 ? d.colours[owner] : null;
}

// A text of the view's words with its {placeholders} filled in.
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

function paint(st, i, owner) {
  const b = st.squares[i];
  if (!b || !b.classList.contains("sq")) return;
  const d = st.data;
  for (const cls of [...b.classList]) if (cls.startsWith("o")) b.classList.remove(cls);
  const info = colourOf(d, owner);
  b.classList.add(owner >= 0 ? `o${owner}` : "oblack");
  b.dataset.owner = String(owner);
  st.shown[i] = owner;
  b.querySelector(".sym").textContent = info ? info.symbol : "";
  const r = Math.floor(i / d.cols) + 1, c = (i % d.cols) + 1;
  const L = d.labels;
  const what = info ? (owner === 0 ? L.yours || "yours"
    : fill(L.owned || "{colour}'s", { colour: info.word || info.colour })) : L.black;
  b.setAttribute("aria-label", fill(L.cell || "row {row}, column {col}: {what}",
                                    { row: r, col: c, what }));
}

function whyText(d, pairs) {
  return pairs.map(([p, n]) => `${n}${d.colours[p] ? d.colours[p].symbol : p}`).join(" ");
}

function draw(st) {
  const d = st.data;
  const root = st.root;
  root.dataset.token = d.token;
  root.dataset.phase = d.phase;
  root.dataset.toMove = d.toMove === null ? "" : String(d.toMove);
  root.dataset.animating = st.animating ? "1" : "0";
  root.classList.toggle("idle", !d.interactive || st.animating);
  root.classList.toggle("why-on", st.showWhy);
  st.title.textContent = [d.stage, d.stageName].filter(Boolean).join(" · ");
  st.stageOf.textContent = d.stageOf || "";
  st.progress.textContent = d.progress || "";
  st.progress.hidden = !d.progress;
  // "of N" only when the round limit is one a player can count towards (a stage's default
  // limit, 4 x squares, read "Round 4 of 100": a length no game comes near)
  const limitShown = d.maxRounds && (d.maxRounds <= 30 || d.round > d.maxRounds - 10);
  st.round.textContent = limitShown ? `${d.labels.round} ${d.round} ${d.labels.of} ${d.maxRounds}`
    : `${d.labels.round} ${d.round}`;
  // the last round's growth is replayed with the result already said above it, so a
  // tester who moves on before the replay ends has seen how the game ended
  const watching = st.animating && !d.over;
  // while a round is replayed the message says to watch; then the shell's message again
  if (watching) st.msg.textContent = d.labels.watching;
  else if (st.msg.textContent !== (st.msg.dataset.text || "")) st.msg.textContent = st.msg.dataset.text || "";
  st.why.textContent = st.showWhy ? d.labels.why_hide : d.labels.why;
  st.grid.setAttribute("aria-label", d.labels.board || "Dokusen board");
  st.why.setAttribute("aria-pressed", st.showWhy ? "true" : "false");
  const targets = new Set(d.targets);
  // a computer colour's square of this round keeps a ring once the round is replayed:
  // the message names the colour, the ring shows where it went
  const rivals = new Set((d.rivalPlaced || []).map(([r, c]) => `${r},${c}`));
  st.squares.forEach((b, i) => {
    if (!b.classList.contains("sq")) return;
    if (!st.animating) paint(st, i, d.cells[i]);
    const r = Math.floor(i / d.cols), c = i % d.cols;
    b.classList.toggle("target", d.interactive && !st.animating && targets.has(`${r},${c}`));
    b.classList.toggle("rival-last", !st.animating && rivals.has(`${r},${c}`));
    const w = b.querySelector(".why");
    if (!st.animating) w.textContent = st.showWhy ? whyText(d, d.neighbours[i]) : "";
  });
  drawCounts(st);
  st.root.classList.toggle("db-ended", !!d.over && !st.animating);
}

// the owner counts (bar with the 50 % line, and words) of the squares on screen, so that
// they change square by square while a round is replayed
function drawCounts(st) {
  const d = st.data;
  const count = {};
  let black = 0;
  st.shown.forEach((o, i) => {
    if (!st.squares[i] || !st.squares[i].classList.contains("sq")) return;
    if (o >= 0) count[o] = (count[o] || 0) + 1;
    else black += 1;
  });
  st.segs.textContent = "";
  st.legend.textContent = "";
  for (const info of d.colours) {
    const n = count[info.id] || 0;
    const seg = el("div", { class: `seg o${info.id}`, "data-owner": info.id }, st.segs);
    seg.style.width = `${(100 * n) / d.total}%`;
    const item = el("span", { class: `item o${info.id}`, "data-owner": info.id }, st.legend);
    el("span", { class: "chip", "aria-hidden": "true" }, item, info.symbol);
    el("span", { class: "name" }, item, info.name);
    el("span", { class: "count", "data-testid": `dokusen-count-${info.id}` }, item, String(n));
  }
  const blackItem = el("span", { class: "item oblack" }, st.legend);
  el("span", { class: "chip", "aria-hidden": "true" }, blackItem, "");
  el("span", { class: "name" }, blackItem, d.labels.black);
  el("span", { class: "count", "data-testid": "dokusen-count-black" }, blackItem, String(black));
  el("span", { class: "item need", "data-testid": "dokusen-need" }, st.legend, `${d.labels.win_with} ${d.need} / ${d.total}`);
  st.half.style.left = "50%";
}

function stopAnimation(st) {
  for (const t of st.timers) clearTimeout(t);
  st.timers = [];
  st.animating = false;
}

function animate(st) {
  const d = st.data;
  stopAnimation(st);
  if (!d.steps.length || d.speed === 0) {
    draw(st);
    return;
  }
  st.animating = true;
  draw(st);
  d.before.forEach((owner, i) => paint(st, i, owner));
  drawCounts(st);
  for (const b of st.squares) {
    b.classList.remove("flip", "pop", "impact", "impact-at");
    const w = b.querySelector && b.querySelector(".why");
    if (w) w.textContent = "";
  }
  let t = 0;
  for (const step of d.steps) {
    const i = step.at[0] * d.cols + step.at[1];
    if (step.kind === "place") {
      st.timers.push(setTimeout(() => { paint(st, i, step.to); st.squares[i].classList.add("pop"); drawCounts(st); }, t));
      t += d.speed * 2;
    } else if (step.kind === "grow") {
      // one square at a time, with the neighbour counts that decided it
      st.timers.push(setTimeout(() => {
        paint(st, i, step.to);
        const b = st.squares[i];
        b.classList.remove("flip");
        void b.offsetWidth;
        b.classList.add("flip");
        b.querySelector(".why").textContent = whyText(d, step.why);
        drawCounts(st);
      }, t));
      t += d.speed;
    } else if (step.kind === "meteor") {
      const area = step.area.map(([r, c]) => r * d.cols + c);
      st.timers.push(setTimeout(() => {
        for (const j of area) st.squares[j].classList.add("impact");
        st.squares[i].classList.add("impact-at"); // the strike's centre: a symbol, not only red
      }, t));
      t += d.speed * 3;
      st.timers.push(setTimeout(() => { for (const j of area) paint(st, j, -1); drawCounts(st); }, t));
      t += d.speed;
    }
  }
  st.timers.push(setTimeout(() => {
    st.animating = false;
    for (const b of st.squares) b.classList.remove("impact", "impact-at");
    draw(st);
  }, t + d.speed * 2));
}

function update(view, shell) {
  const st = BOARDS.get(shell.el);
  st.data = view;
  const layoutKey = `${view.rows}x${view.cols}:${view.cells.map(o => (o === -2 ? "#" : ".")).join("")}`;
  if (layoutKey !== st.layoutKey) layout(st, view);
  if (view.token !== st.token) {
    st.token = view.token;
    st.root.classList.remove("busy");
    animate(st);
  } else if (!st.animating) {
    draw(st);
  }
}

export default { css: "board.css", build, update, press };
