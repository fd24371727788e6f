// A player's Doodle sheet at a table, on their phone: what the table announces, the cells they
// shaded on paper (tapped in), and the score the rules give them. The page was opened with the
// player's own link (?key=...): the key is kept for this tab and sent with every call; it opens
// this sheet and nothing else of the studio.
import { drawBoard, miniShape, svg, CELL } from "./board.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const slot = `sheet-key:${location.pathname}`;
const key = params.get("key") || sessionStorage.getItem(slot) || "";
if (key) sessionStorage.setItem(slot, key);
const api = `/api${location.pathname}`;
const state = { view: null, cells: new Set(), saving: false, version: -1 };
window.studioSheet = state;

async function call(method, body) {
  const options = { method, headers: { "X-Sheet-Key": key } };
  if (body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
  const response = await fetch(api, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function error(err) {
  $("error-text").textContent = err ? String(err.message || err) : "";
  $("error").hidden = !err;
}

function draw() {
  const view = state.view;
  const cells = [...state.cells].map((k) => [...k.split(",").map(Number), "#"]);
  const board = drawBoard(view.width, view.height, cells);
  board.id = "sheet-grid";
  if (view.best_rect && !view.over) {
    const [r, c, w, h] = view.best_rect;
    board.append(svg("rect", { class: "named", x: c * CELL + 1.5, y: r * CELL + 1.5, width: w * CELL - 3, height: h * CELL - 3 }));
  }
  board.addEventListener("click", (event) => {
    const t = event.target;
    if (!t.dataset || t.dataset.r === undefined) return;
    const k = `${t.dataset.r},${t.dataset.c}`;
    if (state.cells.has(k)) state.cells.delete(k); else state.cells.add(k);
    draw();
    save();
  });
  $("sheet-board").replaceChildren(board);
}

function show(view, fromServer = true) {
  state.view = view;
  if (fromServer && !state.saving && view.sheet_version !== state.version) {
    state.cells = new Set(view.cells.map(([r, c]) => `${r},${c}`));
    state.version = view.sheet_version;
  }
  $("sheet-title").textContent = `${view.name} · Doodle`;
  $("sheet-table").textContent = `${view.title}, seed ${view.seed}`;
  const where = view.over ? "Game over" : view.phase === "start" ? "The deal" : `Round ${view.round}${view.turn ? `, turn ${view.turn}` : ""}`;
  $("sheet-say").textContent = `${where}: ${view.phase === "start" ? `draw your start card ${view.start_card.id}` : view.say}`;
  const shown = view.phase === "start" ? view.start_card : view.current;
  $("sheet-card").replaceChildren(...(shown ? [miniShape({ rows: shown.rows, cell: 22 }), el("figcaption", shown.id)] : []));
  const rounds = view.round_scores.map((s, i) => `round ${i + 1}: ${s === null ? "-" : s}`);
  const lines = [...rounds, view.over ? `empty cells: ${view.empty} × ${view.empty_penalty} = -${view.penalty}` : `empty cells: ${view.empty}`,
    `total: ${view.total}`];
  if (!view.over) lines.push(`best rectangle now: ${view.best} points${view.phase === "scoring" ? " (written down when the table moves on)" : ""}`);
  $("sheet-score").replaceChildren(...lines.map((line) => el("div", line)));
  draw();
  document.body.dataset.sheetTaps = String(view.taps);
}

function el(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

async function save() {
  state.saving = true;
  try {
    const view = await call("POST", { cells: [...state.cells].map((k) => k.split(",").map(Number)) });
    state.version = view.sheet_version;
    state.saving = false;
    show(view, false);
    error(null);
  } catch (err) {
    state.saving = false;
    error(err);
  }
}

async function poll() {
  try {
    if (!state.saving) show(await call("GET"));
    error(null);
  } catch (err) {
    error(err);
  }
  setTimeout(poll, 1500);
}

$("error-close").addEventListener("click", () => error(null));
document.body.dataset.ready = "yes";
poll();
