"""The one compiled Doodle turn loop: plays a batch of seeded games with the compiled choosers.

`play_doodle(edition, bots, game_rngs, bot_rngs)` plays one game per row of `game_rngs` (int64[n, 4]
generator states: the deal and every chance event of the game) with one bot per seat (`bots`,
toolkit.bots.registry.BotSpec values; seat k plays bots[k]), the bots drawing from the rows of
`bot_rngs`, and returns the per-game arrays of `RESULT_FIELDS_DOODLE` (toolkit.games.base) by
name. The simulator and the tests run this loop; the rules come only from the kernel.
"""
from __future__ import annotations

import numpy as np

from toolkit.bots.doodle.expert import choose_expert
from toolkit.bots.doodle.greedy import GREEDY_WEIGHTS, choose_greedy_weighted, greedy_tables
from toolkit.bots.registry import EXPERT, GREEDY, KIND_NAMES, RANDOM, BotSpec
from toolkit.errors import UsageError
from toolkit.games.doodle import kernel as dk
from toolkit.jit import njit

DOODLE_KINDS = {RANDOM, GREEDY, EXPERT}
"""Bot kinds the Doodle loop has a compiled chooser for."""


# Three loops, so a run compiles only the choosers its bots use: the expert's search takes the
# longest to compile, and a random-only run needs no chooser but the kernel's.


@njit(cache=True)
def _record(tables, st, occ, g, score, round_scores, empty, start_card, specials, drawn):
    """The RESULT_FIELDS_DOODLE row of finished game g."""
    players = st[dk.S_PLAYERS]
    rounds = round_scores.shape[2]
    final = dk.final_scores(tables, st, occ)
    for k in range(players):
        score[g, k] = final[k]
        for r in range(rounds):
            round_scores[g, k, r] = st[st[dk.S_ROUND_SCORES_AT] + r * players + k]
        empty[g, k] = dk.empty_cells(tables, st, occ, k)
        start_card[g, k] = st[st[dk.S_START_AT] + k]
        for sp in range(4):
            specials[g, k, sp] = st[st[dk.S_USED_AT] + 4 * k + sp]
        drawn[g, k] = st[st[dk.S_DRAWN_AT] + k]


@njit(cache=True)
def _random_loop(tables, greedy_aux, players, game_rngs, bot_rngs, kinds, score, round_scores, empty, start_card,
                 specials, drawn):
    act = np.zeros(dk.NA, dtype=np.int64)
    bot_rng = np.zeros(4, dtype=np.int64)
    for g in range(game_rngs.shape[0]):
        st, occ = dk.new_state(tables, players, game_rngs[g])
        bot_rng[:] = bot_rngs[g]
        while st[dk.S_PHASE] != dk.PH_OVER:
            dk.choose_random(tables, st, occ, bot_rng, act)
            dk.apply_action(tables, st, occ, act)
        _record(tables, st, occ, g, score, round_scores, empty, start_card, specials, drawn)


@njit(cache=True)
def _greedy_loop(tables, greedy_aux, players, game_rngs, bot_rngs, kinds, score, round_scores, empty, start_card,
                 specials, drawn):
    act = np.zeros(dk.NA, dtype=np.int64)
    bot_rng = np.zeros(4, dtype=np.int64)
    for g in range(game_rngs.shape[0]):
        st, occ = dk.new_state(tables, players, game_rngs[g])
        bot_rng[:] = bot_rngs[g]
        while st[dk.S_PHASE] != dk.PH_OVER:
            if kinds[st[dk.S_SEAT]] == GREEDY:
                choose_greedy_weighted(tables, greedy_aux, st, occ, bot_rng, act, GREEDY_WEIGHTS)
            else:
                dk.choose_random(tables, st, occ, bot_rng, act)
            dk.apply_action(tables, st, occ, act)
        _record(tables, st, occ, g, score, round_scores, empty, start_card, specials, drawn)


@njit(cache=True)
def _expert_loop(tables, greedy_aux, players, game_rngs, bot_rngs, kinds, score, round_scores, empty, start_card,
                 specials, drawn):
    act = np.zeros(dk.NA, dtype=np.int64)
    bot_rng = np.zeros(4, dtype=np.int64)
    for g in range(game_rngs.shape[0]):
        st, occ = dk.new_state(tables, players, game_rngs[g])
        bot_rng[:] = bot_rngs[g]
        while st[dk.S_PHASE] != dk.PH_OVER:
            kind = kinds[st[dk.S_SEAT]]
            if kind == EXPERT:
                choose_expert(tables, greedy_aux, st, occ, bot_rng, act)
            elif kind == GREEDY:
                choose_greedy_weighted(tables, greedy_aux, st, occ, bot_rng, act, GREEDY_WEIGHTS)
            else:
                dk.choose_random(tables, st, occ, bot_rng, act)
            dk.apply_action(tables, st, occ, act)
        _record(tables, st, occ, g, score, round_scores, empty, start_card, specials, drawn)


def play_doodle(edition, bots: tuple[BotSpec, ...], game_rngs: np.ndarray, bot_rngs: np.ndarray) -> dict[str, np.ndarray]:
    """Play one Doodle game per row of `game_rngs`, one bot per player (seat k plays bots[k])."""
    for bot in bots:
        if bot.kind not in DOODLE_KINDS:
            raise UsageError(
                f"bot '{bot.name}' has no compiled chooser for Doodle games in this build of the "
                f"toolkit (available: {', '.join(sorted(KIND_NAMES[k] for k in DOODLE_KINDS))})")
    tables = dk.build_tables(edition)
    n = game_rngs.shape[0]
    players = len(bots)
    rounds = edition.rules.rounds
    out = {
        "score": np.zeros((n, players), dtype=np.int32),
        "round_scores": np.zeros((n, players, rounds), dtype=np.int32),
        "empty": np.zeros((n, players), dtype=np.int32),
        "start_card": np.zeros((n, players), dtype=np.int16),
        "specials": np.zeros((n, players, 4), dtype=np.int8),
        "drawn": np.zeros((n, players), dtype=np.int32),
    }
    kinds = np.array([b.kind for b in bots], dtype=np.int64)
    loop = _expert_loop if EXPERT in kinds else _greedy_loop if GREEDY in kinds else _random_loop
    loop(
        tables, greedy_tables(tables), players, np.ascontiguousarray(game_rngs, dtype=np.int64), np.ascontiguousarray(bot_rngs, dtype=np.int64),
        kinds, out["score"], out["round_scores"], out["empty"], out["start_card"], out["specials"], out["drawn"],
    )
    return out
