// Shared by every page: the top bar, calls to the JSON API, the status and error lines.

const NAV = [
  ["/sokoban", "Sokoban"],
  ["/symmetry", "Symmetry"],
  ["/mines", "HyperMines 3D"],
  ["/defense", "Lighthouse"],
  ["/gallery", "Gallery"],
];

/** Draw the top bar into <header id="top">, marking the current page. */
export function topBar() {
  const header = document.getElementById("top");
  const here = "/" + location.pathname.split("/")[1];
  const links = NAV.map(([href, name]) =>
    `<a href="${href}"${href === here ? ' aria-current="page"' : ""}>${name}</a>`).join("");
  header.innerHTML = `<a class="brand" href="/"><img src="/static/favicon.svg" alt="">` +
    `levelforge <span>play</span></a><nav>${links}</nav>`;
}

export class ApiError extends Error {}

/** GET `path`, or POST `body` as JSON; the parsed answer, or an ApiError with the
 * server's message. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  let response;
  const waiting = {answered: false};
  showPreparing(waiting);
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError("the server does not answer: is levelforge play still running?");
  } finally {
    waiting.answered = true;
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new ApiError(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ApiError(data.error || `error ${response.status}`);
  return data;
}

/** While a call is not `answered` after a second, say which kernels the server is
 * preparing (a machine's first run compiles them), if any; the status line is put back
 * as it was once the answer comes. */
async function showPreparing(waiting) {
  const line = document.getElementById("status");
  await sleep(1000);
  if (!line || waiting.answered) return;
  const before = [line.textContent, line.dataset.kind];
  let shown = false;
  while (!waiting.answered) {
    let status;
    try {
      status = await (await fetch("/api/status")).json();
    } catch (err) {
      break;
    }
    const preparing = Object.entries(status.systems || {})
      .filter(([, s]) => s.state === "preparing")
      .map(([name, s]) => `${name} (${s.kernels} kernels compiled in ${s.seconds} s)`);
    if (preparing.length && !waiting.answered) {
      setStatus(`Preparing the kernels (first run only): ${preparing.join(", ")} ...`, "busy");
      shown = true;
    }
    await sleep(500);
  }
  if (shown && line.textContent.startsWith("Preparing the kernels")) {
    setStatus(before[0], before[1] || "");
  }
}

/** Wait until the server's workers have prepared `system`'s kernels (compiled on a
 * machine's first run, loaded from the cache later), calling `say(progress)` every half
 * second meanwhile with the system's entry of /api/status ({state, kernels, seconds}). */
export async function whenReady(system, say) {
  for (;;) {
    const progress = (await api("/api/status")).systems[system];
    if (!progress || progress.state === "ready") return;
    say(progress);
    await sleep(500);
  }
}

/** Show `message` in the page's error line (role=alert); null hides it. */
export function showError(message) {
  const box = document.getElementById("error");
  box.hidden = !message;
  box.textContent = message || "";
}

/** Set the status line: `kind` is "", "good", "bad" or "busy". */
export function setStatus(text, kind = "") {
  const line = document.getElementById("status");
  line.textContent = text;
  line.dataset.kind = kind;
}

/** Escape text for HTML. */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;"})[c]);
}

/** A random seed for a page opened without one (the URL then names it). */
export function randomSeed() {
  return Math.floor(Math.random() * 1_000_000);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wire the Random button (#dice) of `form` (a new seed, then submit) and the share box
 * (#share holds the page's URL, #copy copies it). */
export function wireSeedAndShare(form) {
  document.getElementById("dice").onclick = () => {
    form.elements.seed.value = randomSeed();
    form.requestSubmit();
  };
  const share = document.getElementById("share");
  document.getElementById("copy").onclick = () => {
    share.select();
    navigator.clipboard?.writeText(share.value).catch(() => {});
  };
}

/** True when a key event is typed into a form field (games then ignore it). */
export function typing(event) {
  const t = event.target;
  return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA",
    "SELECT"].includes(t.tagName));
}
