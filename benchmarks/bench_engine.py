"""Speed of the time-track rules kernel: complete random games per second on one core.

Every buy generates the full legal-placement set (every orientation and position of every
affordable patch in the market window) and the random chooser picks uniformly among all of them.
Prints games/s and plies per game for classic, Express and anniversary against Automa, plus the
validated Python Game layer for comparison. Rates are per CPU second of this process (one
core), so a busy shared machine does not distort them. Usage: python benchmarks/bench_engine.py [--games N]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from toolkit.bots import make_bot
from toolkit.games.rng import seed_state
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.game import TimeTrackGame
from toolkit.games.timetrack.tables import tables_for
from toolkit.specs import load_edition

CASES = [
    ("classic", 0, "random vs random"),
    ("classic-revised", 0, "random vs random"),
    ("express", 0, "random vs random"),
    ("anniversary", 3, "random vs Automa level 3"),
]


def bench_kernel(name: str, level: int, games: int) -> tuple[float, float]:
    t = tables_for(load_edition(name)).arrays
    scores = np.zeros((games, 2), dtype=np.int64)
    k.play_random_games(t, seed_state(0), 10, level, 0, scores)  # load/compile outside the timing
    rng = seed_state(1)
    start = time.process_time()
    plies = k.play_random_games(t, rng, games, level, 0, scores)
    elapsed = time.process_time() - start
    return games / elapsed, plies / games


def bench_python(name: str, games: int) -> float:
    edition = load_edition(name)
    bot = make_bot("random", edition)
    rng = seed_state(2)
    start = time.process_time()
    for seed in range(games):
        game = TimeTrackGame(edition, seed)
        while not game.is_over:
            game.apply(bot.choose(game, rng))
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per kernel case")
    parser.add_argument("--python-games", type=int, default=50, help="games through the Python layer")
    args = parser.parse_args()
    print(f"{'edition':<16} {'players':<26} {'games/s':>10} {'plies/game':>11}")
    for name, level, label in CASES:
        rate, plies = bench_kernel(name, level, args.games)
        print(f"{name:<16} {label:<26} {rate:>10,.0f} {plies:>11.1f}")
    rate = bench_python("classic", args.python_games)
    print(f"{'classic':<16} {'Python Game layer, random':<26} {rate:>10,.1f}")


if __name__ == "__main__":
    main()
