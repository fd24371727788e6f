"""Doodle bot tiers on one core: the score distribution and speed of each tier on seeded games.

    .venv/bin/python benchmarks/bench_doodle_bots.py [--games 1000] [--random-games 20000] [--seed 1]
        [--tiers random,greedy,expert] [--players 1,2,3,4,5,6] [--multi-games 200] [--workers 1]

For each tier: solo games (every seat of a game is played by that tier), mean, sd, quartiles,
min / max, round scores, empty cells, special actions used, and games per CPU-second (CPU time is
the fair single-core figure on a shared machine; wall time is shown too). Then the same tier at
2 to 6 players: every seat's mean score and the games per CPU-second. Game i is seeded by
derive_seed(seed, i) and its bots by derive_seed(seed, i, 1), so every tier plays the same deals.
`--workers N` splits each run's games into N consecutive blocks played in N processes: the games
and scores are the same, the CPU time is the sum of the processes' (so games per CPU-second stays
a one-core figure) and the wall time shrinks. Figures only; nothing here is asserted (timings vary with the machine and its load).
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from toolkit.families.doodle.loop import play_doodle
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import derive_seed
from toolkit.bots.registry import parse_bot
from toolkit.specs import load_edition
from toolkit.specs.models import Family


def _block(tier: str, first: int, last: int, seed: int, players: int):
    """Games first..last-1 of a run, and the CPU seconds they took in this process."""
    edition = load_edition("doodle")
    game_words = K.game_rng_words([derive_seed(seed, i) for i in range(first, last)])
    bot_words = K.game_rng_words([derive_seed(seed, i, 1) for i in range(first, last)])
    bots = (parse_bot(tier, Family.DOODLE),) * players
    cpu = time.process_time()
    out = play_doodle(edition, bots, game_words, bot_words)
    return out, time.process_time() - cpu


def run(tier: str, games: int, seed: int, players: int = 1, pool=None, workers: int = 1):
    start = time.perf_counter()
    if pool is None or workers == 1 or games < 2 * workers:
        out, cpu = _block(tier, 0, games, seed, players)
        return out, (time.perf_counter() - start, cpu)
    edges = [games * w // workers for w in range(workers + 1)]
    parts = list(pool.map(_block, [tier] * workers, edges[:-1], edges[1:], [seed] * workers, [players] * workers))
    out = {key: np.concatenate([part[key] for part, _ in parts]) for key in parts[0][0]}
    return out, (time.perf_counter() - start, sum(cpu for _, cpu in parts))


def describe(tier: str, out, seconds) -> None:
    wall, cpu = seconds
    s = out["score"][:, 0].astype(float)
    q1, median, q3 = np.percentile(s, [25, 50, 75])
    print(f"{tier}: {len(s)} solo games, {len(s) / cpu:,.1f} games per CPU-second"
          f" ({cpu:.2f} s CPU, {wall:.2f} s wall)")
    print(f"  score mean {s.mean():.1f} (sd {s.std(ddof=1):.1f}, 95% interval +-{1.96 * s.std(ddof=1) / len(s) ** 0.5:.1f}),"
          f" quartiles {q1:.0f} / {median:.0f} / {q3:.0f}, min {s.min():.0f}, max {s.max():.0f}")
    rs = out["round_scores"][:, 0, :].mean(axis=0)
    print(f"  round scores mean {' / '.join(f'{x:.1f}' for x in rs)}, empty cells mean {out['empty'][:, 0].mean():.1f},"
          f" full sheets {np.mean(out['empty'][:, 0] == 0):.1%}, patches drawn mean {out['drawn'][:, 0].mean():.1f}")
    used = out["specials"][:, 0, :].astype(float).mean(axis=0)
    print("  specials used per game: " + ", ".join(f"{n} {u:.2f}" for n, u in zip(K.SPECIAL_NAMES, used)))


def describe_players(tier: str, players: int, out, seconds) -> None:
    wall, cpu = seconds
    score = out["score"].astype(float)
    n = score.shape[0]
    seats = " ".join(f"{m:.1f}" for m in score.mean(axis=0))
    print(f"  {players} players: {n} games, mean per seat {seats} (all seats {score.mean():.1f}, sd {score.std(ddof=1):.1f}),"
          f" {n / cpu:,.1f} games per CPU-second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="solo games per bot tier")
    parser.add_argument("--random-games", type=int, default=20000, help="solo games of the random tier")
    parser.add_argument("--tiers", default="random,greedy,expert")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts for the multi-player figures ('' for none)")
    parser.add_argument("--multi-games", type=int, default=200, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes sharing each run's games")
    args = parser.parse_args()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    counts = [int(p) for p in args.players.split(",") if p.strip()]
    # Warm-up: load (or compile) the loop and every chooser before timing.
    # Each worker process warms up too, on its first block, before the timed runs.
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    for tier in tiers:
        run(tier, 2 * args.workers, args.seed, 1, pool, args.workers)
    for tier in tiers:
        games = args.random_games if tier == "random" else args.games
        if games:
            describe(tier, *run(tier, games, args.seed, 1, pool, args.workers))
    for tier in tiers:
        if tier == "random" or not args.multi_games:
            continue
        print(f"{tier} with more players (each seat the same tier, same deals):")
        for players in counts:
            describe_players(tier, players, *run(tier, args.multi_games, args.seed, players, pool, args.workers))
    if pool is not None:
        pool.shutdown()


if __name__ == "__main__":
    main()
