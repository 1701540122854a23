import {api, esc, topBar} from "./common.js";

topBar();
api("/api/info").then((info) => {
  if (!info.file) return;
  const f = info.file;
  document.getElementById("gallery-text").innerHTML =
    `<b>${esc(f.name)}</b>: ${f.count.toLocaleString("en")} ${esc(f.kind)} levels, with ` +
    "histograms and filters.";
});
