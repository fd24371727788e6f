"""Simulator throughput and memory: games/s through `toolkit.sim` (the compiled turn loops,
shards, tallies), on one core and with two worker processes, and RSS over a long run.

    python benchmarks/bench_sim.py [--scale 1.0] [--skip-workers] [--long 200000]

Each case is warmed up first (compiled code loads from numba's cache), so the figures are the
steady-state speed of the simulator; the two-worker figures include starting the processes.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from toolkit.sim import experiment

CASES = [
    # (label, edition, bots, games at scale 1)
    ("time-track random vs random", "classic", "random,random", 20000),
    ("time-track greedy vs random", "classic", "greedy,random", 4000),
    ("time-track greedy vs greedy", "classic", "greedy,greedy", 2000),
    ("time-track mcts:200 vs greedy", "classic", "mcts:200,greedy", 20),
    ("time-track greedy vs automa L3", "anniversary", "greedy,automa", 2000),
    ("Doodle solo random", "doodle", "random", 20000),
    ("Doodle solo greedy", "doodle", "greedy", 200),
    ("Doodle 4 players random", "doodle", "random,random,random,random", 4000),
]


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def speed(edition: str, bots: str, games: int, workers: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process)."""
    request = experiment.prepare([edition], bots, games, 1, workers)
    cpu = time.process_time()
    outcome = experiment.run(request)
    cpu = time.process_time() - cpu
    return request.games / outcome.elapsed, request.games / cpu if cpu > 0 else float("nan")


def even(n: int) -> int:
    return max(2, n + (n % 2))


def main() -> None:
    parser = argparse.ArgumentParser(description="simulator games/s and memory")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--skip-workers", action="store_true", help="only the single-core figures")
    parser.add_argument("--long", type=int, default=200000, help="games of the memory run (0: skip)")
    parser.add_argument("--scaling", type=int, default=100000, help="random games of the 1-vs-2-worker run (0: skip)")
    parser.add_argument("--only-scaling", action="store_true", help="only the 1-vs-2-worker run")
    args = parser.parse_args()
    if args.scaling:
        # Starting a pool costs seconds (fresh interpreters load the compiled loops), so worker
        # scaling shows on long runs only; the start-up is measured on its own.
        startup = even(4) / speed("classic", "random,random", even(4), 2)[0]
        one = speed("classic", "random,random", even(args.scaling), 1)[0]
        two = speed("classic", "random,random", even(args.scaling), 2)[0]
        print(f"scaling, {even(args.scaling)} random games: 1 worker {one:,.0f} games/s, 2 workers {two:,.0f} "
              f"games/s (pool start-up {startup:.1f} s included)", flush=True)
    if args.only_scaling:
        return
    # On a shared machine the wall-clock rate depends on the load; the CPU-second rate of the
    # in-process run does not, so both are printed.
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(f"{'case':34} {'games':>7} {'1 core games/s':>15} {'games/CPU-s':>12} {'2 workers games/s':>18}")
    for label, edition, bots, games in CASES:
        n = even(int(games * args.scale))
        speed(edition, bots, 2 if "," in bots and "automa" not in bots else 1, 1)  # warm up: load compiled code
        one, per_cpu = speed(edition, bots, n, 1)
        two = speed(edition, bots, n, 2)[0] if not args.skip_workers else float("nan")
        print(f"{label:34} {n:7d} {one:15,.1f} {per_cpu:12,.1f} {two:18,.1f}", flush=True)
    if args.long:
        request = experiment.prepare(["classic"], "random,random", even(args.long), 2, 1)
        samples: list[tuple[int, float]] = []
        start_rss = rss_mib()

        def sample(done: int, total: int) -> None:
            samples.append((done, rss_mib()))

        outcome = experiment.run(request, sample)
        marks = [samples[int(len(samples) * f) - 1] for f in (0.1, 0.25, 0.5, 0.75, 1.0)]
        text = ", ".join(f"{done} games: {rss:.1f} MiB" for done, rss in marks)
        print(f"memory, {request.games} random games in {outcome.shards} shards ({outcome.elapsed:.1f} s): "
              f"RSS before {start_rss:.1f} MiB; {text}")


if __name__ == "__main__":
    main()
