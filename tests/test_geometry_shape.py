"""Shape algebra: notation, transforms, orientations, canonical key, chirality, holes, cuts."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import ShapeError, ToolkitError
from toolkit.geometry import Cut, Shape
from toolkit.geometry.shape import MAX_SIDE
from reference import reference_file


cell_sets = st.frozensets(
    st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20
)
shapes = cell_sets.map(Shape.from_cells)


@st.composite
def connected_shapes(draw, max_size: int = 12) -> Shape:
    """Grow a polyomino cell by cell from the origin, so it is always connected."""
    cells = {(0, 0)}
    target = draw(st.integers(1, max_size))
    while len(cells) < target:
        frontier = sorted(
            {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            - cells
        )
        cells.add(draw(st.sampled_from(frontier)))
    return Shape.from_cells(cells)


# ----- notation ---------------------------------------------------------------------------------


def test_parse_slash_newline_and_list_agree():
    a = Shape.parse("##./.##")
    assert a == Shape.parse("##.\n.##\n")
    assert a == Shape.parse(["##.", ".##"])
    assert a == Shape.parse("  ##.\n  .##\n")  # indented YAML block text
    assert a.cells == frozenset({(0, 0), (0, 1), (1, 1), (1, 2)})
    assert a.rows() == ("##.", ".##")
    assert a.format() == "##./.##" == str(a)
    assert a.format(sep="\n") == "##.\n.##"


def test_parse_normalises_empty_border():
    assert Shape.parse("..../.##./....") == Shape.parse("##")
    assert Shape.parse("..#/..#") == Shape.parse("#/#")


def test_shape_is_hashable_value():
    assert len({Shape.parse("##"), Shape.parse(".##"), Shape.parse("#/#")}) == 2
    assert Shape.parse("##") != Shape.parse("#/#")  # a fixed orientation, not the free shape


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty shape"),
        ("   ", "empty shape"),
        ([], "empty shape"),
        ("#x#", "'x' at row 1, column 2"),
        ("##/#o", "'o' at row 2, column 2"),
        ("# #", "' ' at row 1, column 2"),
        ("../..", "no cloth cell"),
        ("##/#", "rows have different lengths (row 1 has 2 cells, row 2 has 1)"),
        ("###/###/#", "row 3 has 1"),
        ("##//##", "row 2 is empty"),
        (5, "text or a list of row strings"),
        (["##", 3], "text or a list of row strings"),
        ("/".join(["#"] * (MAX_SIDE + 1)), f"at most {MAX_SIDE}"),
        ("#" * (MAX_SIDE + 1), f"at most {MAX_SIDE}"),
    ],
)
def test_parse_errors_name_the_problem(text, fragment):
    with pytest.raises(ShapeError) as info:
        Shape.parse(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ToolkitError) and info.value.exit_code == 2


def test_from_cells_normalises_and_rejects_bad_cells():
    assert Shape.from_cells([(5, 7), (5, 8)]) == Shape.parse("##")
    assert Shape.from_cells([(-3, -1), (-2, -1)]) == Shape.parse("#/#")
    assert Shape.from_cells([[0, 0], [0, 1]]) == Shape.parse("##")
    with pytest.raises(ShapeError, match="at least one"):
        Shape.from_cells([])
    assert Shape.from_cells(np.array([[3, 3], [4, 3]])) == Shape.parse("#/#")
    assert all(type(v) is int for cell in Shape.from_cells(np.array([[0, 0]])).cells for v in cell)
    for bad in ([(0, "a")], [(0, True)], [(1, 2, 3)], [5]):
        with pytest.raises(ShapeError, match="pair of integers"):
            Shape.from_cells(bad)


@given(shapes)
@pytest.mark.slow
def test_format_round_trips(shape):
    assert Shape.parse(shape.format()) == shape
    assert Shape.parse(shape.rows()) == shape
    assert Shape.parse(shape.format("\n")) == shape
    assert min(r for r, _ in shape.cells) == 0 and min(c for _, c in shape.cells) == 0
    assert len(shape.rows()) == shape.height
    assert all(len(row) == shape.width for row in shape.rows())
    assert shape.size == sum(row.count("#") for row in shape.rows())


# ----- transforms -------------------------------------------------------------------------------


def test_rotate_is_clockwise_and_mirror_is_left_right():
    ell = Shape.parse("#./#./##")
    assert ell.rotate() == Shape.parse("###/#..")
    assert ell.mirror() == Shape.parse(".#/.#/##")
    assert ell.rotate().height == ell.width and ell.rotate().width == ell.height


def test_transforms_order_is_documented():
    ell = Shape.parse("#./#./##")
    images = ell.transforms()
    assert len(images) == 8
    assert images[0] == ell
    assert images[1] == ell.rotate()
    assert images[2] == ell.rotate().rotate()
    assert images[3] == ell.rotate().rotate().rotate()
    assert images[4] == ell.mirror()
    assert images[5] == ell.mirror().rotate()


@given(shapes)
@pytest.mark.slow
def test_rotate_four_times_and_mirror_twice_are_identity(shape):
    assert shape.rotate().rotate().rotate().rotate() == shape
    assert shape.mirror().mirror() == shape
    assert shape.rotate().size == shape.size


@pytest.mark.parametrize(
    "text, flip, rotate_only",
    [
        ("#", 1, 1),
        ("##", 2, 2),
        ("##/##", 1, 1),
        ("####", 2, 2),
        ("###/.#.", 4, 4),  # T
        ("##./.##", 4, 2),  # S: its mirror image is Z
        ("#./#./##", 8, 4),  # L
        ("###/#.#/###", 1, 1),
        (".#./###/.#.", 1, 1),  # plus
        ("##./.##/..#", 4, 4),  # W: symmetric about a diagonal
    ],
)
def test_orientation_counts(text, flip, rotate_only):
    shape = Shape.parse(text)
    assert len(shape.orientations()) == flip
    assert len(shape.orientations(allow_flip=False)) == rotate_only
    assert shape.orientations()[0] == shape


def test_orientations_are_first_occurrences_in_transform_order():
    s = Shape.parse("##./.##")
    assert s.orientations() == (s, s.rotate(), s.mirror(), s.mirror().rotate())
    assert s.orientations(allow_flip=False) == (s, s.rotate())


@given(shapes)
@pytest.mark.slow
def test_orientation_algebra(shape):
    flip = shape.orientations()
    rotations = shape.orientations(allow_flip=False)
    assert 8 % len(flip) == 0
    assert 4 % len(rotations) == 0
    assert len(set(flip)) == len(flip)
    assert set(rotations) <= set(flip)
    assert set(flip) == set(shape.transforms())
    assert shape.symmetry * len(flip) == 8
    # a chiral shape's mirror orientations are new, so reflections double the count
    if shape.is_chiral:
        assert len(flip) == 2 * len(rotations)
        assert shape.mirror() not in rotations
    else:
        assert len(flip) == len(rotations)
        assert shape.mirror() in rotations
    for image in flip:
        assert set(image.orientations()) == set(flip)


def test_classic_reference_orientation_counts():
    data = yaml.safe_load(reference_file("patchwork-classic.yaml").read_text())
    patches = data["patches"]
    assert len(patches) == 33
    for patch in patches:
        shape = Shape.parse(patch["shape"])
        assert len(shape.orientations()) == patch["orientations"], patch["id"]
        assert shape.size == patch["cells"], patch["id"]
        assert shape.is_connected, patch["id"]
    assert sum(Shape.parse(p["shape"]).size for p in patches) == data["totals"]["cells"]
    # the reference notes shapes that repeat with different stats; the key finds exactly those
    keys: dict[str, list[str]] = {}
    for patch in patches:
        keys.setdefault(Shape.parse(patch["shape"]).canonical_key, []).append(patch["id"])
    repeated = sorted(ids for ids in keys.values() if len(ids) > 1)
    assert repeated == [["P17", "P18"], ["P25", "P26"], ["P27", "P28"]]


# ----- canonical key and chirality -----------------------------------------------------------------


def test_canonical_key_examples():
    s, z = Shape.parse("##./.##"), Shape.parse(".##/##.")
    assert s.canonical_key == z.canonical_key
    assert Shape.parse("###/.#.").canonical_key != Shape.parse("#./#./##").canonical_key
    assert s.canonical().format() == s.canonical_key
    assert s.canonical() in s.transforms()


@given(shapes)
@pytest.mark.slow
def test_canonical_key_invariant_under_every_transform(shape):
    key = shape.canonical_key
    for image in shape.transforms():
        assert image.canonical_key == key
        assert image.canonical() == shape.canonical()
    assert Shape.parse(key) in shape.transforms()


@given(shapes, shapes)
@pytest.mark.slow
def test_canonical_key_separates_free_shapes(a, b):
    assert (a.canonical_key == b.canonical_key) == (b in a.transforms())


@pytest.mark.parametrize(
    "text, chiral",
    [
        ("#", False),
        ("####", False),
        ("###/.#.", False),
        ("##/##", False),
        ("##./.##", True),
        ("#./#./##", True),
        (".##/##./.#.", True),  # F pentomino
        ("##./.##/..#", False),
    ],
)
def test_chirality(text, chiral):
    assert Shape.parse(text).is_chiral is chiral


# ----- connectivity and holes -------------------------------------------------------------------


def test_connectivity_is_by_edges_not_corners():
    assert Shape.parse("##./.##").is_connected
    assert not Shape.parse("#./.#").is_connected
    assert not Shape.parse("#.#").is_connected
    assert Shape.parse("#").is_connected
    assert len(Shape.parse("#.#/...").components) == 2


@given(connected_shapes())
@pytest.mark.slow
def test_grown_shapes_are_connected(shape):
    assert shape.is_connected
    assert shape.components == (shape,)


@pytest.mark.parametrize(
    "text, holes, hole_size",
    [
        ("###/#.#/###", 1, 1),
        ("####/#..#/####", 1, 2),
        ("#####/#.#.#/#####", 2, 2),
        ("#.#/###", 0, 0),  # the notch reaches the border
        ("###/#.#/#.#", 0, 0),
        (".#./#.#/.#.", 1, 1),  # enclosed by edges even though the cloth touches only at corners
        ("####/#..#/#.##/###.", 1, 3),
        ("##", 0, 0),
    ],
)
def test_holes(text, holes, hole_size):
    shape = Shape.parse(text)
    assert shape.holes == holes
    assert len(shape.hole_cells) == hole_size


def test_hole_leaks_through_an_empty_edge_path():
    # the empty cells form one region that reaches the border, so nothing is enclosed
    shape = Shape.parse("#####/#...#/###.#/#####")
    assert shape.holes == 1  # (1,1),(1,2),(1,3),(2,3) enclosed
    open_shape = Shape.parse("#####/#...#/###..")
    assert open_shape.holes == 0


@given(shapes)
@pytest.mark.slow
def test_hole_cells_are_inside_and_filling_them_removes_holes(shape):
    holes = shape.hole_cells
    assert not holes & shape.cells
    assert all(0 < r < shape.height - 1 and 0 < c < shape.width - 1 for r, c in holes)
    filled = Shape.from_cells(shape.cells | holes)
    assert filled.holes == 0
    assert (shape.holes == 0) == (not holes)


# ----- Doodle straight cuts ---------------------------------------------------------------------


def pieces_of(shape: Shape) -> list[tuple[str, int, str, str]]:
    return [(c.axis, c.index, c.pieces[0].format(), c.pieces[1].format()) for c in shape.straight_cuts()]


def test_single_cells_and_lines():
    assert pieces_of(Shape.parse("#")) == []
    assert pieces_of(Shape.parse("##")) == [("v", 1, "#", "#")]
    assert pieces_of(Shape.parse("#/#")) == [("h", 1, "#", "#")]
    assert pieces_of(Shape.parse("###")) == [("v", 1, "#", "##"), ("v", 2, "##", "#")]
    assert pieces_of(Shape.parse("##/##")) == [("h", 1, "##", "##"), ("v", 1, "#/#", "#/#")]


def test_line_leaving_three_pieces_is_refused():
    # The line under the two arms of the U would leave the base and two single cells:
    # three pieces, so it is not a cut (the rulebook's example of a forbidden cut).
    u = Shape.parse("#.#/###")
    assert pieces_of(u) == [("v", 1, "#/#", ".#/##"), ("v", 2, "#./##", "#/#")]
    assert all(cut.axis == "v" for cut in u.straight_cuts())
    # a longer comb: the line under its three teeth would leave four pieces
    comb = Shape.parse("#.#.#/#####")
    assert [c.axis for c in comb.straight_cuts()] == ["v"] * 4


def test_three_pieces_refused_but_the_small_piece_can_be_cut_elsewhere():
    # The line between the rows leaves a base of five and two dominoes: refused. A domino can
    # still be cut off by the vertical line beside an arm; the base alone never can.
    patch = Shape.parse("##.##/#####")
    results = {piece.format() for cut in patch.straight_cuts() for piece in cut.pieces}
    assert "#####" not in results
    assert "#/#" in results
    assert all(cut.axis == "v" for cut in patch.straight_cuts())


def test_pieces_needing_two_cuts_are_not_offered():
    # From a 2x3 block one line gives a row of three, a column of two or a 2x2 square; a
    # single cell or an L of three would need two lines, so they never appear.
    block = Shape.parse("###/###")
    results = {piece.canonical_key for cut in block.straight_cuts() for piece in cut.pieces}
    assert results == {Shape.parse(t).canonical_key for t in ("###", "##", "##/##")}
    assert Shape.parse("#").canonical_key not in results
    assert Shape.parse("#./##").canonical_key not in results


def test_cut_pieces_in_parent_coordinates():
    shape = Shape.parse(".#./###/.#.")
    cuts = shape.straight_cuts()
    assert [(c.axis, c.index) for c in cuts] == [("h", 1), ("h", 2), ("v", 1), ("v", 2)]
    first = cuts[0]
    assert isinstance(first, Cut)
    assert first.piece_cells == (frozenset({(0, 1)}), frozenset({(1, 0), (1, 1), (1, 2), (2, 1)}))
    assert first.pieces == (Shape.parse("#"), Shape.parse("###/.#."))
    assert first.describe() == "between rows 1 and 2"
    assert cuts[3].describe() == "between columns 2 and 3"


def test_ring_cuts_and_disconnected_shapes():
    ring = Shape.parse("###/#.#/###")
    assert [c.pieces[0].format() for c in ring.straight_cuts()] == ["###", "###/#.#", "#/#/#", "##/#./##"]
    assert Shape.parse("#.#").straight_cuts() == ()  # not one patch: nothing to cut
    assert Shape.parse("#./.#").straight_cuts() == ()


@settings(max_examples=150)
@given(connected_shapes(max_size=14))
@pytest.mark.slow
def test_every_cut_is_a_full_line_into_two_connected_pieces(shape):
    valid_lines = set()
    for cut in shape.straight_cuts():
        first, second = cut.piece_cells
        assert first and second and not first & second
        assert first | second == shape.cells
        axis = 0 if cut.axis == "h" else 1
        assert all(cell[axis] < cut.index for cell in first)
        assert all(cell[axis] >= cut.index for cell in second)
        assert cut.pieces == (Shape.from_cells(first), Shape.from_cells(second))
        assert cut.pieces[0].is_connected and cut.pieces[1].is_connected
        valid_lines.add((cut.axis, cut.index))
    # every other line leaves three or more pieces (a full line never leaves fewer than two)
    for axis, count in (("h", shape.height), ("v", shape.width)):
        k = 0 if axis == "h" else 1
        for index in range(1, count):
            if (axis, index) in valid_lines:
                continue
            first = Shape.from_cells(c for c in shape.cells if c[k] < index)
            second = Shape.from_cells(c for c in shape.cells if c[k] >= index)
            assert len(first.components) + len(second.components) >= 3
