"""The Doodle bots' weights: one float array per tier, indexed by the G_* names below.

The compiled evaluation (toolkit.bots.doodle.features), the shortlist's pre-filter
(toolkit.bots.doodle.shortlist) and the look-ahead (toolkit.bots.doodle.lookahead) read a weight
as `gw[G_NAME]`, so a tier is one array and the tuner can hand any array to the same compiled
chooser. `weight_array(**weights)` builds one from every weight by name (the name is the G_*
index in lower case); `GREEDY_WEIGHTS` is the fast tier's, the strong tier's is
toolkit.bots.doodle.expert.EXPERT_WEIGHTS. Every index has a line below saying what it weighs. `special_price` is what spending a special
action costs at a point of the game (compiled, so this module's constants key numba's cache like
every module that compiles: toolkit.jit).
"""
from __future__ import annotations

import numpy as np

from toolkit.errors import UsageError
from toolkit.jit import njit

# ----- the evaluation of a sheet (features.evaluate) -----------------------------------------
G_CELLS_PER_TURN = 0
"""Cells a draw is expected to shade: how many cells of a target rectangle the turns left can fill."""
G_MISSING = 1
"""Points a target rectangle loses per cell still missing from it."""
G_MISSING_LOAD = 2
"""More per missing cell, in proportion to the missing cells over what the turns left can fill."""
G_ROUND = 3
"""Weight of the coming scoring's best reachable rectangle (features.round_potentials)."""
G_FILLED = 4
"""Value of each shaded cell (also the pre-filter's value of each cell a drawing shades)."""
G_ROUGH = 5
"""Cost of each edge between a shaded and an empty cell, the border counting as shaded."""
G_ISOLATED = 6
"""Cost of each one-cell hole (an empty cell walled in by shaded cells or the edge)."""
G_BEST = 9
"""Weight of the points of the best fully shaded rectangle of the sheet now (0: not counted)."""
G_FUTURE = 18
"""Weight of the last scoring's best reachable rectangle, when a later scoring is to come (0: not counted)."""
G_LAST_FILLED = 21
"""Value of a shaded cell on top of G_FILLED when the coming scoring is the last one (every
empty cell then costs a point for certain); 0: the same value in every round."""
G_PAIRED = 26
"""The cost of a two-cell hole (features.paired_holes); 0: not counted."""
G_HOLE3 = 27
"""The cost of a three-cell hole (features.small_holes); 0: not counted."""
G_HOLE4 = 28
"""The cost of a four-cell hole (features.small_holes); 0: not counted."""

# ----- the special actions -------------------------------------------------------------------
G_SPECIAL = 7
"""Price of spending a special action while the game has G_SPECIAL_HORIZON draws or more left."""
G_SPECIAL_HORIZON = 10
"""Draws left in the game below which that price falls in proportion (an unused special is worth nothing at the end)."""
G_PRICE_NEIGHBOUR = 22
"""The price of spending NEIGHBOUR, as a multiple of the special-action price."""
G_PRICE_CUT = 23
"""The price of spending CUT, as a multiple of the special-action price."""
G_PRICE_AGAIN = 24
"""The price of spending AGAIN to repeat NEIGHBOUR or CUT (the drawing then crosses off AGAIN
alone), as a multiple of the special-action price; the fast tier's 2 prices it as two actions,
as it was tuned with."""
G_SINGLE_GAIN = 8
"""Points SINGLE must add to the best rectangle to be spent before a scoring other than the last."""
G_SINGLE_AGAIN_GAIN = 25
"""Like G_SINGLE_GAIN, for a SINGLE that spends AGAIN (SINGLE already used)."""

# ----- the pre-filter (shortlist.scan_shape) -------------------------------------------------
G_CONTACT = 14
"""Pre-filter value of each cell side of a drawing that meets a shaded cell or the sheet's edge."""
G_TARGET = 15
"""Pre-filter value of each cell of a drawing inside the rectangle the coming scoring aims at."""
G_SIDES = 17
"""Pre-filter cost of each cell side of a drawing (its perimeter, however it lies)."""

# ----- the width and depth of the search -----------------------------------------------------
G_SHORTLIST = 12
"""Drawings the pre-filter keeps for the one-ply evaluation."""
G_LOOKAHEAD = 11
"""Best drawings re-ranked by the look-ahead over the next turn's card (0: no look-ahead)."""
G_MARGIN = 16
"""How far below the best one-ply value a drawing may be and still be re-ranked."""
G_NEXT_SHORTLIST = 13
"""Drawings of the next turn's card the look-ahead's pre-filter keeps for each die face."""
G_PLIES = 19
"""Turns the look-ahead looks into: 1 the next card, 2 the card after it too."""
G_SECOND_PLY = 20
"""Drawings of the next card (passing among them) looked at a second turn deep, for each die face."""

N_WEIGHTS = 29

LATE_SPECIAL_PRICE = 0.25
"""The price of spending a special action in every tier once the game has 2 draws or fewer left
(special_price): nearly nothing, as one unused then is worth nothing."""

WEIGHT_INDEX: dict[str, int] = {name[2:].lower(): value for name, value in sorted(globals().items())
                                if name.startswith("G_")}
"""Weight name (the G_* index in lower case: "cells_per_turn", ...) -> index."""
assert sorted(WEIGHT_INDEX.values()) == list(range(N_WEIGHTS))


def weight_array(**weights: float) -> np.ndarray:
    """One tier's weights by name (every name of WEIGHT_INDEX, each once), as the float array the
    compiled code reads."""
    unknown = sorted(set(weights) - set(WEIGHT_INDEX))
    missing = sorted(set(WEIGHT_INDEX) - set(weights))
    if unknown or missing:
        raise UsageError(f"Doodle bot weights: unknown {unknown}, missing {missing}")
    out = np.zeros(N_WEIGHTS)
    for name, value in weights.items():
        out[WEIGHT_INDEX[name]] = value
    return out


# Weights of the fast tier, tuned with benchmarks/tune_doodle_greedy.py on seeded solo games of
# seeds 3, 5, 7 and 11 and confirmed with bench_doodle_bots.py on seed 1. Against the first tuned
# set: rougher quilts cost more and shaded cells count less (ROUGH 1, FILLED 0.5, less again in the
# last round), isolated holes cost 2, 5 cells a turn, and the search is wider (16 shortlisted,
# 7 looked ahead within 9 points of the best) but narrower on the next card (3). Then holes of one
# and two cells at 4 each (G_ISOLATED, G_PAIRED): +2.6 points on 1,000 seeded games of seed 1 and
# +2.2 on 2,000 of seed 3, at the same speed (6 each, or 3-cell holes priced too, scored less).
GREEDY_WEIGHTS = weight_array(
    cells_per_turn=5.0, missing=0.5, missing_load=1.0, round=1.0, filled=0.5, rough=1.0, isolated=4.0, best=0.5,
    future=1.0, last_filled=-0.5, paired=4.0, hole3=0.0, hole4=0.0,
    special=6.0, special_horizon=1.0, price_neighbour=1.0, price_cut=1.0, price_again=2.0, single_gain=4.0,
    single_again_gain=4.0,
    contact=1.0, target=1.0, sides=0.0,
    shortlist=16.0, lookahead=7.0, margin=9.0, next_shortlist=3.0, plies=1.0, second_ply=3.0,
)
GREEDY_WEIGHTS.flags.writeable = False  # typed as compiled code types a global: one compile for both


@njit(cache=True)
def special_price(gw, game_left):
    """What spending one special action costs with `game_left` draws left in the game: a special
    action unused at the end is worth nothing, so its price falls as the game runs out."""
    return gw[G_SPECIAL] * min(1.0, game_left / gw[G_SPECIAL_HORIZON]) if game_left > 2 else LATE_SPECIAL_PRICE
