"""The simulator's compiled turn loop of the time-track family.

It plays a batch of games inside the kernel with the bots' compiled choosers (random, greedy,
mcts, automa), so it sits in the family's package, above the bots it calls: the kernel's
primitives (toolkit.games.timetrack.kernel) are the only rules it runs. It takes the edition's
kernel tables, one game generator state per game (the deal and every chance event), one bot
generator state per game, the bot kinds (toolkit.bots.registry) and per-game seat swaps, and fills
the per-game result arrays of `RESULT_FIELDS_TIME_TRACK` (toolkit.games.base).
"""
from __future__ import annotations

import numpy as np

from toolkit.bots import greedy as greedy_bot
from toolkit.bots import mcts as mcts_bot
from toolkit.bots.registry import AUTOMA, GREEDY, KIND_NAMES, MCTS, RANDOM, BotSpec
from toolkit.errors import UsageError
from toolkit.games.timetrack import kernel as tk
from toolkit.games.timetrack.kernel import (
    AUTOMA_SEAT,
    S_BONUS_OWNER,
    S_BUTTONS,
    S_BUY_PLY,
    S_BUY_SEAT,
    S_FIRST_FINISHER,
    S_INCOME_RECEIVED,
    S_LEATHER_PLACED,
    S_PENDING_LEATHER,
    STATE_SIZE,
)
from toolkit.games.timetrack.tables import P_ACTION_AUTOMA, P_ACTIONS, P_CELLS, P_PATCHES, P_WORDS
from toolkit.jit import njit, no_alloc



def _loop_of(with_greedy: bool, with_mcts: bool):
    """The compiled turn loop for bots of these kinds (random always): a kind left out is not
    compiled into it (numba drops a branch on a closure's constant), so a first run of greedy
    bots compiles no search, nor mcts ones the greedy chooser. Each variant has its own cache
    entry (its qualified name)."""

    def loop(
        t, game_rngs, bot_rngs, kinds, iterations, greedy_weights, mcts_weights, mcts_params, swap, automa_level,
        automa_deck, score, buttons, empty, winner, first_finisher, bonus_owner, plies, leather, income, buy_seat, buy_ply,
    ):
        n = game_rngs.shape[0]
        nothing = np.zeros(0, dtype=np.int64)
        p = t.params
        scratch = np.zeros(p[P_ACTIONS], dtype=np.int64)
        s = np.zeros(STATE_SIZE, dtype=np.int64)
        q = np.zeros((2, p[P_WORDS]), dtype=np.uint64)
        rng = np.zeros(4, dtype=np.int64)
        bot_rng = np.zeros(4, dtype=np.int64)
        automa_action = p[P_ACTION_AUTOMA]
        if with_greedy:
            greedy_scratch = greedy_bot.choose_scratch(t)
        for g in range(n):
            rng[:] = game_rngs[g]
            bot_rng[:] = bot_rngs[g]
            tk.deal(t, s, q, rng, automa_level, automa_deck)
            while not tk.is_over(t, s):
                seat = tk.current_player(t, s)
                if automa_level > 0 and seat == AUTOMA_SEAT and s[S_PENDING_LEATHER] == 0:
                    action = automa_action
                else:
                    bot = seat ^ swap[g]
                    kind = kinds[bot]
                    if with_greedy and kind == GREEDY:
                        action = greedy_bot.choose_with(t, s, q, bot_rng, greedy_weights, *greedy_scratch)
                    elif with_mcts and kind == MCTS:
                        action = mcts_bot.search_root(t, s, q, bot_rng, iterations[bot], mcts_weights, mcts_params,
                                                      nothing, nothing)  # mcts_bot.choose
                    else:
                        action = tk.random_action(t, s, q, bot_rng, scratch)
                tk.apply(t, s, q, action, rng)
            _record(t, s, g, score, buttons, empty, winner, first_finisher, bonus_owner, plies, leather, income, buy_seat,
                    buy_ply)

    kinds = ("greedy_" if with_greedy else "") + ("mcts_" if with_mcts else "")
    loop.__qualname__ = loop.__name__ = f"_time_track_loop_{kinds}random"
    return njit(cache=True)(loop)


_LOOPS = {(g, m): _loop_of(g, m) for g in (False, True) for m in (False, True)}
"""The turn loop of each mix of bot kinds: (greedy seated, mcts seated)."""


@no_alloc
def _record(t, s, g, score, buttons, empty, winner, first_finisher, bonus_owner, plies, leather, income, buy_seat,
            buy_ply):
    """Game g's row of the result arrays, from its final state."""
    p = t.params
    for seat in range(2):
        score[g, seat] = tk.score(t, s, seat)
        buttons[g, seat] = s[S_BUTTONS + seat]
        empty[g, seat] = p[P_CELLS] - s[tk.S_FILLED + seat]
        leather[g, seat] = s[S_LEATHER_PLACED + seat]
        income[g, seat] = s[S_INCOME_RECEIVED + seat]
    winner[g] = tk.winner(t, s)
    first_finisher[g] = s[S_FIRST_FINISHER]
    bonus_owner[g] = s[S_BONUS_OWNER]
    plies[g] = s[tk.S_PLIES]
    for i in range(p[P_PATCHES]):
        buy_seat[g, i] = s[S_BUY_SEAT + i]
        buy_ply[g, i] = s[S_BUY_PLY + i]


def _threaded_loop(
    t, game_rngs, bot_rngs, bots, greedy_weights, swap, automa_level, automa_deck,
    score, buttons, empty, winner, first_finisher, bonus_owner, plies, leather, income, buy_seat, buy_ply,
):
    """_time_track_loop's games move for move, in Python: for a bot that searches on several
    threads (mcts_bot.SharedSearch), which compiled code cannot start. Every other move is the
    compiled chooser's, and with one thread each bot plays exactly the compiled loop's games (tested)."""
    p = t.params
    scratch = np.zeros(p[P_ACTIONS], dtype=np.int64)
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, p[P_WORDS]), dtype=np.uint64)
    greedy_scratch = greedy_bot.choose_scratch(t)
    shared = [mcts_bot.SharedSearch(b.threads) if b.kind == MCTS and b.threads > 1 else None for b in bots]
    for g in range(game_rngs.shape[0]):
        rng = game_rngs[g].copy()
        bot_rng = bot_rngs[g].copy()
        tk.deal(t, s, q, rng, automa_level, automa_deck)
        while not tk.is_over(t, s):
            seat = tk.current_player(t, s)
            if automa_level > 0 and seat == AUTOMA_SEAT and s[S_PENDING_LEATHER] == 0:
                action = p[P_ACTION_AUTOMA]
            else:
                bot = bots[seat ^ swap[g]]
                if bot.kind == GREEDY:
                    action = greedy_bot.choose_with(t, s, q, bot_rng, greedy_weights, *greedy_scratch)
                elif shared[seat ^ swap[g]] is not None:
                    action, _ = shared[seat ^ swap[g]].choose(t, s, q, bot_rng, bot.iterations, greedy_weights,
                                                              mcts_bot.PARAMS)
                elif bot.kind == MCTS:
                    action = mcts_bot.choose(t, s, q, bot_rng, bot.iterations)
                else:
                    action = tk.random_action(t, s, q, bot_rng, scratch)
            tk.apply(t, s, q, action, rng)
        _record(t, s, g, score, buttons, empty, winner, first_finisher, bonus_owner, plies, leather, income, buy_seat,
                buy_ply)


TIME_TRACK_KINDS = {RANDOM, GREEDY, MCTS, AUTOMA}
"""Bot kinds the time-track loop has a compiled chooser for."""


def check_available(bots: tuple[BotSpec, ...], family_kinds: set[int], family: str) -> None:
    """Refuse bots whose compiled chooser is not part of this toolkit build."""
    for bot in bots:
        if bot.kind not in family_kinds:
            raise UsageError(
                f"bot '{bot.name}' has no compiled chooser for {family} games in this build of the "
                f"toolkit (available: {', '.join(sorted(KIND_NAMES[k] for k in family_kinds))})")


def play_time_track(
    tables,
    bots: tuple[BotSpec, ...],
    game_rngs: np.ndarray,
    bot_rngs: np.ndarray,
    swap: np.ndarray,
    automa_deck: int = 0,
) -> dict[str, np.ndarray]:
    """Play one game per row of `game_rngs`; `swap[g] = 1` seats bots[1] in seat 0 for game g."""
    check_available(bots, TIME_TRACK_KINDS, "time-track")
    n = game_rngs.shape[0]
    patches = int(tables.params[P_PATCHES])
    automa_level = 0
    for bot in bots:
        if bot.kind == AUTOMA:
            automa_level = bot.automa_level
    kinds = np.array([b.kind for b in bots], dtype=np.int64)
    iterations = np.array([b.iterations for b in bots], dtype=np.int64)
    out: dict[str, np.ndarray] = {
        "score": np.zeros((n, 2), dtype=np.int32),
        "buttons": np.zeros((n, 2), dtype=np.int32),
        "empty": np.zeros((n, 2), dtype=np.int32),
        "winner": np.zeros(n, dtype=np.int8),
        "first_finisher": np.zeros(n, dtype=np.int8),
        "bonus_owner": np.zeros(n, dtype=np.int8),
        "plies": np.zeros(n, dtype=np.int32),
        "leather": np.zeros((n, 2), dtype=np.int32),
        "income": np.zeros((n, 2), dtype=np.int32),
        "buy_seat": np.zeros((n, patches), dtype=np.int8),
        "buy_ply": np.zeros((n, patches), dtype=np.int16),
    }
    game_rngs = np.ascontiguousarray(game_rngs, dtype=np.int64)
    bot_rngs = np.ascontiguousarray(bot_rngs, dtype=np.int64)
    swap = np.ascontiguousarray(swap, dtype=np.int64)
    if any(b.threads > 1 for b in bots):
        _threaded_loop(
            tables, game_rngs, bot_rngs, bots, greedy_bot.WEIGHTS, swap, automa_level, automa_deck, *out.values())
        return out
    kinds_seated = {b.kind for b in bots}
    loop = _LOOPS[(GREEDY in kinds_seated, MCTS in kinds_seated)]
    loop(
        tables, game_rngs, bot_rngs,
        kinds, iterations, greedy_bot.WEIGHTS, mcts_bot.GREEDY_WEIGHTS, mcts_bot.PARAMS, swap, automa_level, automa_deck,
        out["score"], out["buttons"], out["empty"], out["winner"], out["first_finisher"], out["bonus_owner"],
        out["plies"], out["leather"], out["income"], out["buy_seat"], out["buy_ply"],
    )
    return out
