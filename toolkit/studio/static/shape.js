// Shape editor: click cells, see `patchwork shape`'s facts and the printed piece, save a patch.
import { post, guarded, el, problemList, showError, clearError } from "./api.js";
import { drawBoard, cellAt } from "./board.js";

const SIDE = 8;
const cells = new Set();
let timer = null;
let asked = 0;

const $ = (id) => document.getElementById(id);

function cellList() {
  return [...cells].map((key) => key.split(",").map(Number));
}

function redrawGrid() {
  const holder = $("shape-grid");
  const board = drawBoard(SIDE, SIDE, cellList().map(([r, c]) => [r, c, "#"]));
  board.id = "shape-board";
  board.addEventListener("click", (event) => {
    const at = cellAt(event);
    if (!at) return;
    const key = at.join(",");
    if (cells.has(key)) cells.delete(key); else cells.add(key);
    redrawGrid();
    later();
  });
  holder.replaceChildren(board);
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 150);
}

function fieldValues(fields) {
  const patch = { id: $("field-id").value.trim(), cells: cellList() };
  for (const name of fields) {
    const value = $(`field-${name}`).value;
    if (value !== "") patch[name] = Number(value);
  }
  return patch;
}

function showFields(fields) {
  for (const label of document.querySelectorAll("#shape-fields label[data-field]")) {
    label.hidden = !fields.includes(label.dataset.field);
  }
}

const yes = (flag) => (flag ? "yes" : "no");

function factRows(f) {
  const cuts = f.cut_lines.map((cut) => `${cut.axis}${cut.index}: ${cut.pieces.join(" + ")}`);
  return [
    ["shape", f.shape],
    ["size", `${f.size} cells, ${f.width}x${f.height} box`],
    ["orientations", `${f.orientations} with reflections, ${f.rotations} by rotation`],
    ["chiral", yes(f.chiral)],
    ["connected", yes(f.connected)],
    ["holes", String(f.holes)],
    ["straight cuts", cuts.length ? cuts.join("; ") : "none"],
    ["Doodle CUT", f.cuttable ? "yes: it splits into two pieces" : "no straight cut"],
    ["placements", `${f.placements} on an empty ${f.board} board${f.allow_flip ? "" : " (rotations only)"}`],
    ["twins", f.deck ? (f.same_shape.length ? `${f.same_shape.join(", ")} in ${f.deck}` : `none in ${f.deck}`) : "pick a deck"],
  ];
}

async function refresh() {
  const ticket = ++asked;
  const deck = $("shape-deck").value;
  const list = cellList();
  if (!list.length) {
    $("shape-facts").replaceChildren(el("dt", { text: "shape" }), el("dd", { text: "draw a patch" }));
    $("shape-card").hidden = true;
    $("shape-text").value = "";
    return;
  }
  try {
    const facts = await post("/api/shape", { cells: list, deck: deck || undefined });
    if (ticket !== asked) return;
    clearError();
    $("shape-text").value = facts.shape;
    $("shape-facts").replaceChildren(...factRows(facts).flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v, "data-fact": k })]));
    const fields = facts.fields || ["cost", "time", "income"];
    showFields(fields);
    if (!deck) { $("shape-card").hidden = true; problemList($("shape-problems"), []); return; }
    const preview = await post("/api/shape/preview", { deck, patch: fieldValues(fields) });
    if (ticket !== asked) return;
    problemList($("shape-problems"), preview.problems);
    if (preview.image) { $("shape-card").src = preview.image; $("shape-card").hidden = false; } else $("shape-card").hidden = true;
  } catch (err) {
    if (ticket === asked) showError(err);
  }
}

async function fromText() {
  const text = $("shape-text").value.trim();
  if (!text) return;
  const facts = await guarded(() => post("/api/shape", { shape: text }));
  if (!facts) return;
  cells.clear();
  facts.rows.forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "#" && r < SIDE && c < SIDE) cells.add(`${r},${c}`); }));
  redrawGrid();
  refresh();
}

async function save() {
  const deck = $("shape-deck").value;
  const fields = [...document.querySelectorAll("#shape-fields label[data-field]")].filter((l) => !l.hidden).map((l) => l.dataset.field);
  try {
    const result = await post("/api/shape/save", { file: $("save-file").value.trim(), deck: deck || undefined,
      extends: deck || undefined, patch: fieldValues(fields) });
    clearError();
    problemList($("shape-problems"), []);
    $("save-result").textContent = `saved ${result.entry.id} into ${result.saved}`;
  } catch (err) {
    showError(err);
    problemList($("shape-problems"), err.problems);
    $("save-result").textContent = "not saved";
  }
}

export function initShape(studio) {
  // a deck from the start, so the first Save has an edition to extend: the family's default edition
  const deck = $("shape-deck");
  const usable = studio.info.families.map((f) => f.default_edition).filter((name) => [...deck.options].some((o) => o.value === name));
  if (usable.length) deck.value = deck.dataset.initial = usable[0];
  redrawGrid();
  $("shape-clear").addEventListener("click", () => { cells.clear(); redrawGrid(); refresh(); });
  $("shape-deck").addEventListener("change", refresh);
  $("shape-text").addEventListener("change", fromText);
  for (const input of document.querySelectorAll("#shape-fields input")) input.addEventListener("input", later);
  $("shape-save").addEventListener("click", save);
}
