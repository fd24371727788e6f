// Table: Doodle dealt for a group playing on printed pads, one tap at a time, in big type; each
// player's link (with its own key) opens a sheet on a phone that scores itself.
import { get, post, el, guarded, clearError, withToken } from "./api.js";
import { miniShape } from "./board.js";

const $ = (id) => document.getElementById(id);
const state = { table: null, timer: null };
window.studioTable = state;

// Where a phone opens a player's sheet: the studio's first network address, else this page's.
function sheetLink(view, seat) {
  const bases = (window.studio.links || []).map((l) => new URL(l.url).origin);
  const base = bases.length ? bases[0] : location.origin;
  return `${base}/sheet/${view.id}/${seat.seat}?key=${encodeURIComponent(seat.key)}`;
}

function card(c, cell) {
  return el("figure", { class: `card role-${c.role.replace(/ /g, "-")}`, "data-id": c.id },
    miniShape({ rows: c.rows, cell, fill: "#5b4a7a" }), el("figcaption", { text: `${c.id} · ${c.role}` }));
}

function show(view) {
  state.table = view;
  $("table-game").hidden = false;
  $("table-where").textContent = view.over ? "Game over" : view.phase === "start" ? "The deal" :
    `Round ${view.round} of ${view.rounds}${view.turn ? ` · turn ${view.turn}` : ""}`;
  $("table-roll").textContent = view.roll ? String(view.roll) : "";
  $("table-roll").setAttribute("aria-label", view.roll ? `the die shows ${view.roll}` : "");
  $("table-roll").hidden = !view.roll;
  $("table-say").textContent = view.say;
  $("table-card").replaceChildren(...(view.current ? [miniShape({ rows: view.current.rows, cell: 44, fill: "#5b4a7a" }),
    el("figcaption", { text: view.current.id })] : []));
  $("table-card").hidden = !view.current;
  $("table-cards").replaceChildren(...(view.phase === "start"
    ? view.start_cards.map((c, i) => card({ ...c, role: `player ${i + 1}'s start card` }, 16))
    : view.cards.map((c) => card(c, c.role === "circle" ? 10 : 16))));
  $("table-notes").textContent = [...view.notes, `${view.title}, seed ${view.seed}, ${view.players} players`].join(" · ");
  $("table-next").disabled = view.over;
  $("table-seats").replaceChildren(...view.seats.map((seat) => {
    const link = sheetLink(view, seat);
    const rounds = seat.round_scores.map((s) => (s === null ? "-" : s)).join(", ");
    return el("div", { class: "table-seat", "data-seat": seat.seat },
      el("strong", { text: `player ${seat.seat + 1}` }),
      el("span", { class: "seat-score", text: `rounds ${rounds}; ${seat.empty} empty; total ${seat.total}` }),
      el("img", { class: "qr", alt: `QR code of player ${seat.seat + 1}'s sheet`, src: withToken(`/api/qr?text=${encodeURIComponent(link)}`) }),
      el("a", { href: link, target: "_blank", rel: "noopener", class: "sheet-link", text: "player's sheet" }));
  }));
  document.body.dataset.tableTaps = String(view.taps);
}

async function deal() {
  const view = await guarded(() => post("/api/table", { edition: $("table-edition").value,
    players: Number($("table-players").value || 0), seed: Number($("table-seed").value || 0) }));
  if (view) { clearError(); show(view); follow(); }
}

async function next() {
  if (!state.table || state.busy) return;
  state.busy = true;
  try {
    const view = await guarded(() => post(`/api/table/${state.table.id}/next`));
    if (view) { clearError(); show(view); }
  } finally { state.busy = false; }
}

// the players' scores change from their phones: look again every few seconds while the tab shows
function follow() {
  clearInterval(state.timer);
  state.timer = setInterval(async () => {
    if (document.body.dataset.tab !== "table" || !state.table || state.busy) return;
    try { show(await get(`/api/table/${state.table.id}`)); } catch (err) { /* the banner is for actions */ }
  }, 3000);
}

export function initTable(studio) {
  const editions = $("table-edition");
  editions.value = [...editions.options].some((o) => o.value === "doodle") ? "doodle" : editions.value;
  $("table-deal").addEventListener("click", deal);
  $("table-next").addEventListener("click", next);
  document.addEventListener("keydown", (event) => {
    if (document.body.dataset.tab === "table" && event.target.tagName !== "INPUT" && (event.key === " " || event.key === "ArrowRight")) {
      event.preventDefault();
      next();
    }
  });
}
