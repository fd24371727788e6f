"""Doodle speed and bot strength on one core: solo random and greedy games per second, and the
greedy bot's solo score distribution over seeded games.

    /work/venv/bin/python benchmarks/bench_doodle.py [--random-games 20000] [--greedy-games 1000] [--seed 1]

Figures only; nothing here is asserted (timings vary with the machine and its load).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from toolkit.bots.doodle.loop import play_doodle
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import derive_seed
from toolkit.sim.botspec import GREEDY, RANDOM, BotSpec
from toolkit.specs import load_edition


def run(edition, bot: BotSpec, games: int, seed: int, players: int = 1):
    seeds = [derive_seed(seed, i) for i in range(games)]
    game_words = K.game_rng_words(seeds)
    bot_words = K.game_rng_words([derive_seed(seed, i, 1) for i in range(games)])
    start, cpu = time.perf_counter(), time.process_time()
    out = play_doodle(edition, (bot,) * players, game_words, bot_words)
    return out, (time.perf_counter() - start, time.process_time() - cpu)


def describe(name: str, out, seconds) -> None:
    score, round_scores, empty, start_card, specials, drawn = out.values()
    wall, cpu = seconds
    s = score[:, 0].astype(float)
    q1, median, q3 = np.percentile(s, [25, 50, 75])
    # CPU time is the fair single-core figure on a shared machine; wall time is shown too.
    print(f"{name}: {len(s)} solo games, {len(s) / cpu:,.0f} games/s of CPU time"
          f" ({cpu:.2f} s CPU, {wall:.2f} s wall = {len(s) / wall:,.0f} games/s wall)")
    print(f"  score mean {s.mean():.1f} (sd {s.std():.1f}), quartiles {q1:.0f} / {median:.0f} / {q3:.0f},"
          f" min {s.min():.0f}, max {s.max():.0f}")
    print(f"  score >= 100 in {np.mean(s >= 100):.1%} of games, > 100 in {np.mean(s > 100):.1%}")
    rs = round_scores[:, 0, :].mean(axis=0)
    print(f"  round scores mean {' / '.join(f'{x:.1f}' for x in rs)}, empty cells mean {empty[:, 0].mean():.1f},"
          f" patches drawn mean {drawn[:, 0].mean():.1f}")
    used = specials[:, 0, :].astype(float).mean(axis=0)
    print("  specials used per game: " + ", ".join(f"{n} {u:.2f}" for n, u in zip(K.SPECIAL_NAMES, used)))
    per_card = [s[start_card[:, 0] == c].mean() for c in range(start_card.max() + 1)]
    print("  mean by start card: " + " ".join(f"{x:.1f}" for x in per_card))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=20000)
    parser.add_argument("--greedy-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    edition = load_edition("doodle")
    random_bot, greedy_bot = BotSpec("random", RANDOM), BotSpec("greedy", GREEDY)
    # Warm-up: load (or compile) every function before timing.
    run(edition, random_bot, 2, args.seed)
    run(edition, greedy_bot, 2, args.seed)
    if args.random_games:
        out, seconds = run(edition, random_bot, args.random_games, args.seed)
        describe("random", out, seconds)
    if args.greedy_games:
        out, seconds = run(edition, greedy_bot, args.greedy_games, args.seed)
        describe("greedy", out, seconds)


if __name__ == "__main__":
    main()
