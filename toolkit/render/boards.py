"""Quilt boards and the time board of the time-track games, drawn from the edition spec.

The quilt board uses the tiles' quilt scale, so printed tiles fit it. The time board lays the
track out as a square spiral running inward to the final space in the centre: the grid side is
the smallest square that holds every space, so a 30-space Express track, the 54-space classic
track and a custom 120-space track all fill the page with spaces as large as the paper allows.
Walls are drawn between neighbouring squares that are not consecutive spaces, so the path reads
unambiguously; every space carries its number.
"""
from __future__ import annotations

import math
from functools import lru_cache

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.render.components import require_component
from toolkit.render.imposition import BLEED_MM, MARK_GAP_MM, MARK_MIN_MM, PRINTABLE_MARGIN_MM, Piece
from toolkit.render.paper import Paper
from toolkit.render.scene import Item, Line, Rect, Text, fit_text_size
from toolkit.render.theme import (
    DEFAULT_THEME,
    LEVEL_FILL,
    Theme,
    HAIRLINE,
    INCOME_FILL,
    INK,
    button,
    leather_patch,
    pt_for_height,
)
from toolkit.render.tiles import QUILT_CELL_MM
from toolkit.specs.models import Edition, TimeTrack

BOARD_FRAME_MM = 7.0
QUILT_FILL = "#f3ecdc"
QUILT_FRAME = "#6d4c33"
QUILT_SEAM = "#b7a585"
"""Stitched seams of the quilt squares, one rectangle per square."""
TRACK_FILLS = ("#f6efe0", "#e9dfc8")
TRACK_WALL = "#4a3626"
TRACK_HEADER_MM = 12.0
MIN_SPACE_MM = QUILT_CELL_MM
"""Smallest time-board space: a leather patch (one quilt square) and a time token sit on it, so a
board too big for the paper is printed in two halves, or refused, never shrunk under them."""


def quilt_board(edition: Edition, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> Piece:
    """A quilt board of the edition's size, at quilt scale, with coordinates in the frame."""
    require_component(edition, "boards")
    cell = QUILT_CELL_MM
    f = BOARD_FRAME_MM
    w = edition.board_width * cell + 2 * f
    h = edition.board_height * cell + 2 * f
    b = bleed
    light = theme.quilt
    items: list[Item] = [Rect(-b, -b, w + 2 * b, h + 2 * b, None, HAIRLINE, theme.quilt_frame)]
    items.append(Rect(f, f, w - 2 * f, h - 2 * f, None, HAIRLINE, theme.quilt))
    for r in range(edition.board_height):
        for c in range(edition.board_width):
            items.append(Rect(f + c * cell, f + r * cell, cell, cell, QUILT_SEAM, 0.4, None, (1.4, 1.0)))
    items.append(Rect(f, f, w - 2 * f, h - 2 * f, "#3b2a1c", 0.6, None))
    size = pt_for_height(2.6)
    for c in range(edition.board_width):
        items.append(Text(f + (c + 0.5) * cell, f - 2.2, chr(65 + c) if c < 26 else str(c + 1), size,
                          "middle", True, light))
    for r in range(edition.board_height):
        items.append(Text(f / 2, f + (r + 0.5) * cell + 1.3, str(r + 1), size, "middle", True, light))
    title = f"{theme.title or edition.title} quilt {edition.board_width}×{edition.board_height}"
    items.append(Text(w / 2, h - 2.0, title, fit_text_size(title, w - 20, 7), "middle", False, light))
    return Piece(w, h, tuple(items), None, "quilt board")


def spiral_order(side: int) -> list[tuple[int, int]]:
    """(row, col) of a side x side grid walked clockwise from the top-left corner inward."""
    top, left, bottom, right = 0, 0, side - 1, side - 1
    order: list[tuple[int, int]] = []
    while top <= bottom and left <= right:
        order += [(top, c) for c in range(left, right + 1)]
        order += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            order += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            order += [(r, left) for r in range(bottom - 1, top, -1)]
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    return order


def track_cells(spaces: int) -> tuple[int, list[tuple[int, int]]]:
    """Grid side and the cell of each space 0..spaces-1, ending at the spiral's centre."""
    side = max(2, math.isqrt(spaces - 1) + 1)
    order = spiral_order(side)
    return side, order[len(order) - spaces:]


def time_board_size(paper: Paper, margin: float = PRINTABLE_MARGIN_MM, bleed: float = BLEED_MM,
                    parts: int = 1) -> float:
    """Largest square time board that fits the paper with bleed, crop marks and the printer margin:
    whole (`parts=1`) or in two halves, cut down the middle or across, one a page (`parts=2`)."""
    need = 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM + margin) + 4.0
    if parts == 1:
        return min(paper.width, paper.height - TRACK_HEADER_MM) - need
    side_by_side = min(2 * (paper.width - need), paper.height - TRACK_HEADER_MM - need)
    stacked = min(paper.width - need, 2 * (paper.height - need) - TRACK_HEADER_MM)
    return max(side_by_side, stacked)


@lru_cache(maxsize=1)
def _bundled_tracks() -> dict[str, TimeTrack]:
    """The time tracks of the bundled editions, by id: the tracks whose titles name a real board."""
    from toolkit.specs import list_editions, load_edition

    tracks: dict[str, TimeTrack] = {}
    for name in list_editions():
        edition = load_edition(name)
        track = edition.timetrack_rules.time_track if family_of(edition).info.has_time_track else None
        if track is not None:
            tracks.setdefault(track.id, track)
    return tracks


def _layout(track: TimeTrack) -> tuple:
    return track.final_space, tuple(track.income_marks), tuple(track.leather_patches)


def time_board_title(edition: Edition) -> str:
    """The title printed over the time board: it must describe the track actually drawn.

    A variant that edits a track inherits the base track's title along with its other keys, so
    a title is only trusted when the layout is a bundled track's own, or when no bundled track
    carries it (the spec gave the track a title of its own).
    """
    track = edition.timetrack_rules.time_track if family_of(edition).info.has_time_track else None
    if track is None:
        return f"Time board — {edition.title}"
    bundled = _bundled_tracks()
    named = bundled.get(track.id)
    if named is not None and _layout(named) == _layout(track):
        return track.title or named.title or f"Time board — {edition.title}"
    same = next((t for t in bundled.values() if _layout(t) == _layout(track) and t.title), None)
    if same is not None:
        # an edit that arrives at a bundled board (e.g. the revised leather layout) is that board
        return same.title  # type: ignore[return-value]  # chosen for having a title
    if track.title and track.title not in {t.title for t in bundled.values()}:
        return track.title
    return f"Time board — {edition.title}"


def level_badge(x: float, y: float, w: float, h: float, level: int, colour: str = LEVEL_FILL) -> list[Item]:
    """A small dark tag reading `L<level>`: a space the level marker may be put on."""
    size = fit_text_size(f"L{level}", w * 0.8, pt_for_height(h * 0.62), True)
    return [Rect(x, y, w, h, None, HAIRLINE, colour, radius=h * 0.2),
            Text(x + w / 2, y + h * 0.79, f"L{level}", size, "middle", True, "#ffffff")]


def time_board(edition: Edition, paper: Paper, margin: float = PRINTABLE_MARGIN_MM,
               bleed: float = BLEED_MM, levels: tuple[tuple[int, str, int], ...] = (),
               theme: Theme = DEFAULT_THEME) -> Piece:
    """The edition's time board as large as the paper allows (in two halves rather than below
    MIN_SPACE_MM); `levels`, (level, name, space) of the solo opponent's levels, are marked on
    their spaces and in the legend, for the level marker of solo play."""
    require_component(edition, "boards")
    track = edition.timetrack_rules.time_track
    if track is None:
        raise UsageError(f"edition '{edition.name}' names no time track to print")
    spaces = track.final_space + 1
    side, cells = track_cells(spaces)
    board = time_board_size(paper, margin, bleed)
    if board / side < MIN_SPACE_MM:
        # too small whole: drawn larger, to be printed in two halves (see imposition.split_to_fit)
        board = time_board_size(paper, margin, bleed, parts=2)
    space = board / side
    if space < MIN_SPACE_MM:
        raise UsageError(
            f"time track '{track.id}' has {spaces} spaces: on {paper.name} paper each would be "
            f"{space:.1f} mm even with the board in two halves, smaller than the {MIN_SPACE_MM:g} mm leather "
            f"patches and time tokens placed on them; choose a larger paper"
        )
    b = bleed
    width, height = board, board + TRACK_HEADER_MM
    top = TRACK_HEADER_MM
    items: list[Item] = [Rect(-b, -b, width + 2 * b, height + 2 * b, None, HAIRLINE, theme.time_board)]
    title = time_board_title(edition)
    light = theme.track[0]
    items.append(Text(width / 2, 8.2, title, fit_text_size(title, width - 10, 14, True), "middle", True, light))
    index_of = {cell: i for i, cell in enumerate(cells)}
    income = set(track.income_marks)
    leather = set(track.leather_patches)
    number_size = pt_for_height(space * 0.16)
    for i, (r, c) in enumerate(cells):
        x, y = c * space, top + r * space
        fill = theme.track[i % 2]
        if i == 0:
            fill = "#cfe3c3"
        elif i == spaces - 1:
            fill = "#f0c987"
        items.append(Rect(x, y, space, space, "#c8b99c", 0.3, fill))
        items.append(Text(x + space * 0.08, y + space * 0.22, str(i), number_size, "start", True, INK))
        cx, cy = x + space / 2, y + space * 0.58
        if i == 0:
            items.append(Text(cx, y + space * 0.62, "START", fit_text_size("START", space * 0.86, number_size * 1.1, True),
                              "middle", True, INK))
        elif i in income:
            items += button(cx, cy, space * 0.24, INCOME_FILL, "#7a5a10")
        if i in leather:
            items += leather_patch(x + space * 0.76, y + space * 0.24, space * 0.3)
        if i == spaces - 1:
            items.append(Text(cx, y + space * 0.95, "END", number_size * 0.9, "middle", True, INK))
        for level, _name, at in levels:
            if at == i:
                items += level_badge(x + space * 0.05, y + space * 0.76, space * 0.3, space * 0.19, level,
                                     theme.level)
    # walls between touching squares that are not consecutive spaces, and around unused squares
    wall = max(0.9, space * 0.06)
    for r in range(side):
        for c in range(side):
            here = index_of.get((r, c))
            for dr, dc in ((0, 1), (1, 0)):
                there = index_of.get((r + dr, c + dc))
                if r + dr >= side or c + dc >= side:
                    continue
                if here is not None and there is not None and abs(here - there) == 1:
                    continue
                if here is None and there is None:
                    continue
                if dc:
                    x = (c + 1) * space
                    items.append(Line(x, top + r * space, x, top + (r + 1) * space, TRACK_WALL, wall))
                else:
                    y = top + (r + 1) * space
                    items.append(Line(c * space, y, (c + 1) * space, y, TRACK_WALL, wall))
    items.append(Rect(0, top, width, board, TRACK_WALL, wall * 1.4, None))
    unused = min(side * side - spaces, side)
    if unused >= 3:
        # The squares of the outer ring before the start hold the legend.
        # two entries, or three when the solo levels are marked, share the row
        half = unused * space / (3 if levels else 2)
        ly = top + space * 0.5
        entries = [
            (button(2.0 + space * 0.2, ly, space * 0.16, INCOME_FILL, "#7a5a10"), "income: collect buttons"),
            (leather_patch(2.0 + half + space * 0.2, ly, space * 0.3), "leather patch"),
        ]
        if levels:
            entries.append((level_badge(2.0 + 2 * half + space * 0.05, ly - space * 0.095, space * 0.3, space * 0.19,
                                        levels[0][0], theme.level), "Automa level spaces (solo)"))
        for n, (icon, text) in enumerate(entries):
            items += icon
            x = 2.0 + n * half + space * 0.45
            size = fit_text_size(text, half - space * 0.5, number_size * 0.9)
            items.append(Text(x, ly + 1.2, text, size, "start", False, light))
    seams = ((side // 2) * space, top + (side // 2) * space)
    return Piece(width, height, tuple(items), None, "time board", seams=seams)
