// Vapoosh!'s renderer for the board shell (playtest/board/static/shell.js): the dice bar,
// the 12 x 12 multiplication board, the Brown buttons of a Vapooh roll and, on phones,
// the magnifier. Its markup (board.html) is fetched from beside it on first use; the shell
// puts its stylesheet (board.css) in place first. It builds the grid once and after that
// only updates text, classes and attributes, so a rerun repaints in one frame. A tile is
// what a click chooses ("c,r", data-target); a Brown button holds "brown" with it; the
// roll button makes the draw of the dice (data-input="draw").
const HTML = await fetch(new URL("board.html", import.meta.url)).then((r) => {
  if (!r.ok) throw new Error("board: could not load board.html (HTTP " + r.status + ")");
  return r.text();
});
const SIZE = 12;
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};
const BOARDS = new WeakMap();

// A text of the view's words (its {placeholders} filled in), else the English given.
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

function makeDie(value, colour, w) {
  const d = document.createElement("span");
  d.className = "die";
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", fill((w || {}).die || "{colour} die {value}",
                                    { colour: (w || {})[colour] || colour, value }));
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
  const holder = document.createElement("div");
  holder.innerHTML = HTML;
  root.append(holder);
  const st = {
    root, tiles: [], data: null, turnKey: null, zoomAt: null, browns: "[]",
    vb: root.querySelector(".vb"),
    grid: root.querySelector(".vb-grid"),
    roll: root.querySelector(".vb-roll"),
    swatch: root.querySelector(".vb-swatch"),
    diceBy: root.querySelector(".vb-dice-by"),
    pink: root.querySelector(".vb-pink"),
    green: root.querySelector(".vb-green"),
    sums: root.querySelector(".vb-sums"),
    zoom: root.querySelector(".vb-zoom"),
    note: root.querySelector(".vb-note"),
  };
  BOARDS.set(root, st);
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
      // what a click chooses; the arrow keys move between tiles (the shell's)
      b.dataset.target = c + "," + r;
      b.dataset.nav = "";
      b.dataset.x = String(c);
      b.dataset.y = String(r);
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
  st.zoom.addEventListener("click", (e) => {
    if (e.target.closest("button.vb-zclose")) closeZoom(st);
  });
  st.zoom.onkeydown = (e) => { if (e.key === "Escape") { e.preventDefault(); closeZoom(st); } };
  return {
    turn: root.querySelector(".vb-turn-text"),
    message: root.querySelector(".vb-msg"),
    mute: root.querySelector(".vb-mute"),
    // no end banner: the turn line says who won, the message line why, the row glows
    // (a phone keeps the way on under the board in view)
    end: null,
  };
}

// Before the shell sends an input: the roll button takes one press per view; a touch on
// a small tile opens the magnifier first (the tap there is the click); a click the board
// cannot take now shakes its tile.
function press(target, ev, shell) {
  const st = BOARDS.get(shell.el);
  if (target.dataset.input === "draw") {
    if (!st.data || !st.data.can_roll || st.roll.disabled) return false;
    st.roll.disabled = true;  // one roll per view: re-enabled by the next data ...
    const shown = st.data;
    setTimeout(() => {  // ... or, if the app answered with the same view, after a pause
      if (st.data === shown) st.roll.disabled = !shown.can_roll;
    }, 1500);
    return true;
  }
  const inZoom = st.zoom.contains(target);
  const chip = target.classList.contains("vb-brown");
  const b = st.tiles[Number(target.dataset.index)];
  if (inZoom) closeZoom(st);
  if (!shell.interactive) {
    b.classList.remove("nope"); void b.offsetWidth; b.classList.add("nope");
    return false;
  }
  if (!inZoom && !chip && wantsZoom(st, b, ev)) {
    openZoom(st, Number(target.dataset.index));
    return false;
  }
  b.classList.add("pressed");
  // the next data repaints the tile; this only matters if the app sends nothing new
  setTimeout(() => b.classList.remove("pressed"), 600);
  return true;
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
  const w = (st.data && st.data.words) || {};
  close.textContent = w.back || "\u2715 Back";
  close.setAttribute("aria-label", w.back_aria || "Back to the whole board");
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
      b.dataset.target = src.dataset.target;
      b.setAttribute("aria-label", src.getAttribute("aria-label") || "");
      const num = document.createElement("span");
      num.textContent = String((c + 1) * (r + 1));
      b.appendChild(num);
      cell.appendChild(b);
      if (brown.has(j)) cell.appendChild(brownChip(j, r === rs, c === cs, c === cs + ZOOM_N - 1, w));
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

function brownChip(j, below, first, last, w) {
  // Beside its tile (above it; below it on the top row), never over the tile itself, so
  // a tap on the tile stays a normal counter.
  const chip = document.createElement("button");
  chip.type = "button";
  chip.className = "vb-brown" + (below ? " below" : "") + (first ? " first" : "") + (last ? " last" : "");
  chip.dataset.index = String(j);
  chip.dataset.target = (j % SIZE + 1) + "," + (Math.floor(j / SIZE) + 1);
  chip.dataset.hold = "brown";
  chip.textContent = (w || {}).brown || "Brown";
  chip.setAttribute("aria-label", fill((w || {}).brown_aria || "Put a brown counter on column {col}, row {row}",
                                       { col: j % SIZE + 1, row: Math.floor(j / SIZE) + 1 }));
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
    const chip = brownChip(j, Math.floor(j / SIZE) === 0, c === 0, c === SIZE - 1,
                           (st.data && st.data.words) || {});
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

function update(st, d) {
  const prev = st.data;
  st.data = d;
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
    const label = d.labels[i] || fill((d.words || {}).tile || "column {c}, row {r}, {n}, empty",
                                      { c, r, n });
    if (b.getAttribute("aria-label") !== label) b.setAttribute("aria-label", label);
    if (!prev || prev.interactive !== d.interactive) b.setAttribute("aria-disabled", String(!d.interactive));
  }
  st.vb.classList.toggle("busy", !d.interactive);
  st.vb.dataset.token = d.token;
  st.vb.dataset.phase = d.phase;
  st.grid.setAttribute("aria-disabled", String(!d.interactive));

  st.swatch.className = "vb-swatch" + (d.to_move ? " o" + d.to_move : "");
  st.swatch.setAttribute("aria-hidden", "true");

  if (d.words && d.words.roll) st.roll.textContent = d.words.roll;
  if (d.words && d.words.column && d.words.column !== st.headerWords) {  // the board's own words
    st.headerWords = d.words.column;
    st.pink.setAttribute("aria-label", d.words.pink_dice || "pink dice");
    st.green.setAttribute("aria-label", d.words.green_dice || "green dice");
    st.grid.setAttribute("aria-label", d.words.grid || "Multiplication board, 12 columns by 12 rows");
    st.zoom.setAttribute("aria-label", d.words.zoom || "Magnified part of the board: tap your tile");
    st.root.querySelectorAll("[role=columnheader]").forEach((h, k) =>
      h.setAttribute("aria-label", fill(d.words.column, { n: k + 1 })));
    st.root.querySelectorAll("[role=rowheader]").forEach((h, k) =>
      h.setAttribute("aria-label", fill(d.words.row || "row {n}", { n: k + 1 })));
  }
  st.roll.hidden = !d.can_roll;
  st.roll.disabled = !d.can_roll;
  st.note.textContent = d.note || "";

  const turnKey = [d.turn, d.phase, d.to_move, JSON.stringify(d.dice)].join("|");
  if (turnKey !== st.turnKey) { st.turnKey = turnKey; closeZoom(st); }
  if (!d.interactive) closeZoom(st);
  paintBrowns(st, d.interactive ? d.brown : []);

  const diceKey = JSON.stringify([d.dice, d.dice_by, d.show_sums]);
  if (!prev || diceKey !== JSON.stringify([prev.dice, prev.dice_by, prev.show_sums])) {
    st.pink.replaceChildren(); st.green.replaceChildren();
    if (d.dice) {
      const w = d.words || {};
      st.diceBy.textContent = d.dice_by
        ? (w.rolled || "{who} rolled:").replace("{who}", d.dice_by[0].toUpperCase() + d.dice_by.slice(1))
        : (w.dice || "Dice:");
      st.pink.append(makeDie(d.dice[0], "pink", w), makeDie(d.dice[1], "pink", w));
      st.green.append(makeDie(d.dice[2], "green", w), makeDie(d.dice[3], "green", w));
      st.sums.textContent = d.show_sums
        ? fill(w.sums || "pink {pink}, green {green}",
               { pink: d.dice[0] + d.dice[1], green: d.dice[2] + d.dice[3] }) : "";
    } else {
      st.diceBy.textContent = ""; st.sums.textContent = "";
    }
  }

}

export default {
  css: "board.css",
  build,
  update(view, shell) { update(BOARDS.get(shell.el), view); },
  press,
};
