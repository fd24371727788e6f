"""Seeded Doodle positions for the tests that compare the bots' rules with the kernel's
(test_doodle_move_walk.py, test_doodle_bot_rules.py): every position of a few seeded games, each
played by a random player that mostly keeps its special actions when asked to."""
from __future__ import annotations

from toolkit.games.doodle import kernel as K
from toolkit.games.rng import randbelow, seed_state


def played(tables, players, seed, plain):
    """Every position of one seeded game, (st, occ) copies, by a random player that takes an
    action spending no special action `plain` times in ten (when there is one)."""
    st, occ = K.new_state(tables, players, seed_state(seed))
    rng = seed_state(seed, 1)
    out = []
    while st[K.S_PHASE] != K.PH_OVER:
        out.append((st.copy(), occ.copy()))
        acts = K.list_actions(tables, st, occ)
        pool = acts
        if randbelow(rng, 10) < plain:
            keep = (acts[:, K.A_NB] == 0) & (acts[:, K.A_CUT] < 0) & (acts[:, K.A_AGAIN] == 0)
            keep &= acts[:, K.A_KIND] != K.K_SINGLE
            if keep.any():
                pool = acts[keep]
        K.apply_action(tables, st, occ, pool[randbelow(rng, pool.shape[0])])
    return out


def seeded_positions(games, editions) -> list:
    """(name, tables, st, occ) of every position of `games`, each (edition name, players, seed,
    tenths of the steps that avoid special actions) with the edition looked up in `editions`."""
    found = []
    for name, players, seed, plain in games:
        tables = K.build_tables(editions[name])
        found += [(name, tables, st, occ) for st, occ in played(tables, players, seed, plain)]
    return found
