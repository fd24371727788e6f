// Runs: start balance, price, sweep or deck check, watch progress, stop, read the report.
import { get, post, el, guarded, clearError, withToken } from "./api.js";

const $ = (id) => document.getElementById(id);

// Each command's fields: [name, label, default, hint]. A list field takes comma or line separated values.
const FORMS = {
  balance: [["base", "base edition", "classic"], ["variants", "variants (comma separated)", "six-buttons"],
    ["bots", "bots", "greedy,greedy"], ["games", "games", "400"], ["seed", "seed", "1"], ["sprt", "sprt (optional)", ""]],
  price: [["edition", "edition", "classic"], ["patch", "patch id", "P05"], ["values", "values", "0..6:2"],
    ["over", "over", "cost"], ["bots", "bots", "greedy,greedy"], ["games", "games per value (empty: until decided)", ""],
    ["max_games", "most games per value (empty: 20000)", ""], ["seed", "seed", "1"]],
  sweep: [["base", "base edition", "classic"], ["set", "--set (one per line)", "starting_buttons=4..6"],
    ["bots", "bots", "greedy,greedy"], ["games", "games per point", "200"], ["seed", "seed", "1"]],
  "deck-check": [["variant", "variant file", ""], ["base", "base (optional)", ""], ["games", "games", "100"],
    ["search_games", "games with MCTS", "10"], ["seed", "seed", "1"]],
};
const LISTS = { variants: /[,\n]/, set: /\n/ };
const watching = new Set();

function drawForm() {
  const command = $("run-command").value;
  $("run-form").replaceChildren(...FORMS[command].map(([name, label, value]) =>
    el("label", {}, label, name === "set" ? el("textarea", { name, rows: 2, cols: 30 }, value)
      : el("input", { name, value, size: name === "variants" || name === "base" || name === "variant" ? 22 : 10 }))));
}

function formArgs() {
  const args = {};
  for (const input of $("run-form").querySelectorAll("input, textarea")) {
    const value = input.value.trim();
    if (!value) continue;
    args[input.name] = LISTS[input.name] ? value.split(LISTS[input.name]).map((v) => v.trim()).filter(Boolean) : value;
  }
  return args;
}

// "3200/8000 games (4000 for each of 2 editions)": the progress bar counts every game of the run,
// --games counts them per edition, value or point
export function gamesText(run) {
  if (!run.total) return "";
  const each = run.games && run.games_per && run.total % run.games === 0 && run.total > run.games
    ? ` (${run.games} for each of ${run.total / run.games} ${run.games_per}s)` : "";
  return `${run.done}/${run.total} games${each}`;
}

function runBox(run) {
  const progress = run.total ? el("progress", { max: run.total, value: run.done }) : el("progress");
  const box = el("div", { class: "run", id: `run-${run.id}`, "data-state": run.state },
    el("div", {}, el("strong", { text: `${run.command_name} — ${run.state}` }),
      el("span", { class: "games", text: ` ${gamesText(run)}` }), ` · ${run.seconds} s`),
    el("code", { text: run.command }),
    run.state === "running" ? progress : null,
    run.state === "running" ? el("button", { class: "stop", onclick: () => stop(run.id), text: "Stop" }) : null,
    run.state === "finished" || run.state === "failed" ? el("button", { class: "report", onclick: () => report(run.id), text: "Show result" }) : null,
    run.stderr && run.state !== "running" ? el("pre", { class: "stderr", text: run.stderr }) : null);
  return box;
}

async function refresh() {
  const answer = await guarded(() => get("/api/runs"));
  if (!answer) return;
  $("run-list").replaceChildren(...answer.runs.map(runBox));
  return answer.runs;
}

async function watch() {
  for (;;) {
    const runs = await refresh();
    if (!runs || !runs.some((r) => r.state === "running" || r.state === "stopping")) return;
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
}

async function start() {
  const run = await guarded(() => post("/api/runs", { command: $("run-command").value, args: formArgs() }));
  if (!run) return;
  clearError();
  watch();
}

async function stop(id) {
  await guarded(() => post(`/api/runs/${id}/stop`));
  watch();
}

async function report(id) {
  const rep = await guarded(() => get(`/api/runs/${id}/report`));
  if (!rep) return;
  const parts = [el("h3", { text: `Result of ${id}` })];
  if (rep.pdf_pages) parts.push(el("p", {}, el("a", { class: "pdf", href: withToken(`/api/runs/${id}/files/report.pdf`), target: "_blank", rel: "noopener" }, "report.pdf"),
    ` (${rep.pdf_pages} page${rep.pdf_pages > 1 ? "s" : ""}; the pages below are pictures of it)`));
  for (const image of rep.images) parts.push(el("img", { src: withToken(`/api/runs/${id}/files/${encodeURIComponent(image)}`), alt: image }));
  for (let page = 0; page < rep.pdf_pages; page++) parts.push(el("img", { src: withToken(`/api/runs/${id}/pages/${page}`), alt: `report page ${page + 1}` }));
  if (rep.markdown) parts.push(el("pre", { class: "markdown", text: rep.markdown }));
  if (rep.json) parts.push(el("pre", { class: "json", text: rep.json }));
  $("run-report").replaceChildren(el("div", { class: "report" }, ...parts));
  // the result is drawn under the list of runs: bring it into view
  $("run-report").scrollIntoView({ block: "start" });
}

export function initRuns(studio) {
  $("run-command").addEventListener("change", drawForm);
  $("run-start").addEventListener("click", start);
  drawForm();
  document.querySelector('#tabs button[data-tab="runs"]').addEventListener("click", watch);
}
