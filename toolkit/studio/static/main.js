// The studio page: tabs, the edition lists, and following the folder's changes.
import { clearError, get, guarded, el, q } from "./api.js";
import { initShape } from "./shape.js";
import { initDeck, refreshDeck } from "./deck.js";
import { initPlay } from "./play.js";
import { initRecords, refreshRecordList } from "./records.js";
import { initRuns } from "./runs.js";
import { initTable } from "./table.js";

export const studio = { info: null, specs: null, version: 0, tab: "shape" };
window.studio = studio;

function showTab(name) {
  studio.tab = name;
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== `tab-${name}`;
  document.body.dataset.tab = name;
}

// Fill every edition <select>: bundled editions and variants, then the folder's spec files.
export function fillEditionSelects() {
  const specs = studio.specs;
  if (!specs) return;
  for (const select of document.querySelectorAll("select.edition-select")) {
    const current = select.value || select.dataset.initial || "";
    const files = specs.files.filter((f) => f.kind === "edition" || f.kind === "variant" || f.kind === null);
    const groups = [
      el("optgroup", { label: "this folder" }, ...files.map((f) => el("option", { value: f.path, text: f.path }))),
      el("optgroup", { label: "bundled" }, ...specs.bundled.map((n) => el("option", { value: n, text: n }))),
    ];
    select.replaceChildren(...groups);
    const values = [...select.options].map((o) => o.value);
    select.value = values.includes(current) ? current : (select.dataset.initial && values.includes(select.dataset.initial) ? select.dataset.initial : values[0]);
  }
}

async function loadSpecs() {
  studio.specs = await get("/api/specs");
  fillEditionSelects();
}

// Long-poll the folder's version: an edit in any editor refreshes the lists and the deck view.
async function follow() {
  for (;;) {
    try {
      const answer = await get(`/api/changes?${q({ since: studio.version, wait: 20 })}`);
      if (answer.version !== studio.version) {
        studio.version = answer.version;
        await loadSpecs();
        await refreshDeck({ ifLoaded: true });
        await refreshRecordList();
        document.body.dataset.version = String(studio.version);
      }
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

// Listening on the network: each address another device may open, with its QR code to point a
// phone's camera at (the terminal prints the same codes).
function showLinks(answer) {
  studio.links = answer ? answer.links : [];
  const box = document.getElementById("links");
  box.hidden = !studio.links.length;
  document.getElementById("links-list").replaceChildren(...studio.links.map((link) => el("figure", { class: "link" },
    el("img", { class: "qr", alt: `QR code of ${link.url}`, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr)}` }),
    el("figcaption", {}, el("a", { href: link.url, text: link.url })))));
}

async function start() {
  document.getElementById("error-close").addEventListener("click", clearError);
  for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => showTab(button.dataset.tab));
  const info = await guarded(() => get("/api/info"));
  if (!info) return;
  studio.info = info;
  document.getElementById("folder").textContent = info.folder;
  const first = await guarded(() => get(`/api/changes?${q({ since: 0, wait: 0 })}`));
  studio.version = first ? first.version : 0;
  await guarded(loadSpecs);
  initShape(studio);
  initDeck(studio);
  initPlay(studio);
  initRecords(studio);
  initRuns(studio);
  initTable(studio);
  showLinks(await guarded(() => get("/api/links")));
  showTab(location.hash ? location.hash.slice(1) : "shape");
  document.body.dataset.ready = "yes";
  follow();
}

start();
