// Deck view: every patch of an edition as its printed piece, sortable, with the spec's problems.
import { get, q, el, problemList, showError, clearError } from "./api.js";

const $ = (id) => document.getElementById(id);
let current = null;
const PIECE_PX = 170;
const MAX_PX_PER_MM = 2;
let asked = 0;

function render() {
  if (!current) return;
  const key = $("deck-sort").value || "id";
  const desc = $("deck-desc").checked;
  const rows = [...current.patches];
  rows.sort((a, b) => {
    const x = a[key], y = b[key];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return (desc ? -order : order) || a.id.localeCompare(b.id);
  });
  const fields = current.fields || [];
  // one scale for the whole deck (px per printed mm), so every cell is drawn the same size: the
  // largest piece fits PIECE_PX, and a 2-cell patch looks a third of a 6-cell one
  const largest = Math.max(1, ...rows.filter((p) => p.image_mm).map((p) => Math.max(...p.image_mm)));
  // (on a phone two tiles share a row)
  const scale = Math.min(MAX_PX_PER_MM, Math.min(PIECE_PX, Math.floor(innerWidth / 2) - 40) / largest);
  $("deck-tiles").dataset.pxPerMm = scale.toFixed(4);
  $("deck-tiles").replaceChildren(...rows.map((p) => {
    const numbers = [...fields.map((f) => `${f} ${p[f]}`), `size ${p.size}`];
    if (p.residual !== undefined) numbers.push(`residual ${p.residual > 0 ? "+" : ""}${p.residual}`);
    return el("div", { class: "tile", "data-id": p.id },
      p.image ? el("img", { src: p.image, alt: p.id, width: p.image_mm ? Math.round(p.image_mm[0] * scale) : null,
        height: p.image_mm ? Math.round(p.image_mm[1] * scale) : null }) : null,
      el("div", { class: "id", text: p.id }),
      el("div", { class: "numbers", text: numbers.join(" · ") }));
  }));
}

export async function refreshDeck({ ifLoaded = false } = {}) {
  const ref = $("deck-ref").value;
  if (!ref || (ifLoaded && !current)) return;
  const ticket = ++asked;
  try {
    const answer = await get(`/api/deck?${q({ ref })}`);
    if (ticket !== asked) return;  // a later choice has been asked for meanwhile
    current = answer;
    clearError();
  } catch (err) {
    showError(err);
    return;
  }
  problemList($("deck-problems"), current.problems);
  const keys = ["id", ...(current.sort_keys || [])];
  const chosen = $("deck-sort").value;
  $("deck-sort").replaceChildren(...keys.map((k) => el("option", { value: k, text: k })));
  $("deck-sort").value = keys.includes(chosen) ? chosen : "id";
  const e = current.edition;
  $("deck-title").textContent = e ? `${e.title} — ${e.family}, board ${e.board}, ${current.patches.length} patches` : "the spec does not load";
  render();
  $("deck-tiles").dataset.ref = current.ref;
  document.body.dataset.deckVersion = String((Number(document.body.dataset.deckVersion) || 0) + 1);
}

export function initDeck(studio) {
  $("deck-ref").addEventListener("change", () => refreshDeck());
  $("deck-sort").addEventListener("change", render);
  $("deck-desc").addEventListener("change", render);
  document.querySelector('#tabs button[data-tab="deck"]').addEventListener("click", () => { if (!current) refreshDeck(); });
}
