"""Strength ladder and speed of the time-track bots: random < greedy < mcts, with numbers.

    python benchmarks/bench_bots.py [--edition classic] [--games 400] [--iterations 1000] [--seed 1]
                                    [--budgets 50,100,200] [--skip-ladder] [--skip-speed]

Ladder: greedy vs random and mcts:N vs greedy, each over `--games` games played as seat-swapped
pairs (every deal twice, each bot once in each seat), with the win rate, a Wilson 95% interval
and the mean scores (`--budgets` adds mcts-vs-greedy matches at other budgets). Speed (CPU time of this one process): greedy-vs-greedy games/s, MCTS
iterations/s (searches from positions of real games) and mcts-vs-greedy games/s.

Everything is seeded: the same arguments print the same win rates.
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from numba import njit

from toolkit.bots import greedy, mcts
from toolkit.games.rng import seed_state
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.tables import P_ACTIONS, P_WORDS, tables_for
from toolkit.specs import load_edition

RANDOM, GREEDY, MCTS = 0, 1, 2
NAMES = {RANDOM: "random", GREEDY: "greedy", MCTS: "mcts"}


@njit(cache=True)
def _move(t, s, q, rng, kind, iterations, weights, params, scratch):
    if kind == RANDOM:
        return k.random_action(t, s, q, rng, scratch)
    if kind == GREEDY:
        return greedy.choose(t, s, q, rng, weights)
    return mcts.choose_tuned(t, s, q, rng, iterations, weights, params)


@njit(cache=True)
def play_pairs(t, game_rngs, bot_rngs, kind_a, kind_b, iterations, weights, params, out):
    """Play deal i twice (bot A in seat 0, then in seat 1); out[2i + swap] = A's score, B's score,
    1 if A won, plies. Returns the number of illegal actions met (must be 0)."""
    scratch = np.zeros(t.params[P_ACTIONS], dtype=np.int64)
    s = np.zeros(k.STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, t.params[P_WORDS]), dtype=np.uint64)
    rng = np.zeros(4, dtype=np.int64)
    bot_rng = np.zeros(4, dtype=np.int64)
    illegal = 0
    for i in range(game_rngs.shape[0]):
        for swap in range(2):
            rng[:] = game_rngs[i]
            bot_rng[:] = bot_rngs[2 * i + swap]
            k.deal(t, s, q, rng, 0, 0)
            seat_a = swap
            while not k.is_over(t, s):
                seat = k.current_player(t, s)
                kind = kind_a if seat == seat_a else kind_b
                a = _move(t, s, q, bot_rng, kind, iterations, weights, params, scratch)
                if k.check_action(t, s, q, a) != k.R_OK:
                    illegal += 1
                    break
                k.apply(t, s, q, a, rng)
            row = 2 * i + swap
            out[row, 0] = k.score(t, s, seat_a)
            out[row, 1] = k.score(t, s, 1 - seat_a)
            out[row, 2] = 1 if k.winner(t, s) == seat_a else 0
            out[row, 3] = s[k.S_PLIES]
    return illegal


@njit(cache=True)
def collect_positions(t, game_rngs, weights, every, out_s, out_q):
    """Positions from greedy-vs-greedy games (every `every`-th ply) for timing searches."""
    n = 0
    s = np.zeros(k.STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, t.params[P_WORDS]), dtype=np.uint64)
    rng = np.zeros(4, dtype=np.int64)
    for i in range(game_rngs.shape[0]):
        rng[:] = game_rngs[i]
        k.deal(t, s, q, rng, 0, 0)
        ply = 0
        while not k.is_over(t, s) and n < out_s.shape[0]:
            if ply % every == 0 and s[k.S_PENDING_LEATHER] == 0:
                out_s[n, :] = s
                out_q[n, :, :] = q
                n += 1
            k.apply(t, s, q, greedy.choose(t, s, q, rng, weights), rng)
            ply += 1
    return n


@njit(cache=True)
def time_searches(t, states, quilts, n, rng, iterations, weights, params):
    """Run one search per position; returns the iterations actually searched (forced moves
    return at once and are not counted)."""
    done = 0
    visits = np.zeros(64, dtype=np.int64)
    for i in range(n):
        visits[:] = 0
        mcts.search(t, states[i], quilts[i], rng, iterations, weights, params, visits)
        if visits.sum() > 0:
            done += iterations
    return done


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def rngs(seed: int, label: int, n: int) -> np.ndarray:
    return np.array([seed_state(seed, label, i) for i in range(n)], dtype=np.int64)


def match(t, seed: int, games: int, kind_a: int, kind_b: int, iterations: int) -> dict:
    deals = max(games // 2, 1)
    out = np.zeros((2 * deals, 4), dtype=np.int64)
    start = time.process_time()
    illegal = play_pairs(
        t, rngs(seed, 1, deals), rngs(seed, 2, 2 * deals), kind_a, kind_b, iterations,
        greedy.WEIGHTS, mcts.PARAMS, out,
    )
    seconds = time.process_time() - start
    wins = int(out[:, 2].sum())
    n = out.shape[0]
    lo, hi = wilson(wins, n)
    return {
        "games": n, "wins": wins, "rate": wins / n, "lo": lo, "hi": hi, "illegal": illegal,
        "score_a": out[:, 0].mean(), "score_b": out[:, 1].mean(), "plies": out[:, 3].mean(),
        "seconds": seconds, "games_per_s": n / seconds if seconds > 0 else float("inf"),
    }


def print_match(label: str, r: dict) -> None:
    print(
        f"{label:<24} won {r['wins']}/{r['games']} = {100 * r['rate']:.1f}%"
        f" (95% CI {100 * r['lo']:.1f}-{100 * r['hi']:.1f}%),"
        f" mean score {r['score_a']:.1f} vs {r['score_b']:.1f}, {r['plies']:.1f} plies,"
        f" {r['games_per_s']:.1f} games/s, illegal actions {r['illegal']}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edition", default="classic")
    ap.add_argument("--games", type=int, default=400, help="games per match (rounded down to pairs)")
    ap.add_argument("--iterations", type=int, default=mcts.DEFAULT_ITERATIONS, help="MCTS budget per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budgets", default="", help="also play mcts:N vs greedy for each N of this comma list")
    ap.add_argument("--skip-ladder", action="store_true")
    ap.add_argument("--skip-speed", action="store_true")
    args = ap.parse_args(argv)
    t = tables_for(load_edition(args.edition)).arrays
    print(f"edition {args.edition}, seed {args.seed}, mcts:{args.iterations}, one process")

    # Compile (or load from the cache) before anything is timed.
    warm = np.zeros((2, 4), dtype=np.int64)
    play_pairs(t, rngs(0, 1, 1), rngs(0, 2, 2), GREEDY, MCTS, 20, greedy.WEIGHTS, mcts.PARAMS, warm)
    play_pairs(t, rngs(0, 1, 1), rngs(0, 2, 2), RANDOM, RANDOM, 1, greedy.WEIGHTS, mcts.PARAMS, warm)

    if not args.skip_speed:
        r = match(t, args.seed, 400, GREEDY, GREEDY, 1)
        print(f"greedy vs greedy: {r['games_per_s']:.0f} games/s ({r['plies']:.1f} plies per game)")
        r = match(t, args.seed, 400, GREEDY, RANDOM, 1)
        print(f"greedy vs random: {r['games_per_s']:.0f} games/s")
        cap = 200
        st = np.zeros((cap, k.STATE_SIZE), dtype=np.int64)
        qu = np.zeros((cap, 2, int(t.params[P_WORDS])), dtype=np.uint64)
        n = collect_positions(t, rngs(args.seed, 3, 20), greedy.WEIGHTS, 4, st, qu)
        n = min(n, 60)
        time_searches(t, st, qu, 1, seed_state(0), 5, greedy.WEIGHTS, mcts.PARAMS)
        start = time.process_time()
        done = time_searches(t, st, qu, n, seed_state(args.seed, 4), args.iterations, greedy.WEIGHTS, mcts.PARAMS)
        seconds = time.process_time() - start
        print(f"mcts:{args.iterations}: {done / seconds:,.0f} iterations/s over {n} positions of greedy games")

    if not args.skip_ladder:
        r = match(t, args.seed, args.games, GREEDY, RANDOM, 1)
        print_match("greedy vs random", r)
        r = match(t, args.seed, args.games, MCTS, GREEDY, args.iterations)
        print_match(f"mcts:{args.iterations} vs greedy", r)
    for budget in (int(b) for b in args.budgets.split(",") if b.strip()):
        r = match(t, args.seed, args.games, MCTS, GREEDY, budget)
        print_match(f"mcts:{budget} vs greedy", r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
