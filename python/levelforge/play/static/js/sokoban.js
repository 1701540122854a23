// Sokoban: the page sends actions and draws the position the server returns.
import {api, randomSeed, setStatus, showError, sleep, topBar, typing,
  wireSeedAndShare} from "./common.js";

const KEYS = {ArrowUp: "u", ArrowLeft: "l", ArrowRight: "r", ArrowDown: "d",
  w: "u", a: "l", d: "r", s: "d", W: "u", A: "l", D: "r", S: "d"};
const DEFAULTS = {width: 7, height: 7, boxes: 2, inner_walls: 0, pushes: "4-8"};
const PLAYING = "Push every box onto a ring.";
const $ = (id) => document.getElementById(id);

let level = null;             // the server's description of the level
let moves = "";               // LURD moves played, as the server last confirmed them
let queue = Promise.resolve();  // actions go to the server one after the other
let animation = 0;            // bumped to stop a running "show solution"

/** The API path and panel tab of the page's URL. */
function source() {
  const parts = location.pathname.split("/").filter(Boolean);
  const search = location.search;
  if (parts.length === 1) return {tab: "generate", path: "/api/sokoban/generate" + search};
  if (parts.length === 3 && ["campaign", "microban", "file"].includes(parts[1])) {
    return {tab: parts[1], path: `/api/sokoban/${parts[1]}/${parts[2]}${search}`, id: parts[2]};
  }
  if (parts.length === 2 && parts[1] === "custom") {
    return {tab: "custom", path: "/api/sokoban/custom" + search};
  }
  return {tab: "generate", error: `there is no Sokoban page at ${location.pathname}`};
}

function selectTab(tab) {
  for (const b of document.querySelectorAll(".tabs button")) {
    b.setAttribute("aria-selected", String(b.dataset.tab === tab));
  }
  for (const f of document.querySelectorAll("form[data-pane]")) f.hidden = f.dataset.pane !== tab;
}

function fillForms(src) {
  const q = new URLSearchParams(location.search);
  const gen = $("form-generate").elements;
  for (const name of ["width", "height", "boxes", "inner_walls", "pushes", "seed"]) {
    if (src.tab === "generate" && q.has(name)) gen[name].value = q.get(name);
  }
  if (src.tab === "campaign") $("form-campaign").elements.index.value = src.id;
  if (src.tab === "microban") $("form-microban").elements.number.value = src.id;
  if (src.tab === "custom") $("form-custom").elements.xsb.value = q.get("xsb") || "";
}

function go(url) {
  history.pushState(null, "", url);
  load();
}

function subtitle() {
  const parts = [];
  if (level.config && level.config.pushes) {
    parts.push(`target ${level.config.pushes.join("-")} pushes`);
  }
  if (level.elapsed_ms !== null) parts.push(`generated in ${level.elapsed_ms.toFixed(2)} ms`);
  if (!level.config) {
    parts.push(`${level.width}x${level.height}, ${level.boxes} box${level.boxes > 1 ? "es" : ""}`);
  }
  return parts.join(" · ");
}

/** What stopped a solve that answered `limit`: its clock (`clock`, as a phrase), the
 * server's memory or its cap on stored states. */
function capText(r, clock) {
  if (r.limit_by === "memory") return "the memory the server could give it";
  if (r.limit_by !== "states") return clock;
  return r.max_nodes == null ? "its cap on stored states"
    : `its cap of ${r.max_nodes.toLocaleString("en")} stored states`;
}

function render(state) {
  moves = state.moves;
  $("board").innerHTML = state.svg;
  $("pushes").textContent = state.pushes;
  $("moves").textContent = state.steps;
  document.body.dataset.state = state.solved ? "solved" : "playing";
  if (state.solved) {
    const best = state.optimal;
    let verdict = best.message ? `Push-optimal is unknown: ${best.message}.`
      : `Push-optimal is unknown: the solver reached ${capText(best, `its ${best.time_limit} s limit`)}` +
        [best.lower_bound == null ? "" : `, having proved at least ${best.lower_bound} pushes`,
         best.pushes == null ? "" : `, with a solution of ${best.pushes} found`].join("") + ".";
    if (best.status === "solved") {
      $("optimal").textContent = best.pushes;
      verdict = state.pushes === best.pushes ? `Push-optimal: ${best.pushes}. Perfect!`
        : `Push-optimal: ${best.pushes}.`;
    }
    setStatus(`Solved in ${state.pushes} pushes and ${state.steps} moves. ${verdict}`, "good");
  } else if (state.refused) {
    setStatus(`Blocked: ${state.refused}.`, "bad");
  } else {
    setStatus(PLAYING);
  }
}

/** Queue `action` (a direction, "undo" or "restart") for the server. */
function act(action) {
  queue = queue.then(async () => {
    if (!level) return;
    render(await api("/api/sokoban/move", {xsb: level.xsb, moves, action}));
  }).catch((err) => showError(err.message));
  return queue;
}

async function load() {
  animation += 1;
  showError(null);
  let src = source();
  if (src.tab === "generate" && !src.error && !new URLSearchParams(location.search).has("seed")) {
    const q = new URLSearchParams({...DEFAULTS, ...Object.fromEntries(
      new URLSearchParams(location.search)), seed: randomSeed()});
    history.replaceState(null, "", "/sokoban?" + q);
    src = source();
  }
  selectTab(src.tab);
  fillForms(src);
  $("share").value = location.href;
  level = null;
  if (src.error) {
    failed(src.error);
    return;
  }
  setStatus("Loading the level…", "busy");
  document.body.dataset.state = "loading";
  try {
    const answer = await api(src.path);
    await queue;
    level = answer;
  } catch (err) {
    failed(err.message);
    return;
  }
  $("title").textContent = level.title;
  $("subtitle").textContent = subtitle();
  $("optimal").textContent = level.optimal === null ? "–" : level.optimal;
  document.title = `${level.title} · Sokoban · levelforge play`;
  render(level.state);
}

function failed(message) {
  showError(message);
  $("title").textContent = "No level";
  $("subtitle").textContent = "";
  $("board").innerHTML = "";
  setStatus("Fix the level settings and try again.", "bad");
  document.body.dataset.state = "error";
}

async function solveHere() {
  await queue;
  if (!level) return null;
  const limit = Number($("time-limit").value);
  setStatus(`Solving from this position (time limit ${limit} s)…`, "busy");
  let r;
  try {
    r = await api("/api/sokoban/solve", {xsb: level.xsb, moves, time_limit: limit});
  } catch (err) {
    showError(err.message);
    return null;
  }
  const states = r.nodes === null ? "" : `, ${r.nodes.toLocaleString("en")} states`;
  const ms = `${r.elapsed_ms.toFixed(1)} ms${states}`;
  if (r.status === "solved") {
    setStatus(`Solver: solved, ${r.pushes} pushes and ${r.moves} moves from here (${ms}).`, "good");
  } else if (r.status === "unsolvable") {
    setStatus(`Solver: unsolvable. No pushes solve this position; it was proved (${ms}). ` +
      "Undo or restart.", "bad");
  } else if (r.status === "cancelled") {
    setStatus(`Solver: cancelled. ${r.stopped || "The solve was stopped"} (${ms}), so ` +
      "whether this position can be solved is unknown.", "bad");
  } else {
    const why = r.stopped ? "The server stopped the solver at its deadline"
      : `The solver reached ${capText(r, `the ${limit} s limit`)}`;
    if (r.solution != null) {  // the best solution found, not proved push-optimal
      const least = r.lower_bound == null ? "" : `; at least ${r.lower_bound} are needed (proved)`;
      setStatus(`Solver: limit. ${why} (${ms}) before it proved push-optimal the best ` +
        `solution it found: ${r.pushes} pushes and ${r.moves} moves from here${least}.`, "good");
      return r;
    }
    const proved = r.lower_bound == null ? ""
      : ` If it can, it takes at least ${r.lower_bound} more pushes (proved).`;
    setStatus(`Solver: limit. ${why} (${ms}), so whether this position can be solved is ` +
      `unknown.${proved}`, "bad");
  }
  return r;
}

async function showSolution() {
  await queue;
  if (!level) return;
  const token = ++animation;
  let path = level.solution;
  if (path !== null) {
    await act("restart");
  } else {
    const r = await solveHere();
    // solved, or stopped with the best solution it found (kept, not proved push-optimal)
    if (!r || r.solution == null || token !== animation) return;
    path = r.solution;
  }
  for (const letter of path) {
    if (token !== animation) return;
    await act(letter);
    await sleep(130);
  }
}

function wire() {
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    let action = KEYS[e.key];
    if (e.key === "z" || e.key === "Z") action = "undo";
    if (e.key === "r" || e.key === "R") action = "restart";
    if (!action) return;
    e.preventDefault();
    animation += 1;
    act(action);
  });
  $("undo").onclick = () => { animation += 1; act("undo"); };
  $("restart").onclick = () => { animation += 1; act("restart"); };
  $("show").onclick = showSolution;
  $("solve").onclick = () => { animation += 1; solveHere(); };
  for (const b of document.querySelectorAll(".tabs button")) b.onclick = () => selectTab(b.dataset.tab);
  $("form-generate").onsubmit = (e) => {
    e.preventDefault();
    const q = new URLSearchParams(new FormData(e.target));
    go("/sokoban?" + q);
  };
  wireSeedAndShare($("form-generate"));
  for (const [form, field, base] of [["campaign", "index", "/sokoban/campaign/"],
    ["microban", "number", "/sokoban/microban/"]]) {
    const f = $("form-" + form);
    f.onsubmit = (e) => {
      e.preventDefault();
      go(base + encodeURIComponent(f.elements[field].value));
    };
    for (const b of f.querySelectorAll("[data-step]")) {
      b.onclick = () => {
        f.elements[field].value = Number(f.elements[field].value) + Number(b.dataset.step);
        f.requestSubmit();
      };
    }
  }
  $("xsb-file").onchange = async (e) => {  // the file's text goes through the same check
    const file = e.target.files[0];
    if (!file) return;
    $("form-custom").elements.xsb.value = await file.text();
    $("form-custom").requestSubmit();
  };
  $("form-custom").onsubmit = (e) => {
    e.preventDefault();
    go("/sokoban/custom?" + new URLSearchParams({xsb: e.target.elements.xsb.value}));
  };
  window.addEventListener("popstate", load);
}

topBar();
wire();
load();
