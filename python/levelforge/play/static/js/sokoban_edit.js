// Sokoban editor: paint a level; the server checks it (validity, dead squares, the
// push-optimal solver) as you draw, improves it in pieces, and encodes the share link.
import {api, setStatus, showError, sleep, topBar} from "./common.js";
import {download, liveCheck, post, wireCopy, wireTools} from "./editing.js";

const $ = (id) => document.getElementById(id);
const ROOM = ["##########", "#        #", "# @ $  . #", "#        #", "#   $  . #",
  "#        #", "#        #", "##########"];
const PIECE = 10;             // improve attempts per request

let grid = ROOM.map((r) => [...r]);  // rows of XSB characters
let tool = "#";
let undoStack = [];           // boards before each stroke
let checked = null;           // the server's last answer
let improving = null;         // the AbortController of a running improve
let best = null;              // the best version improve found
let showing = 0;              // bumped to stop a running "show solution"

const text = () => grid.map((r) => r.join("").trimEnd()).join("\n");
/** The board as the server reads it (blank rows above and below dropped). */
const board = () => text().replace(/^\n+|\n+$/g, "");
/** Blank rows above the board: the server's y is ours minus this. */
const top = () => text().length - text().replace(/^\n+/, "").length;
const current = () => checked !== null && checked.xsb === board();

// ------------------------------------------------------------------ painting
function paint(x, y) {
  const row = grid[y];
  const c = row[x];
  const goal = ".+*".includes(c);
  if (tool === "#" || tool === " ") row[x] = tool;
  else if (tool === ".") row[x] = c === "$" || c === "*" ? "*" : c === "@" || c === "+" ? "+" : ".";
  else if (tool === "$") row[x] = goal ? "*" : "$";
  else if (tool === "@") {
    for (const r of grid) for (let i = 0; i < r.length; i++) {
      if (r[i] === "@") r[i] = " ";
      if (r[i] === "+") r[i] = ".";
    }
    row[x] = goal ? "+" : "@";
  }
}

function draw() {
  const h = grid.length, w = Math.max(...grid.map((r) => r.length));
  const g = $("grid");
  if (g.dataset.size !== `${w}x${h}`) {  // cells are made once per size, then restyled
    const size = Math.max(8, Math.min(40, Math.floor(640 / Math.max(w, h))));
    g.style.gridTemplateColumns = `repeat(${w}, ${size}px)`;
    g.style.gridAutoRows = `${size}px`;
    const cells = [];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) cells.push(`<i data-x="${x}" data-y="${y}"></i>`);
    }
    g.innerHTML = cells.join("");
    g.dataset.size = `${w}x${h}`;
  }
  const dead = new Set(current() ? checked.dead.map(([x, y]) => `${x},${y + top()}`) : []);
  const cells = g.children;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = grid[y][x] || " ";
      let cls = c === "#" ? "w" : "f";
      if (".+*".includes(c)) cls += " g";
      if ("$*".includes(c)) cls += " b";
      if ("@+".includes(c)) cls += " p";
      if (dead.has(`${x},${y}`)) cls += " x";
      const cell = cells[y * w + x];
      if (cell.className !== cls) cell.className = cls;
    }
  }
  $("width").value = w;
  $("height").value = h;
}

function changed() {
  draw();
  $("xsb").value = text() + "\n";
  live.schedule();
}

function remember() {
  undoStack.push(text());
  if (undoStack.length > 500) undoStack.shift();
}

function setGrid(xsb, keep = true) {
  if (keep) remember();
  const rows = xsb.replace(/\r/g, "").split("\n");
  while (rows.length && !rows[rows.length - 1].trim()) rows.pop();
  const w = Math.max(3, ...rows.map((r) => r.length));
  grid = rows.map((r) => [...r.padEnd(w, " ")].map((c) => (c === "-" || c === "_" ? " " : c)));
  changed();
}

function resize(w, h) {
  remember();
  grid = Array.from({length: h}, (_, y) => Array.from({length: w}, (_, x) =>
    (grid[y] && grid[y][x]) || " "));
  changed();
}

// ------------------------------------------------------------------ live check
const live = liveCheck({
  key: text,
  ask: () => api("/api/sokoban/edit/check", {xsb: text(), time_limit: Number($("time-limit").value)}),
  fail: (err) => {
    showError(err.message);
    setStatus("The board cannot be read: fix it and the check runs again.", "bad");
  },
  show: (got) => {
    checked = got;
    if (got) {
      showError(null);
      report(got);
    }
    draw();
  },
});

function report(c) {
  const ms = `${c.elapsed_ms.toFixed(1)} ms`;
  const boxes = (c.xsb.match(/[$*]/g) || []).length, goals = (c.xsb.match(/[.+*]/g) || []).length;
  $("counts").textContent = `${boxes} / ${goals}`;
  $("dead").textContent = c.valid ? c.dead.length : "–";
  $("nodes").textContent = c.valid ? c.nodes.toLocaleString("en") : "–";
  $("pushes").textContent = c.status === "solved" ? c.pushes : "–";
  document.body.dataset.status = c.status;
  const q = new URLSearchParams({level: c.rle});
  $("share").value = `${location.origin}/sokoban/edit?${q}`;
  history.replaceState(null, "", `/sokoban/edit?${q}`);
  const play = $("playtest");
  play.href = `/sokoban/custom?${new URLSearchParams({xsb: c.xsb})}`;
  play.setAttribute("aria-disabled", String(!c.valid));
  if (!c.valid) {
    setStatus(`Not a level yet: ${c.problems.join("; ")}.`, "bad");
  } else if (c.status === "solved") {
    setStatus(`Solvable in ${c.pushes} pushes (${c.moves} moves), push-optimal; ` +
      `${c.nodes.toLocaleString("en")} states stored, ${ms}.`, "good");
  } else if (c.status === "unsolvable") {
    setStatus(`Unsolvable, proved: no sequence of pushes solves it ` +
      `(${c.nodes.toLocaleString("en")} states, ${ms}).`, "bad");
  } else {
    const what = c.note ? `limit (${c.note}, ` : c.limit_by === "states"
      ? "cap on stored states (" : c.limit_by === "memory"
        ? "limit of the server's memory (" : `${$("time-limit").value} s limit (`;
    setStatus(`Unknown: the solver reached its ${what}${c.nodes.toLocaleString("en")} ` +
      "states), so whether it can be solved is open.", "bad");
  }
}

// ------------------------------------------------------------------ solution
async function showSolution() {
  if (!current() || checked.status !== "solved") return;
  const token = ++showing;
  const xsb = checked.xsb, path = checked.solution;
  const preview = $("preview");
  preview.hidden = false;
  let moves = "";
  try {
    for (const letter of ["restart", ...path]) {
      if (token !== showing) return;
      const state = await api("/api/sokoban/move", {xsb, moves, action: letter});
      moves = state.moves;
      preview.innerHTML = state.svg;
      preview.dataset.moves = moves;
      await sleep(90);
    }
  } catch (err) {
    showError(err.message);
  }
}

// ------------------------------------------------------------------ improve
async function improve(form) {
  if (improving || !current() || checked.status !== "solved") {
    if (!improving) setStatus("Improve starts from a solvable level: fix this one first.", "bad");
    return;
  }
  const total = Number(form.elements.attempts.value);
  const seed = Number(form.elements.seed.value);
  const criterion = form.elements.criterion.value;
  const start = {xsb: checked.xsb, pushes: checked.pushes, nodes: checked.nodes};
  improving = new AbortController();
  best = null;
  $("versions").innerHTML = "";
  $("improve").disabled = true;
  $("stop").disabled = false;
  $("use").disabled = true;
  document.body.dataset.improve = "running";
  let xsb = start.xsb, first = 0;
  try {
    while (first < total) {
      const r = await post("/api/sokoban/edit/improve", {xsb, seed, first, criterion,
        count: Math.min(PIECE, total - first)}, improving.signal);
      if (r === null) break;  // stopped
      for (const f of r.found) {
        best = f;
        xsb = f.xsb;
        const li = document.createElement("li");
        const use = document.createElement("button");
        use.textContent = `${f.pushes} pushes, ${f.nodes.toLocaleString("en")} states ` +
          `(attempt ${f.attempt + 1})`;
        use.title = "load this version into the editor";
        use.onclick = () => setGrid(f.xsb);
        li.appendChild(use);
        $("versions").appendChild(li);
      }
      first = r.next;
      $("improve-progress").value = first / total;
      setStatus(`Improving: attempt ${first} of ${total}; best so far ` +
        `${best ? best.pushes : start.pushes} pushes (start: ${start.pushes}).`, "busy");
    }
    setStatus(best ? `Improve found ${$("versions").children.length} better version(s); ` +
      `the best needs ${best.pushes} pushes (start: ${start.pushes}). Press “Use best”.`
      : `No harder version in ${first} attempts: try another seed.`, best ? "good" : "");
  } catch (err) {
    showError(err.message);
  } finally {
    improving = null;
    $("improve").disabled = false;
    $("stop").disabled = true;
    $("use").disabled = best === null;
    document.body.dataset.improve = "done";
  }
}

// ------------------------------------------------------------------ wiring
function cellOf(event) {
  const t = event.target.closest("#grid i");
  return t ? [Number(t.dataset.x), Number(t.dataset.y)] : null;
}

function wire() {
  const g = $("grid");
  let down = false;
  g.addEventListener("pointerdown", (e) => {
    const at = cellOf(e);
    if (!at) return;
    e.preventDefault();
    remember();
    down = true;
    paint(...at);
    changed();
  });
  g.addEventListener("pointerover", (e) => {
    const at = cellOf(e);
    if (!down || !at || tool === "@") return;
    paint(...at);
    changed();
  });
  window.addEventListener("pointerup", () => { down = false; });
  wireTools((t) => { tool = t; }, undo, {ctrlUndo: true});
  $("time-limit").onchange = () => live.now();
  $("show").onclick = showSolution;
  $("form-improve").onsubmit = (e) => { e.preventDefault(); improve(e.target); };
  $("stop").onclick = () => improving && improving.abort();
  $("use").onclick = () => best && setGrid(best.xsb);
  $("resize").onclick = () => resize(clamp($("width").value), clamp($("height").value));
  $("room").onclick = () => {
    const w = clamp($("width").value), h = clamp($("height").value);
    setGrid(Array.from({length: h}, (_, y) => y === 0 || y === h - 1 ? "#".repeat(w)
      : "#" + " ".repeat(w - 2) + "#").join("\n"));
  };
  $("load-xsb").onclick = () => setGrid($("xsb").value);
  $("download").onclick = () => download(text() + "\n", "level.xsb");
  wireCopy();
}

const clamp = (v) => Math.max(3, Math.min(64, Math.round(Number(v) || 3)));

function undo() {
  if (!undoStack.length) return;
  showing += 1;
  setGrid(undoStack.pop(), false);
}

async function start() {
  topBar();
  wire();
  $("title").textContent = "Sokoban editor";
  const rle = new URLSearchParams(location.search).get("level");
  if (rle) {
    try {
      const answer = await api("/api/sokoban/edit/check", {rle, time_limit: 0.1});
      grid = answer.xsb.split("\n").map((r) => [...r]);
    } catch (err) {
      showError(`the share link's level cannot be read: ${err.message}`);
    }
  }
  setGrid(text(), false);
}

start();
