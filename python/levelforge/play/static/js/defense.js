// The Last Lighthouse: the server runs the game; this page draws its states and frames.
import {api, esc, randomSeed, setStatus, showError, topBar, typing,
  wireSeedAndShare} from "./common.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const C = 64;  // pixels a cell
const STEPS = {1: [1, 60], 4: [4, 60], max: [30, 400]};  // speed: [ticks a frame, frames a request]
const ROUTE = {A: "#35b8e0", B: "#f4a261"};

let game = null;        // the server's state
let gameId = null;
let tool = "cannon";
let speed = "1";
let paused = false;
let fighting = false;
let hovered = null;     // [x, y]
let pressed = null;     // the cell a press started on
let lastFrame = null;

const center = (x, y) => [(x + 0.5) * C, (y + 0.5) * C];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

function routePoints(cells) {
  return cells.map(([x, y]) => center(x, y).join(",")).join(" ");
}

/** The map from the state: sea, reefs, beacon, entrances, routes, buildings. */
function drawMap() {
  const s = game.scenario;
  const svg = el("svg", {viewBox: `0 0 ${s.width * C} ${s.height * C}`, class: "defense-map",
    role: "img", "aria-label": `${s.name} map`});
  const cells = el("g", {class: "cells"}, svg);
  for (let y = 0; y < s.height; y++) {
    for (let x = 0; x < s.width; x++) {
      const ch = s.map[y][x];
      const kind = {"#": "reef", "*": "beacon", A: "entrance", B: "entrance"}[ch] || "water";
      el("rect", {x: x * C + 1, y: y * C + 1, width: C - 2, height: C - 2, rx: 8,
        class: `cell ${kind}`, "data-cell": `${x},${y}`}, cells);
    }
  }
  const used = new Set(game.forecast.entrances);
  const routes = el("g", {class: "routes"}, svg);
  for (const e of ["A", "B"]) {
    el("polyline", {points: routePoints(game.routes[e]), class: `route route-${e}` +
      (used.has(e) ? "" : " idle"), stroke: ROUTE[e], "data-entrance": e}, routes);
  }
  const marks = el("g", {class: "marks"}, svg);
  for (const [e, [x, y]] of Object.entries(s.entrances)) {
    const [cx, cy] = center(x, y);
    el("circle", {cx, cy, r: C * 0.3, fill: ROUTE[e], class: "entrance-mark"}, marks);
    const t = el("text", {x: cx, y: cy + 7, class: "entrance-label"}, marks);
    t.textContent = e;
  }
  const [bx, by] = center(...s.beacon);
  const lighthouse = el("g", {class: "lighthouse", transform: `translate(${bx} ${by})`}, marks);
  el("circle", {r: C * 0.42, class: "glow"}, lighthouse);
  el("path", {d: "M-9 20 L-6 -12 L6 -12 L9 20 Z", class: "tower"}, lighthouse);
  el("rect", {x: -8, y: -22, width: 16, height: 10, rx: 2, class: "lamp"}, lighthouse);
  el("path", {d: "M-9 0 L9 -4 M-9 10 L9 6", class: "stripes"}, lighthouse);
  const buildings = el("g", {class: "buildings"}, svg);
  game.buildings.forEach((b) => {
    const [cx, cy] = center(b.x, b.y);
    if (b.kind === "wall") {
      el("rect", {x: b.x * C + 8, y: b.y * C + 8, width: C - 16, height: C - 16, rx: 6,
        class: "wall", "data-building": `${b.x},${b.y}`}, buildings);
      return;
    }
    const g = el("g", {class: "cannon", "data-building": `${b.x},${b.y}`,
      transform: `translate(${cx} ${cy})`}, buildings);
    el("circle", {r: C * 0.3, class: "base"}, g);
    el("rect", {x: -5, y: -C * 0.42, width: 10, height: C * 0.34, rx: 3, class: "barrel"}, g);
    el("rect", {x: -C * 0.32, y: C * 0.34, width: C * 0.64, height: 6, rx: 3,
      class: "heat-back"}, g);
    el("rect", {x: -C * 0.32, y: C * 0.34, width: 0, height: 6, rx: 3, class: "heat"}, g);
  });
  el("g", {class: "preview"}, svg);
  el("g", {class: "shots"}, svg);
  el("g", {class: "ships"}, svg);
  el("g", {class: "review-marks"}, svg);
  $("map").replaceChildren(svg);
  svg.addEventListener("pointermove", onHover);
  svg.addEventListener("pointerleave", () => { hovered = null; preview(); });
  svg.addEventListener("pointerdown", (e) => { pressed = cellAt(e); onHover(e); });
  svg.addEventListener("pointerup", onRelease);
}

function cellAt(event) {
  const target = event.target.closest ? event.target.closest("[data-cell]") : null;
  if (target) return target.dataset.cell.split(",").map(Number);
  const svg = $("map").querySelector("svg");
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(
    svg.getScreenCTM().inverse());
  const x = Math.floor(p.x / C), y = Math.floor(p.y / C);
  const s = game.scenario;
  return x >= 0 && y >= 0 && x < s.width && y < s.height ? [x, y] : null;
}

function onHover(event) {
  const cell = cellAt(event);
  if (String(cell) === String(hovered)) return;
  hovered = cell;
  preview();
}

/** Show what building `tool` at the hovered cell would do: range, cost, or why not. */
function preview() {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  const g = svg.querySelector(".preview");
  g.replaceChildren();
  for (const r of svg.querySelectorAll(".route")) r.classList.remove("cut");
  if (!hovered || game.phase !== "build" || fighting) return;
  const [x, y] = hovered;
  const check = game.checks[tool][y][x];
  const [cx, cy] = center(x, y);
  const s = game.scenario;
  const cost = tool === "cannon" ? s.cannon_cost : s.wall_cost;
  if (check.code === "none") {
    if (tool === "cannon") {
      el("circle", {cx, cy, r: s.range * C, class: "range"}, g);
      el("circle", {cx, cy, r: C * 0.3, class: "ghost"}, g);
    } else {
      el("rect", {x: x * C + 8, y: y * C + 8, width: C - 16, height: C - 16, rx: 6,
        class: "ghost"}, g);
    }
    const label = el("text", {x: cx, y: y * C + 14, class: "cost-label"}, g);
    label.textContent = `−${cost}`;
    setStatus(`${tool === "cannon" ? "Cannon" : "Wall"} at (${x}, ${y}): legal, costs ` +
      `${cost} of ${game.material} material` + (tool === "cannon" ? `; range ${s.range} cells.`
        : "; the ships' route may bend around it."));
    return;
  }
  el("rect", {x: x * C + 3, y: y * C + 3, width: C - 6, height: C - 6, rx: 8,
    class: "illegal"}, g);
  if (tool === "cannon" && !["reef", "out_of_bounds", "not_build_phase"].includes(check.code)) {
    el("circle", {cx, cy, r: s.range * C, class: "range illegal-range"}, g);
  }
  for (const e of check.entrances) svg.querySelector(`.route-${e}`).classList.add("cut");
  const why = check.message.split(": ").slice(1).join(": ");
  setStatus(`Cannot build a ${tool} at (${x}, ${y}): ${why}` +
    (check.entrances.length ? " (the red route is the one it would cut)." : "."), "bad");
}

async function onRelease(event) {
  const cell = cellAt(event);
  const start = pressed;
  pressed = null;
  if (!cell || !start || String(cell) !== String(start)) return;  // moved off: cancelled
  if (!game || game.phase !== "build" || fighting) return;
  const [x, y] = cell;
  let answer;
  try {
    answer = await api("/api/defense/act", {game: gameId, action: "place", x, y, kind: tool});
  } catch (err) {
    showError(err.message);
    return;
  }
  setState(answer);
  if (answer.refused) {
    setStatus(`Refused: ${answer.refused.message.split(": ").slice(1).join(": ")}. ` +
      `Material is still ${answer.material}.`, "bad");
    document.body.dataset.refused = answer.refused.code;
  } else {
    delete document.body.dataset.refused;
    setStatus(`Built a ${tool} at (${x}, ${y}); ${answer.material} material left. ` +
      "The routes follow the new distance field.");
  }
}

function forecastBanner() {
  const f = game.forecast;
  const chips = f.spawns.map(([n, kind, e]) =>
    `<span class="ship-chip ${kind}" title="ship ${n}: ${kind} from ${e}">${n}<sub>${e}</sub></span>`)
    .join("");
  const label = fighting ? "Now" : game.phase === "build" ? "Next" : "Last";
  $("forecast").innerHTML = `<div class="banner"><b>${label}:</b> ${esc(f.banner)}</div>` +
    `<div class="chips">${chips}</div>`;
}

function recordsTable() {
  const rows = game.records.map((r) =>
    `<tr class="${r.outcome}" title="wave ${r.wave} ${r.outcome}"><td>${r.wave} ` +
    `${r.outcome === "won" ? "won" : "lost"}</td><td>${r.kills}</td>` +
    `<td>${r.leaks_a} / ${r.leaks_b}</td><td>${r.cannons} / ${r.walls}</td>` +
    `<td>${r.overheat_stops.reduce((a, b) => a + b, 0)}</td><td>${r.health}</td></tr>`).join("");
  $("records").innerHTML = '<tr><th>wave</th><th>sunk</th><th title="leaks from A / B">' +
    'leaks</th><th title="cannons / walls">built</th><th title="overheat stops">stops</th>' +
    '<th title="beacon health left">hp</th></tr>' +
    (rows || '<tr><td colspan="6" class="none">No wave fought yet.</td></tr>');
}

function setState(next) {
  const buildingsChanged = !game || JSON.stringify(next.buildings) !== JSON.stringify(
    game.buildings) || JSON.stringify(next.routes) !== JSON.stringify(game.routes) ||
    next.scenario.name !== game.scenario.name || next.forecast.wave !== game.forecast.wave;
  game = {...next};
  if (buildingsChanged || !$("map").querySelector("svg")) drawMap();
  const s = game.scenario;
  $("wave").textContent = `${Math.min(game.wave, s.waves)} / ${s.waves}`;
  $("health").textContent = game.health;
  $("material").textContent = game.material;
  $("score").textContent = `${game.totals.kills} / ${game.totals.leaks_a + game.totals.leaks_b}`;
  $("cost-cannon").textContent = s.cannon_cost;
  $("cost-wall").textContent = s.wall_cost;
  $("start").disabled = game.phase !== "build" || fighting;
  $("retry").disabled = game.phase !== "defeat";
  document.body.dataset.state = fighting ? "fight" : game.phase;
  forecastBanner();
  recordsTable();
  preview();
}

function drawFrame(f) {
  const svg = $("map").querySelector("svg");
  const ships = svg.querySelector(".ships");
  ships.replaceChildren();
  const at = new Map();
  for (const sh of f.ships) {
    const [cx, cy] = center(sh.x, sh.y);
    at.set(sh.number, [cx, cy]);
    if (sh.status !== "alive") continue;
    const r = sh.kind === "armoured" ? C * 0.27 : C * 0.2;
    const g = el("g", {class: `ship ${sh.kind}`, transform: `translate(${cx} ${cy})`,
      "data-ship": sh.number}, ships);
    el("circle", {r}, g);
    el("rect", {x: -r, y: -r - 9, width: 2 * r, height: 4, class: "hp-back"}, g);
    el("rect", {x: -r, y: -r - 9, width: 2 * r * sh.hp / sh.max_hp, height: 4, class: "hp"}, g);
  }
  const shots = svg.querySelector(".shots");
  shots.replaceChildren();
  const cannons = svg.querySelectorAll(".cannon");
  f.cannons.forEach((c, i) => {
    const g = cannons[i];
    if (!g) return;
    const threshold = game.scenario.overheat;
    g.querySelector(".heat").setAttribute("width", Math.min(1, c.heat / threshold) * C * 0.64);
    g.classList.toggle("overheated", c.overheated);
    const target = c.target !== null ? at.get(c.target) : null;
    if (target) {
      const [cx, cy] = center(c.x, c.y);
      const angle = Math.atan2(target[1] - cy, target[0] - cx) * 180 / Math.PI + 90;
      g.querySelector(".barrel").setAttribute("transform", `rotate(${angle})`);
      const before = lastFrame && lastFrame.cannons[i] ? lastFrame.cannons[i].shots : 0;
      if (c.shots > before) {
        el("line", {x1: cx, y1: cy, x2: target[0], y2: target[1], class: "shot"}, shots);
      }
    }
  });
  const shown = $("map");  // the last frame's figures stay on the map's box
  for (const [k, v] of Object.entries({tick: f.tick, kills: f.kills, health: f.health,
    leaks_a: f.leaks_a, leaks_b: f.leaks_b, status: f.status})) shown.dataset[k] = v;
  $("health").textContent = f.health;
  $("score").textContent = `${f.kills} / ${f.leaks_a + f.leaks_b}`;
  setStatus(`Wave ${f.wave}: ${(f.tick / game.scenario.tick_rate).toFixed(1)} s, ${f.spawned} ships out, ` +
    `${f.kills} sunk, ${f.leaks_a} leaked from A, ${f.leaks_b} from B.` +
    (paused ? " Paused." : ""), "busy");
  lastFrame = f;
}

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

async function fight() {
  if (!game || game.phase !== "build" || fighting) return;
  fighting = true;
  lastFrame = null;
  $("card").hidden = true;
  hovered = null;
  preview();
  setState(game);
  try {
    for (;;) {
      while (paused) await new Promise((resolve) => setTimeout(resolve, 100));
      const [step, frames] = STEPS[speed];
      const chunk = await api("/api/defense/fight", {game: gameId, step, frames});
      for (const f of chunk.frames) {
        while (paused) await new Promise((resolve) => setTimeout(resolve, 100));
        drawFrame(f);
        await nextPaint();
      }
      if (chunk.over) {
        fighting = false;
        setState(chunk.state);
        review(chunk.state.records[chunk.state.records.length - 1]);
        return;
      }
    }
  } catch (err) {
    fighting = false;
    showError(err.message);
    setState(game);
  }
}

function reviewBody(r) {
  const s = game.scenario;
  const stops = game.buildings.filter((b) => b.kind === "cannon").map((b, i) =>
    `<tr><td>(${b.x}, ${b.y})</td><td>${r.shots[i] ?? 0}</td>` +
    `<td data-field="stops-${i}">${r.overheat_stops[i] ?? 0}</td></tr>`).join("");
  return `<dl class="review">` +
    `<dt>ships sunk</dt><dd data-field="kills">${r.kills}</dd>` +
    `<dt>leaked from A</dt><dd data-field="leaks_a">${r.leaks_a}</dd>` +
    `<dt>leaked from B</dt><dd data-field="leaks_b">${r.leaks_b}</dd>` +
    `<dt>cannons / walls</dt><dd data-field="buildings">${r.cannons} / ${r.walls}</dd>` +
    `<dt>beacon health left</dt><dd data-field="health">${r.health}</dd>` +
    `<dt>wave time</dt><dd data-field="ticks" data-ticks="${r.ticks}">` +
    `${(r.ticks / s.tick_rate).toFixed(2)} s</dd>` +
    `</dl>` + (stops ? `<table class="stops"><tr><th>cannon</th><th>shots</th>` +
    `<th>overheat stops</th></tr>${stops}</table>` : "");
}

/** The review card after a wave (and the victory or defeat card). */
function review(r) {
  const card = $("card");
  const s = game.scenario;
  let html;
  if (game.phase === "victory") {
    html = `<h3>The lighthouse stands</h3><p>All ${s.waves} waves held. Every wave's record:</p>` +
      `<div class="wave-cards">${game.records.map((w) => `<div><h4>Wave ${w.wave}</h4>` +
        `${w.kills} sunk · leaks ${w.leaks_a} A / ${w.leaks_b} B<br>${w.cannons} cannons, ` +
        `${w.walls} walls · ${w.overheat_stops.reduce((a, b) => a + b, 0)} overheat stops` +
        `</div>`).join("")}</div>` + reviewBody(r) +
      `<div class="row"><button id="look">View the board</button>` +
      `<button class="primary" id="again">Play again</button></div>`;
  } else if (game.phase === "defeat") {
    html = `<h3>The beacon went dark in wave ${r.wave}</h3>` + reviewBody(r) +
      `<p>Retry goes back to this wave's build, before its reinforcements: the board, health ` +
      `and material as they were.</p><div class="row"><button id="look">View the board</button>` +
      `<button id="again">Restart</button><button class="primary" id="card-retry">Retry wave ` +
      `${r.wave}</button></div>`;
  } else {
    html = `<h3>Wave ${r.wave} held</h3>` + reviewBody(r) +
      `<p>Reinforcements for wave ${game.wave}: +${s.material_per_wave} material, ` +
      `+${s.health_per_wave} beacon health.</p>` +
      `<div class="row"><button id="look">View the board</button>` +
      `<button class="primary" id="next">Build for wave ${game.wave}</button></div>`;
  }
  card.innerHTML = html;
  card.dataset.outcome = r.outcome;
  card.hidden = false;
  document.body.dataset.review = r.outcome;
  if ($("next")) $("next").onclick = () => { card.hidden = true; clearReviewMarks(); };
  if ($("card-retry")) $("card-retry").onclick = retry;
  if ($("again")) $("again").onclick = restart;
  $("look").onclick = () => lookAtBoard(r);
  setStatus(game.phase === "defeat" ? `Wave ${r.wave} lost.` : `Wave ${r.wave} won.`,
    game.phase === "defeat" ? "bad" : "good");
}

/** Hide the card and mark each cannon's overheat stops and each entrance's leaks. */
function lookAtBoard(r) {
  $("card").hidden = true;
  const svg = $("map").querySelector("svg");
  const g = svg.querySelector(".review-marks");
  g.replaceChildren();
  game.buildings.filter((b) => b.kind === "cannon").forEach((b, i) => {
    const [cx, cy] = center(b.x, b.y);
    el("circle", {cx: cx + C * 0.3, cy: cy - C * 0.3, r: 12, class: "badge"}, g);
    el("text", {x: cx + C * 0.3, y: cy - C * 0.3 + 5, class: "badge-text"}, g).textContent =
      r.overheat_stops[i];
  });
  for (const [e, [x, y]] of Object.entries(game.scenario.entrances)) {
    const leaks = e === "A" ? r.leaks_a : r.leaks_b;
    const [cx, cy] = center(x, y);
    el("text", {x: cx, y: cy + C * 0.45, class: "leak-text"}, g).textContent = `${leaks} leaked`;
  }
  setStatus(`Wave ${r.wave}: badges count each cannon's overheat stops; the entrances their ` +
    "leaks.");
  const back = document.createElement("button");
  back.textContent = "Back to the review";
  back.className = "back-to-review";
  back.onclick = () => { back.remove(); review(r); };
  $("map").append(back);
}

function clearReviewMarks() {
  const svg = $("map").querySelector("svg");
  if (svg) svg.querySelector(".review-marks").replaceChildren();
  for (const b of document.querySelectorAll(".back-to-review")) b.remove();
  delete document.body.dataset.review;
}

async function command(action) {
  try {
    const answer = await api("/api/defense/act", {game: gameId, action});
    $("card").hidden = true;
    clearReviewMarks();
    setState(answer);
    setStatus(action === "retry" ? `Back to the build of wave ${answer.wave}, before its ` +
      "reinforcements." : "A fresh start: wave 1, initial material and health.");
  } catch (err) {
    showError(err.message);
  }
}

const retry = () => command("retry");
const restart = () => command("restart");

function setSpeed(value) {
  if (value === "0") {
    paused = !paused;
  } else {
    speed = value;
    paused = false;
  }
  for (const b of document.querySelectorAll(".speeds button")) {
    const on = b.dataset.speed === "0" ? paused : b.dataset.speed === speed && !paused;
    b.setAttribute("aria-pressed", String(on));
  }
}

function setTool(name) {
  tool = name;
  for (const b of document.querySelectorAll(".tools button")) {
    b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
  }
  preview();
}

async function load() {
  showError(null);
  const q = new URLSearchParams(location.search);
  if (!q.has("seed")) {
    q.set("seed", randomSeed());
    history.replaceState(null, "", "/defense?" + q);
  }
  $("form").elements.seed.value = q.get("seed");
  $("share").value = location.href;
  document.body.dataset.state = "loading";
  let answer;
  try {
    answer = await api("/api/defense/new?" + q);
  } catch (err) {
    showError(err.message);
    $("title").textContent = "No game";
    document.body.dataset.state = "error";
    return;
  }
  gameId = answer.game;
  game = null;
  fighting = false;
  $("card").hidden = true;
  clearReviewMarks();
  setState(answer);
  const s = answer.scenario;
  $("title").textContent = `Scenario ${s.name}, seed ${answer.seed}`;
  $("scenario").textContent = `Scenario ${s.name}: ${s.width}x${s.height}, ${s.waves} waves` +
    (s.notes ? ` (${s.notes})` : "") + ". The seed orders the final wave's entrances.";
  document.title = `${s.name}, seed ${answer.seed} · The Last Lighthouse · levelforge play`;
  setStatus(`Build for wave 1: pick a tool and click a cell; then start the wave.`);
}

function wire() {
  for (const b of document.querySelectorAll(".tools button")) b.onclick = () => setTool(b.dataset.tool);
  for (const b of document.querySelectorAll(".speeds button")) b.onclick = () => setSpeed(b.dataset.speed);
  $("start").onclick = fight;
  $("retry").onclick = retry;
  $("restart").onclick = restart;
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === "c") setTool("cannon");
    else if (key === "w") setTool("wall");
    else if (key === "p") setSpeed("0");
    else if (e.key === "Enter") fight();
    else return;
    e.preventDefault();
  });
  $("form").onsubmit = (e) => {
    e.preventDefault();
    const q = new URLSearchParams(location.search);
    q.set("seed", e.target.elements.seed.value);
    history.pushState(null, "", "/defense?" + q);
    load();
  };
  wireSeedAndShare($("form"));
  window.addEventListener("popstate", load);
}

topBar();
wire();
setTool("cannon");
setSpeed("1");
load();
