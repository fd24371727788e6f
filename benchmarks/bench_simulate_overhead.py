"""What `patchwork simulate` costs on top of its compiled turn loop: games per CPU-second of the
turn loop called directly against the whole command, per bot pairing, and their ratio.

    python benchmarks/bench_simulate_overhead.py [--rounds 3] [--scale 1.0] [--cases random,greedy,mcts]

For each case, in every round:
- `loop`: the simulator's compiled turn loop (`family.play`, the loop every shard runs) on
  generators made beforehand, in this process, after a warm-up call; for random games also the
  kernel's own random-game loop (`kernel.play_random_games`, the figure of bench_engine.py);
- `command`: `python -m toolkit simulate classic --bots ... --games N --workers 1` as a fresh
  process, CPU time of the child (user + system, from getrusage of the children), start-up,
  imports, seeding, tallies, summary and progress display included.

Rates are per CPU-second, so the load of a shared machine moves them less than wall time; each
line gives min / median over the rounds, and the ratio is taken round by round (command rate /
loop rate of the same round). The command runs once with 2 games first, so the compiled kernels
and the bytecode of the modules are cached as on an installed toolkit (the child may write
__pycache__ even when PYTHONDONTWRITEBYTECODE is set here). To measure another tree, run this
file with PYTHONPATH pointing at it (e.g. a `git worktree` of an older commit): everything it
runs, in process and in the children (started in that tree's folder), imports the toolkit found there.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

# (name, --bots, games of the command at scale 1): about 12 CPU-seconds of play each, so the
# command's start-up (about a second and a half: Python, numpy, numba and its cached kernels)
# weighs the same in every case.
CASES = [
    ("random", "random,random", 200_000),
    ("greedy", "greedy,greedy", 4_000),
    ("mcts", "mcts:100,mcts:100", 64),
]
LOOP_SHARE = 0.25
"""The in-process loop plays this share of the command's games (a rate needs fewer)."""


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_rate(bots: str, games: int, env: dict) -> tuple[float, float]:
    """(games per CPU-second of the whole command, its CPU seconds)."""
    args = [sys.executable, "-m", "toolkit", "simulate", "classic", "--bots", bots, "--games", str(games),
            "--workers", "1"]
    import toolkit

    tree = Path(toolkit.__file__).resolve().parent.parent  # `-m` puts the working folder first on the path
    before = child_cpu()
    done = subprocess.run(args, env=env, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cpu = child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return games / cpu, cpu


def loop_rate(bots: str, games: int) -> float:
    """Games per CPU-second of the simulator's turn loop on generators made beforehand."""
    from toolkit.families import family_of
    from toolkit.sim import experiment
    from toolkit.sim.shards import deal_generators

    request = experiment.prepare(["classic"], bots, 2, 0, 1)
    edition = request.editions[0]
    family = family_of(edition)
    family.play(edition, request.bots, *deal_generators(0, 0, 1, request.per_deal))  # load the compiled loop
    game_rngs, bot_rngs, swap = deal_generators(1, 0, max(1, games // request.per_deal), request.per_deal)
    start = time.process_time()
    family.play(edition, request.bots, game_rngs, bot_rngs, swap)
    return game_rngs.shape[0] / (time.process_time() - start)


def kernel_random_rate(games: int) -> float:
    """bench_engine.py's figure: the kernel's random-game loop from one generator."""
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack import kernel as k
    from toolkit.games.timetrack.tables import tables_for
    from toolkit.specs import load_edition

    t = tables_for(load_edition("classic")).arrays
    scores = np.zeros((games, 2), dtype=np.int64)
    k.play_random_games(t, seed_state(0), 10, 0, 0, scores)
    start = time.process_time()
    k.play_random_games(t, seed_state(1), games, 0, 0, scores)
    return games / (time.process_time() - start)


def spread(values: list[float]) -> str:
    return f"{min(values):,.1f} / {statistics.median(values):,.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every case (min / median over them)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--cases", default=",".join(name for name, _, _ in CASES), help="which cases, comma-separated")
    args = parser.parse_args()
    import toolkit

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    wanted = args.cases.split(",")
    print(f"toolkit from {Path(toolkit.__file__).parent}; load average {Path('/proc/loadavg').read_text().split()[:3]}")
    for name, bots, games in CASES:
        if name not in wanted:
            continue
        games = max(2, int(games * args.scale) // 2 * 2)
        command_rate(bots, 2, env)  # compiled kernels and bytecode cached first
        loops, kernels, commands, ratios, kernel_ratios, cpus = [], [], [], [], [], []
        for _ in range(args.rounds):
            loops.append(loop_rate(bots, max(2, int(games * LOOP_SHARE))))
            if name == "random":
                kernels.append(kernel_random_rate(max(2, int(games * LOOP_SHARE))))
            rate, cpu = command_rate(bots, games, env)
            commands.append(rate)
            cpus.append(cpu)
            ratios.append(rate / loops[-1])
            if kernels:
                kernel_ratios.append(rate / kernels[-1])
        print(f"{name} ({bots}), command {games} games, {args.rounds} rounds, min / median:")
        if kernels:
            print(f"  kernel random-game loop   {spread(kernels):>24} games/CPU-s")
        print(f"  simulator turn loop       {spread(loops):>24} games/CPU-s")
        print(f"  whole command             {spread(commands):>24} games/CPU-s ({spread(cpus)} CPU-s)")
        print(f"  command / turn loop       {min(ratios):.3f} / {statistics.median(ratios):.3f}")
        if kernel_ratios:
            print(f"  command / kernel loop     {min(kernel_ratios):.3f} / {statistics.median(kernel_ratios):.3f}")
        sys.stdout.flush()
    two = [command_rate("random,random", 2, env)[1] for _ in range(args.rounds)]
    print(f"start-up: the command with 2 random games, {spread(two)} CPU-s")


if __name__ == "__main__":
    main()
