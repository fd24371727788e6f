"""How often `patchwork ladder`'s 95 % intervals hold the rating they estimate.

Two checks, each printing the share of intervals that held the known rating (with its own 95 %
Wilson interval over the repetitions):

`synthetic`: games drawn from the Bradley-Terry model itself, with known ratings (equal bots, and
one bot far below the others), each pair's games independent; the ladder's own fit, prior and
intervals (toolkit.workbench.ladder: the profile-likelihood ones it prints, and the Wald ones it
printed before) are applied to each draw.

`reference`: the command as a user runs it. A long ladder (`--reference-games` a pair, seed 999)
stands for the truth; `--seeds` short ladders (`--games` a pair) on other seeds are checked against
it. Their intervals count a pair's games by deal (the design effect of its seat-swapped games).

    .venv/bin/python benchmarks/audit_ladder.py synthetic --reps 400
    .venv/bin/python benchmarks/audit_ladder.py reference --games 200 --seeds 20 --reference-games 4000
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

CASES = (((0, 0), 200), ((0, 0, 0), 200), ((0, 0, 0, 0, 0), 200), ((-533, 247, 286), 200),
         ((-533, 247, 286), 1000), ((-700, 100, 600), 200))
"""(true Elo ratings, games a pair) of the synthetic check."""


def _share(held: int, total: int) -> str:
    from toolkit.stats import wilson

    iv = wilson(held, total)
    return f"{held}/{total} = {100 * iv.estimate:.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}]"


def synthetic(reps: int, seed: int) -> None:
    from toolkit.stats import Z95
    from toolkit.workbench import ladder as ld

    rng = np.random.default_rng(seed)
    for elo, games in CASES:
        theta = np.array(elo, dtype=float) / ld.ELO
        theta -= theta.mean()
        k = len(theta)
        held = np.zeros(k, dtype=int)
        wald = np.zeros(k, dtype=int)
        for _ in range(reps):
            wins = np.zeros((k, k), dtype=np.int64)
            for i in range(k):
                for j in range(i + 1, k):
                    won = rng.binomial(games, 1 / (1 + math.exp(-(theta[i] - theta[j]))))
                    wins[i, j], wins[j, i] = won, games - won
            rows = {r["bot"]: r for r in ld.ratings([str(i) for i in range(k)], wins)}
            for i in range(k):
                r, truth = rows[str(i)], ld.ELO * theta[i]
                held[i] += (r["low"] is None or r["low"] <= truth) and (r["high"] is None or truth <= r["high"])
            est = ld.fit(wins)
            se = np.sqrt(np.maximum(np.diag(ld.covariance(wins, est)), 0.0))
            wald += np.abs(est - theta) <= Z95 * se
        print(f"ratings {list(elo)}, {games} games a pair: profile likelihood " + "; ".join(
            f"{e:+d}: {_share(int(h), reps)}" for e, h in zip(elo, held)) + " | Wald " + "; ".join(
            f"{e:+d}: {_share(int(h), reps)}" for e, h in zip(elo, wald)), flush=True)


def _ladder(bots: list[str], games: int, seed: int, edition: str) -> dict:
    command = [sys.executable, "-m", "toolkit", "ladder", *bots, "--edition", edition, "--games", str(games),
               "--seed", str(seed), "--workers", "1", "--no-progress", "--json"]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def reference(bots: list[str], games: int, seeds: int, reference_games: int, edition: str) -> None:
    truth = {r["bot"]: r["elo"] for r in _ladder(bots, reference_games, 999, edition)["ratings"]}
    print(f"reference ({reference_games} games a pair, seed 999): {truth}", flush=True)
    held, total = 0, 0
    for seed in range(1, seeds + 1):
        ratings = {r["bot"]: r for r in _ladder(bots, games, seed, edition)["ratings"]}
        row = []
        for bot, elo in truth.items():
            r = ratings[bot]
            ok = r["low"] <= elo <= r["high"]
            held, total = held + ok, total + 1
            row.append(f"{bot} {r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]{'' if ok else ' MISSES'}")
        print(f"seed {seed}: " + "; ".join(row), flush=True)
    print(f"{games} games a pair: the intervals held the reference in {_share(held, total)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=("synthetic", "reference"))
    parser.add_argument("--reps", type=int, default=400, help="synthetic: draws per case (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="synthetic: the generator's seed (default 1)")
    parser.add_argument("--bots", default="random,greedy,mcts:10", help="reference: the bots (default random,greedy,mcts:10)")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--games", type=int, default=200, help="reference: games a pair of each short ladder")
    parser.add_argument("--seeds", type=int, default=20, help="reference: short ladders, seeds 1..N (default 20)")
    parser.add_argument("--reference-games", type=int, default=4000)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    if args.check == "synthetic":
        synthetic(args.reps, args.seed)
    else:
        reference(args.bots.split(","), args.games, args.seeds, args.reference_games, args.edition)


if __name__ == "__main__":
    main()
