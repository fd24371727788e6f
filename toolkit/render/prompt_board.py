"""The board at the play prompt: a Position (toolkit.families.view) drawn as text, in colour on a
terminal (through rich) and as plain text with NO_COLOR or in a pipe.

Each cell is three columns: a mark and a two-letter label. A patch's cells carry its id (`17`
for P17, `LL` a leather patch) on the patch's own colour; a Doodle drawing carries the card it
came from on pencil grey, the start patch `st`, a SINGLE cell `##`. The mark is `*` on the
seat's latest placement (also drawn in a bright colour), and on a Doodle sheet the round whose
scored rectangle holds the cell (`1`, `2`, `3`). The time track is one character per space with
both tokens standing on it; the lines under it name each token's next income mark and leather
patch. Nothing here asks which family a game belongs to: it draws what the Position holds.
"""
from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Literal

from toolkit.families.view import DRAWING, LEATHER, PATCH, SINGLE, START, Board, Position, Track
from toolkit.games.squares import column_name, people_text, square_name
from toolkit.games.text import draw_side_by_side

Segment = tuple[str, str | None]
"""A piece of text and its rich style (None: plain)."""
Line = list[Segment]

LAST_STYLE = "bold black on #00e5ff"
"""The latest placement of a board (its cells also carry the `*` mark)."""
EMPTY_STYLE = "#8a8a8a"
PENCIL = "#a8a8a8"
START_COLOUR = "#c8553d"
LEATHER_COLOUR = "#8a5a2b"
ROUND_STYLE = "bold magenta"
ROUND_STYLES = ("bold magenta", "bold #00acc1", "bold #f57f17", "bold #2e7d32", "bold #6a1b9a")
"""The edges of the rectangle scored in round 1, 2, 3 ..."""
TOKEN_STYLES = ("bold white on #c62828", "bold white on #1565c0", "bold black on #f9a825", "bold white on #2e7d32")
INCOME_STYLE = "bold #e0a526"
LEATHER_STYLE = "bold #8a5a2b"
DIM = "#8a8a8a"
TEXT_WIDTH = 100
"""Columns the boards may use side by side before the next board starts a new row."""


ColourSystem = Literal["standard", "256", "truecolor", "windows"]
"""rich's colour systems a terminal may have."""

def label(piece_id: str, kind: str) -> str:
    """The two letters a piece's cells carry."""
    if kind == LEATHER:
        return "LL"
    if kind == START:
        return "st"
    if kind == SINGLE:
        return "##"
    digits = re.sub(r"^[A-Za-z]+", "", piece_id)
    short = digits if 0 < len(digits) <= 2 else piece_id[-2:]
    return short.rjust(2)


def _text_colour(background: str) -> str:
    r, g, b = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"


def piece_style(kind: str, colour: str | None, colour_index: int) -> str:
    from toolkit.render.theme import patch_colour

    if kind == LEATHER:
        fill = LEATHER_COLOUR
    elif kind == START:
        fill = START_COLOUR
    elif kind in (DRAWING, SINGLE):
        fill = PENCIL
    else:
        fill = patch_colour(max(colour_index, 0), colour)
    return f"{_text_colour(fill)} on {fill}"


# ----- the boards -------------------------------------------------------------------------------


def board_lines(board: Board, highlight: frozenset = frozenset()) -> list[Line]:
    """One seat's quilt or sheet: a title, a column ruler, then one line per row. `highlight`:
    cells to show as the latest placement instead of the board's own (a preview).

    The column before each cell holds a mark: `*` on the latest placement, `|` on the left and
    right edges of a scored rectangle (in its round's colour)."""
    width = board.width
    marker = " (to move)" if board.to_move else ""
    lines: list[Line] = [[(f"   {board.name}{marker}", "bold" if board.to_move else None)]]
    lines.append([("   " + "".join(f"{column_name(c):>3}" for c in range(width)), DIM)])
    covered = board.covered()
    last = highlight or board.last_cells
    edges: dict[tuple[int, int], int] = {}
    for rect in board.scored:
        for r in range(rect.row, rect.row + rect.height):
            edges[(r, rect.col)] = rect.round
            edges[(r, rect.col + rect.width)] = rect.round
    for r in range(board.height):
        line: Line = [(f"{r + 1:>3}", DIM)]
        for c in range(width + 1):
            edge = edges.get((r, c))
            if c < width and (r, c) in last:
                mark: Segment = ("*", LAST_STYLE)
            elif edge is not None:
                mark = ("|", ROUND_STYLES[(edge - 1) % len(ROUND_STYLES)])
            elif c and covered.get((r, c)) is not None and covered.get((r, c)) is covered.get((r, c - 1)):
                here = covered[(r, c)]
                mark = (" ", piece_style(here.kind, here.colour, here.colour_index))  # one patch, one block
            else:
                mark = (" ", None)
            if c == width:
                if mark[0] != " ":
                    line.append(mark)
                break
            piece = covered.get((r, c))
            if piece is None and (r, c) not in last:
                line += [mark, (" ·", EMPTY_STYLE)]
                continue
            text = label(piece.id, piece.kind) if piece is not None else "  "
            style = LAST_STYLE if (r, c) in last or piece is None else piece_style(piece.kind, piece.colour, piece.colour_index)
            line += [mark, (text, style)]
        lines.append(line)
    return lines


def _facts(board: Board) -> list[Line]:
    lines: list[Line] = [[(f"{board.name}: {people_text(fact)}", None)] for fact in board.facts]
    for rect in board.scored:
        lines.append([(f"  round {rect.round}: ", ROUND_STYLES[(rect.round - 1) % len(ROUND_STYLES)]),
                      (f"scored {square_name(rect.row, rect.col)} {rect.width}x{rect.height} = {rect.points} points",
                       None)])
    if board.checks:
        line: Line = [("  specials: ", None)]
        for name, used in board.checks:
            line.append((f"{name.upper()} ", None))
            line.append((f"[{'x' * used if used else ' '}]", "bold red" if used else DIM))
            line.append(("  ", None))
        lines.append(line)
    last = board.placed[board.last] if board.last is not None else None
    if last is not None and board.has_board:
        what = {LEATHER: "leather patch", START: f"start patch {last.id}", SINGLE: "SINGLE cell"}.get(last.kind, last.id)
        lines.append([("  latest: ", None), ("*", LAST_STYLE), (f" {what} (action {last.ply + 1})", None)])
    return lines


def _width(line: Line) -> int:
    return sum(len(text) for text, _ in line)


def side_by_side(blocks: Sequence[list[Line]], width: int = TEXT_WIDTH, gap: int = 4) -> list[Line]:
    """Blocks of lines next to each other, wrapping to a new row when `width` is used up."""
    out: list[Line] = []
    row: list[list[Line]] = []
    used = 0
    for block in blocks:
        w = max((_width(line) for line in block), default=0)
        if row and used + gap + w > width:
            out += _join(row, gap)
            row, used = [], 0
        used += (gap if row else 0) + w
        row.append(block)
    if row:
        out += _join(row, gap)
    return out


def _join(row: list[list[Line]], gap: int) -> list[Line]:
    widths = [max((_width(line) for line in block), default=0) for block in row]
    height = max(len(block) for block in row)
    lines: list[Line] = []
    for i in range(height):
        line: Line = []
        for j, (block, w) in enumerate(zip(row, widths)):
            part = block[i] if i < len(block) else []
            line += part
            if j < len(row) - 1:
                line.append((" " * (w - _width(part) + gap), None))
        lines.append(line)
    return lines


# ----- the time track ---------------------------------------------------------------------------


def track_lines(track: Track, per_line: int = 60) -> list[Line]:
    """The spaces 0..final, one character each, with the tokens standing on their spaces."""
    income, leather = set(track.income), set(track.leather)
    on: dict[int, list] = {}
    for token in track.tokens:
        on.setdefault(token.space, []).append(token)
    lines: list[Line] = []
    for start in range(0, track.final + 1, per_line):
        stop = min(track.final + 1, start + per_line)
        ruler = "".join(str(i // 10 % 10) if i % 10 == 0 else ("·" if i % 5 == 0 else " ") for i in range(start, stop))
        head = "time track " if start == 0 else " " * 11
        lines.append([(" " * 11, None), (ruler, DIM)])
        line: Line = [(head, "bold")]
        for space in range(start, stop):
            tokens = on.get(space)
            if tokens:
                top = tokens[-1]
                char = "X" if len(tokens) > 1 else str(top.seat + 1)
                line.append((char, TOKEN_STYLES[top.seat % len(TOKEN_STYLES)]))
            elif space in leather:
                line.append(("L", LEATHER_STYLE))
            elif space in income:
                line.append(("$", INCOME_STYLE))
            else:
                line.append((".", DIM))
        lines.append(line)
    legend: Line = [(" " * 11, None)]
    for token in track.tokens:
        legend += [(str(token.seat + 1), TOKEN_STYLES[token.seat % len(TOKEN_STYLES)]), (f" {token.name}  ", None)]
    if len({t.space for t in track.tokens}) < len(track.tokens):
        legend.append(("X both tokens (the later on top)  ", None))
    legend += [("$", INCOME_STYLE), (" income mark  ", None), ("L", LEATHER_STYLE), (" leather patch", None)]
    lines.append(legend)
    lines += [[(note, None)] for note in track.notes]
    return lines


# ----- the offers -------------------------------------------------------------------------------


def offer_lines(position: Position, width: int = TEXT_WIDTH) -> list[Line]:
    offers = position.offers
    if not offers:
        return []
    token = any(o.role == "token card" for o in offers)
    lines: list[Line] = [[(position.offers_title + (" ([ ] the token card)" if token else "") + ":", "bold")]]
    line: Line = [("  ", None)]
    for offer in offers:
        style = ("bold green" if offer.can_take else None) if offer.role != "circle" or offer.can_take else DIM
        text = f"[{offer.id}]" if offer.role == "token card" else offer.id
        if _width(line) + len(text) > width:
            lines.append(line)
            line = [("  ", None)]
        line.append((text, style))
        line.append((" ", None))
    lines.append(line)
    shown = [o for o in offers if o.role not in ("circle",)]
    if shown:
        blocks = [(f"{o.role} {o.id}" if o.role not in ("window",) else o.id, o.shape.rows()) for o in shown]
        details = [f"{o.id}: {o.details}" + ("" if o.can_take or o.role not in ("window",) else " (cannot afford)")
                   for o in shown if o.details]
        if any(o.role == "window" for o in shown):
            lines.append([("  " + "  |  ".join(details), None)])
        lines += [[(text, None)] for text in draw_side_by_side(blocks, width)]
    return lines


# ----- the whole position -----------------------------------------------------------------------


def position_lines(position: Position, highlight: dict[int, frozenset] | None = None,
                   width: int = TEXT_WIDTH) -> list[Line]:
    highlight = highlight or {}
    lines: list[Line] = [[(position.title, "bold"), (f" — {people_text(position.status)}", None)]]
    if position.last_action:
        lines.append([("last: ", DIM), (people_text(position.last_action), None)])
    if position.track is not None:
        lines += track_lines(position.track)
    lines += [[(people_text(note), None)] for note in position.notes]
    lines.append([])
    drawn = [b for b in position.boards if b.has_board]
    lines += side_by_side([board_lines(b, highlight.get(b.seat, frozenset())) for b in drawn], width)
    for board in position.boards:
        lines += _facts(board)
    legend: Line = [("  ", None), ("*", LAST_STYLE), (" latest placement", None)]
    if any(b.scored for b in position.boards):
        rounds = sorted({rect.round for b in position.boards for rect in b.scored})
        legend.append(("   ", None))
        for n in rounds:
            legend.append(("|", ROUND_STYLES[(n - 1) % len(ROUND_STYLES)]))
        legend.append((" edges of the rectangle scored in round " + ", ".join(map(str, rounds)), None))
    if any(p.kind == PATCH for b in position.boards for p in b.placed):
        legend.append(("   labels: patch ids (17 = P17), LL leather", None))
    elif any(b.placed for b in position.boards):
        legend.append(("   labels: the card drawn (07 = D07), st start patch, ## SINGLE", None))
    lines.append(legend)
    lines += offer_lines(position, width)
    return lines


# ----- the compact position (what the prompt shows each turn) -------------------------------------

COMPACT_WIDTH = 80
"""The prompt's board fits a terminal of 80 columns and 24 lines; `board` shows everything."""


def _clip(line: Line, width: int) -> Line:
    out: Line = []
    used = 0
    for text, style in line:
        if used + len(text) > width:
            out.append((text[: max(0, width - used - 3)] + "...", style))
            break
        out.append((text, style))
        used += len(text)
    return out


def token_text(track: Track, seat: int) -> str:
    """Where a seat's token stands and how far its next income mark ($) and leather patch (L) are."""
    token = next((t for t in track.tokens if t.seat == seat), None)
    if token is None:
        return ""
    ahead = [f"{kind} in {min(marks) - token.space}" for kind, marks in
             (("$", [m for m in track.income if m > token.space]), ("L", [m for m in track.leather if m > token.space]))
             if marks]
    return f"on {token.space}" + (f" ({', '.join(ahead)})" if ahead else "")


def compact_track_lines(track: Track) -> list[Line]:
    """The track on one line: the tokens, $ income marks, L leather patches, | every 10 spaces."""
    income, leather = set(track.income), set(track.leather)
    on: dict[int, list] = {}
    for token in track.tokens:
        on.setdefault(token.space, []).append(token)
    line: Line = [("time ", "bold")]
    for space in range(track.final + 1):
        tokens = on.get(space)
        if tokens:
            top = tokens[-1]
            line.append(("X" if len(tokens) > 1 else str(top.seat + 1), TOKEN_STYLES[top.seat % len(TOKEN_STYLES)]))
        elif space in leather:
            line.append(("L", LEATHER_STYLE))
        elif space in income:
            line.append(("$", INCOME_STYLE))
        else:
            line.append(("." if space % 10 else "|", DIM))
    line.append((f" {track.final}", DIM))
    return [line]


def compact_offer_lines(position: Position, width: int) -> list[Line]:
    """The pieces to choose among drawn with their figures; the rest of a circle on one line."""
    offers = position.offers
    if not offers:
        return []
    shown = [o for o in offers if o.role != "circle"]
    rest = [o for o in offers if o.role == "circle"]
    lines: list[Line] = []
    if rest:
        ids = " ".join(f"[{o.id}]" if o.role == "token card" else o.id for o in offers)
        title = position.offers_title.split(" (")[0] or "offers"
        lines.append(_clip([(f"{title}: ", "bold"), (ids, None)], width))
    if shown:
        def label(o) -> str:
            name = o.id if o.role == "window" else f"{o.role} {o.id}"
            if not o.details:
                return name
            return f"{name} {o.details.replace(', ', ' ')}"  # affordable or not: `board` and a refused buy say
        blocks = [(label(o), o.shape.rows()) for o in shown]
        lines += [[(text, None)] for text in draw_side_by_side(blocks, width - 1)]
    return lines


def compact_lines(position: Position, highlight: dict[int, frozenset] | None = None,
                  width: int = COMPACT_WIDTH) -> list[Line]:
    """The position in at most 80 columns (and for two players about 22 lines): the status and
    the last action, the track on one line, each board with its first figures, the offers."""
    highlight = highlight or {}
    status = people_text(position.status)
    if len(position.title) + 3 + len(status) <= width:
        lines: list[Line] = [[(position.title, "bold"), (f" — {status}", None)]]
    else:
        lines = [_clip([(position.title, "bold")], width), _clip([(status, None)], width)]
    if position.last_action:
        lines.append(_clip([("last: ", DIM), (people_text(position.last_action), None)], width))
    if position.track is not None:
        lines += [_clip(line, width) for line in compact_track_lines(position.track)]
    lines += [_clip([(people_text(note), None)], width) for note in position.notes]
    drawn = [b for b in position.boards if b.has_board]
    lines += side_by_side([board_lines(b, highlight.get(b.seat, frozenset())) for b in drawn], width)
    for board in position.boards:
        token = token_text(position.track, board.seat) if position.track is not None else ""
        if board.facts or token:
            facts = "; ".join(x for x in (people_text(board.facts[0]) if board.facts else "", token) if x)
            lines.append(_clip([(f"{board.name}: {facts}", None)], width))
        if board.checks:
            line: Line = [("  specials: ", None)]
            for name, used in board.checks:
                line += [(f"{name.upper()} ", None), (f"[{'x' * used if used else ' '}]", "bold red" if used else DIM),
                         ("  ", None)]
            lines.append(_clip(line, width))
    lines += compact_offer_lines(position, width)
    return lines


def render(lines: list[Line], colour_system: ColourSystem | None) -> str:
    """The lines as text: plain, or with ANSI styles for `colour_system` (rich's names)."""
    if colour_system is None:
        return "\n".join("".join(text for text, _ in line).rstrip() for line in lines)
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system=colour_system, width=10_000, highlight=False,
                      emoji=False, markup=False, soft_wrap=True)
    for line in lines:
        console.print(Text.assemble(*[(text, style) if style else text for text, style in line]))
    return buffer.getvalue().rstrip("\n")


def position_text(position: Position, highlight: dict[int, frozenset] | None = None,
                  colour: ColourSystem | None = None, compact: bool = False) -> str:
    """The position as the prompt prints it (`colour`: a rich colour system, or None for plain
    text; the prompt passes its terminal's); `compact`: what fits 80 x 24 (compact_lines), else
    everything."""
    lines = compact_lines(position, highlight) if compact else position_lines(position, highlight)
    return render(lines, colour)
