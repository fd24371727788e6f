"""Exact cover on boards: the pentomino counts, Burnside on symmetric solutions, largest area,
reach, and the drawn solution."""

import pytest

from toolkit.decks.deck import polyomino_deck
from toolkit.decks.drawing import encode, solution_document
from toolkit.geometry.cover import Packer, Piece, board_symmetries
from toolkit.geometry.enumerate import free_polyominoes
from toolkit.geometry.shape import Shape


def pentominoes():
    return [Piece(f"F{i:02d}", s) for i, s in enumerate(free_polyominoes(5), start=1)]


@pytest.mark.parametrize("width,height,total,up_to_symmetry", [
    (20, 3, 8, 2),
    (15, 4, 1472, 368),
    (12, 5, 4040, 1010),
    (10, 6, 9356, 2339),
])
@pytest.mark.slow
def test_pentomino_rectangles(width, height, total, up_to_symmetry):
    result = Packer(pentominoes(), width, height).count()
    assert result.total == total
    assert result.up_to_symmetry == up_to_symmetry
    assert not result.limited


@pytest.mark.slow
def test_symmetry_breaking_gives_the_plain_count():
    packer = Packer(pentominoes(), 20, 3)
    plain = packer.count(symmetry=False)
    assert plain.total == 8 and plain.up_to_symmetry is None
    assert len(packer.solutions()) == 8


@pytest.mark.slow
def test_every_solution_is_an_exact_cover():
    packer = Packer(pentominoes(), 20, 3)
    for solution in packer.solutions():
        cells = [cell for placed in solution for cell in placed.cells]
        assert len(cells) == 60 == len(set(cells))
        assert sorted(p.id for p in solution) == sorted(p.id for p in pentominoes())
        shapes = {p.id: p.shape.canonical_key for p in pentominoes()}
        for placed in solution:
            assert Shape.from_cells(placed.cells).canonical_key == shapes[placed.id]


def _orbits_by_brute_force(packer):
    seen, orbits = set(), 0
    for solution in packer.solutions():
        key = frozenset((p.id, p.cells) for p in solution)
        if key in seen:
            continue
        orbits += 1
        for _, sym in packer.symmetries:
            seen.add(frozenset((p.id, frozenset(sym(r, c) for r, c in p.cells)) for p in solution))
    return orbits


@pytest.mark.parametrize("shapes,width,height", [
    (["###"], 3, 1),
    (["##", "#"], 3, 1),                       # two solutions, both fixed by the top-bottom mirror
    ([".#./###/.#.", "#", "#", "#", "#"], 3, 3),
    (["##", "##"], 2, 2),
    (["##/#.", "#", "##", "###"], 3, 3),
    (["##", "#", "#", "###"], 3, 1),             # subsets: more cloth than board
    (["##/#.", "##", "#", "#", "###", "##"], 3, 2),
])
def test_burnside_matches_orbits_counted_by_hand(shapes, width, height):
    pieces = [Piece(f"A{i}", Shape.parse(s)) for i, s in enumerate(shapes)]
    packer = Packer(pieces, width, height)
    result = packer.count()
    assert result.total == len(packer.solutions())
    assert result.up_to_symmetry == _orbits_by_brute_force(packer)


def test_a_solution_fixed_by_a_symmetry_is_counted():
    result = Packer([Piece("D", Shape.parse("##")), Piece("M", Shape.parse("#"))], 3, 1).count()
    assert result.total == 2
    assert result.fixed == {"rotate 180": 0, "mirror left-right": 0, "mirror top-bottom": 2}
    assert result.up_to_symmetry == 1


def test_square_boards_have_eight_symmetries_and_rectangles_four():
    assert len(board_symmetries(5, 5)) == 8
    assert len(board_symmetries(6, 10)) == 4
    for _, sym in board_symmetries(4, 4):
        assert sorted(sym(r, c) for r in range(4) for c in range(4)) == \
            [(r, c) for r in range(4) for c in range(4)]


def test_limit_stops_counting():
    result = Packer(pentominoes(), 10, 6).count(limit=5)
    assert result.limited and result.total >= 5 and result.up_to_symmetry is None


def test_subset_fill_and_largest_area():
    pieces = [Piece("L", Shape.parse("##/#.")), Piece("D", Shape.parse("##"))]
    packer = Packer(pieces, 3, 2)
    assert packer.fill().solution is None            # 5 cells cannot fill 6
    best = packer.largest_area()
    assert best.complete and best.area == 5
    assert sum(len(p.cells) for p in best.solution) == 5
    pieces = [Piece("I", Shape.parse("###")), Piece("D", Shape.parse("##"))]
    best = Packer(pieces, 2, 2).largest_area()
    assert best.area == 2 and [p.id for p in best.solution] == ["D"]


def test_largest_area_uses_a_subset_when_the_deck_is_larger():
    packer = Packer(pentominoes(), 5, 5)
    best = packer.largest_area()
    assert best.complete and best.area == 25
    assert len({c for p in best.solution for c in p.cells}) == 25


def test_reach_counts_board_cells_a_patch_can_cover():
    pieces = {p.id: p for p in pentominoes()}
    x = next(pid for pid, p in pieces.items() if p.shape.canonical_key == ".#./###/.#.")
    packer = Packer(list(pieces.values()), 10, 6)
    reach = dict(zip(pieces, packer.reach()))
    assert reach[x] == 56                                # every cell but the four corners
    assert all(v == 60 for pid, v in reach.items() if pid != x)
    assert Packer([Piece("I", Shape.parse("#####"))], 4, 4).reach() == [0]


def test_no_flip_restricts_placements():
    s = Shape.parse("##./.##")
    assert len(Packer([Piece("S", s)], 3, 2, allow_flip=False).placements[0]) == 1
    assert len(Packer([Piece("S", s)], 3, 2, allow_flip=True).placements[0]) == 2


def test_drawing_is_deterministic_svg_and_pdf():
    packer = Packer(pentominoes(), 20, 3)
    solution = packer.fill().solution
    doc = solution_document("pentominoes", 20, 3, solution, {f"F{i:02d}": i for i in range(1, 13)}, {})
    svg = encode(doc, "svg")
    assert svg == encode(doc, "svg")
    assert b"F12" in svg and svg.startswith(b"<svg")
    assert encode(doc, "pdf").startswith(b"%PDF")


def test_polyomino_deck_names_pieces_in_canonical_order():
    deck = polyomino_deck(5)
    assert [p.id for p in deck.patches] == [f"F{i:02d}" for i in range(1, 13)]
    assert len({p.shape.canonical_key for p in deck.patches}) == 12


def test_outline_of_a_ring_has_an_outer_loop_and_a_hole():
    from toolkit.geometry.outline import outline_loops, outline_segments

    ring = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    outer, hole = outline_loops(ring)
    assert outer == ((0, 0), (3, 0), (3, 3), (0, 3))          # clockwise on the page
    assert hole == ((1, 1), (1, 2), (2, 2), (2, 1))           # the other way round
    assert len(outline_segments(ring)) == 16
