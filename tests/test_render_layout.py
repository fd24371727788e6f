"""Print layout as data: paper sizes, the scene's line-width floor, n-up imposition with bleed and
crop marks outside the trim, duplex backs, tile shelves and the spiral time board."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import UsageError
from toolkit.render.boards import spiral_order, time_board, time_board_title, track_cells
from toolkit.render.doodle import BOARD_GRID, sheet_items, sheet_symbol
from toolkit.render.imposition import (
    BLEED_MM,
    Duplex,
    Layout,
    Piece,
    grid_layout,
    impose_grid,
    impose_shelves,
    one_up,
)
from toolkit.render.paper import parse_paper
from toolkit.render.scene import MIN_LINE_MM, Group, Line, Rect, Text
from toolkit.render.tiles import QUILT_CELL_MM, tile_pieces
from toolkit.specs import load_edition


def test_named_and_custom_papers():
    assert (parse_paper("A4").width, parse_paper("a4").height) == (210.0, 297.0)
    assert parse_paper("letter").width == pytest.approx(215.9)
    assert parse_paper("a5").height == 210.0
    custom = parse_paper("100x150mm")
    assert (custom.width, custom.height) == (100.0, 150.0)


@pytest.mark.parametrize("text", ["b7", "100x150", "0x100mm", "10x10mm", "100 by 150mm", ""])
def test_bad_paper_is_a_usage_error(text):
    with pytest.raises(UsageError):
        parse_paper(text)


def test_strokes_thinner_than_a_quarter_point_are_refused():
    Rect(0, 0, 1, 1, "#000000", MIN_LINE_MM)
    with pytest.raises(ValueError, match="0.25 pt"):
        Line(0, 0, 1, 1, "#000000", MIN_LINE_MM * 0.9)


def _card(i: int) -> Piece:
    return Piece(63.0, 88.0, (Rect(-3, -3, 69, 94, None, fill="#abcdef"),), (Rect(-3, -3, 69, 94, None, fill="#123456"),),
                 f"c{i}")


@pytest.mark.parametrize("paper, per_sheet, gutter", [("a4", 8, 6.0), ("letter", 8, 1.8)])
def test_poker_cards_fit_inside_a_5mm_printer_margin(paper, per_sheet, gutter):
    layout = grid_layout(parse_paper(paper), 63.0, 88.0)
    assert (layout.per_page, layout.gutter) == (per_sheet, gutter)


@pytest.mark.parametrize("paper, count, sheets, gutter", [
    ("a4", 40, 5, 6.0),      # full gutters at no cost
    ("letter", 40, 5, 1.8),  # a full gutter takes 2 more sheets: the widest that keeps 8 a sheet
    ("letter", 24, 4, 6.0),  # Automa cards: full gutters for one more sheet (3 butted)
    ("letter", 12, 2, 6.0), ("a4", 53, 1, 6.0),
    ("a5", 40, 10, 0.0),     # two cards side by side only when butted; a gutter would double the sheets
])
def test_gutters_are_on_where_they_cost_at_most_one_sheet(paper, count, sheets, gutter):
    layout = grid_layout(parse_paper(paper), 63.0 if count != 53 else 18.0, 88.0 if count != 53 else 18.0,
                         count=count)
    assert (-(-count // layout.per_page), layout.gutter) == (sheets, gutter)


def test_a_gutter_that_costs_a_sheet_is_said_and_an_asked_one_is_kept():
    from toolkit.render.imposition import gutter_note

    letter = parse_paper("letter")
    note = gutter_note(letter, 63.0, 88.0, 3.0, Layout(), 24)
    assert note == ("cards: 6 mm gutters (every piece keeps its 3 mm bleed) take 4 sheets of letter instead "
                    "of 3; --gutter 0 butts them on 3")
    assert "1.8 mm apart on 5 sheets" in gutter_note(letter, 63.0, 88.0, 3.0, Layout(), 40)
    # where a full gutter cannot fit, the note says what a printer that prints nearer the edge gives
    assert "with --margin 3mm, if your printer prints that close to the edge, they are 3.1 mm apart" in \
        gutter_note(letter, 63.0, 88.0, 3.0, Layout(), 40)
    a5 = parse_paper("a5")
    butted = gutter_note(a5, 63.0, 88.0, 3.0, Layout(), 40)
    assert "butted edge to edge on 10 sheets of a5 (no bleed between them)" in butted
    assert "they are 4 mm apart (2 mm bleed each) on the same sheets" in butted
    narrow = grid_layout(a5, 63.0, 88.0, layout=Layout(margin=3.0), count=40)
    assert narrow.gutter == 4.0 and narrow.per_page == 4
    assert gutter_note(parse_paper("a4"), 63.0, 88.0, 3.0, Layout(), 40) is None
    assert gutter_note(letter, 63.0, 88.0, 3.0, Layout(gutter=0.0), 24) is None
    assert grid_layout(letter, 63.0, 88.0, layout=Layout(gutter=0.0), count=24).per_page == 8


def _trims(page):
    """Trim rectangles (x, y, w, h) on the sheet of the pieces on a page, from their transforms."""
    boxes = []
    for item in page.items:
        if isinstance(item, Group) and item.clip is not None or isinstance(item, Group) and item.items and not isinstance(item.items[0], Line):
            a, b, c, d, e, f = item.transform
            if (a, d) == (1.0, 1.0):
                boxes.append((e, f, 63.0, 88.0))
            elif (b, c) == (1.0, -1.0):
                boxes.append((e - 88.0, f, 88.0, 63.0))
    return boxes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_outside_every_trim_and_bleed(paper):
    sheet = parse_paper(paper)
    pages = impose_grid([_card(i) for i in range(9)], sheet)
    page = pages[0]
    trims = _trims(page)
    assert trims
    marks = [item for item in page.items if isinstance(item, Line)]
    assert marks
    for mark in marks:
        assert 5.0 <= min(mark.x1, mark.x2) and max(mark.x1, mark.x2) <= sheet.width - 5.0
        assert 5.0 <= min(mark.y1, mark.y2) and max(mark.y1, mark.y2) <= sheet.height - 5.0
        for x, y, w, h in trims:
            b = BLEED_MM
            inside_x = max(mark.x1, mark.x2) > x - b and min(mark.x1, mark.x2) < x + w + b
            inside_y = max(mark.y1, mark.y2) > y - b and min(mark.y1, mark.y2) < y + h + b
            assert not (inside_x and inside_y), f"crop mark {mark} touches the piece at {(x, y)}"
    # every vertical trim line gets a mark
    xs = {round(x, 3) for x, _, _, _ in trims} | {round(x + w, 3) for x, _, w, _ in trims}
    assert xs <= {round(m.x1, 3) for m in marks if m.x1 == m.x2}


def test_unknown_flip_edge_is_refused():
    with pytest.raises(UsageError, match="flip"):
        Duplex("diagonal")


def test_piece_too_large_for_the_paper():
    with pytest.raises(UsageError, match="does not fit"):
        impose_grid([Piece(200.0, 280.0, ())], parse_paper("a5"))
    with pytest.raises(UsageError, match="larger paper"):
        one_up(Piece(185.0, 185.0, (), name="quilt board"), parse_paper("a5"))


def test_one_up_pages_carry_trim_and_bleed_boxes():
    page = one_up(Piece(100.0, 120.0, ()), parse_paper("a4"))
    assert page.trim is not None and page.bleed is not None
    assert (page.trim.width, page.trim.height) == (100.0, 120.0)
    assert page.bleed.width == pytest.approx(100.0 + 2 * BLEED_MM)
    assert page.trim.x == pytest.approx((210.0 - 100.0) / 2)


def test_tile_shelves_never_overlap_and_stay_on_the_page():
    edition = load_edition("classic")
    pieces = tile_pieces(edition)
    paper = parse_paper("a4")
    pages = impose_shelves(pieces, paper, backs=True)
    fronts = [p for p in pages if p.label.startswith("fronts")]
    placed = []
    for page in fronts:
        boxes = []
        for item in page.items:
            if isinstance(item, Group):
                boxes.append(item.transform[4:])
        placed.append(boxes)
    assert sum(len(b) for b in placed) == len(pieces) == 33 + 5 + 1
    by_page = iter(placed)
    index = 0
    order = sorted(range(len(pieces)), key=lambda i: (-pieces[i].height, -pieces[i].width, i))
    for page_boxes in by_page:
        rects = []
        for x, y in page_boxes:
            piece = pieces[order[index]]
            index += 1
            rects.append((x - BLEED_MM, y - BLEED_MM, x + piece.width + BLEED_MM, y + piece.height + BLEED_MM))
            assert rects[-1][0] >= 0 and rects[-1][1] >= 0
            assert rects[-1][2] <= paper.width and rects[-1][3] <= paper.height
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert len(pages) == 2 * len(fronts)


def test_tiles_are_at_quilt_scale():
    edition = load_edition("classic")
    pieces = {p.name: p for p in tile_pieces(edition, extras=False)}
    for patch in edition.patches:
        piece = pieces[patch.id]
        assert {piece.width, piece.height} == {patch.shape.width * QUILT_CELL_MM, patch.shape.height * QUILT_CELL_MM}


@pytest.mark.parametrize("side", [1, 2, 5, 8, 11])
def test_spiral_visits_every_square_once_in_steps_of_one(side):
    order = spiral_order(side)
    assert len(order) == len(set(order)) == side * side
    for (r1, c1), (r2, c2) in zip(order, order[1:]):
        assert abs(r1 - r2) + abs(c1 - c2) == 1


@pytest.mark.parametrize("spaces", [30, 54, 120])
def test_track_ends_in_the_centre(spaces):
    side, cells = track_cells(spaces)
    assert len(cells) == spaces and side * side >= spaces > (side - 1) ** 2
    r, c = cells[-1]
    assert abs(r - (side - 1) / 2) <= 0.5 and abs(c - (side - 1) / 2) <= 0.5


def test_time_board_numbers_every_space_and_refuses_illegible_tracks():
    edition = load_edition("classic")
    board = time_board(edition, parse_paper("a4"))
    numbers = {item.text for item in board.front if isinstance(item, Text)}
    assert {str(i) for i in range(54)} <= numbers
    long_track = replace(edition.rules.time_track, final_space=119,
                         income_marks=tuple(range(5, 120, 6)), leather_patches=(20, 26, 32))
    board = time_board(edition.changed(time_track=long_track), parse_paper("a4"))
    numbers = {item.text for item in board.front if isinstance(item, Text)}
    assert {str(i) for i in range(120)} <= numbers
    huge = replace(edition.rules.time_track, final_space=999, income_marks=(999,), leather_patches=())
    with pytest.raises(UsageError, match="larger paper"):
        time_board(edition.changed(time_track=huge), parse_paper("a4"))


# ----- properties over custom specs ----------------------------------------------------------------

_DOODLE = load_edition("doodle")
_CLASSIC = load_edition("classic")


@settings(max_examples=25, deadline=None)
@given(width=st.integers(3, 14), height=st.integers(3, 14), rounds=st.integers(1, 6))
def test_any_doodle_variant_gets_a_matching_sheet(width, height, rounds):
    edition = _DOODLE.changed(board_width=width, board_height=height, rounds=rounds)
    items = sheet_items(edition)
    spaces = [i for i in items if isinstance(i, Rect) and i.stroke == BOARD_GRID]
    assert len(spaces) == width * height
    texts = {i.text for i in items if isinstance(i, Text)}
    assert {str(n) for n in range(1, rounds + 1)} <= texts
    for item in items:  # everything stays on the reference page
        if isinstance(item, Rect):
            assert 0 <= item.x and item.x + item.width <= 210 + 1e-6
            assert 0 <= item.y and item.y + item.height <= 297 + 1e-6
    sheet_symbol(edition, parse_paper("a5"))


@settings(max_examples=25, deadline=None)
@given(final=st.integers(1, 150), data=st.data())
def test_any_custom_track_numbers_every_space_in_a_connected_path(final, data):
    marks = tuple(sorted(data.draw(st.sets(st.integers(1, final), max_size=12)) | {final}))
    leather = tuple(sorted(data.draw(st.sets(st.integers(1, final), max_size=8))))
    track = replace(_CLASSIC.rules.time_track, final_space=final, income_marks=marks, leather_patches=leather)
    board = time_board(_CLASSIC.changed(time_track=track), parse_paper("a4"))
    numbers = [item.text for item in board.front if isinstance(item, Text)]
    assert {str(i) for i in range(final + 1)} <= set(numbers)
    side, cells = track_cells(final + 1)
    for (r1, c1), (r2, c2) in zip(cells, cells[1:]):
        assert abs(r1 - r2) + abs(c1 - c2) == 1


LONG_TRACK = """\
kind: variant
name: long-track
title: Classic on a long track
extends: classic
time_track:
  id: long
  final_space: 99
  income_marks: [5, 11, 17, 23, 29, 35, 41, 47, 53, 60, 70, 80, 90, 99]
  leather_patches: [20, 26, 32, 44, 50, 66, 77, 88]
"""


def _board_texts(edition) -> list[str]:
    return [item.text for item in time_board(edition, parse_paper("a4")).front if isinstance(item, Text)]


def test_time_board_title_names_the_track_actually_drawn(tmp_path):
    base = load_edition("classic").rules.time_track.title
    spec = tmp_path / "longtrack.yaml"
    spec.write_text(LONG_TRACK)
    # a variant that edits the track inherits the base title in the spec: it must not be printed
    for edition, title in ((load_edition(str(spec)), "Time board — Classic on a long track"),
                           (load_edition("moved-income"), "Time board — Patchwork, first income mark on 7")):
        texts = _board_texts(edition)
        assert title in texts and base not in texts
        assert time_board_title(edition) == title
    # the bundled boards keep their own titles; an edit that lands on a bundled board is that board
    assert time_board_title(load_edition("classic")) == base
    assert time_board_title(load_edition("six-buttons")) == base
    revised = load_edition("classic-revised").rules.time_track.title
    assert time_board_title(load_edition("revised-leather")) == revised


def test_a_custom_track_keeps_a_title_of_its_own(tmp_path):
    spec = tmp_path / "own.yaml"
    spec.write_text(LONG_TRACK.replace("  id: long\n", "  id: long\n  title: Long board\n"))
    assert time_board_title(load_edition(str(spec))) == "Long board"
