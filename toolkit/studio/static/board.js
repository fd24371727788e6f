// Boards and shapes drawn as SVG: a grid of cells, each addressable by data-r / data-c.

const NS = "http://www.w3.org/2000/svg";
export const CELL = 28;
const PALETTE = ["#8e5d3b", "#3f7f8c", "#a0463c", "#5a7d3a", "#6b4f8f", "#b07d2a", "#3d5f95", "#8f4f6e",
  "#4f8a6e", "#9a6a3f", "#57708a", "#7d7d3a"];

export function svg(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

export function colour(label) {
  if (label === "#") return "#5b4a7a";
  if (label === "L") return "#7a4b24";
  let h = 0;
  for (const ch of String(label)) h = (h * 31 + ch.charCodeAt(0)) % 997;
  return PALETTE[h % PALETTE.length];
}

// The fill of a piece placed on a board ({id, kind, colour, index} from the family's view): the
// spec's colour, else the palette by the patch's place in the edition, else by the order it was
// drawn in, so two drawings side by side never share a colour.
export function pieceColour(piece, order) {
  if (piece.colour) return piece.colour;
  if (piece.kind === "start") return "#5b4a7a";
  if (piece.kind === "leather") return "#7a4b24";
  if (piece.kind === "single") return "#444";
  return PALETTE[(piece.index >= 0 ? piece.index : order) % PALETTE.length];
}

// A width x height board; cells: [[r, c, label, piece], ...] where piece indexes `placed`.
// Returns the <svg>.
export function drawBoard(width, height, cells, { seat = null, cell = CELL, placed = null } = {}) {
  const root = svg("svg", { class: "board", width: width * cell + 2, height: height * cell + 2,
    viewBox: `-1 -1 ${width * cell + 2} ${height * cell + 2}` });
  if (seat !== null) root.dataset.seat = seat;
  const covered = new Map((cells || []).map(([r, c, label]) => [`${r},${c}`, label]));
  const pieceAt = new Map((cells || []).map(([r, c, , piece]) => [`${r},${c}`, piece]));
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const label = covered.get(`${r},${c}`);
      const rect = svg("rect", { class: "cell" + (label !== undefined ? " on" : ""), x: c * cell, y: r * cell,
        width: cell, height: cell, "data-r": r, "data-c": c });
      if (label !== undefined) {
        const piece = pieceAt.get(`${r},${c}`);
        rect.style.fill = placed && piece >= 0 && placed[piece] ? pieceColour(placed[piece], piece) : colour(label);
        if (piece >= 0) rect.dataset.piece = piece;
      }
      root.append(rect);
      if (label !== undefined && label !== "#") {
        const text = svg("text", { x: c * cell + cell / 2, y: r * cell + cell / 2 });
        text.textContent = label;
        root.append(text);
      }
    }
  }
  root.append(svg("g", { class: "ghosts" }));
  return root;
}

// The cell under a pointer event, or null.
export function cellAt(event) {
  const target = event.target;
  if (target && target.dataset && target.dataset.r !== undefined) return [Number(target.dataset.r), Number(target.dataset.c)];
  return null;
}

export function setGhost(board, cells, ok, cell = CELL) {
  const layer = board.querySelector("g.ghosts");
  layer.replaceChildren(...cells.map(([r, c]) => svg("rect", { class: "ghost " + (ok ? "ok" : "bad"),
    x: c * cell + 2, y: r * cell + 2, width: cell - 4, height: cell - 4 })));
}

// A small drawing of shape rows ("##.", ".##") or of cells [[r, c], ...].
export function miniShape({ rows = null, cells = null, cell = 10, fill = "#5b4a7a" } = {}) {
  let points = cells;
  if (rows) {
    points = [];
    rows.forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "#") points.push([r, c]); }));
  }
  const norm = normalise(points);
  const h = Math.max(1, ...norm.map(([r]) => r + 1));
  const w = Math.max(1, ...norm.map(([, c]) => c + 1));
  const root = svg("svg", { width: w * cell + 2, height: h * cell + 2, viewBox: `-1 -1 ${w * cell + 2} ${h * cell + 2}` });
  for (const [r, c] of norm) root.append(svg("rect", { x: c * cell, y: r * cell, width: cell, height: cell,
    fill, stroke: "#fff", "stroke-width": 1 }));
  return root;
}

// Cells moved to row 0 / column 0 and sorted: equal for equal shapes in the same orientation.
export function normalise(cells) {
  if (!cells.length) return [];
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - top, c - left]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export const sameCells = (a, b) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
export const rotate = (cells) => cells.map(([r, c]) => [c, -r]);
export const mirror = (cells) => cells.map(([r, c]) => [r, -c]);
