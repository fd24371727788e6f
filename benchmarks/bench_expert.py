"""The Doodle expert's speed against an older commit (default 3d8f4b8): a challenge's par and a
solo game, in CPU seconds, both trees in one run.

    python benchmarks/bench_expert.py [--before REV] [--pars 10] [--games 20] [--seed 1]

Each tree runs in its own child process (PYTHONPATH selects the tree, PATCHWORK_CACHE_DIR its own
kernel cache, kept with the exported tree in benchmarks/bench_search.py's `--cache` folder), after a
warm-up par and a warm-up solo game (seed 10,000, outside the measured ones) that compile or load
its kernels:
- par: `toolkit.render.challenge.par_score(doodle, seed)` for seeds 1..`--pars` (what `patchwork
  render challenge` computes for each seed of a week), CPU seconds per par;
- solo games: `--games` expert solo games through the compiled turn loop (game i seeded by
  derive_seed(seed, i), its bot by derive_seed(seed, i, 1), as bench_doodle_bots.py does), CPU
  seconds per game and the mean score.
Prints min / median / max per tree and the load average. The 1,000-game mean score and games per
CPU-second are benchmarks/bench_doodle_bots.py's (`--tiers expert --games 1000 --workers 2`).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import DEFAULT_CACHE, ROOT, env_for, export  # noqa: E402

CHILD = r'''
import json, sys, time
import numpy as np
job = json.loads(sys.argv[1])
from toolkit.render.challenge import par_score
from toolkit.specs import load_edition
edition = load_edition("doodle")
par_score(edition, 10_000)
pars = []
for seed in range(1, job["pars"] + 1):
    start = time.process_time()
    par_score(edition, seed)
    pars.append(time.process_time() - start)
from toolkit.families.doodle.loop import play_doodle
from toolkit.bots.registry import parse_bot
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import derive_seed
bot = parse_bot("expert", edition.family)
# A warm-up game outside the measured seeds: the compiled turn loop is another kernel than the par's.
play_doodle(edition, (bot,), K.game_rng_words([derive_seed(10_000, 0)]), K.game_rng_words([derive_seed(10_000, 0, 1)]))
games, scores = [], []
for i in range(job["games"]):
    g = K.game_rng_words([derive_seed(job["seed"], i)])
    b = K.game_rng_words([derive_seed(job["seed"], i, 1)])
    start = time.process_time()
    out = play_doodle(edition, (bot,), g, b)
    games.append(time.process_time() - start)
    scores.append(int(out["score"][0, 0]))
print(json.dumps({"pars": pars, "games": games, "scores": scores}))
'''


def spread(values: list[float]) -> str:
    return f"min {min(values):.2f} / median {statistics.median(values):.2f} / max {max(values):.2f} over {len(values)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="3d8f4b8")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--pars", type=int, default=10)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    trees = [(args.before, export(args.before, args.cache)), ("now", ROOT)]
    print(f"Doodle expert, CPU seconds (load {' '.join(f'{x:.1f}' for x in os.getloadavg())})", flush=True)
    for name, tree in trees:
        job = {"pars": args.pars, "games": args.games, "seed": args.seed}
        done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(job)], cwd=tree, env=env_for(tree, args.cache),
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"bench_expert: the {name} tree failed:\n{done.stderr[-2000:]}")
        out = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"  {name:<10} par: {spread(out['pars'])} s; solo game: {spread(out['games'])} s, "
              f"{len(out['games']) / sum(out['games']):.2f} games per CPU-second, mean score "
              f"{statistics.mean(out['scores']):.1f}", flush=True)
    print(f"  (load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
