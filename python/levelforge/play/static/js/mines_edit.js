// Mines board editor: place mines layer by layer and a first open; the server answers
// whether the board is won from there without guessing, and its rating.
import {api, setStatus, showError, topBar} from "./common.js";
import {liveCheck, wireCopy, wireTools} from "./editing.js";

const $ = (id) => document.getElementById(id);

let board = {w: 9, h: 9, d: 1, start: [0, 0, 0], mines: new Uint8Array(81)};
let layer = 0;
let tool = "mine";
let undoStack = [];
let answer = null;

const at = (x, y, z) => (z * board.h + y) * board.w + x;
const onSurface = ([x, y, z]) => x === 0 || y === 0 || z === 0 || x === board.w - 1 ||
  y === board.h - 1 || z === board.d - 1;

/** The board as a URL-safe string: the mine bits, 6 to a character. */
function pack(bits) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let out = "";
  for (let i = 0; i < bits.length; i += 6) {
    let v = 0;
    for (let k = 0; k < 6; k++) v |= (bits[i + k] ? 1 : 0) << k;
    out += abc[v];
  }
  return out;
}

function unpack(text, n) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bits = new Uint8Array(n);
  for (let i = 0; i < n; i++) bits[i] = (abc.indexOf(text[Math.floor(i / 6)] || "A") >> (i % 6)) & 1;
  return bits;
}

function snapshot() {
  return {...board, start: [...board.start], mines: board.mines.slice()};
}

function layers() {
  const out = [];
  for (let z = 0; z < board.d; z++) {
    out.push(`<button role="tab" data-z="${z}" aria-selected="${z === layer}">z ${z}</button>`);
  }
  $("layers").innerHTML = board.d > 1 ? out.join("") : "";
  for (const b of $("layers").querySelectorAll("button")) {
    b.onclick = () => { layer = Number(b.dataset.z); draw(); };
  }
}

function draw() {
  const g = $("grid");
  const size = Math.max(12, Math.min(36, Math.floor(620 / Math.max(board.w, board.h))));
  if (g.dataset.size !== `${board.w}x${board.h}`) {
    g.style.gridTemplateColumns = `repeat(${board.w}, ${size}px)`;
    g.style.gridAutoRows = `${size}px`;
    const cells = [];
    for (let y = 0; y < board.h; y++) {
      for (let x = 0; x < board.w; x++) cells.push(`<i data-x="${x}" data-y="${y}"></i>`);
    }
    g.innerHTML = cells.join("");
    g.dataset.size = `${board.w}x${board.h}`;
  }
  const fresh = answer && answer.key === key();
  for (const b of $("layers").querySelectorAll("button")) {
    b.setAttribute("aria-selected", String(Number(b.dataset.z) === layer));
  }
  g.dataset.z = layer;
  for (let y = 0; y < board.h; y++) {
    for (let x = 0; x < board.w; x++) {
      const cell = g.children[y * board.w + x];
      const mine = board.mines[at(x, y, layer)] === 1;
      const start = board.start[0] === x && board.start[1] === y && board.start[2] === layer;
      cell.className = (mine ? "m" : "") + (start ? " s" : "");
      const n = fresh && !mine ? answer.numbers[layer][y][x] : -1;
      cell.textContent = n > 0 ? n : "";
    }
  }
  $("mine-count").textContent = board.mines.reduce((a, b) => a + b, 0);
}

function key() {
  return `${board.w}x${board.h}x${board.d}|${board.start}|${pack(board.mines)}`;
}

function changed() {
  draw();
  const q = new URLSearchParams({size: `${board.w}x${board.h}x${board.d}`,
    start: board.start.join(","), mines: pack(board.mines)});
  history.replaceState(null, "", `/mines/edit?${q}`);
  $("share").value = location.href;
  live.schedule();
}

/** The mines as [x, y, z] cells. */
function mineCells() {
  const mines = [];
  for (let z = 0; z < board.d; z++) for (let y = 0; y < board.h; y++) {
    for (let x = 0; x < board.w; x++) if (board.mines[at(x, y, z)]) mines.push([x, y, z]);
  }
  return mines;
}

const live = liveCheck({
  key,
  ask: () => api("/api/mines/edit/check", {width: board.w, height: board.h, depth: board.d,
    mines: mineCells(), start: board.start, logic: $("logic").value}),
  fail: (err) => {
    showError(err.message);
    setStatus("The board cannot be checked: fix it and the check runs again.", "bad");
    document.body.dataset.answer = "error";
  },
  show: (got) => {
    if (got) {
      got.key = key();
      showError(null);
      report(got);
    }
    draw();
  },
});

function report(got) {
  answer = got;
  const r = got.rating;
  $("bbbv").textContent = r.bbbv;
  $("openings").textContent = r.openings;
  $("steps").textContent = `${r.subset_steps} / ${r.enumeration_steps}`;
  document.body.dataset.answer = got.no_guess ? "no-guess" : "guess";
  const from = `(${got.start.join(", ")})`;
  const logic = r.logic === "easy" ? "single numbers" : "certain moves";
  setStatus(got.no_guess ? `Won without guessing from ${from}: ${logic} clear the board ` +
    `(${got.elapsed_ms.toFixed(1)} ms).` : `Needs a guess: from ${from}, ${logic} get stuck ` +
    "before the board is clear.", got.no_guess ? "good" : "bad");
}

function clickCell(event) {
  const t = event.target.closest("#grid i");
  if (!t) return;
  const x = Number(t.dataset.x), y = Number(t.dataset.y);
  if (tool === "start" && !onSurface([x, y, layer])) {
    showError(`(${x}, ${y}, ${layer}) is inside the box: the first open is on the surface`);
    return;
  }
  undoStack.push(snapshot());
  if (tool === "mine") {
    board.mines[at(x, y, layer)] ^= 1;
  } else {
    board.start = [x, y, layer];
    board.mines[at(x, y, layer)] = 0;
  }
  changed();
}

function resize(w, h, d) {
  undoStack.push(snapshot());
  const mines = new Uint8Array(w * h * d);
  for (let z = 0; z < Math.min(d, board.d); z++) for (let y = 0; y < Math.min(h, board.h); y++) {
    for (let x = 0; x < Math.min(w, board.w); x++) mines[(z * h + y) * w + x] = board.mines[at(x, y, z)];
  }
  const start = board.start.map((v, i) => Math.min(v, [w, h, d][i] - 1));
  board = {w, h, d, start, mines};
  layer = Math.min(layer, d - 1);
  layers();
  changed();
}

async function randomize() {
  try {
    const got = await api("/api/mines/edit/random", {width: board.w, height: board.h,
      depth: board.d, count: Number($("count").value), seed: Number($("seed").value),
      start: board.start});
    undoStack.push(snapshot());
    board.mines = new Uint8Array(board.w * board.h * board.d);
    for (const [x, y, z] of got.mines) board.mines[at(x, y, z)] = 1;
    changed();
  } catch (err) {
    showError(err.message);
  }
}

function undo() {
  if (!undoStack.length) return;
  const dims = `${board.w}x${board.h}x${board.d}`;
  board = undoStack.pop();
  if (`${board.w}x${board.h}x${board.d}` !== dims) layers();
  layer = Math.min(layer, board.d - 1);
  changed();
}

function wire() {
  $("grid").addEventListener("click", clickCell);
  wireTools((t) => { tool = t; }, undo);
  const side = (id) => Math.max(1, Math.min(32, Math.round(Number($(id).value) || 1)));
  $("resize").onclick = () => resize(side("width"), side("height"), side("depth"));
  $("clear").onclick = () => {
    undoStack.push(snapshot());
    board.mines = new Uint8Array(board.mines.length);
    changed();
  };
  $("random").onclick = randomize;
  $("logic").onchange = changed;
  wireCopy();
}

function fromUrl() {
  const q = new URLSearchParams(location.search);
  const size = (q.get("size") || "").split("x").map(Number);
  if (size.length !== 3 || !size.every((v) => Number.isInteger(v) && v >= 1 && v <= 32)) return;
  const [w, h, d] = size;
  const start = (q.get("start") || "0,0,0").split(",").map(Number);
  board = {w, h, d, start, mines: unpack(q.get("mines") || "", w * h * d)};
}

topBar();
wire();
$("title").textContent = "Mines board editor";
fromUrl();
$("width").value = board.w;
$("height").value = board.h;
$("depth").value = board.d;
layers();
changed();
