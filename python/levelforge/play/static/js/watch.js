// Follows the positions a Python program sends (levelforge.play.watch.Viewer).
import {api, setStatus, sleep, topBar} from "./common.js";

const POLL_MS = 120;

async function follow() {
  let version = -1;
  for (;;) {
    let shown;
    try {
      shown = await api("/api/watch");
    } catch (err) {
      setStatus("The program has stopped sending positions.", "bad");
      document.body.dataset.state = "ended";
      return;
    }
    if (shown.version !== version && shown.version > 0) {
      version = shown.version;
      document.getElementById("board").innerHTML = shown.svg;
      document.getElementById("title").textContent = shown.caption || `position ${version}`;
      document.body.dataset.version = version;
    }
    await sleep(POLL_MS);
  }
}

topBar();
follow();
