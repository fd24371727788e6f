"""The `expert` Doodle bot, the strong tier: a two-turn expectimax in the first rounds, an exact
search over every die sequence in the last.

Rounds before the last: it shortlists and evaluates drawings as the fast tier does
(toolkit.bots.doodle.greedy), with a wider shortlist, and re-ranks the best six by an expectimax
over the die: for each face, the best few drawings of the card that face brings (and passing) are
valued by the expected best drawing of the card after it, over the faces again, on the circle that
card leaves behind. Within a round the circle is open information, so the search sees exactly the
cards the die can bring; its leaves are the evaluation's view of the coming scoring and of the last
scoring's rectangle. The special actions are priced as in the fast tier (a price that falls as the
game runs out); SINGLE and the rectangle at each scoring likewise.

The last round (toolkit.bots.doodle.endgame): every card still to come is in the circle, so each
drawing of a rolled turn or the free choice is valued over every sequence of the remaining rolls
by an exact cover search for a full sheet, or failing that the largest rectangle one row or column
short of it; that is where the fast tier loses most of its points. Deterministic: the bot
generator is never drawn from.

`choose_expert(tables, aux, st, occ, bot_rng, act)` is the compiled chooser the turn loop runs;
`DoodleExpertBot` puts it behind the Bot protocol and adds `explain(game)`, the text of the play
prompt's `hint`: what it would do, the best rectangle now, and what it makes of each special
action still open this step.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.bots.doodle.endgame import choose_endgame
from toolkit.bots.doodle.features import (
    evaluate,
    greedy_tables,
    isolated_holes,
    paired_holes,
    sheet_rows,
    small_holes,
    turns_left_in_game,
    turns_left_in_round,
)
from toolkit.bots.doodle.greedy import DoodleKernelBot, best_single, choose_greedy_weighted
from toolkit.bots.doodle.weights import G_HOLE3, G_HOLE4, G_ISOLATED, G_PAIRED, special_price, weight_array
from toolkit.errors import UsageError
from toolkit.games.doodle.kernel import (
    A_AGAIN,
    A_CUT,
    A_KIND,
    A_NB,
    A_PLACE,
    K_DRAW,
    K_PASS,
    K_START,
    NA,
    P_HEIGHT,
    P_ROUNDS,
    P_WIDTH,
    P_WORDS,
    PH_FREE,
    PH_OVER,
    PH_SCORE,
    PH_TURN,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    SP_SINGLE,
    SPECIAL_NAMES,
    best_rectangle,
    list_actions,
    special_mode,
)
from toolkit.geometry.board import rectangle_score
from toolkit.jit import njit


# The strong tier's weights, spelled out rather than derived from GREEDY_WEIGHTS, so tuning the
# fast tier leaves the strong tier's choices unchanged.
# The evaluation terms are the fast tier's (5 cells a turn, shaded cells 0.5, roughness 1),
# with small holes priced far higher: a hole of 1, 2, 3 or 4 empty cells walled in by shaded
# ones costs 6, 6, 3 and 2 points (isolated, paired, hole3, hole4; the fast tier counts holes of
# 1 and 2 cells, at 4). Few cards fit such a hole, so it blocks the rectangles of the first rounds
# and the full sheet of the last. The last round is the endgame search's, so last_filled is 0. A
# special action spent in the first rounds costs 10 points (special): the last round's cover
# search turns each one kept into full sheets.
# Chosen on 2,000 seeded games (rounds 1-2 played, round 3 valued by the exact cover of the
# rolls that came): the hole prices raised that figure by 3.4-4.1 points; a special action at
# 10 rather than 12 raised it 0.3 more (8 raised it 0.6-0.9, but it keeps fewer specials for
# the last round, where the real search needs them more than the exact cover does).
# The search is wider and two turns deep: 24 shortlisted, the best 6 re-ranked whatever their
# one-ply value (margin 1e9), 10 drawings of each next card, 3 of them looked at a turn further.
EXPERT_WEIGHTS = weight_array(
    cells_per_turn=5.0, missing=0.5, missing_load=1.0, round=1.0, filled=0.5, rough=1.0, isolated=6.0, best=0.5,
    future=1.0, last_filled=0.0, paired=6.0, hole3=3.0, hole4=2.0,
    special=10.0, special_horizon=1.0, price_neighbour=1.0, price_cut=1.0, price_again=2.0, single_gain=4.0,
    single_again_gain=4.0,
    contact=1.0, target=1.0, sides=0.0,
    shortlist=24.0, lookahead=6.0, margin=1e9, next_shortlist=10.0, plies=2.0, second_ply=3.0,
)
"""The first two rounds' weights: the fast tier's evaluation with the wider, two-turn search."""


@njit(cache=True)
def choose_expert(tables, aux, st, occ, bot_rng, act):
    """The strong Doodle bot (see the module text); writes its action row into act."""
    phase = st[S_PHASE]
    if st[S_ROUND] == tables.params[P_ROUNDS] - 1 and (phase == PH_TURN or phase == PH_FREE):
        choose_endgame(tables, aux, st, occ, act, np.zeros(3))
    else:
        choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, EXPERT_WEIGHTS)


@njit(cache=True)
def step_values(tables, st, occ, gw, out):
    """What the evaluation makes of this step, for the hint: out[0] the price of keeping a
    special action, out[1] the best one-ply value of a drawing that spends no special action (or
    of passing), out[2] / out[3] the best one-ply value of a drawing that spends NEIGHBOUR / CUT
    (-1e18: none), out[4] the one-ply value of passing."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    k = st[S_SEAT]
    turns_left = turns_left_in_round(params, st)
    game_left = turns_left_in_game(params, st)
    later = game_left - turns_left
    spare = 1 if special_mode(params, st, k, SP_SINGLE) != 0 else 0
    out[0] = special_price(gw, game_left)
    for i in range(1, 5):
        out[i] = -1e18
    if st[S_PHASE] == PH_SCORE or st[S_PHASE] == PH_OVER:
        return
    acts = list_actions(tables, st, occ)
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    tmp = np.empty(words, dtype=np.int64)
    masks = tables.place_masks
    for i in range(acts.shape[0]):
        kind = acts[i, A_KIND]
        if kind != K_DRAW and kind != K_START and kind != K_PASS:
            continue
        for w in range(words):
            tmp[w] = occ[k, w]
            if kind != K_PASS:
                tmp[w] |= masks[acts[i, A_PLACE], w]
        sheet_rows(tmp, width, height, rows)
        value = evaluate(rows, width, height, pre, turns_left, later, spare, gw)
        if kind == K_PASS:
            out[4] = value
        slot = 1
        if acts[i, A_NB] != 0 and acts[i, A_CUT] < 0:
            slot = 2
        elif acts[i, A_CUT] >= 0 and acts[i, A_NB] == 0:
            slot = 3
        elif acts[i, A_NB] != 0 or acts[i, A_AGAIN] != 0:
            continue
        if value > out[slot]:
            out[slot] = value


class DoodleExpertBot(DoodleKernelBot):
    """Deterministic strong Doodle player: a two-turn expectimax, then an exact last-round search."""

    name = "expert"
    chooser = staticmethod(choose_expert)

    def explain(self, game: Any) -> str:
        """The play prompt's hint: the action this bot would take and why."""
        if game.is_over:
            return "the game is over: no hint"
        seat = game.current_player
        tables, st, occ = game.kernel_state()
        act = np.zeros(NA, dtype=np.int64)
        last_round = game.phase in ("turn", "free-choice") and st[S_ROUND] == tables.params[P_ROUNDS] - 1
        info = np.zeros(3)
        if last_round:
            # choose_expert's own step here; one search gives the action and what it expects.
            choose_endgame(tables, greedy_tables(tables), st, occ, act, info)
        else:
            choose_expert(tables, greedy_tables(tables), st, occ, np.zeros(4, dtype=np.int64), act)
        lines = [f"hint for player {seat + 1}: {game.action_of_row(act)}", _rectangle_line(game, seat)]
        if last_round:
            lines += _last_round_lines(tables, st, seat, info)
        else:
            if act[A_KIND] == K_DRAW or act[A_KIND] == K_START:
                lines.append(_hole_line(tables, occ[seat], act))
            lines += _special_lines(tables, st, occ, seat, game.phase)
        return "\n".join(lines)


def _rectangle_line(game: Any, seat: int) -> str:
    """The hint's line on the seat's best rectangle now."""
    best = game.best_rectangle(seat)
    if best.width is None:
        return "best rectangle now: none (the sheet is empty)"
    points = rectangle_score(best.width, best.height)
    return f"best rectangle now: '{best}' ({best.width}x{best.height}, {points} points)"


def _last_round_lines(tables: Any, st: np.ndarray, seat: int, info: np.ndarray) -> list[str]:
    """The hint's lines in the last round: what the endgame search expects of its drawing (info:
    choose_endgame's)."""
    lines = [f"last round: over {int(info[2])} sequences of the rolls to come, this drawing expects"
             f" {info[0]:.1f} points from the final rectangle less empty cells, and a full sheet in"
             f" {info[1]:.0%} of them"]
    open_specials = [name.upper() for name in _open_specials(tables, st, seat)]
    if open_specials:
        lines.append(f"special actions still open: {', '.join(open_specials)}; the search spends them"
                     " within each sequence of rolls where they help, SINGLE last")
    return lines


def _hole_line(tables: Any, sheet: np.ndarray, act: np.ndarray) -> str:
    """The hint's line on the small holes before and after the drawing `act`."""
    now = _hole_counts(tables, sheet)
    after = _hole_counts(tables, sheet | tables.place_masks[act[A_PLACE]])
    prices = "/".join(f"{EXPERT_WEIGHTS[i]:g}" for i in (G_ISOLATED, G_PAIRED, G_HOLE3, G_HOLE4))
    return (f"small holes (walled-in empty cells, 1/2/3/4 together): {'/'.join(map(str, now))} now,"
            f" {'/'.join(map(str, after))} after this drawing; each costs it {prices} points,"
            " since few cards fit one")


def _special_lines(tables: Any, st: np.ndarray, occ: np.ndarray, seat: int, phase: str) -> list[str]:
    """The hint's lines on the special actions still open, before the last round: the price of
    keeping one, and what spending each would gain now."""
    open_specials = _open_specials(tables, st, seat)
    if not open_specials:
        return []
    values = np.zeros(5)
    step_values(tables, st, occ, EXPERT_WEIGHTS, values)
    lines = [f"value it puts on keeping a special action for later: {values[0]:.1f} points each"
             f" (open: {', '.join(n.upper() for n in open_specials)})"]
    plain = values[1]
    if plain > -1e17 and phase in ("turn", "free-choice"):
        for slot, name in ((2, "neighbour"), (3, "cut")):
            if name not in open_specials:
                continue
            if values[slot] <= -1e17:
                lines.append(f"  {name.upper()}: no drawing with it this turn")
                continue
            gain = values[slot] - plain
            verdict = "worth spending now" if gain > values[0] else "worth keeping"
            lines.append(f"  {name.upper()}: the best drawing with it gains {gain:+.1f} on the best plain"
                         f" drawing, against {values[0]:.1f} for keeping it: {verdict}")
    if "single" in open_specials and phase != "start":
        width, height = int(tables.params[P_WIDTH]), int(tables.params[P_HEIGHT])
        rows = np.empty(height, dtype=np.int64)
        sheet_rows(occ[seat], width, height, rows)
        cell, gain = best_single(rows, width, height, int(best_rectangle(tables, occ[seat])[0]))
        if cell >= 0:
            r, c = divmod(int(cell), width)
            lines.append(f"  SINGLE: shading (row {r}, col {c}) would grow the best rectangle by {gain} point(s) now;"
                         " it is spent before a scoring when that gains enough, and always in the last one")
    if "again" in open_specials and phase != "start":
        lines.append("  AGAIN: repeats one special action already used; priced as a special action kept")
    return lines


def _hole_counts(tables: Any, sheet: np.ndarray) -> tuple[int, int, int, int]:
    """Walled-in holes of 1, 2, 3 and 4 empty cells on a sheet (mask words)."""
    width, height = int(tables.params[P_WIDTH]), int(tables.params[P_HEIGHT])
    rows = np.empty(height, dtype=np.int64)
    sheet_rows(sheet, width, height, rows)
    threes, fours = small_holes(rows, width, height, np.zeros(2 * height, dtype=np.int64))
    return int(isolated_holes(rows, width, height)), int(paired_holes(rows, width, height)), int(threes), int(fours)


def _open_specials(tables: Any, st: np.ndarray, seat: int) -> list[str]:
    """The special actions the seat may still use, first or through AGAIN (the kernel's
    special_mode), in SPECIAL_NAMES order."""
    return [name for s, name in enumerate(SPECIAL_NAMES) if special_mode(tables.params, st, seat, s) != 0]
