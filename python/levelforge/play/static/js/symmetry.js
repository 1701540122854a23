// Symmetry puzzles: the stroke is drawn here; the server judges it.
import {api, randomSeed, setStatus, showError, topBar, typing,
  wireSeedAndShare} from "./common.js";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const HELP = "Drag from S to G along the grid lines. The mirror of your stroke appears on B.";
const SHOWN = ["path_points", "branch_points", "viable_branch_points", "required", "forbidden",
  "proof_nodes"];

let puzzle = null;   // the server's puzzle (boards, drawings, figures; no answer)
let path = [];       // the stroke, as points [x, y] on board A
let drawing = null;  // the board being dragged on ("A" or "B"), or null
let loads = 0;

function source() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts.length === 1) return {path: "/api/symmetry/generate" + location.search};
  if (parts.length === 3 && parts[1] === "file") {
    return {path: `/api/symmetry/file/${parts[2]}${location.search}`, file: true};
  }
  return {error: `there is no symmetry page at ${location.pathname}`};
}

const same = (p, q) => p[0] === q[0] && p[1] === q[1];
const mirror = (p) => [puzzle.size - 1 - p[0], p[1]];
const adjacent = (p, q) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) === 1;

function svgOf(board) {
  return $(board === "A" ? "board-a" : "board-b").querySelector("svg");
}

/** Lattice coordinates (fractional) of a pointer event on `board`, as seen on board A. */
function latticeAt(board, event) {
  const svg = svgOf(board);
  const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(
    svg.getScreenCTM().inverse());
  const cell = Number(svg.dataset.cell), pad = Number(svg.dataset.pad);
  const x = (pt.x - pad) / cell, y = (pt.y - pad) / cell;
  return board === "A" ? [x, y] : [puzzle.size - 1 - x, y];
}

/** The lattice point within snapping distance of (x, y), or null. */
function snap([x, y]) {
  const p = [Math.round(x), Math.round(y)];
  const n = puzzle.size;
  if (p[0] < 0 || p[1] < 0 || p[0] >= n || p[1] >= n) return null;
  return Math.hypot(x - p[0], y - p[1]) <= 0.42 ? p : null;
}

function toPixels(board, points) {
  const svg = svgOf(board);
  const cell = Number(svg.dataset.cell), pad = Number(svg.dataset.pad);
  return points.map(([x, y]) => `${pad + x * cell},${pad + y * cell}`).join(" ");
}

function drawStroke() {
  svgOf("A").querySelector(".stroke").setAttribute("points", toPixels("A", path));
  svgOf("B").querySelector(".stroke").setAttribute("points", toPixels("B", path.map(mirror)));
  svgOf("A").dataset.path = JSON.stringify(path);
  svgOf("B").dataset.path = JSON.stringify(path.map(mirror));
}

function clearMarks() {
  for (const b of ["A", "B"]) svgOf(b).querySelector(".marks").replaceChildren();
  document.body.dataset.state = "playing";
}

/** Ring the points, or underline the edges, where a rule is broken (board coordinates). */
function mark(board, where) {
  const svg = svgOf(board);
  const cell = Number(svg.dataset.cell), pad = Number(svg.dataset.pad);
  const at = ([x, y]) => [pad + x * cell, pad + y * cell];
  const group = svg.querySelector(".marks");
  for (const item of where) {
    let el;
    if (Array.isArray(item[0])) {
      const [[x1, y1], [x2, y2]] = item.map(at);
      el = document.createElementNS(SVGNS, "line");
      Object.entries({x1, y1, x2, y2, "stroke-width": cell * 0.32}).forEach(
        ([k, v]) => el.setAttribute(k, v));
    } else {
      const [cx, cy] = at(item);
      el = document.createElementNS(SVGNS, "circle");
      Object.entries({cx, cy, r: cell * 0.36, fill: "none", "stroke-width": cell * 0.09}).forEach(
        ([k, v]) => el.setAttribute(k, v));
    }
    el.setAttribute("stroke", "#e63946");
    el.setAttribute("stroke-linecap", "round");
    el.setAttribute("opacity", Array.isArray(item[0]) ? "0.5" : "1");
    el.classList.add("mark");
    group.append(el);
  }
}

/** Extend the stroke towards lattice point p: back one step, one step on, or a straight run. */
function extend(p) {
  const last = path[path.length - 1];
  if (same(p, last)) return;
  if (path.length > 1 && same(p, path[path.length - 2])) {
    path.pop();
  } else if (adjacent(p, last)) {
    path.push(p);
  } else if (p[0] === last[0] || p[1] === last[1]) {  // a fast drag skipped points
    const dx = Math.sign(p[0] - last[0]), dy = Math.sign(p[1] - last[1]);
    for (let q = [last[0] + dx, last[1] + dy]; ; q = [q[0] + dx, q[1] + dy]) {
      extend(q);
      if (same(q, p)) break;
    }
    return;
  } else {
    return;
  }
  clearMarks();
  setStatus(HELP);
  drawStroke();
}

function onDown(board, event) {
  if (!puzzle || event.button > 0) return;
  const p = snap(latticeAt(board, event));
  if (!p) return;
  const start = puzzle.board_a.start;
  const at = path.findIndex((q) => same(q, p));
  if (same(p, start)) {
    path = [start];
  } else if (at >= 0) {
    path = path.slice(0, at + 1);  // pick the stroke up where it was touched
  } else {
    setStatus("Start the stroke at S, or continue it from its end.", "bad");
    return;
  }
  drawing = board;
  event.currentTarget.setPointerCapture(event.pointerId);
  event.preventDefault();
  clearMarks();
  setStatus(HELP);
  drawStroke();
}

function onMove(board, event) {
  if (drawing !== board) return;
  const p = snap(latticeAt(board, event));
  if (p) extend(p);
}

function onUp(board) {
  if (drawing !== board) return;
  drawing = null;
  if (path.length > 1 && same(path[path.length - 1], puzzle.board_a.goal)) check();
}

async function check() {
  if (!puzzle) return;
  let v;
  try {
    v = await api("/api/symmetry/check", {size: puzzle.size, board_a: puzzle.board_a,
      board_b: puzzle.board_b, path});
  } catch (err) {
    showError(err.message);
    return;
  }
  clearMarks();
  if (v.solved) {
    document.body.dataset.state = "solved";
    setStatus(`Solved! One stroke of ${path.length} points satisfies both boards.`, "good");
  } else {
    document.body.dataset.state = "broken";
    document.body.dataset.rule = v.rule;
    mark(v.board, v.where);
    setStatus(`Not yet: ${v.message}.`, "bad");
  }
}

async function showSolution() {
  if (!puzzle) return;
  try {
    const full = await api(puzzle.solutionPath);
    path = full.solution;
  } catch (err) {
    showError(err.message);
    return;
  }
  drawStroke();
  await check();
}

function figures() {
  const d = puzzle.difficulty || {};
  const rows = SHOWN.filter((k) => k in d).map((k) =>
    `<dt>${k.replace(/_/g, " ")}</dt><dd>${Number(d[k]).toLocaleString("en")}</dd>`);
  rows.push(`<dt>generated in</dt><dd>${puzzle.elapsed_ms.toFixed(1)} ms</dd>`);
  $("figures").innerHTML = rows.join("");
}

async function load() {
  const mine = ++loads;
  showError(null);
  let src = source();
  const q = new URLSearchParams(location.search);
  if (!src.error && !src.file && !q.has("seed")) {
    q.set("size", q.get("size") || "7");
    q.set("seed", randomSeed());
    history.replaceState(null, "", "/symmetry?" + q);
    src = source();
  }
  const form = $("form").elements;
  if (!src.file) {
    form.size.value = q.get("size") || "7";
    form.strategy.value = (q.get("strategy") || "random").toUpperCase() === "RANDOM" ? "random"
      : (q.get("strategy") || "").toUpperCase();
    form.seed.value = q.get("seed") || "0";
  }
  $("share").value = location.href;
  puzzle = null;
  path = [];
  if (src.error) return failed(src.error);
  setStatus("Generating the puzzle…", "busy");
  document.body.dataset.state = "loading";
  let answer;
  try {
    answer = await api(src.path);
  } catch (err) {
    return failed(err.message);
  }
  if (mine !== loads) return;
  puzzle = answer;
  puzzle.solutionPath = src.path + (src.path.includes("?") ? "&" : "?") + "solution=1";
  $("board-a").innerHTML = puzzle.svg_a;
  $("board-b").innerHTML = puzzle.svg_b;
  for (const b of ["A", "B"]) {
    const svg = svgOf(b);
    svg.addEventListener("pointerdown", (e) => onDown(b, e));
    svg.addEventListener("pointermove", (e) => onMove(b, e));
    svg.addEventListener("pointerup", () => onUp(b));
    svg.addEventListener("pointercancel", () => onUp(b));
  }
  const title = puzzle.source.kind === "file" ? puzzle.source.title
    : `${puzzle.size}x${puzzle.size}, seed ${puzzle.seed}`;
  $("title").textContent = title;
  $("subtitle").textContent = `strategy ${puzzle.strategy} · ${puzzle.difficulty.path_points}` +
    "-point answer, proved unique";
  document.title = `${title} · Symmetry · levelforge play`;
  figures();
  drawStroke();
  clearMarks();
  setStatus(HELP);
}

function failed(message) {
  showError(message);
  $("title").textContent = "No puzzle";
  $("subtitle").textContent = "";
  $("board-a").innerHTML = "";
  $("board-b").innerHTML = "";
  $("figures").innerHTML = "";
  setStatus("Fix the puzzle settings and try again.", "bad");
  document.body.dataset.state = "error";
}

function wire() {
  $("check").onclick = check;
  $("show").onclick = showSolution;
  $("back").onclick = () => { if (path.length > 1) { path.pop(); clearMarks(); drawStroke(); } };
  $("clear").onclick = () => { path = []; clearMarks(); setStatus(HELP); drawStroke(); };
  document.addEventListener("keydown", (e) => {
    if (typing(e) || !puzzle) return;
    if (e.key === "Enter") check();
    else if (e.key === "Backspace") $("back").click();
    else if (e.key === "Escape") $("clear").click();
    else return;
    e.preventDefault();
  });
  $("form").onsubmit = (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const q = new URLSearchParams({size: f.size.value, seed: f.seed.value});
    if (f.strategy.value !== "random") q.set("strategy", f.strategy.value);
    history.pushState(null, "", "/symmetry?" + q);
    load();
  };
  wireSeedAndShare($("form"));
  window.addEventListener("popstate", load);
}

topBar();
wire();
load();
