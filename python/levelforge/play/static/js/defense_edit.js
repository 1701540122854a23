// Lighthouse scenario editor: paint the map, edit the waves and the material; the server
// answers with the legal cells (and why not), the routes, and a balance report in pieces.
import {api, setStatus, showError, topBar} from "./common.js";
import {download, liveCheck, post, wireCopy, wireTools} from "./editing.js";

const $ = (id) => document.getElementById(id);
const PARTS = 8;
const ECONOMY = ["initial_material", "cannon_cost", "wall_cost", "beacon_health",
  "material_per_wave", "health_per_wave"];
const WHY = {none: "a cannon may go here", reef: "a reef", entrance: "an entrance",
  beacon: "the beacon", not_enough_material: "a cannon costs more than the material at the start",
  seals_route: "a building here would seal a route to the beacon"};

let sc = null;         // the scenario as a scenario file holds it
let tool = ".";
let undoStack = [];
let answer = null;     // the last layout answer
let running = null;    // the AbortController of a running balance report

const key = () => JSON.stringify(sc);

// ------------------------------------------------------------------ drawing
function draw() {
  const rows = sc.map, h = rows.length, w = rows[0].length;
  const g = $("grid");
  if (g.dataset.size !== `${w}x${h}`) {
    const size = Math.max(18, Math.min(56, Math.floor(520 / Math.max(w, h))));
    g.style.gridTemplateColumns = `repeat(${w}, ${size}px)`;
    g.style.gridAutoRows = `${size}px`;
    const cells = [];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) cells.push(`<i data-x="${x}" data-y="${y}"></i>`);
    g.innerHTML = cells.join("");
    g.dataset.size = `${w}x${h}`;
  }
  const fresh = answer && answer.key === key();
  const onRoute = {};
  if (fresh) {
    for (const [e, path] of Object.entries(answer.layout.routes)) {
      for (const [x, y] of path) (onRoute[`${x},${y}`] ??= new Set()).add(e);
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const ch = rows[y][x];
      const cell = g.children[y * w + x];
      let cls = {"#": "reef", "*": "beacon", A: "entrance", B: "entrance"}[ch] || "water";
      let title = "";
      if (fresh) {
        const code = answer.layout.cannon[y][x];
        if (code === "none") cls += " legal";
        if (code === "seals_route") cls += " seals";
        title = WHY[code] || code;
        const r = onRoute[`${x},${y}`];
        if (r && r.has("A")) cls += " ra";
        if (r && r.has("B")) cls += " rb";
        cell.dataset.code = code;
      }
      cell.className = cls;
      cell.title = title;
      cell.textContent = "AB*".includes(ch) ? (ch === "*" ? "★" : ch) : "";
    }
  }
}

function economyForm() {
  $("economy").innerHTML = ECONOMY.map((k) =>
    `<label>${k.replaceAll("_", " ")} <input type="number" min="0" data-economy="${k}" ` +
    `value="${sc.economy[k]}"></label>`).join("");
}

function wavesTable() {
  const head = "<tr><th>wave</th><th>ships</th><th>entrance</th><th>armoured</th><th>interval s</th></tr>";
  $("waves").innerHTML = head + sc.waves.map((wv, i) => `<tr data-wave="${i}"><td>${i + 1}</td>` +
    `<td><input type="number" min="1" data-field="ships" value="${wv.ships}"></td>` +
    `<td><select data-field="entrance">${["A", "B", "alternate"].map((e) =>
      `<option${e === wv.entrance ? " selected" : ""}>${e}</option>`).join("")}</select></td>` +
    `<td><input class="wide" data-field="armoured" value="${(wv.armoured || []).join(",")}"></td>` +
    `<td><input type="number" step="0.05" min="0.05" data-field="spawn_interval" ` +
    `value="${wv.spawn_interval}"></td></tr>`).join("");
}

// ------------------------------------------------------------------ editing
function edit(mutate) {
  undoStack.push(key());
  mutate();
  sc.plan = [];  // a reference plan may not fit the edited scenario
  changed();
}

function paint(x, y) {
  const rows = sc.map.map((r) => [...r]);
  if ("*AB".includes(tool)) {
    for (const r of rows) for (let i = 0; i < r.length; i++) if (r[i] === tool) r[i] = ".";
  }
  rows[y][x] = tool;
  sc.map = rows.map((r) => r.join(""));
}

function changed() {
  draw();
  const q = new URLSearchParams({scenario: key()});
  history.replaceState(null, "", `/defense/edit?${q}`);
  $("share").value = location.href;
  live.schedule();
}

const live = liveCheck({
  key,
  ask: () => api("/api/defense/edit/layout", {scenario: sc}),
  fail: (err) => {
    showError(err.message);
    setStatus("This scenario cannot be played: fix what the message names.", "bad");
    document.body.dataset.answer = "invalid";
  },
  show: (got) => {
    if (got) {
      got.key = key();
      showError(null);
      shown(got);
    }
    draw();
  },
});

function shown(got) {
  answer = got;
  const legal = got.layout.cannon.flat().filter((c) => c === "none").length;
  const sealing = got.layout.cannon.flat().filter((c) => c === "seals_route").length;
  $("forecasts").innerHTML = got.forecasts.map((f, i) => `<li>Wave ${i + 1}: ${f}</li>`).join("");
  setStatus(`${legal} cells take a cannon; ${sealing} would seal a route. Routes: ` +
    Object.entries(got.layout.routes).map(([e, p]) => `${e} ${p.length - 1} steps`).join(", ") +
    ".", "good");
  document.body.dataset.answer = "valid";
}

// ------------------------------------------------------------------ balance report
async function balance() {
  if (running) return;
  running = new AbortController();
  $("balance").disabled = true;
  $("stop").disabled = false;
  $("report").hidden = true;
  document.body.dataset.balance = "running";
  const scenario = structuredClone(sc), parts = [];
  try {
    for (let part = 0; part < PARTS; part++) {
      setStatus(`Balance report: piece ${part + 1} of ${PARTS}…`, "busy");
      const got = await post("/api/defense/edit/balance", {scenario, part, parts: PARTS},
        running.signal);
      if (got === null) break;
      parts.push(got);
      $("balance-progress").value = parts.length / PARTS;
    }
    if (parts.length === PARTS) {
      showReport(await api("/api/defense/edit/report", {parts}));
      document.body.dataset.balance = "done";
    } else {
      setStatus(`Balance report stopped after ${parts.length} of ${PARTS} pieces.`);
      document.body.dataset.balance = "stopped";
    }
  } catch (err) {
    showError(err.message);
    document.body.dataset.balance = "error";
  } finally {
    running = null;
    $("balance").disabled = false;
    $("stop").disabled = true;
  }
}

async function showReport(r) {
  $("report").hidden = false;
  $("facts").innerHTML = r.facts.map((f) => `<li data-holds="${f.holds}">${f.text}` +
    `<small>${f.detail}</small></li>`).join("");
  const held = r.facts.filter((f) => f.holds === true).length;
  setStatus(`Balance report: ${held} of ${r.facts.length} of the design's facts hold ` +
    `(${(r.elapsed_ms / 1000).toFixed(1)} s of engine time).`, held === r.facts.length ? "good" : "bad");
  $("naive").innerHTML = "<tr><th>naive policy</th><th>seed</th><th>outcome</th><th>last wave</th></tr>" +
    r.naive.map((g) => `<tr><td>${g.strategy}</td><td>${g.seed}</td><td>${g.outcome}</td>` +
      `<td>${g.last_wave}</td></tr>`).join("");
  $("rescues").textContent = r.rescues ? `Wall rescues: ${r.rescues.rescues} placements rescue ` +
    `${r.rescues.rescued_openings} of the ${r.rescues.examined} losing openings with the most kills.` : "";
  await charts(r);
}

async function charts(r) {
  for (const name of ["vega.min.js", "vega-lite.min.js", "vega-embed.min.js"]) {
    if (window.vegaEmbed) break;
    await new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = `/static/vendor/vega/${name}`;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`cannot load ${name}`));
      document.head.append(s);
    });
  }
  const kills = r.kills.flatMap(([k, won, lost]) => [{kills: k, outcome: "survived", n: won},
    {kills: k, outcome: "lost", n: lost}]);
  const base = {$schema: "https://vega.github.io/schema/vega-lite/v6.json", width: "container",
    height: 140, config: {view: {stroke: null}}};
  await window.vegaEmbed("#chart-kills", {...base, data: {values: kills},
    title: "Two-cannon openings in wave 1, by kills", mark: "bar", encoding: {
      x: {field: "kills", type: "ordinal"}, y: {field: "n", type: "quantitative", title: "openings"},
      color: {field: "outcome", scale: {range: ["#e63946", "#2a9d8f"]}}}},
  {actions: false, renderer: "svg"});
  const winning = Object.entries(r.winning || {}).map(([seed, ops]) => ({seed, n: ops.length}));
  await window.vegaEmbed("#chart-winning", {...base, data: {values: winning},
    title: "Openings that win every wave, by seed", mark: {type: "bar", color: "#3a86ff"},
    encoding: {x: {field: "seed", type: "nominal"}, y: {field: "n", type: "quantitative",
      title: "openings"}}}, {actions: false, renderer: "svg"});
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("grid").addEventListener("click", (e) => {
    const t = e.target.closest("#grid i");
    if (t) edit(() => paint(Number(t.dataset.x), Number(t.dataset.y)));
  });
  wireTools((t) => { tool = t; }, undo);
  $("economy").addEventListener("change", (e) => {
    const k = e.target.dataset.economy;
    if (k) edit(() => { sc.economy[k] = Number(e.target.value); });
  });
  $("waves").addEventListener("change", (e) => {
    const row = e.target.closest("tr"), f = e.target.dataset.field;
    if (!row || !f) return;
    const wave = sc.waves[Number(row.dataset.wave)];
    edit(() => {
      if (f === "entrance") wave.entrance = e.target.value;
      else if (f === "armoured") {
        wave.armoured = e.target.value.split(",").map((v) => v.trim()).filter(Boolean).map(Number);
      } else wave[f] = Number(e.target.value);
    });
  });
  $("add-wave").onclick = () => edit(() => {
    sc.waves.push({...sc.waves[sc.waves.length - 1]});
    wavesTable();
  });
  $("drop-wave").onclick = () => sc.waves.length > 1 && edit(() => {
    sc.waves.pop();
    wavesTable();
  });
  $("resize").onclick = () => {
    const side = (id) => Math.max(3, Math.min(32, Math.round(Number($(id).value) || 3)));
    const w = side("width"), h = side("height");
    edit(() => {
      sc.map = Array.from({length: h}, (_, y) => Array.from({length: w}, (_, x) =>
        (sc.map[y] && sc.map[y][x]) || ".").join(""));
    });
  };
  $("balance").onclick = balance;
  $("stop").onclick = () => running && running.abort();
  $("download").onclick = () => download(JSON.stringify(answer ? answer.scenario : sc, null, 2),
    `${sc.name || "scenario"}.json`, "application/json");
  wireCopy();
}

function undo() {
  if (!undoStack.length) return;
  sc = JSON.parse(undoStack.pop());
  economyForm();
  wavesTable();
  changed();
}

async function start() {
  topBar();
  wire();
  $("title").textContent = "Lighthouse scenario editor";
  const given = new URLSearchParams(location.search).get("scenario");
  try {
    sc = given ? JSON.parse(given) : (await api("/api/defense/edit/layout", {scenario: null})).scenario;
  } catch (err) {
    showError(`the share link's scenario cannot be read (${err.message}); the lighthouse instead`);
    sc = (await api("/api/defense/edit/layout", {scenario: null})).scenario;
  }
  $("width").value = sc.map[0].length;
  $("height").value = sc.map.length;
  economyForm();
  wavesTable();
  changed();
}

start();
