"""Edition -> the numpy tables the time-track kernel reads (one immutable bundle per edition).

The kernel never sees a spec: everything it needs (patch prices, every placement mask of every
patch, the time board, the bonus squares, the Automa decks and levels) is flattened here into
arrays of fixed dtypes, so one compiled kernel plays every edition and variant. `KernelTables`
is a namedtuple that numba accepts as an argument; scalars live in `params`, indexed by the
`P_*` constants. `TrackTables` wraps it with the Python-side lookups (patch ids, the
(patch, orientation, row, col) -> action index) that the notation layer needs.

Tables are cached by the edition's content hash.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np

from toolkit.errors import SpecError, Problem
from toolkit.geometry.board import Board, placements, WORD_BITS
from toolkit.specs.models import Edition, Family

# ----- fixed capacities (the state array has room for this much) -----------------------------
MAX_PATCHES = 64
"""Patches an edition may have in total (starting circle plus late patches)."""
MAX_LEATHER = 16
"""Leather patches a time board may hold."""
MAX_CARDS = 32
"""Cards an Automa deck may hold."""
MAX_FILTERS = 3
"""Filters printed on an Automa card."""
MAX_LEVEL = 5
"""Automa difficulty levels are 1..MAX_LEVEL."""

# ----- params: scalar facts of the edition, by index ------------------------------------------
P_PATCHES = 0
"""Patches in total (starting circle + late patches); patch index = position in all_patches()."""
P_START = 1
"""Patches of the starting circle."""
P_LATE = 2
"""Late patches (Express blue)."""
P_WIDTH = 3
P_HEIGHT = 4
P_CELLS = 5
P_WORDS = 6
"""uint64 words of one quilt mask."""
P_FINAL = 7
"""Final space of the time board."""
P_START_BUTTONS = 8
P_WINDOW = 9
"""Market window: patches after the neutral token that may be bought."""
P_PENALTY = 10
"""Points lost per empty quilt cell."""
P_BONUS_SIZE = 11
"""k of the k x k bonus square; 0 = the edition has no bonus tile."""
P_BONUS_POINTS = 12
P_LATE_ENTER_AT = 13
"""Late patches join when this many patches remain in the circle; -1 = never."""
P_LEATHER = 14
"""Leather patches on the time board."""
P_PLACEMENTS = 15
"""Placements of all patches together (rows of place_masks)."""
P_NEUTRAL_AFTER = 16
"""Patch index the neutral token sits after at setup (the last reachable patch)."""
P_ACTION_LEATHER = 17
"""First leather-placement action (= 1 + P_PLACEMENTS)."""
P_ACTION_AUTOMA = 18
"""The Automa-turn action (= P_ACTION_LEATHER + P_CELLS)."""
P_ACTIONS = 19
"""Number of distinct action ints (= P_ACTION_AUTOMA + 1); size of a legal-action buffer."""
P_HAS_AUTOMA = 20
"""1 when the edition ships the Automa decks."""
P_DECKS = 21
P_AUTOMA_DISCARD = 22
"""Automa cards discarded unseen at setup."""
P_AUTOMA_BONUS = 23
"""Points of the bonus tile when Automa holds it."""
P_TIE_BREAK = 24
"""How equal scores are settled: TIE_FIRST_TO_FINISH or TIE_SHARED."""
N_PARAMS = 25

# Tie-break codes (params[P_TIE_BREAK]), one per value of the edition's `tie_break` key.
TIE_FIRST_TO_FINISH = 0
"""The player who reached the final space first wins (ruling 7)."""
TIE_SHARED = 1
"""Equal scores share the victory: there is no single winner."""
TIE_BREAK_CODES = {"first-to-finish": TIE_FIRST_TO_FINISH, "shared": TIE_SHARED}

# Automa filter codes (card_filters); -1 = no filter in that slot.
F_NONE = -1
F_NO_OVERTAKE = 0
F_MOST_BUTTONS = 1
F_LARGEST = 2
F_FURTHEST = 3
FILTER_CODES = {"NO_OVERTAKE": F_NO_OVERTAKE, "MOST_BUTTONS": F_MOST_BUTTONS, "LARGEST": F_LARGEST, "FURTHEST": F_FURTHEST}
SCORING_TERMS = ("collected_buttons", "patches_with_buttons", "buttons_on_patches")

KernelTables = namedtuple(
    "KernelTables",
    [
        "params",  # int64[N_PARAMS]
        "cost",  # int64[P] buttons to pay
        "time",  # int64[P] spaces to advance
        "income",  # int64[P] buttons printed on the patch
        "size",  # int64[P] cells
        "place_first",  # int64[P] first row of the patch in place_masks
        "place_count",  # int64[P] placements of the patch (0: fits nowhere)
        "place_masks",  # uint64[T, words] every placement of every patch
        "place_patch",  # int64[T] patch index of each placement
        "place_lo",  # uint64[T] word 0 of each placement mask (cells 0..63)
        "place_hi",  # uint64[T] word 1 (cells 64..127; 0 on a one-word board)
        "place_top",  # int64[T] first board row the placement covers
        "place_span",  # int64[T] board rows it covers (place_top .. place_top + span - 1)
        "place_rows",  # int64[T, max span] its cells of each covered row, bit = column
        "income_flag",  # int64[final+1] 1 where a space carries a button-income mark
        "leather_at",  # int64[final+1] leather index on that space, -1 none
        "bonus_masks",  # uint64[S, words] every k x k square (S = 0 when no bonus)
        "start_ids",  # int64[N] patch indices of the starting circle, spec order
        "late_ids",  # int64[L] patch indices of the late patches, spec order
        "deck_size",  # int64[D] cards per Automa deck
        "card_buttons",  # int64[D, MAX_CARDS] virtual buttons
        "card_income",  # int64[D, MAX_CARDS] income per mark while the card is current
        "card_filters",  # int64[D, MAX_CARDS, MAX_FILTERS] filter codes, F_NONE padding
        "level_marker",  # int64[MAX_LEVEL+1] space of the 7x7 marker per level (index 0 unused)
        "level_scoring",  # int64[MAX_LEVEL+1, 3] flags for SCORING_TERMS per level
    ],
)


@dataclass(frozen=True, eq=False)
class TrackTables:
    """The kernel tables of one edition plus the Python lookups of the notation layer."""

    edition: Edition
    arrays: KernelTables
    patch_ids: tuple[str, ...]
    """Patch index -> id (edition.all_patches() order)."""
    patch_index: dict[str, int]
    placement_index: dict[tuple[int, int, int, int], int] = field(repr=False)
    """(patch index, orientation, row, col) -> placement row (action = 1 + row)."""
    placement_key: tuple[tuple[int, int, int, int], ...] = field(repr=False)
    """Placement row -> (patch index, orientation, row, col)."""
    deck_names: tuple[str, ...]
    leather_spaces: tuple[int, ...]
    board: Board

    @property
    def params(self) -> np.ndarray:
        return self.arrays.params

    @property
    def n_actions(self) -> int:
        return int(self.arrays.params[P_ACTIONS])

    @property
    def action_leather(self) -> int:
        return int(self.arrays.params[P_ACTION_LEATHER])

    @property
    def action_automa(self) -> int:
        return int(self.arrays.params[P_ACTION_AUTOMA])


_CACHE: dict[str, TrackTables] = {}


def tables_for(edition: Edition) -> TrackTables:
    """The tables of `edition`, built once per content hash."""
    key = edition.content_hash or f"{edition.name}:{id(edition)}"
    cached = _CACHE.get(key)
    if cached is None:
        cached = build_tables(edition)
        _CACHE[key] = cached
    return cached


def _problem(edition: Edition, key: str, message: str) -> SpecError:
    return SpecError([Problem(edition.source or edition.name, 1, 1, key, message)])


def build_tables(edition: Edition) -> TrackTables:
    """Flatten a time-track edition into kernel tables (raises SpecError if it cannot be played)."""
    if edition.family != Family.TIME_TRACK:
        raise _problem(edition, "family", f"the time-track engine cannot play a {edition.family.value} edition")
    track = edition.timetrack_rules.time_track
    if track is None:
        raise _problem(edition, "time_track", "a time-track edition needs a time track")
    patches = edition.all_patches()
    if not edition.patches:
        raise _problem(edition, "patches", "the starting circle has no patches")
    if len(patches) > MAX_PATCHES:
        raise _problem(edition, "patches", f"{len(patches)} patches; the engine plays at most {MAX_PATCHES}")
    if len(track.leather_patches) > MAX_LEATHER:
        raise _problem(edition, "time_track.leather_patches", f"at most {MAX_LEATHER} leather patches are supported")
    board = Board(edition.board_width, edition.board_height)
    words = board.words
    final = track.final_space

    patch_ids = tuple(p.id for p in patches)
    n = len(patches)
    cost = np.array([p.cost for p in patches], dtype=np.int64)
    time = np.array([p.time for p in patches], dtype=np.int64)
    income = np.array([p.income for p in patches], dtype=np.int64)
    size = np.array([p.shape.size for p in patches], dtype=np.int64)

    place_first = np.zeros(n, dtype=np.int64)
    place_count = np.zeros(n, dtype=np.int64)
    rows_masks: list[int] = []
    rows_patch: list[int] = []
    keys: list[tuple[int, int, int, int]] = []
    for i, patch in enumerate(patches):
        place_first[i] = len(rows_masks)
        for pl in placements(patch.shape, board, edition.allow_flip):
            rows_masks.append(pl.mask)
            rows_patch.append(i)
            keys.append((i, pl.orientation, pl.row, pl.col))
        place_count[i] = len(rows_masks) - place_first[i]
    total = len(rows_masks)
    place_masks = np.zeros((max(total, 1), words), dtype=np.uint64)
    for r, mask in enumerate(rows_masks):
        for w in range(words):
            place_masks[r, w] = (mask >> (WORD_BITS * w)) & 0xFFFF_FFFF_FFFF_FFFF
    place_patch = np.array(rows_patch or [0], dtype=np.int64)
    place_lo = np.ascontiguousarray(place_masks[:, 0])
    place_hi = np.ascontiguousarray(place_masks[:, 1]) if words > 1 else np.zeros_like(place_lo)
    place_top, place_span, place_rows = _placement_rows(rows_masks, board)

    income_flag = np.zeros(final + 1, dtype=np.int64)
    for mark in track.income_marks:
        if 0 < mark <= final:
            income_flag[mark] = 1
    leather_at = np.full(final + 1, -1, dtype=np.int64)
    leather_spaces = tuple(sorted(s for s in track.leather_patches if 0 < s <= final))
    for li, space in enumerate(leather_spaces):
        leather_at[space] = li

    bonus_k = 0
    bonus_points = 0
    bonus_rows: list[int] = []
    if edition.timetrack_rules.bonus is not None and edition.timetrack_rules.bonus.square_size <= min(board.width, board.height):
        bonus_k = edition.timetrack_rules.bonus.square_size
        bonus_points = edition.timetrack_rules.bonus.points
        line = (1 << bonus_k) - 1
        for top in range(board.height - bonus_k + 1):
            for left in range(board.width - bonus_k + 1):
                mask = 0
                for r in range(top, top + bonus_k):
                    mask |= line << (r * board.width + left)
                bonus_rows.append(mask)
    bonus_masks = np.zeros((len(bonus_rows), words), dtype=np.uint64)
    for r, mask in enumerate(bonus_rows):
        for w in range(words):
            bonus_masks[r, w] = (mask >> (WORD_BITS * w)) & 0xFFFF_FFFF_FFFF_FFFF

    start_ids = np.arange(len(edition.patches), dtype=np.int64)
    late_ids = np.arange(len(edition.patches), n, dtype=np.int64)
    neutral_after = _neutral_after(edition)

    automa = edition.timetrack_rules.automa
    deck_names: tuple[str, ...] = ()
    if automa is not None:
        deck_names = tuple(name for name, _ in automa.decks)
    n_decks = max(len(deck_names), 1)
    deck_size = np.zeros(n_decks, dtype=np.int64)
    card_buttons = np.zeros((n_decks, MAX_CARDS), dtype=np.int64)
    card_income = np.zeros((n_decks, MAX_CARDS), dtype=np.int64)
    card_filters = np.full((n_decks, MAX_CARDS, MAX_FILTERS), F_NONE, dtype=np.int64)
    level_marker = np.full(MAX_LEVEL + 1, final + 1, dtype=np.int64)
    level_scoring = np.zeros((MAX_LEVEL + 1, len(SCORING_TERMS)), dtype=np.int64)
    if automa is not None:
        for d, (name, cards) in enumerate(automa.decks):
            if len(cards) > MAX_CARDS:
                raise _problem(edition, f"automa.decks.{name}", f"at most {MAX_CARDS} cards per deck are supported")
            deck_size[d] = len(cards)
            for c, card in enumerate(cards):
                card_buttons[d, c] = card.virtual_buttons
                card_income[d, c] = card.income
                if len(card.filters) > MAX_FILTERS:
                    raise _problem(edition, f"automa.decks.{name}[{c}].filters", f"at most {MAX_FILTERS} filters per card")
                for f, code in enumerate(card.filters):
                    card_filters[d, c, f] = FILTER_CODES[code]
        for level in automa.levels:
            if 1 <= level.level <= MAX_LEVEL:
                level_marker[level.level] = final - level.spaces_from_end
                for t, term in enumerate(SCORING_TERMS):
                    level_scoring[level.level, t] = 1 if term in level.scoring else 0

    leather_action = 1 + total
    automa_action = leather_action + board.cells
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_PATCHES] = n
    params[P_START] = len(edition.patches)
    params[P_LATE] = len(edition.timetrack_rules.late_patches)
    params[P_WIDTH] = board.width
    params[P_HEIGHT] = board.height
    params[P_CELLS] = board.cells
    params[P_WORDS] = words
    params[P_FINAL] = final
    params[P_START_BUTTONS] = edition.timetrack_rules.starting_buttons
    params[P_WINDOW] = edition.timetrack_rules.market_window
    params[P_PENALTY] = edition.empty_penalty
    params[P_BONUS_SIZE] = bonus_k
    params[P_BONUS_POINTS] = bonus_points
    params[P_LATE_ENTER_AT] = (
        edition.timetrack_rules.late_patches_enter_at
        if edition.timetrack_rules.late_patches and edition.timetrack_rules.late_patches_enter_at is not None
        else -1
    )
    params[P_LEATHER] = len(leather_spaces)
    params[P_PLACEMENTS] = total
    params[P_NEUTRAL_AFTER] = neutral_after
    params[P_ACTION_LEATHER] = leather_action
    params[P_ACTION_AUTOMA] = automa_action
    params[P_ACTIONS] = automa_action + 1
    params[P_HAS_AUTOMA] = 1 if automa is not None else 0
    params[P_DECKS] = len(deck_names)
    params[P_AUTOMA_DISCARD] = automa.discard_at_setup if automa is not None else 0
    params[P_AUTOMA_BONUS] = automa.bonus_points if automa is not None else 0
    params[P_TIE_BREAK] = TIE_BREAK_CODES[edition.timetrack_rules.tie_break]

    arrays = KernelTables(
        params=params,
        cost=cost,
        time=time,
        income=income,
        size=size,
        place_first=place_first,
        place_count=place_count,
        place_masks=place_masks,
        place_patch=place_patch,
        place_lo=place_lo,
        place_hi=place_hi,
        place_top=place_top,
        place_span=place_span,
        place_rows=place_rows,
        income_flag=income_flag,
        leather_at=leather_at,
        bonus_masks=bonus_masks,
        start_ids=start_ids,
        late_ids=late_ids,
        deck_size=deck_size,
        card_buttons=card_buttons,
        card_income=card_income,
        card_filters=card_filters,
        level_marker=level_marker,
        level_scoring=level_scoring,
    )
    for array in arrays:
        array.setflags(write=False)
    return TrackTables(
        edition=edition,
        arrays=arrays,
        patch_ids=patch_ids,
        patch_index={pid: i for i, pid in enumerate(patch_ids)},
        placement_index={key: r for r, key in enumerate(keys)},
        placement_key=tuple(keys),
        deck_names=deck_names,
        leather_spaces=leather_spaces,
        board=board,
    )


def _placement_rows(masks: list[int], board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per placement: the first row it covers, how many rows, and its cells of each of them
    (what the bots' packing evaluation reads, so they never unpack a mask)."""
    n = max(len(masks), 1)
    top = np.zeros(n, dtype=np.int64)
    span = np.zeros(n, dtype=np.int64)
    per_row: list[list[int]] = []
    for g, mask in enumerate(masks):
        bits = [(mask >> (r * board.width)) & board.row_mask for r in range(board.height)]
        covered = [r for r, b in enumerate(bits) if b]
        top[g] = covered[0]
        span[g] = covered[-1] - covered[0] + 1
        per_row.append(bits[covered[0] : covered[-1] + 1])
    rows = np.zeros((n, max(int(span.max()), 1)), dtype=np.int64)
    for g, row_bits in enumerate(per_row):
        rows[g, : len(row_bits)] = row_bits
    return top, span, rows


def _neutral_after(edition: Edition) -> int:
    """Patch index of the patch the neutral token starts after (ties: first in spec order)."""
    spec = edition.timetrack_rules.neutral_token_after
    if spec == "smallest":
        sizes = [p.shape.size for p in edition.patches]
        return sizes.index(min(sizes))
    for i, patch in enumerate(edition.patches):
        if patch.id == spec:
            return i
    raise _problem(
        edition,
        "neutral_token_after",
        f"'{spec}' is not a patch of the starting circle (expected 'smallest' or a patch id)",
    )
