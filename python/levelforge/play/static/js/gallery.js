// The gallery: thumbnails of the opened file, histograms (Vega-Lite) and range filters.
import {api, esc, setStatus, showError, topBar} from "./common.js";

const $ = (id) => document.getElementById(id);
let summary = null;
let loads = 0;

function params() {
  return new URLSearchParams(location.search);
}

const LABELS = {pushes: "pushes", moves: "moves", boxes: "boxes", elapsed_ms: "ms to make",
  branch_points: "branch points", proof_nodes: "proof nodes", path_points: "answer points"};
const label = (name) => LABELS[name] || name.replace(/_/g, " ");

function format(name, value) {
  if (name.endsWith("_ms")) return value.toFixed(value < 10 ? 2 : 1);
  return Number(value).toLocaleString("en");
}

/** The range of `name` in the URL as [lo, hi] strings ("" for an open side). */
function urlRange(name) {
  const text = params().get(name);
  if (!text) return ["", ""];
  const k = text.indexOf("-", 1);
  return k < 0 ? [text, ""] : [text.slice(0, k), text.slice(k + 1)];
}

function buildFilters() {
  const form = $("filters");
  form.innerHTML = summary.charted.map((name) => {
    const [lo, hi] = urlRange(name);
    return `<div class="filter"><b>${esc(label(name))}</b>` +
      `<input name="${name}-lo" aria-label="${esc(label(name))} from" placeholder="min" value="${esc(lo)}">` +
      `&ndash;<input name="${name}-hi" aria-label="${esc(label(name))} to" placeholder="max" value="${esc(hi)}"></div>` +
      `<div class="chart" id="chart-${name}"></div>`;
  }).join("") + '<div class="row"><button class="primary" type="submit">Apply</button>' +
    '<button type="button" id="reset">Show all</button></div>';
  form.onsubmit = (e) => {
    e.preventDefault();
    apply(0);
  };
  $("reset").onclick = () => {
    for (const input of form.querySelectorAll("input")) input.value = "";
    apply(0);
  };
}

/** Put the form's ranges and `page` into the URL, then show that page. */
function apply(page) {
  const q = new URLSearchParams();
  const file = params().get("file");
  if (file) q.set("file", file);
  const form = $("filters").elements;
  for (const name of summary.charted) {
    const lo = form[`${name}-lo`].value.trim(), hi = form[`${name}-hi`].value.trim();
    if (lo || hi) q.set(name, `${lo}-${hi}`);
  }
  if (page) q.set("page", page);
  history.pushState(null, "", "/gallery" + (q.size ? "?" + q : ""));
  showPage();
}

/** Bins of figure `name`: one per value for small integer ranges. */
function binning(name) {
  const values = summary.values[name];
  const lo = Math.min(...values), hi = Math.max(...values);
  const integer = values.every(Number.isInteger);
  if (integer && hi - lo <= 40) return {integer, bin: {step: 1, extent: [lo, hi + 1]}, lo, hi};
  return {integer, bin: {maxbins: 30}, lo, hi};
}

const VEGA = ["vega.min.js", "vega-lite.min.js", "vega-embed.min.js"];

/** Load the vendored Vega scripts (after the thumbnails are shown), in order. */
async function loadVega() {
  for (const name of VEGA) {
    if (window.vegaEmbed) return;
    await new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = `/static/vendor/vega/${name}`;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`cannot load ${name}`));
      document.head.append(script);
    });
  }
}

async function charts() {
  await loadVega();
  const rows = summary.values[summary.charted[0]].map((_, i) =>
    Object.fromEntries(summary.charted.map((n) => [n, summary.values[n][i]])));
  for (const name of summary.charted) {
    const {integer, bin, lo, hi} = binning(name);
    const brush = {name: "brush", select: {type: "interval", encodings: ["x"]}};
    const [from, to] = urlRange(name).map((v) => (v === "" ? null : Number(v)));
    if (from !== null || to !== null) {  // show the URL's filter as the brush
      brush.value = {x: [from ?? lo, (to ?? hi) + (integer && bin.step ? 0.99 : 0)]};
    }
    const x = {field: name, bin, title: label(name), axis: integer ? {format: "d"} : {}};
    const y = {aggregate: "count", title: "levels"};
    const spec = {  // all levels in grey, those inside the brush in blue on top
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      width: "container", height: 90, data: {values: rows},
      layer: [
        {params: [brush], mark: {type: "bar", color: "#c7d3e8", tooltip: true},
          encoding: {x, y}},
        {transform: [{filter: {param: "brush", empty: true}}],
          mark: {type: "bar", color: "#3a86ff"}, encoding: {x, y}},
      ],
      config: {view: {stroke: null}, axis: {labelFontSize: 10, titleFontSize: 11}},
    };
    const result = await window.vegaEmbed(`#chart-${name}`, spec,
      {actions: false, renderer: "svg"});
    let timer = 0, touched = false;  // only a drag by the user filters
    $(`chart-${name}`).addEventListener("pointerdown", () => { touched = true; });
    result.view.addSignalListener("brush", (_, value) => {
      if (!touched) return;
      clearTimeout(timer);
      timer = setTimeout(() => fromBrush(name, integer, value), 350);
    });
  }
}

/** A brushed range into the filter inputs (whole bins for integers), then apply it. */
function fromBrush(name, integer, value) {
  const range = value && Object.values(value)[0];
  const form = $("filters").elements;
  if (!range) return;
  let [lo, hi] = range;
  if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];  // the values inside the brush
  else [lo, hi] = [Math.floor(lo * 1000) / 1000, Math.ceil(hi * 1000) / 1000];
  if (lo > hi) return;
  const [oldLo, oldHi] = [form[`${name}-lo`].value, form[`${name}-hi`].value];
  if (String(lo) === oldLo && String(hi) === oldHi) return;
  form[`${name}-lo`].value = lo;
  form[`${name}-hi`].value = hi;
  apply(0);
}

async function showPage() {
  const mine = ++loads;
  showError(null);
  const q = params();
  const page = Number(q.get("page") || 0);
  let data;
  try {
    data = await api("/api/gallery/items?" + q);
  } catch (err) {
    showError(err.message);
    return;
  }
  if (mine !== loads) return;
  const filtered = data.matched !== data.count;
  $("count").innerHTML = filtered
    ? `<b>${data.matched.toLocaleString("en")}</b> of ${data.count.toLocaleString("en")} levels match`
    : `<b>${data.count.toLocaleString("en")}</b> levels`;
  $("page").textContent = `page ${data.page + 1} of ${data.pages}`;
  $("prev").disabled = data.page === 0;
  $("next").disabled = data.page + 1 >= data.pages;
  $("prev").onclick = () => apply(page - 1);
  $("next").onclick = () => apply(page + 1);
  const shown = summary.charted.slice(0, 2);
  $("thumbs").innerHTML = data.items.map((it) =>
    `<a class="thumb" href="${it.href}" data-item="${it.item}">` +
    `<span class="pic">${it.svg}</span><span class="cap"><b>${esc(it.title)}</b>` +
    `<span>${shown.map((n) => `${format(n, it.figures[n])} ${esc(label(n))}`).join(" · ")}</span>` +
    "</span></a>").join("");
  const status = $("status");
  status.hidden = data.items.length > 0;
  if (!data.items.length) setStatus("No level matches these filters.", "bad");
  document.body.dataset.state = "ready";
}

async function load() {
  topBar();
  const file = params().get("file");
  try {
    summary = await api("/api/gallery" + (file ? "?" + new URLSearchParams({file}) : ""));
  } catch (err) {
    showError(err.message);
    $("title").textContent = "No file";
    document.body.dataset.state = "error";
    return;
  }
  $("title").textContent = summary.name;
  $("subtitle").textContent = `${summary.count.toLocaleString("en")} ${summary.kind} levels` +
    ` · figures: ${summary.charted.map(label).join(", ")}`;
  document.title = `${summary.name} · Gallery · levelforge play`;
  buildFilters();
  await showPage();
  await charts();
}

window.addEventListener("popstate", () => {
  if (!summary) return;
  buildFilters();
  showPage();
  charts();
});
load();
