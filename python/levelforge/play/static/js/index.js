import {api, esc, topBar} from "./common.js";

topBar();
api("/api/info").then((info) => {
  if (!info.file) return;
  const f = info.file;
  if (f.kind === "defense") {
    document.getElementById("gallery-text").textContent = "The scenario file opened is " +
      "played on the Last Lighthouse page.";
    document.querySelector("#defense-card p").innerHTML = `<b>${esc(f.name)}</b>: the ` +
      "scenario this server was started with.";
    return;
  }
  document.getElementById("gallery-text").innerHTML =
    `<b>${esc(f.name)}</b>: ${f.count.toLocaleString("en")} ${esc(f.kind)} levels, with ` +
    "histograms and filters.";
});
