// Shared by the editor pages: a request that Stop can cancel, and the share box.
import {ApiError, typing} from "./common.js";

/** POST `body` as JSON to `path`; null when `signal` aborted it (the server then stops
 * the request's worker), else the parsed answer or an ApiError with the server's message. */
export async function post(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {method: "POST", signal, body: JSON.stringify(body),
      headers: {"Content-Type": "application/json"}});
  } catch (err) {
    if (signal.aborted) return null;
    throw new ApiError("the server does not answer: is levelforge play still running?");
  }
  const data = await response.json();
  if (!response.ok) throw new ApiError(data.error || `error ${response.status}`);
  return data;
}

/** Wire the share box's Copy button (#copy copies #share). */
export function wireCopy() {
  const share = document.getElementById("share");
  document.getElementById("copy").onclick = () => {
    share.select();
    navigator.clipboard?.writeText(share.value).catch(() => {});
  };
}

/** Offer `text` as a file download named `name`. */
export function download(text, name, type = "text/plain") {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type}));
  a.download = name;
  a.click();
}

/** The live answer of an editor: `schedule()` after each edit marks the page
 * `body[data-state="checking"]` and, once the edits pause, sends `ask()` (one request at a
 * time; when the design changed meanwhile, `key()` tells, it asks again). `show(answer)`
 * gets the answer for the design as it is, or null when the request failed (`fail(err)`
 * first); then the page is `checked`. */
export function liveCheck({key, ask, show, fail, delay = 250}) {
  let inFlight = false;
  let timer = 0;
  async function run() {
    if (inFlight) return;
    inFlight = true;
    const sent = key();
    let got = null;
    try {
      got = await ask();
    } catch (err) {
      fail(err);
    } finally {
      inFlight = false;
    }
    if (sent !== key()) {
      run();
      return;
    }
    show(got);
    document.body.dataset.state = "checked";
  }
  return {
    schedule() {
      document.body.dataset.state = "checking";
      clearTimeout(timer);
      timer = setTimeout(run, delay);
    },
    now: run,
  };
}

/** Wire the tool buttons (`[data-tool]`; a click or the keys 1..n pick one, which
 * `onPick(name)` is told and `aria-pressed` marks) and undo (the #undo button and the z
 * key; Ctrl+Z too where `ctrlUndo`). */
export function wireTools(onPick, undo, {ctrlUndo = false} = {}) {
  const tools = [...document.querySelectorAll("[data-tool]")];
  const pick = (t) => {
    onPick(t);
    for (const b of tools) b.setAttribute("aria-pressed", String(b.dataset.tool === t));
  };
  for (const b of tools) b.onclick = () => pick(b.dataset.tool);
  document.getElementById("undo").onclick = undo;
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey && !(ctrlUndo && e.key === "z") || e.metaKey || e.altKey) return;
    const n = e.key.length === 1 ? Number(e.key) : 0;
    if (e.key === "z" || e.key === "Z") undo();
    else if (n >= 1 && n <= tools.length) pick(tools[n - 1].dataset.tool);
  });
}
