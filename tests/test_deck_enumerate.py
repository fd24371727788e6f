"""Free polyomino enumeration: the counts of the literature, orientation classes, holes, order."""
import pytest

from toolkit.errors import UsageError
from toolkit.geometry.enumerate import (
    fixed_count,
    free_polyominoes,
    one_sided_count,
    orientation_classes,
)

FREE = {1: 1, 2: 1, 3: 2, 4: 5, 5: 12, 6: 35, 7: 108, 8: 369}
FIXED = {1: 1, 2: 2, 3: 6, 4: 19, 5: 63, 6: 216, 7: 760, 8: 2725}
ONE_SIDED = {1: 1, 2: 1, 3: 2, 4: 7, 5: 18, 6: 60, 7: 196, 8: 704}
# free n-ominoes with 1, 2, 4 or 8 distinct orientations (symmetry group of order 8, 4, 2, 1)
CLASSES = {
    4: {1: 1, 2: 1, 4: 2, 8: 1},
    5: {1: 1, 2: 1, 4: 5, 8: 5},
    6: {1: 0, 2: 2, 4: 13, 8: 20},
    7: {1: 0, 2: 4, 4: 20, 8: 84},
    8: {1: 1, 2: 6, 4: 46, 8: 316},
}


@pytest.mark.parametrize("n", sorted(FREE))
def test_counts_match_the_literature(n):
    shapes = free_polyominoes(n)
    assert len(shapes) == FREE[n]
    assert fixed_count(n) == FIXED[n]
    assert one_sided_count(n) == ONE_SIDED[n]


@pytest.mark.parametrize("n", sorted(CLASSES))
def test_orientation_classes(n):
    assert orientation_classes(n) == CLASSES[n]


@pytest.mark.parametrize("n", range(1, 9))
def test_each_free_shape_once_connected_canonical_and_sorted(n):
    shapes = free_polyominoes(n)
    keys = [s.canonical_key for s in shapes]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    for shape in shapes:
        assert shape.size == n
        assert shape.is_connected
        assert shape.format() == shape.canonical_key


def test_holes_first_appear_at_seven_cells():
    assert [sum(s.holes > 0 for s in free_polyominoes(n)) for n in range(1, 9)] == [0, 0, 0, 0, 0, 0, 1, 6]


def test_pentominoes_are_the_twelve_named_ones():
    texts = {s.canonical_key for s in free_polyominoes(5)}
    assert "#####" in texts                       # I
    assert ".#./###/.#." in texts                 # X
    assert len(texts) == 12


@pytest.mark.parametrize("n", [0, -1, 11])
def test_sizes_out_of_range_are_usage_errors(n):
    with pytest.raises(UsageError):
        free_polyominoes(n)
