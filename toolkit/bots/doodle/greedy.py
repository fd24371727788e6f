"""The `greedy` Doodle bot, the fast tier: a packing pre-filter, a one-ply evaluation of the
shortlist, and a look-ahead at the next turn's card over the die faces.

The parts, each its own module under toolkit.bots.doodle:
- `weights`: the named weights (G_* indices into one float array per tier) and the fast tier's
  `GREEDY_WEIGHTS`;
- `features`: what the evaluation sees of a sheet (the rectangle the coming scoring and the last
  one can still reach, the best rectangle now, shaded cells, roughness, small holes) and
  `evaluate`, which weighs them; the contact tables (`greedy_tables`);
- `shortlist`: every legal drawing of the step (the kernel's drawing sources, walk_sources, and
  the fitting placements of each source's shape) pre-filtered by cheap bit counts, and the
  survivors valued one ply deep;
- `lookahead`: drawings close to the best re-ranked by the expected value of the best drawing of
  the next turn's card over the die faces (the circle is open information);
- this module: the chooser. SINGLE before a scoring when it completes a better rectangle, and
  always in the last one; always the kernel's best rectangle. Deterministic: the bot generator is
  never drawn from (ties go to the first action in the kernel's canonical order).

The `expert` tier (toolkit.bots.doodle.expert) reuses the same machinery with other weights and a
wider search. `choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, gw)` is the compiled
chooser the turn loop (toolkit.families.doodle.loop) runs, `aux = greedy_tables(tables)`;
`DoodleGreedyBot` is the same chooser behind the Bot protocol for validated games
(toolkit.bots.registry builds it as `greedy` for the Doodle editions; the time-track `greedy` is
toolkit.bots.greedy).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from toolkit.bots.doodle.features import (
    best_points,
    greedy_tables,
    sheet_rows,
    turns_left_in_game,
    turns_left_in_round,
)
from toolkit.bots.doodle.lookahead import look_ahead
from toolkit.bots.doodle.shortlist import put_choice, shortlist
from toolkit.bots.doodle.weights import G_LOOKAHEAD, G_SINGLE_AGAIN_GAIN, G_SINGLE_GAIN, GREEDY_WEIGHTS
from toolkit.errors import UsageError
from toolkit.games.doodle.kernel import (
    K_SCORE,
    K_SINGLE,
    NA,
    P_HEIGHT,
    P_ROUNDS,
    P_WIDTH,
    PH_OVER,
    PH_SCORE,
    PH_START,
    PH_TURN,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    SP_SINGLE,
    best_rectangle,
    put_action,
    special_mode,
)
from toolkit.jit import njit, no_alloc

__all__ = ["GREEDY_WEIGHTS", "DoodleGreedyBot", "best_single", "choose_greedy", "choose_greedy_weighted",
           "greedy_tables"]


@no_alloc
def best_single(rows, width, height, now):
    """(cell, points): the empty cell whose shading grows the best rectangle of the sheet (`rows`,
    whose best rectangle scores `now`) most, the first on ties, and by how much; (-1, -1) on a
    full sheet. rows is left as it was."""
    best_gain = -1
    best_cell = -1
    for cell in range(width * height):
        r = cell // width
        c = cell % width
        if (rows[r] >> c) & 1:
            continue
        rows[r] |= 1 << c
        gain = best_points(rows, width, height) - now
        rows[r] &= ~(1 << c)
        if gain > best_gain:
            best_gain = gain
            best_cell = cell
    return best_cell, best_gain


@njit(cache=True)
def _score_step(tables, st, occ, act, gw, single_mode):
    """The scoring step: SINGLE first when it grows the rectangle enough (always in the last
    scoring, where an unused SINGLE is a point thrown away), then the kernel's best rectangle."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    k = st[S_SEAT]
    now = best_rectangle(tables, occ[k])
    last_round = st[S_ROUND] == params[P_ROUNDS] - 1
    if single_mode != 0:
        rows = np.empty(height, dtype=np.int64)
        sheet_rows(occ[k], width, height, rows)
        best_cell, best_gain = best_single(rows, width, height, now[0])
        threshold = gw[G_SINGLE_AGAIN_GAIN] if single_mode == 2 else gw[G_SINGLE_GAIN]
        if best_cell >= 0 and (last_round or best_gain >= threshold):
            put_action(act.reshape(1, NA), 0, K_SINGLE, -1, 0, -1, 0, best_cell, 0, 0, 0,
                       SP_SINGLE + 1 if single_mode == 2 else 0)
            return
    put_action(act.reshape(1, NA), 0, K_SCORE, -1, 0, -1, 0, now[1], now[2], now[3], now[4], 0)


@njit(cache=True)
def choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, gw):
    """The greedy chooser with explicit weights (see choose_greedy)."""
    params = tables.params
    k = st[S_SEAT]
    phase = st[S_PHASE]
    if phase == PH_SCORE:
        _score_step(tables, st, occ, act, gw, special_mode(params, st, k, SP_SINGLE))
        return
    src, nsrc, cand, places, values, costs, best_j = shortlist(tables, aux, st, occ, gw)
    turns_left = turns_left_in_round(params, st)
    later = turns_left_in_game(params, st) - turns_left
    spare = 1 if special_mode(params, st, k, SP_SINGLE) != 0 else 0
    depth = int(gw[G_LOOKAHEAD])
    if depth > 0 and turns_left > 0 and (phase == PH_START or phase == PH_TURN):
        best_j = look_ahead(tables, aux, st, occ[k], places, values, costs, depth, turns_left, later, spare, gw,
                            best_j)
    put_choice(tables, st, src, nsrc, cand, places, best_j, act)


def choose_greedy(tables, aux, st, occ, bot_rng, act):
    """The fast Doodle bot. Every legal draw (whole, cut, neighbour, free pick) is pre-filtered by
    the cells it shades and how snugly it packs (shaded neighbours and board edges it touches,
    counted from bit planes of the sheet), less the price of the specials it spends; the shortlist is
    valued one ply deep by the coming rectangle, shaded cells, compactness and isolated holes,
    and its best few are re-ranked by the expected best drawing of the next turn's card over
    the die faces (the circle is open information). SINGLE before a scoring when it completes a
    better rectangle, and always in the last one; always the best rectangle. Deterministic:
    bot_rng is unused (ties go to the first action in canonical order). Plain Python over the compiled
    `choose_greedy_weighted` (the turn loops call that): a compiled wrapper would compile it all again."""
    choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, GREEDY_WEIGHTS)


class DoodleKernelBot:
    """A Doodle bot whose chooser is a kernel function (chooser(tables, aux, st, occ, rng, act),
    as the turn loops call it): choose asks it for the running game's kernel state."""

    name = ""
    game_options: dict[str, Any] = {}
    seat = None
    chooser: Callable[..., None]

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        tables, st, occ = game.kernel_state()
        if st[S_PHASE] == PH_OVER:
            raise UsageError(f"the {self.name} bot was asked to move in a finished game")
        act = np.zeros(NA, dtype=np.int64)
        self.chooser(tables, greedy_tables(tables), st, occ, rng, act)
        return game.action_of_row(act)


class DoodleGreedyBot(DoodleKernelBot):
    """Deterministic greedy Doodle player with a one-card look-ahead (ties: first legal action)."""

    name = "greedy"
    chooser = staticmethod(choose_greedy)

