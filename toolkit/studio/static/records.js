// Records: open a game record of the folder and step through it move by move.
import { get, q, el, guarded, clearError } from "./api.js";
import { drawPosition } from "./play.js";

const $ = (id) => document.getElementById(id);
let steps = 0;

async function showStep(step) {
  const path = $("record-path").value;
  if (!path) return;
  const view = await guarded(() => get(`/api/record?${q({ path, step })}`));
  if (!view) return;
  clearError();
  steps = view.steps;
  $("record-slider").max = String(view.steps);
  $("record-slider").value = String(view.step);
  drawPosition(view, { boards: $("record-boards"), inPlay: $("record-in-play"), text: $("record-text") });
  $("record-step").textContent = view.step === 0 ? `the deal (${view.steps} actions)` :
    `action ${view.step} of ${view.steps}: ${view.action}${view.over ? " — game over" : ""}`;
  document.body.dataset.recordStep = String(view.step);
  const chance = view.chance || [];
  const keys = [...new Set(chance.flatMap((entry) => Object.keys(entry)))];
  const cell = (v) => (v === null || v === undefined ? "" : Array.isArray(v) ? v.map((x) => x ?? "-").join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v));
  $("record-chance").replaceChildren(
    el("tr", {}, ...keys.map((k) => el("th", { text: k }))),
    ...chance.map((entry, i) => el("tr", { class: i === chance.length - 1 ? "current" : "" }, ...keys.map((k) => el("td", { text: cell(entry[k]) })))));
}

export async function refreshRecordList() {
  const answer = await guarded(() => get("/api/records"));
  if (!answer) return;
  const select = $("record-path");
  const current = select.value;
  select.replaceChildren(...answer.records.map((path) => el("option", { value: path, text: path })));
  if (answer.records.includes(current)) select.value = current;
}

const at = () => Number($("record-slider").value);

export function initRecords(studio) {
  $("record-path").addEventListener("change", () => showStep(0));
  $("record-first").addEventListener("click", () => showStep(0));
  $("record-prev").addEventListener("click", () => showStep(Math.max(0, at() - 1)));
  $("record-next").addEventListener("click", () => showStep(Math.min(steps, at() + 1)));
  $("record-last").addEventListener("click", () => showStep(steps));
  $("record-slider").addEventListener("change", () => showStep(at()));
  document.addEventListener("keydown", (event) => {
    if (document.body.dataset.tab !== "records" || event.target.tagName === "INPUT" && event.target.type !== "range") return;
    if (event.key === "ArrowRight") $("record-next").click();
    else if (event.key === "ArrowLeft") $("record-prev").click();
  });
  document.querySelector('#tabs button[data-tab="records"]').addEventListener("click", async () => {
    await refreshRecordList();
    if (!document.body.dataset.recordStep) showStep(0);
  });
}
