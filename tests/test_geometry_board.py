"""Board masks, placements, word arrays, filled squares and the Doodle best rectangle."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import ShapeError
from toolkit.geometry import (
    MAX_BOARD_SIDE,
    Board,
    Placement,
    Rect,
    Shape,
    best_rectangle,
    has_filled_square,
    is_filled_rectangle,
    legal_placements,
    mask_words,
    placement_array,
    placements,
    rectangle_score,
    words_to_mask,
)

shapes = st.frozensets(
    st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=12
).map(Shape.from_cells)
boards = st.builds(Board, st.integers(1, 12), st.integers(1, 12))


@st.composite
def boards_with_masks(draw, max_side: int = 9):
    board = draw(st.builds(Board, st.integers(1, max_side), st.integers(1, max_side)))
    # dense masks, so filled rectangles actually occur
    bits = draw(st.lists(st.booleans() | st.just(True), min_size=board.cells, max_size=board.cells))
    mask = sum(1 << i for i, bit in enumerate(bits) if bit)
    return board, mask


# ----- board ------------------------------------------------------------------------------------


def test_board_cells_bits_and_text():
    board = Board(9, 9)
    assert board.cells == 81 and board.words == 2
    assert board.full_mask == (1 << 81) - 1
    assert board.bit(0, 0) == 1 and board.bit(1, 0) == 1 << 9 and board.bit(8, 8) == 1 << 80
    mask = board.mask_of([(0, 0), (2, 3)])
    assert board.cells_of(mask) == [(0, 0), (2, 3)]
    assert board.empty_cells(mask) == 79
    assert board.empty_cells(0) == 81 and board.empty_cells(board.full_mask) == 0
    small = Board(3, 2)
    assert small.text(small.mask_of([(0, 0), (1, 2)])) == "#..\n..#"
    assert small.text(0b111, fill="X", empty="_") == "XXX\n___"


def test_board_sizes_and_limits():
    assert Board(1, 1).full_mask == 1
    assert Board(16, 16).words == 4
    assert Board(MAX_BOARD_SIDE, MAX_BOARD_SIDE).cells == MAX_BOARD_SIDE**2
    for width, height in ((0, 3), (3, 0), (MAX_BOARD_SIDE + 1, 9), (-1, 2)):
        with pytest.raises(ShapeError, match=f"up to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}"):
            Board(width, height)
    with pytest.raises(ShapeError, match="whole number"):
        Board(9.0, 9)
    with pytest.raises(ShapeError, match="outside the 9x9 board"):
        Board(9, 9).bit(9, 0)


# ----- placements -------------------------------------------------------------------------------


def test_placements_order_and_masks():
    board = Board(3, 2)
    domino = Shape.parse("##")
    result = placements(domino, board)
    assert [(p.orientation, p.row, p.col) for p in result] == [
        (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 0, 2),
    ]
    assert result[0].mask == 0b000011
    assert result[3].mask == 0b110000
    assert result[4].mask == 0b001001
    assert isinstance(result[0], Placement)


def test_placements_cached_and_flip_rule():
    board = Board(9, 9)
    ell = Shape.parse("#./#./##")
    assert placements(ell, board) is placements(ell, board)
    assert len(placements(ell, board)) == 8 * 7 * 8
    assert len(placements(ell, board, allow_flip=False)) == 4 * 7 * 8
    assert placements(Shape.parse("##########"), board) == ()  # longer than the board


@settings(max_examples=60)
@given(shapes, boards, st.booleans())
@pytest.mark.slow
def test_placement_count_and_bounds(shape, board, allow_flip):
    result = placements(shape, board, allow_flip)
    images = shape.orientations(allow_flip)
    expected = sum(
        max(0, board.width - o.width + 1) * max(0, board.height - o.height + 1) for o in images
    )
    assert len(result) == expected
    assert len({p.mask for p in result}) == len(result)  # distinct orientations, distinct masks
    for p in result:
        image = images[p.orientation]
        assert p.mask.bit_count() == shape.size
        assert p.mask & ~board.full_mask == 0
        assert set(board.cells_of(p.mask)) == {(p.row + r, p.col + c) for r, c in image.cells}
    assert list(result) == sorted(result, key=lambda p: (p.orientation, p.row, p.col))


def test_words_round_trip_and_array():
    board = Board(16, 16)
    mask = (1 << 0) | (1 << 63) | (1 << 64) | (1 << 255)
    words = mask_words(mask, board)
    assert words.dtype == np.uint64 and words.shape == (4,)
    assert words.tolist() == [(1 << 63) | 1, 1, 0, 1 << 63]
    assert words_to_mask(words) == mask
    with pytest.raises(ShapeError, match="outside"):
        mask_words(1 << 256, board)
    shape = Shape.parse("###/.#.")
    array = placement_array(shape, board)
    rows = placements(shape, board)
    assert array.shape == (len(rows), 4) and array.dtype == np.uint64
    assert not array.flags.writeable
    assert placement_array(shape, board) is array
    for row, p in zip(array, rows):
        assert words_to_mask(row) == p.mask


@given(boards_with_masks(max_side=12), shapes)
@settings(max_examples=60)
@pytest.mark.slow
def test_legal_placements_by_words_match_masks(board_mask, shape):
    board, occupied = board_mask
    legal = legal_placements(shape, board, occupied)
    assert all(p.mask & occupied == 0 for p in legal)
    # the word-by-word test the compiled engines use agrees with the int test
    array = placement_array(shape, board)
    occ = mask_words(occupied, board)
    by_words = [i for i in range(len(array)) if not np.any(array[i] & occ)]
    assert [placements(shape, board)[i] for i in by_words] == legal


# ----- squares and rectangles ---------------------------------------------------------------------


def test_filled_square():
    board = Board(9, 9)
    block = board.mask_of((r, c) for r in range(1, 8) for c in range(2, 9))
    assert has_filled_square(block, board, 7)
    assert not has_filled_square(block, board, 8)
    holed = block & ~board.bit(4, 5)
    assert not has_filled_square(holed, board, 7)
    assert has_filled_square(holed, board, 3)
    assert not has_filled_square(0, board, 1)
    assert has_filled_square(board.bit(8, 8), board, 1)
    assert not has_filled_square(board.full_mask, Board(3, 5), 4)
    with pytest.raises(ShapeError):
        has_filled_square(0, board, 0)


def test_square_does_not_wrap_rows():
    board = Board(4, 2)
    # columns 3 and 0 are adjacent bits across the row boundary but not adjacent cells
    mask = board.mask_of([(0, 3), (1, 3)]) | (board.bit(0, 0) << 4) | board.bit(0, 0)
    assert board.cells_of(mask) == [(0, 0), (0, 3), (1, 0), (1, 3)]
    assert not has_filled_square(mask, board, 2)


def brute_filled_square(occupied: int, board: Board, k: int) -> bool:
    for r in range(board.height - k + 1):
        for c in range(board.width - k + 1):
            if is_filled_rectangle(occupied, board, Rect(r, c, k, k)):
                return True
    return False


@given(boards_with_masks(), st.integers(1, 5))
@settings(max_examples=80)
@pytest.mark.slow
def test_filled_square_matches_brute_force(board_mask, k):
    board, occupied = board_mask
    assert has_filled_square(occupied, board, k) == brute_filled_square(occupied, board, k)


def test_rectangle_score_rulebook_examples():
    assert rectangle_score(4, 5) == 17
    assert rectangle_score(5, 4) == 17
    assert rectangle_score(3, 8) == 14
    assert rectangle_score(8, 3) == 14
    assert rectangle_score(2, 2) == 4
    assert rectangle_score(1, 1) == 1
    assert rectangle_score(9, 9) == 81
    assert rectangle_score(1, 9) == 9
    with pytest.raises(ShapeError):
        rectangle_score(0, 3)
    assert Rect(0, 0, 4, 5).score == 17 and Rect(2, 1, 8, 3).score == 14


def test_is_filled_rectangle():
    board = Board(9, 9)
    occupied = board.mask_of((r, c) for r in range(2, 6) for c in range(1, 6))
    assert is_filled_rectangle(occupied, board, Rect(2, 1, 4, 5))
    assert is_filled_rectangle(occupied, board, Rect(3, 2, 1, 1))
    assert not is_filled_rectangle(occupied, board, Rect(2, 1, 5, 5))
    with pytest.raises(ShapeError, match="does not lie on the 9x9 board"):
        is_filled_rectangle(occupied, board, Rect(7, 0, 3, 1))
    with pytest.raises(ShapeError):
        is_filled_rectangle(occupied, board, Rect(0, 0, 0, 1))


def test_best_rectangle_examples():
    board = Board(9, 9)
    assert best_rectangle(0, board) is None
    five_by_four = board.mask_of((r, c) for r in range(2, 6) for c in range(1, 6))
    best = best_rectangle(five_by_four, board)
    assert best == Rect(2, 1, 4, 5) and best.score == 17
    # a 3x8 strip (14) beats a 3x3 (9); the 4x5 (17) beats the strip
    strip = board.mask_of((r, c) for r in range(6, 9) for c in range(0, 8))
    assert best_rectangle(strip, board) == Rect(6, 0, 3, 8)
    # touching, they form a 5 wide, 7 tall block: 5*5 + 2
    assert best_rectangle(strip | five_by_four, board) == Rect(2, 1, 7, 5)
    assert Rect(2, 1, 7, 5).score == 27
    apart = board.mask_of((r, c) for r in range(0, 4) for c in range(1, 6))
    assert best_rectangle(strip | apart, board) == Rect(0, 1, 4, 5)
    assert best_rectangle(board.full_mask, board) == Rect(0, 0, 9, 9)


def test_best_rectangle_tie_break():
    board = Board(9, 9)
    # 3x3 (score 9, area 9) and 2x7 (score 9, area 14): the larger area wins
    square = board.mask_of((r, c) for r in range(0, 3) for c in range(0, 3))
    bar = board.mask_of((r, c) for r in range(5, 7) for c in range(0, 7))
    assert best_rectangle(square | bar, board) == Rect(5, 0, 2, 7)
    # two equal squares: the topmost, then the leftmost
    a = board.mask_of((r, c) for r in range(4, 6) for c in range(0, 2))
    b = board.mask_of((r, c) for r in range(0, 2) for c in range(6, 8))
    c = board.mask_of((r, c) for r in range(0, 2) for c in range(3, 5))
    assert best_rectangle(a | b | c, board) == Rect(0, 3, 2, 2)
    # a 1x2 domino both ways at the same corner: the taller wins
    ell = board.mask_of([(0, 0), (0, 1), (1, 0)])
    assert best_rectangle(ell, board) == Rect(0, 0, 2, 1)


def brute_best(occupied: int, board: Board) -> Rect | None:
    best, best_rank = None, None
    for r in range(board.height):
        for c in range(board.width):
            for h in range(1, board.height - r + 1):
                for w in range(1, board.width - c + 1):
                    rect = Rect(r, c, h, w)
                    if not is_filled_rectangle(occupied, board, rect):
                        continue
                    rank = (-rect.score, -rect.area, r, c, -h, -w)
                    if best_rank is None or rank < best_rank:
                        best, best_rank = rect, rank
    return best


@given(boards_with_masks(max_side=7))
@settings(max_examples=120)
@pytest.mark.slow
def test_best_rectangle_matches_brute_force(board_mask):
    board, occupied = board_mask
    assert best_rectangle(occupied, board) == brute_best(occupied, board)


def test_sixteen_by_sixteen_board():
    board = Board(16, 16)
    occupied = board.mask_of((r, c) for r in range(3, 16) for c in range(4, 16))
    assert best_rectangle(occupied, board) == Rect(3, 4, 13, 12)
    assert has_filled_square(occupied, board, 12) and not has_filled_square(occupied, board, 13)
    pent = Shape.parse(".#./###/.#.")
    assert len(placements(pent, board)) == 14 * 14
    legal = legal_placements(pent, board, occupied)
    # the plus fits only where its box does not overlap the block, or overlaps it by a corner
    expected = [
        p for p in placements(pent, board)
        if not any(r >= 3 and c >= 4 for r, c in board.cells_of(p.mask))
    ]
    assert legal == expected and 0 < len(legal) < 14 * 14
