// Symmetry editor: place start, goal, required points and forbidden edges on A and B; the
// server counts the solutions as you edit and finishes the puzzle with the generator's step.
import {api, setStatus, showError, topBar} from "./common.js";
import {download, liveCheck, wireCopy, wireTools} from "./editing.js";

const $ = (id) => document.getElementById(id);

let state = blank(5);  // {size, a: {start, goal, required, forbidden}, b: {required, forbidden}}
let tool = "start";
let undoStack = [];
let answer = null;     // the server's last answer

function blank(size) {
  return {size, a: {start: [0, 0], goal: [size - 1, size - 1], required: [], forbidden: []},
    b: {required: [], forbidden: []}};
}

const mirror = (p) => [state.size - 1 - p[0], p[1]];
const key = (v) => JSON.stringify(v);
const edgeOf = (p, q) => (p[0] < q[0] || (p[0] === q[0] && p[1] < q[1]) ? [p, q] : [q, p]);

/** Both boards as the API takes them. */
function boards() {
  const {size, a, b} = state;
  return {size, board_a: a, board_b: {start: mirror(a.start), goal: mirror(a.goal), ...b}};
}

function toggle(list, item) {
  const i = list.findIndex((x) => key(x) === key(item));
  if (i >= 0) list.splice(i, 1); else list.push(item);
}

/** The lattice point or edge nearest a click on `board` (in that board's coordinates). */
function target(board, event) {
  const svg = $(board === "A" ? "board-a" : "board-b").querySelector("svg");
  const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const cell = Number(svg.dataset.cell), pad = Number(svg.dataset.pad);
  const x = (pt.x - pad) / cell, y = (pt.y - pad) / cell, n = state.size;
  const inside = (v) => v >= 0 && v <= n - 1;
  if (tool !== "forbidden") {
    const p = [Math.round(x), Math.round(y)];
    return inside(p[0]) && inside(p[1]) && Math.hypot(x - p[0], y - p[1]) < 0.45 ? p : null;
  }
  const h = [Math.floor(x), Math.round(y)], v = [Math.round(x), Math.floor(y)];
  const dh = Math.hypot(x - h[0] - 0.5, y - h[1]), dv = Math.hypot(x - v[0], y - v[1] - 0.5);
  const [p, q] = dh <= dv ? [h, [h[0] + 1, h[1]]] : [v, [v[0], v[1] + 1]];
  if (![...p, ...q].every(inside) || Math.min(dh, dv) > 0.45) return null;
  return edgeOf(p, q);
}

function edit(board, event) {
  const t = target(board, event);
  if (!t) return;
  undoStack.push(key(state));
  const own = board === "A" ? state.a : state.b;
  if (tool === "start" || tool === "goal") {
    const p = board === "A" ? t : mirror(t);
    const other = tool === "start" ? state.a.goal : state.a.start;
    if (key(p) === key(other)) { undoStack.pop(); return; }
    state.a[tool] = p;
  } else if (tool === "required") {
    toggle(own.required, t);
  } else {
    toggle(own.forbidden, t);
  }
  changed();
}

function changed() {
  const q = new URLSearchParams({puzzle: key(state)});
  history.replaceState(null, "", `/symmetry/edit?${q}`);
  $("share").value = location.href;
  live.schedule();
}

const live = liveCheck({
  key: () => key(state),
  ask: () => api("/api/symmetry/edit/check", boards()),
  fail: (err) => showError(err.message),
  show: (got) => {
    if (!got) return;
    showError(null);
    show(got);
  },
  delay: 200,
});

function show(got) {
  answer = got;
  $("board-a").innerHTML = got.svg_a;
  $("board-b").innerHTML = got.svg_b;
  $("board-a").querySelector("svg").dataset.drawn = key(got.drawn);
  document.body.dataset.answer = got.status;
  $("count").textContent = {none: "0", unique: "1 (proved)", several: "2 or more",
    limit: "unknown"}[got.status];
  $("nodes").textContent = got.nodes.toLocaleString("en");
  $("ms").textContent = `${got.elapsed_ms.toFixed(1)} ms`;
  const text = {
    none: ["No solution: no stroke solves both boards (proved). Remove a condition.", "bad"],
    unique: ["Exactly one solution, proved by the counting search (drawn).", "good"],
    several: ["At least two solutions: the second one is drawn. Forbid one of its edges, " +
      "require a point it misses, or press “Make it unique”.", "busy"],
    limit: ["Unknown: the counting search reached its node cap.", "bad"],
  }[got.status];
  setStatus(...text);
}

async function finishIt() {
  $("finish").disabled = true;
  setStatus("Finishing: forbidding an edge of each other solution…", "busy");
  try {
    const got = await api("/api/symmetry/edit/finish", {...boards(), seed: Number($("seed").value)});
    undoStack.push(key(state));
    state = {size: got.size, a: got.board_a,
      b: {required: got.board_b.required, forbidden: got.board_b.forbidden}};
    const f = got.finished;
    $("finished").textContent = `Forbade ${f.forbidden_added.length} edge(s) on A` +
      (f.required_added.length ? `, required ${f.required_added.length} point(s)` : "") +
      (f.required_dropped.length ? `, dropped ${f.required_dropped.length} trap point(s)` : "") +
      ` over ${f.rounds} round(s).`;
    const q = new URLSearchParams({puzzle: key(state)});
    history.replaceState(null, "", `/symmetry/edit?${q}`);
    $("share").value = location.href;
    show(got);
    document.body.dataset.state = "checked";
  } catch (err) {
    showError(err.message);
  } finally {
    $("finish").disabled = false;
  }
}

function wire() {
  for (const [id, board] of [["board-a", "A"], ["board-b", "B"]]) {
    $(id).addEventListener("click", (e) => edit(board, e));
  }
  wireTools((t) => { tool = t; }, undo);
  $("finish").onclick = finishIt;
  $("size").onchange = () => {
    undoStack.push(key(state));
    state = blank(Number($("size").value));
    changed();
  };
  $("clear").onclick = () => {
    undoStack.push(key(state));
    state = {size: state.size, a: {...state.a, required: [], forbidden: []},
      b: {required: [], forbidden: []}};
    changed();
  };
  $("export").onclick = () => answer && download(answer.jsonl + "\n", "puzzle.jsonl",
    "application/jsonl");
  wireCopy();
}

function undo() {
  if (!undoStack.length) return;
  state = JSON.parse(undoStack.pop());
  $("size").value = state.size;
  changed();
}

topBar();
wire();
$("title").textContent = "Symmetry editor";
const given = new URLSearchParams(location.search).get("puzzle");
if (given) {
  try {
    state = JSON.parse(given);
  } catch (err) {
    showError("the share link's puzzle is not JSON; starting from an empty board");
  }
}
$("size").value = state.size;
changed();
