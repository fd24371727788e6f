// Play: a game against bots, placed by clicks with a ghost under the pointer.
import { get, post, guarded, el, showError, clearError, withToken } from "./api.js";
import { drawBoard, cellAt, setGhost, miniShape, sameCells, rotate, mirror, svg, CELL } from "./board.js";

const $ = (id) => document.getElementById(id);
const state = { game: null, piece: null, orientation: 0, pointer: null, busy: false, touch: false };
window.studioPlay = state;

// Draw a position's boards, pieces in play and text into the given elements (Play and Records).
export function drawPosition(view, { boards, inPlay, text }, active = null) {
  boards.replaceChildren(...view.boards.map((b) => {
    const board = drawBoard(view.width, view.height, b.cells, { seat: b.seat, placed: b.placed });
    for (const [r, c, w, h] of b.rectangles || []) {
      board.append(svg("rect", { class: "named", x: c * CELL + 1.5, y: r * CELL + 1.5, width: w * CELL - 3, height: h * CELL - 3 }));
    }
    if (active === b.seat) board.classList.add("active");
    // the seat's figures as its family words them (the prompt's and `patchwork show`'s lines):
    // the score stands beside what makes it up (buttons and empty cells, each round's rectangle)
    const facts = b.facts && b.facts.length ? b.facts : [`score ${view.scores[b.seat]}`];
    const caption = el("figcaption", {}, el("strong", { text: `${b.name}${b.player ? ` (${b.player})` : ""}` }),
      ...facts.map((line) => el("span", { class: "fact", text: line })));
    return el("figure", { class: active === b.seat ? "active" : "", "data-seat": b.seat }, caption, board);
  }));
  if (inPlay) inPlay.replaceChildren(...view.pieces.map((p) => el("figure", { title: p.role, "data-id": p.id },
    miniShape({ rows: p.rows, cell: 9, fill: "#8e5d3b" }), el("figcaption", { text: `${p.id} (${p.role})` }),
    p.details ? el("span", { class: "price", text: p.details }) : null)));
  if (text) text.textContent = view.text;
}

// The cell of a placement the pointer stands on: the drawn cell nearest to the piece's middle.
function anchor(cells) {
  const mr = cells.reduce((s, [r]) => s + r, 0) / cells.length;
  const mc = cells.reduce((s, [, c]) => s + c, 0) / cells.length;
  let best = cells[0], dist = Infinity;
  for (const cell of cells) {
    const d = (cell[0] - mr) ** 2 + (cell[1] - mc) ** 2;
    if (d < dist - 1e-9) { dist = d; best = cell; }
  }
  return best;
}

function entry() {
  return state.piece ? state.piece.orientations[state.orientation] : null;
}

// The action placed with the pointer on cell (r, c), or null when that placement is illegal.
function placedAt(r, c) {
  const e = entry();
  if (!e) return null;
  const [ar, ac] = anchor(e.cells);
  const pr = r - ar, pc = c - ac;
  const hit = e.at.find(([rr, cc]) => rr === pr && cc === pc);
  return { cells: e.cells.map(([dr, dc]) => [pr + dr, pc + dc]), action: hit ? hit[2] : null };
}

// For tests and the keyboard: the pointer cell of the first legal placement of the selection.
state.firstLegalCell = () => {
  const e = entry();
  if (!e || !e.at.length) return null;
  const [ar, ac] = anchor(e.cells);
  return [e.at[0][0] + ar, e.at[0][1] + ac];
};

function activeBoard() {
  const seat = state.game ? state.game.current : null;
  return seat === null ? null : document.querySelector(`#play-boards svg[data-seat="${seat}"]`);
}

function drawGhost() {
  const board = activeBoard();
  if (!board) return;
  if (!state.pointer || !entry()) { setGhost(board, [], true); return; }
  const placed = placedAt(...state.pointer);
  const width = state.game.width, height = state.game.height;
  setGhost(board, placed.cells.filter(([r, c]) => r >= 0 && c >= 0 && r < height && c < width), placed.action !== null);
}

const RECT = /r(\d+) c(\d+) (\d+)x(\d+)/;

function showRect(text) {
  const board = activeBoard();
  const m = text ? RECT.exec(text) : null;
  if (!board) return;
  if (!m) { drawGhost(); return; }
  const [r, c, w, h] = m.slice(1).map(Number);
  const cells = [];
  for (let dr = 0; dr < h; dr++) for (let dc = 0; dc < w; dc++) cells.push([r + dr, c + dc]);
  setGhost(board, cells, true);
}

// Pick a legal piece (an index into moves.pieces). Pieces of one group (a card drawn whole or
// cut, `cut h1 a draw`) share one button; the group's variants are a row of their own.
function select(index) {
  const moves = state.game && state.game.moves;
  state.piece = moves && index !== null ? moves.pieces[index] : null;
  state.orientation = 0;
  const group = state.piece ? state.piece.group : null;
  for (const button of document.querySelectorAll("#play-pieces button")) button.classList.toggle("selected", button.dataset.group === group);
  const variants = state.piece ? moves.pieces.map((p, i) => [p, i]).filter(([p]) => p.group === group) : [];
  $("play-variants").replaceChildren(...(variants.length > 1 ? variants.map(([p, i]) => el("button", {
    "data-variant": p.variant, class: i === index ? "selected" : "", onclick: () => select(i) }, p.variant)) : []));
  placeButton();
  drawGhost();
}

// The on-screen controls (a phone has no r / f / o keys): enabled while a piece is picked.
function placeButton() {
  const placed = state.pointer && entry() ? placedAt(...state.pointer) : null;
  $("play-place").disabled = !(placed && placed.action);
  for (const id of ["play-rotate", "play-flip", "play-turn", "play-putback"]) $(id).disabled = !state.piece;
}

function turn(transform) {
  if (!state.piece) return;
  const wanted = transform(entry().cells);
  const found = state.piece.orientations.findIndex((o) => sameCells(o.cells, wanted));
  if (found >= 0) state.orientation = found;
  drawGhost();
  placeButton();
}

function nextOrientation() {
  if (!state.piece) return;
  state.orientation = (state.orientation + 1) % state.piece.orientations.length;
  drawGhost();
  placeButton();
}

async function act(action) {
  if (state.busy) return;
  state.busy = true;
  document.body.dataset.playBusy = "yes";
  try {
    show(await post(`/api/play/${state.game.id}/act`, { action }));
    clearError();
  } catch (err) {
    showError(err);
  } finally {
    state.busy = false;
    document.body.dataset.playBusy = "no";
  }
}

function show(view) {
  const keep = state.piece ? state.piece.label : null;
  state.game = view;
  $("play-game").hidden = false;
  drawPosition(view, { boards: $("play-boards"), inPlay: $("play-in-play"), text: $("play-text") }, view.your_turn ? view.current : null);
  const board = activeBoard();
  state.pointer = null;
  if (board && view.your_turn) {
    // a touch has no hover: the first tap shows the piece there (the preview), a second tap on
    // the same cell, or Place, puts it down
    board.addEventListener("pointerdown", (event) => { state.touch = event.pointerType === "touch" || event.pointerType === "pen"; });
    board.addEventListener("mousemove", (event) => { if (state.touch) return; const at = cellAt(event); if (at) { state.pointer = at; drawGhost(); placeButton(); } });
    board.addEventListener("mouseleave", () => { if (state.touch) return; state.pointer = null; drawGhost(); placeButton(); });
    board.addEventListener("click", (event) => {
      const at = cellAt(event);
      if (!at || !entry()) return;
      const again = state.pointer && state.pointer[0] === at[0] && state.pointer[1] === at[1];
      state.pointer = at;
      drawGhost();
      placeButton();
      if (state.touch && !again) return;
      place();
    });
  }
  const moves = view.moves || { pieces: [], buttons: [] };
  const groups = [];
  moves.pieces.forEach((p, i) => { if (!groups.some((g) => g.group === p.group)) groups.push({ group: p.group, first: i, piece: p }); });
  const none = view.your_turn && !groups.length ? [el("span", { class: "muted", text: "none to place now (see the other actions)" })] : [];
  $("play-pieces").replaceChildren(...none, ...groups.map(({ group, first, piece }) => {
    const variants = moves.pieces.filter((p) => p.group === group).length;
    return el("button", { "data-label": piece.label, "data-group": group, onclick: () => select(first),
      "aria-label": `${group}${piece.details ? `, ${piece.details}` : ""}${variants > 1 ? `, ${variants} ways` : ""}` },
    miniShape({ cells: piece.orientations[0].cells }), el("span", { text: group }),
    piece.details ? el("span", { class: "price", text: piece.details }) : null,
    variants > 1 ? el("span", { class: "muted", text: `whole or cut: ${variants} ways` }) : null);
  }));
  // an action naming a rectangle (`score B1 5x4`, sent as the record's `score r0 c1 5x4`) shows
  // it on the board while pointed at; the largest come first
  const area = (action) => { const m = RECT.exec(action); return m ? Number(m[3]) * Number(m[4]) : -1; };
  const listed = [...moves.buttons].sort((a, b) => area(b.action) - area(a.action));
  const buttons = listed.map(({ action, text }) => el("button", { "data-action": action, onclick: () => act(action),
    onmouseenter: () => showRect(action), onmouseleave: () => showRect(null) }, text));
  if (moves.more_buttons) buttons.push(el("span", { class: "muted", text: `and ${moves.more_buttons} more: type one` }));
  $("play-buttons").replaceChildren(...buttons);
  const index = moves.pieces.findIndex((p) => p.label === keep);
  select(index >= 0 ? index : (moves.pieces.length === 1 ? 0 : null));
  // the family's own status line (as the prompt and `patchwork show` word it), then what just happened
  let status;
  if (view.over) status = view.status.replace(/^game over/, "Game over");
  else if (view.your_turn) status = `${view.status}${view.event ? ` — ${view.event}` : ""}`;
  else status = "bots are playing";
  $("play-status").textContent = status;
  document.body.dataset.playOver = view.over ? "yes" : "no";
  document.body.dataset.playMoves = String(view.history.length);
  $("play-log").textContent = [...view.bot_moves].join("\n");
  $("play-undo").disabled = !view.can_undo;
  $("play-record").href = withToken(`/api/play/${view.id}/record`);
  $("play-hint-text").hidden = true;
}

function place() {
  if (!state.pointer || !entry()) return;
  const placed = placedAt(...state.pointer);
  if (placed.action) act(placed.action);
  else showError("that placement is not legal here (red): move the piece, or turn it (Rotate / Flip / Turn, or r / f / o)");
}

async function startGame() {
  const seats = $("play-seats").value.split(",").map((s) => s.trim()).filter(Boolean);
  $("play-status").textContent = "dealing (the first game of a rules family compiles its rules once, which takes a while)";
  $("play-game").hidden = false;
  const view = await guarded(() => post("/api/play", { edition: $("play-edition").value, seed: Number($("play-seed").value || 0), seats }));
  if (view) { clearError(); show(view); }
}

async function hint() {
  $("play-hint-text").hidden = false;
  $("play-hint-text").textContent = "thinking...";
  const answer = await guarded(() => get(`/api/play/${state.game.id}/hint`));
  if (!answer) { $("play-hint-text").hidden = true; return; }
  $("play-hint-text").replaceChildren(answer.text, ...(answer.action ? [" ", el("button", { onclick: () => act(answer.action), text: `play ${answer.action_text}` })] : []));
}

export function initPlay(studio) {
  const editions = $("play-edition");
  editions.dataset.initial = "doodle";
  editions.value = [...editions.options].some((o) => o.value === "doodle") ? "doodle" : editions.value;
  $("play-start").addEventListener("click", startGame);
  $("play-send").addEventListener("click", () => { const text = $("play-action").value.trim(); if (text) act(text); });
  $("play-action").addEventListener("keydown", (event) => { if (event.key === "Enter") $("play-send").click(); });
  $("play-hint").addEventListener("click", hint);
  $("play-rotate").addEventListener("click", () => turn(rotate));
  $("play-flip").addEventListener("click", () => turn(mirror));
  $("play-turn").addEventListener("click", nextOrientation);
  $("play-place").addEventListener("click", place);
  $("play-putback").addEventListener("click", () => select(null));
  $("play-undo").addEventListener("click", async () => { const view = await guarded(() => post(`/api/play/${state.game.id}/undo`)); if (view) show(view); });
  document.addEventListener("keydown", (event) => {
    if (document.body.dataset.tab !== "play" || event.target.tagName === "INPUT") return;
    if (event.key === "r") turn(rotate);
    else if (event.key === "f") turn(mirror);
    else if (event.key === "o") nextOrientation();
    else if (event.key === "Escape") select(null);
  });
}
