// HyperMines 3D: a three.js view of the public observation the server sends.
import * as THREE from "three";
import {OrbitControls} from "/static/vendor/three/OrbitControls.js";
import {api, randomSeed, setStatus, showError, topBar, typing, whenReady,
  wireSeedAndShare} from "./common.js";

const $ = (id) => document.getElementById(id);
const CLICK_PX = 6;        // a press that moves further turns the view instead
const LONG_PRESS_MS = 500;  // a touch held this long flags
const COLOURS = {
  closed: new THREE.Color("#c9d3e1"), blocked: new THREE.Color("#6b7689"),
  hover: new THREE.Color("#8fb3ff"), refuse: new THREE.Color("#f0a3a8"),
  flag: new THREE.Color("#e63946"), safe: new THREE.Color("#3fbf5f"),
  mine: new THREE.Color("#c026d3"), shownMine: new THREE.Color("#1b1e2b"),
  exploded: new THREE.Color("#ff1f3d"), cool: new THREE.Color("#5b7cfa"),
  warm: new THREE.Color("#f4d35e"), hot: new THREE.Color("#f3722c"),
};
const DIGITS = ["", "#2f6fde", "#2a9d8f", "#e63946", "#6a4c93", "#b5651d", "#1b998b",
  "#333333", "#7a7a7a"];

let game = null;      // the server's view (public arrays, flat [z][y][x])
let hint = null;      // the assistant's last analysis, for this view
let hovered = -1;
const three = {};     // renderer, scene, camera, controls, cells, sprites, textures

const cellIndex = (x, y, z) => (z * game.height + y) * game.width + x;
const cellOf = (i) => [i % game.width, Math.floor(i / game.width) % game.height,
  Math.floor(i / (game.width * game.height))];

/** World position of a cell's centre: x right, y down, z away from the viewer. */
function world(x, y, z) {
  return new THREE.Vector3(x - (game.width - 1) / 2, (game.height - 1) / 2 - y,
    (game.depth - 1) / 2 - z);
}

function setUp() {
  const canvas = $("view");
  three.renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
  three.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  three.scene = new THREE.Scene();
  three.scene.background = new THREE.Color("#2b2f42");
  three.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 500);
  three.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(4, 6, 10);
  three.scene.add(sun);
  three.controls = new OrbitControls(three.camera, canvas);
  three.controls.mouseButtons = {LEFT: THREE.MOUSE.ROTATE, MIDDLE: THREE.MOUSE.DOLLY,
    RIGHT: THREE.MOUSE.PAN};
  three.controls.addEventListener("change", render);
  three.raycaster = new THREE.Raycaster();
  three.textures = new Map();
  three.sprites = new THREE.Group();
  three.scene.add(three.sprites);
  new ResizeObserver(resize).observe(canvas);
  wirePointer(canvas);
}

function resize() {
  const canvas = $("view");
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (!w || !h) return;
  three.renderer.setSize(w, h, false);
  three.camera.aspect = w / h;
  three.camera.updateProjectionMatrix();
  render();
}

function render() {
  if (three.renderer) three.renderer.render(three.scene, three.camera);
}

/** A new board: one instanced mesh of every cell, the camera fitted to it. */
function buildBoard() {
  if (three.cells) {
    three.scene.remove(three.cells);
    three.cells.geometry.dispose();
  }
  const n = game.width * game.height * game.depth;
  const geometry = new THREE.BoxGeometry(0.9, 0.9, 0.9);
  const material = new THREE.MeshLambertMaterial({color: 0xffffff});
  three.cells = new THREE.InstancedMesh(geometry, material, n);
  three.cells.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  three.scene.add(three.cells);
  // fit the board to the view: the whole 2D board, or the cube's bounding sphere
  const canvas = $("view");
  const aspect = canvas.clientWidth / Math.max(1, canvas.clientHeight) || 1.5;
  const half = Math.tan(THREE.MathUtils.degToRad(three.camera.fov) / 2);
  const flat = game.depth === 1;
  let distance;
  if (flat) {
    distance = 1.08 * Math.max(game.height / 2 / half, game.width / 2 / (half * aspect)) + 0.5;
  } else {
    const radius = Math.hypot(game.width, game.height, game.depth) / 2;
    distance = 1.05 * radius / Math.sin(Math.atan(half * Math.min(1, aspect)));
  }
  three.camera.position.copy(flat ? new THREE.Vector3(0, 0, distance)
    : new THREE.Vector3(0.45, 0.4, 0.8).normalize().multiplyScalar(distance));
  three.controls.target.set(0, 0, 0);
  three.controls.update();
  const layer = $("layer");
  layer.max = game.depth - 1;
  layer.value = 0;
  layer.disabled = game.depth === 1;
  resize();
}

function digitTexture(n) {
  if (!three.textures.has(n)) {
    const c = document.createElement("canvas");
    c.width = c.height = 128;
    const g = c.getContext("2d");
    g.fillStyle = "rgba(255,255,255,0.92)";
    g.beginPath();
    g.arc(64, 64, 54, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = DIGITS[Math.min(n, 8)];
    g.font = `bold ${n > 9 ? 62 : 76}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(String(n), 64, 68);
    const t = new THREE.CanvasTexture(c);
    t.colorSpace = THREE.SRGBColorSpace;
    three.textures.set(n, t);
  }
  return three.textures.get(n);
}

function heat(p) {
  const c = new THREE.Color();
  return p < 0.5 ? c.lerpColors(COLOURS.cool, COLOURS.warm, p * 2)
    : c.lerpColors(COLOURS.warm, COLOURS.hot, (p - 0.5) * 2);
}

/** The colour of closed cell `i`: flag, revealed mine, hint, probability or hover. */
function colourOf(i, marks) {
  const over = game.status === "won" || game.status === "lost";
  let colour = game.selectable[i] ? COLOURS.closed : COLOURS.blocked;
  if (game.state[i] === 2) colour = COLOURS.flag;
  else if (over && game.minefield[i]) {
    colour = game.exploded && cellIndex(...game.exploded) === i ? COLOURS.exploded
      : COLOURS.shownMine;
  } else if (marks.safe.has(i)) colour = COLOURS.safe;
  else if (marks.mines.has(i)) colour = COLOURS.mine;
  else if (hint && hint.probabilities && hint.probabilities[i] !== null) {
    colour = heat(hint.probabilities[i]);
  }
  if (i === hovered && !over) {
    colour = game.selectable[i] || game.state[i] === 2 ? COLOURS.hover : COLOURS.refuse;
  }
  return colour;
}

function hintMarks() {
  const marks = {safe: new Set(), mines: new Set()};
  if (hint) {
    for (const [x, y, z] of hint.safe) marks.safe.add(cellIndex(x, y, z));
    for (const [x, y, z] of hint.mines) marks.mines.add(cellIndex(x, y, z));
  }
  return marks;
}

function spriteMaterial(n) {
  const key = "m" + n;
  if (!three.textures.has(key)) {
    three.textures.set(key, new THREE.SpriteMaterial({map: digitTexture(n), depthWrite: false}));
  }
  return three.textures.get(key);
}

/** Draw the view: closed cells as cubes (open ones hidden, layers in front of the slider
 * peeled off), numbers as sprites, hints as colours. */
function draw() {
  const peel = Number($("layer").value);
  const m = new THREE.Matrix4();
  const hidden = new THREE.Matrix4().makeScale(0, 0, 0);
  const over = game.status === "won" || game.status === "lost";
  const marks = hintMarks();
  three.sprites.clear();
  for (let i = 0; i < game.state.length; i++) {
    const [x, y, z] = cellOf(i);
    const open = game.state[i] === 1;
    if (z < peel || (open && !(over && game.minefield[i]))) {
      three.cells.setMatrixAt(i, hidden);
      if (open && z >= peel && game.numbers[i] > 0) {
        const s = new THREE.Sprite(spriteMaterial(game.numbers[i]));
        s.position.copy(world(x, y, z));
        const size = game.depth === 1 ? 0.8 : 0.62;
        s.scale.set(size, size, 1);
        s.userData.cell = i;
        three.sprites.add(s);
      }
      continue;
    }
    m.makeTranslation(world(x, y, z));
    three.cells.setMatrixAt(i, m);
    three.cells.setColorAt(i, colourOf(i, marks));
  }
  three.cells.instanceMatrix.needsUpdate = true;
  if (three.cells.instanceColor) three.cells.instanceColor.needsUpdate = true;
  three.cells.computeBoundingSphere();
  render();
}

/** Move the hover highlight from one cell to another (colours only). */
function hover(cell) {
  const before = hovered;
  hovered = cell;
  const marks = hintMarks();
  for (const i of [before, cell]) {
    if (i >= 0 && game.state[i] !== 1) three.cells.setColorAt(i, colourOf(i, marks));
  }
  if (three.cells.instanceColor) three.cells.instanceColor.needsUpdate = true;
  render();
}

/** The cell (flat index) and what was hit under a client point, or null. */
function pick(clientX, clientY) {
  const rect = $("view").getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1,
    -((clientY - rect.top) / rect.height) * 2 + 1);
  three.raycaster.setFromCamera(ndc, three.camera);
  const hits = three.raycaster.intersectObjects([three.cells, three.sprites], true);
  for (const hit of hits) {
    if (hit.object === three.cells) return {cell: hit.instanceId, kind: "cube"};
    if (hit.object.userData.cell !== undefined) return {cell: hit.object.userData.cell, kind: "number"};
  }
  return null;
}

function describe(i) {
  const [x, y, z] = cellOf(i);
  if (game.state[i] === 1) return `(${x}, ${y}, ${z}) shows ${game.numbers[i]}`;
  if (game.state[i] === 2) return `(${x}, ${y}, ${z}) is flagged: right click removes the flag`;
  if (game.selectable[i]) return `(${x}, ${y}, ${z}) can be opened or flagged`;
  return `(${x}, ${y}, ${z}) cannot be chosen: it is inside the cube, with no open or ` +
    "flagged cell face to face";
}

async function act(action, i) {
  if (!game || game.status === "won" || game.status === "lost") return;
  const [x, y, z] = cellOf(i);
  let answer;
  try {
    answer = await api("/api/mines/act", {game: game.game, action, cell: [x, y, z]});
  } catch (err) {
    showError(err.message);
    return;
  }
  answer.game = game.game;
  document.body.dataset.version = Number(document.body.dataset.version || 0) + 1;
  const first = !game.start && answer.start;
  game = answer;
  hint = null;
  if (first) {
    history.replaceState(null, "", "/mines?" + game.share);
    $("share").value = location.href;
  }
  draw();
  show();
  if (answer.refused) setStatus(`Refused: ${answer.refused}.`, "bad");
}

function wirePointer(canvas) {
  let down = null;
  let longPress = 0;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    down = {x: e.clientX, y: e.clientY, button: e.button};
    if (e.pointerType === "touch") {
      longPress = setTimeout(() => {
        const hit = pick(down.x, down.y);
        down = null;
        if (hit) act("flag", hit.cell);
      }, LONG_PRESS_MS);
    }
  });
  canvas.addEventListener("pointermove", (e) => {
    if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_PX) {
      clearTimeout(longPress);
    }
    if (!game || e.buttons) return;
    const hit = pick(e.clientX, e.clientY);
    const cell = hit ? hit.cell : -1;
    if (cell !== hovered) {
      if (hit) setStatus(describe(cell));
      hover(cell);
    }
  });
  canvas.addEventListener("pointerup", (e) => {
    clearTimeout(longPress);
    if (!down || !game) return;
    const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
    const button = down.button;
    down = null;
    if (moved > CLICK_PX) return;  // that was a drag: the view turned
    const hit = pick(e.clientX, e.clientY);
    if (!hit) return;
    if (button === 2) act("flag", hit.cell);
    else if (button === 0) act(hit.kind === "number" ? "chord" : "open", hit.cell);
  });
  canvas.addEventListener("pointerleave", () => { if (game) hover(-1); });
}

const NO_GUESS = {"1": "no guessing", "easy": "no guessing, easy"};

/** The board's figures, as players rate boards (3BV and the rest, from the server once
 * the game is over). */
function rating(r) {
  const logic = r.solved ? (r.logic === "easy" ? "single numbers win it"
    : "certain moves win it") : "it needs a guess";
  return `Board: 3BV ${r.bbbv}, ${r.openings} opening${r.openings === 1 ? "" : "s"}; ` +
    `${logic}` + (r.solved && r.logic !== "easy" ? ` (${r.subset_steps} subset and ` +
    `${r.enumeration_steps} counting step${r.enumeration_steps === 1 ? "" : "s"})` : "") + ".";
}

function show() {
  $("left").textContent = game.remaining_mines;
  $("opened").textContent = game.state.filter((s) => s === 1).length;
  $("time").textContent = Math.floor(game.elapsed_ms / 1000);
  document.body.dataset.state = game.status;
  const card = $("card");
  card.hidden = !(game.status === "won" || game.status === "lost");
  if (game.status === "won") {
    card.innerHTML = `<h3>Cleared!</h3><p>Every safe cell of the ${game.level} board open in ` +
      `${(game.elapsed_ms / 1000).toFixed(1)} s.</p><p id="rating">${rating(game.rating)}</p>` +
      '<button class="primary" id="again">New game</button>';
    setStatus("Won: every safe cell is open.", "good");
  } else if (game.status === "lost") {
    const [x, y, z] = game.exploded;
    card.innerHTML = `<h3>Boom</h3><p>A mine at (${x}, ${y}, ${z}). The mines are shown ` +
      `dark.</p><p id="rating">${rating(game.rating)}</p><button id="replay">Same board ` +
      'again</button> <button class="primary" id="again">New game</button>';
    setStatus(`Lost: a mine at (${x}, ${y}, ${z}).`, "bad");
    $("replay").onclick = () => load();
  } else if (game.status === "ready") {
    setStatus("Open any cell on the outside of the cube: the first one is always safe.");
  } else {
    setStatus("Playing.");
  }
  if (!card.hidden) {
    $("again").onclick = () => {
      $("form").elements.seed.value = randomSeed();
      $("form").requestSubmit();
    };
  }
}

async function askHint() {
  if (!game || game.status === "won" || game.status === "lost") return;
  const exact = $("exact").checked;
  try {
    await whenReady("mines", (p) => {
      document.body.dataset.preparing = "mines";
      setStatus("Preparing the assistant (first run only): " + (p.state === "waiting"
        ? "waiting for a worker" : `${p.kernels} kernels compiled in ${p.seconds} s`) +
        " ...", "busy");
    });
    delete document.body.dataset.preparing;
    hint = await api(`/api/mines/hint?game=${game.game}&exact=${exact ? 1 : 0}`);
  } catch (err) {
    showError(err.message);
    return;
  }
  draw();
  document.body.dataset.hint = hint.status;
  document.body.dataset.hints = Number(document.body.dataset.hints || 0) + 1;
  if (hint.status === "moves") {
    setStatus(`Certain: ${hint.safe.length} safe (green) and ${hint.mines.length} mines ` +
      `(magenta); ${hint.moves.length} of them can be played now.` +
      (exact ? " Other cells: exact mine probability, blue low to orange high." : ""), "good");
  } else if (hint.status === "stuck") {
    setStatus("No certain move: from here it is a guess, and the assistant does not guess." +
      (exact ? " The colours are exact mine probabilities, blue low to orange high: none is " +
        "certain." : ""), "bad");
  } else {
    setStatus("The flags contradict the numbers: one of them is wrong.", "bad");
  }
}

function updateLayerText() {
  const k = Number($("layer").value);
  $("layer-text").textContent = k === 0 ? "All layers shown."
    : `Layers z = 0 to ${k - 1} peeled off; z = ${k} is in front.`;
}

async function load() {
  showError(null);
  const q = new URLSearchParams(location.search);
  if (!q.has("seed")) {
    q.set("level", q.get("level") || "normal");
    q.set("seed", randomSeed());
    history.replaceState(null, "", "/mines?" + q);
  }
  const form = $("form").elements;
  form.level.value = q.get("level") || "normal";
  form.seed.value = q.get("seed");
  form.no_guess.value = NO_GUESS[q.get("no_guess")] ? q.get("no_guess") : "0";
  $("share").value = location.href;
  document.body.dataset.state = "loading";
  let answer;
  try {
    answer = await api("/api/mines/new?" + q);
  } catch (err) {
    showError(err.message);
    $("title").textContent = "No board";
    document.body.dataset.state = "error";
    return;
  }
  game = answer;
  hint = null;
  hovered = -1;
  $("title").textContent = `${game.level}: ${game.width}x${game.height}` +
    (game.depth > 1 ? `x${game.depth}` : "") + `, ${game.mines} mines, seed ${game.seed}` +
    (game.no_guess ? `, ${NO_GUESS[game.no_guess === true ? "1" : game.no_guess]}` : "");
  document.title = `${game.level} · HyperMines 3D · levelforge play`;
  buildBoard();
  updateLayerText();
  draw();
  show();
}

// hooks for tests and scripts: where a cell is on screen, what is under a point
window.minesView = {
  screenOf(x, y, z, centre = false) {  // the face towards the viewer, or the centre
    const p = world(x, y, z);
    if (!centre) p.z += 0.46;
    p.project(three.camera);
    const rect = $("view").getBoundingClientRect();
    return {x: rect.left + (p.x + 1) / 2 * rect.width, y: rect.top + (1 - p.y) / 2 * rect.height};
  },
  cellAt(clientX, clientY) {
    const hit = pick(clientX, clientY);
    return hit ? {cell: cellOf(hit.cell), kind: hit.kind} : null;
  },
  act: (action, x, y, z) => act(action, cellIndex(x, y, z)),  // as a click would
  view: () => game,
  hint: () => hint,
  camera: () => three.camera.position.toArray(),
};

function wire() {
  $("hint").onclick = askHint;
  $("exact").onchange = () => { if (hint) askHint(); };
  $("layer").oninput = () => { updateLayerText(); draw(); };
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "h" || e.key === "H") askHint();
  });
  $("form").onsubmit = (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const q = new URLSearchParams({level: f.level.value, seed: f.seed.value});
    if (f.no_guess.value !== "0") q.set("no_guess", f.no_guess.value);
    history.pushState(null, "", "/mines?" + q);
    load();
  };
  wireSeedAndShare($("form"));
  window.addEventListener("popstate", load);
}

topBar();
setUp();
wire();
load();
