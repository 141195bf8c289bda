// Tic-tac-toe's renderer for the board shell (playtest/board/static/shell.js): nine
// squares, each a button whose data-target is its name ("a1"…"c3"). The shell places the
// turn line, the sound button and the message line. View: board.py's view().
const BOARDS = new WeakMap();

function build(parent, shell) {
  const el = shell.make;
  const grid = el("div", { class: "ttt", role: "grid", "aria-label": "Tic-tac-toe board",
    "data-testid": "ttt-board" }, parent);
  const squares = {};
  for (const row of [3, 2, 1]) {
    for (const col of ["a", "b", "c"]) {
      const id = col + row;
      squares[id] = el("button", { type: "button", class: "ttt-sq", role: "gridcell",
        "data-target": id, "data-nav": "", "data-x": "abc".indexOf(col), "data-y": 3 - row,
        tabindex: id === "a3" ? "0" : "-1" }, grid);
    }
  }
  BOARDS.set(parent, { grid, squares });
  return {};
}

function update(view, shell) {
  const st = BOARDS.get(shell.el);
  const targets = new Set(view.targets), line = new Set(view.line);
  st.grid.classList.toggle("idle", !shell.interactive);
  for (const [id, sq] of Object.entries(st.squares)) {
    const mark = view.cells[id];
    sq.textContent = mark;
    sq.dataset.mark = mark;
    sq.classList.toggle("target", shell.interactive && view.highlight && targets.has(id));
    sq.classList.toggle("last", view.last === id);
    sq.classList.toggle("line", line.has(id));
    sq.setAttribute("aria-label", `${id}, ${mark || "empty"}`);
  }
}

export default { css: "board.css", build, update };
