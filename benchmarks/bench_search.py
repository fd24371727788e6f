"""The time-track search against an older commit (default 3d8f4b8): speed, strength at equal CPU
time, and the time-budget bot on one thread against two.

    python benchmarks/bench_search.py rate  [--before REV] [--rounds 5] [--iterations 1000]
    python benchmarks/bench_search.py match [--before REV] [--games 400] [--ms 20] [--edition classic]
    python benchmarks/bench_search.py threads [--games 400] [--seconds 0.05 | --per-thread N] [--threads 2]
    python benchmarks/bench_search.py ladder [--before REV] [--rounds 3]

The older tree is exported with `git archive` into a temporary folder and runs with this
interpreter, PYTHONPATH selecting the tree and PATCHWORK_CACHE_DIR its own kernel cache (kept in
`--cache`, so a second run does not compile again). Every figure is per CPU-second of the process
that did the work (time.process_time or the children's rusage), so other work on a shared machine
moves it less than wall time; the load average is printed with each.

rate: MCTS iterations per CPU-second on the benchmark positions: 60 positions of greedy-vs-greedy
  classic games, every 4th ply (benchmarks/bench_bots.py's), one search of `--iterations` each.
  The trees alternate, each round in a fresh child process after a warm-up search; prints the
  min / median / max over `--rounds`.
match: new `mcts` against the older one, seat-swapped, at equal CPU time per move: each side's
  search runs in its own child process and reports its CPU time per move; both start at
  iterations = their measured rate x `--ms`, and after every pair of games each side's iterations
  are rescaled by `--ms` over its CPU time per move in that pair. The game is played by this
  tree's kernel; prints the new side's win share (ties count half) with a Wilson 95% interval and
  the mean CPU time per move of each side.
threads: `mcts:<seconds>s` on `--threads` threads (one shared tree) against the same budget on one
  thread, seat-swapped, through the library's bots (wall-clock budgets: the bot with threads gets
  the same wall time and more cores, so the figure depends on the machine's load, printed beside
  it). With `--per-thread N` each of the threads searches N iterations against N on one thread
  instead: the same comparison without the clock, which the load cannot move. Prints the win
  share (ties count half) with a Wilson 95% interval, and per move of each bot its iterations,
  wall ms and CPU ms (all threads): on a busy machine the CPU ms show whether the second thread
  got a core at all.
ladder: CPU seconds (user + system, the whole command) of `patchwork ladder random greedy mcts:200
  --games 200` on classic, warm kernel cache, both trees alternating; min / median / max.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_match import SearchServer, equal_cpu_match, load, wilson  # noqa: E402  (benchmarks/search_match.py)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "patchwork-bench-search"

# Runs in a child process with PYTHONPATH = one tree; its job is argv[1] as JSON.
CHILD = r'''
import json, os, sys, time
import numpy as np
job = json.loads(sys.argv[1])

def positions(t, count, seed):
    """bench_bots.py's positions: greedy-vs-greedy classic games, every 4th ply, no leather pending."""
    from toolkit.bots import greedy
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack import kernel as k
    found = []
    for game in range(20):
        rng = np.array(seed_state(seed, 3, game), dtype=np.int64)
        s, q = k.new_state(t, rng)
        ply = 0
        while not k.is_over(t, s) and len(found) < count:
            if ply % 4 == 0 and s[k.S_PENDING_LEATHER] == 0:
                found.append((s.copy(), q.copy()))
            k.apply(t, s, q, greedy.choose(t, s, q, rng, greedy.WEIGHTS), rng)
            ply += 1
    return found

from toolkit.bots import mcts
from toolkit.games.rng import seed_state
from toolkit.games.timetrack.tables import tables_for
from toolkit.specs import load_edition
t = tables_for(load_edition(job["edition"])).arrays
if job["kind"] == "rate":
    found = positions(t, 60, job["seed"])
    visits = np.zeros(64, dtype=np.int64)
    s, q = found[0]
    mcts.search(t, s, q, seed_state(0), 5, mcts.GREEDY_WEIGHTS, mcts.PARAMS, visits)
    rng = seed_state(job["seed"], 4)
    done = 0
    start = time.process_time()
    for s, q in found:
        visits[:] = 0
        mcts.search(t, s, q, rng, job["iterations"], mcts.GREEDY_WEIGHTS, mcts.PARAMS, visits)
        if visits.sum() > 0:
            done += job["iterations"]
    cpu = time.process_time() - start
    print(json.dumps({"rate": done / cpu, "searches": len(found)}))
'''


def export(rev: str, cache: Path) -> Path:
    """The tree of `rev`, exported once into the cache folder."""
    tree = cache / f"tree-{rev}"
    if not (tree / "toolkit").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def env_for(tree: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env["PYTHONPATH"] = str(tree)
    env["PATCHWORK_CACHE_DIR"] = str(cache / ("kernels-" + tree.name))
    env["NUMBA_NUM_THREADS"] = "1"
    return env


def child(tree: Path, cache: Path, job: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(job)], cwd=tree, env=env_for(tree, cache),
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_search: the {tree.name} tree failed on {job['kind']}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values: list[float], fmt: str = ",.0f") -> str:
    return (f"min {min(values):{fmt}} / median {statistics.median(values):{fmt}} / max {max(values):{fmt}}"
            f" over {len(values)}")


def rates(trees, cache: Path, rounds: int, iterations: int, seed: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {name: [] for name, _ in trees}
    for _ in range(rounds):
        for name, tree in trees:
            r = child(tree, cache, {"kind": "rate", "edition": "classic", "iterations": iterations, "seed": seed})
            out[name].append(r["rate"])
    return out


def cmd_rate(args, trees, cache: Path) -> None:
    print(f"mcts:{args.iterations} iterations per CPU-second, 60 positions of greedy classic games "
          f"(load {load()})", flush=True)
    found = rates(trees, cache, args.rounds, args.iterations, args.seed)
    for name, values in found.items():
        print(f"  {name:<10} {spread(values)}")
    before, now = (statistics.median(v) for v in found.values())
    print(f"  median ratio now / {trees[0][0]}: {now / before:.2f}x (load {load()})")


def cmd_match(args, trees, cache: Path) -> None:
    found = rates(trees, cache, 1, 1000, args.seed)
    iterations = [max(1, round(found["now"][0] * args.ms / 1000)), max(1, round(found[trees[0][0]][0] * args.ms / 1000))]
    print(f"match on {args.edition} at {args.ms:g} CPU ms per move: new mcts:{iterations[0]} vs "
          f"{trees[0][0]} mcts:{iterations[1]} to start with (load {load()})", flush=True)
    servers = (SearchServer(trees[1][1], env_for(trees[1][1], cache), args.edition),
               SearchServer(trees[0][1], env_for(trees[0][1], cache), args.edition))
    wins, played = equal_cpu_match(servers, args.edition, args.games, args.seed, iterations, args.ms, "bench_search")
    low, high = wilson(wins / played, played)
    print(f"new mcts wins {wins / played:.1%} [{low:.1%}, {high:.1%}] of {played} seat-swapped games against "
          f"{trees[0][0]}'s at equal CPU time per move (ties count half)")


def cmd_threads(args) -> None:
    from toolkit.bots.mcts import MctsBot
    from toolkit.bots.registry import time_budget
    from toolkit.games.rng import seed_state
    from toolkit.families import family_of
    from toolkit.specs import load_edition

    edition = load_edition(args.edition)
    if args.per_thread:
        budget = args.per_thread
        what = f"mcts:{budget} with {args.threads} threads ({budget} iterations each) against 1 thread"
    else:
        budget = time_budget(args.seconds)
        what = f"mcts:{args.seconds:g}s with {args.threads} threads against 1 thread (equal wall time)"
    wins = 0.0
    played = 0
    loads = [os.getloadavg()[0]]
    print(f"{what}, {args.edition}, {args.games} seat-swapped games (load {load()})", flush=True)
    start = time.perf_counter()
    cpu = time.process_time()
    many, one = MctsBot(budget, threads=args.threads), MctsBot(budget, threads=1)
    warm = family_of(edition).new_game(edition, 0)
    for bot in (many, one):  # load (or compile) the searches before anything is timed
        bot.choose(warm, seed_state(0))
        bot.searched = bot.searches = 0
    wall = {many: 0.0, one: 0.0}
    cpu_used = {many: 0.0, one: 0.0}
    low = high = 0.0
    for deal in range(args.games // 2):
        for many_seat in (0, 1):
            bots = [one, one]
            bots[many_seat] = many
            game = family_of(edition).new_game(edition, args.seed * 1_000_003 + deal)
            rngs = (seed_state(args.seed, deal, 1 + many_seat), seed_state(args.seed, deal, 3 + many_seat))
            while not game.is_over:
                seat = game.current_player
                began, began_cpu = time.perf_counter(), time.process_time()
                action = bots[seat].choose(game, rngs[seat])
                wall[bots[seat]] += time.perf_counter() - began
                cpu_used[bots[seat]] += time.process_time() - began_cpu
                game.apply(action)
            winners = game.winners()
            wins += (1.0 if winners == [many_seat] else 0.5 if many_seat in winners else 0.0)
            played += 1
        low, high = wilson(wins / played, played)
        if played % 20 == 0 or played == 2 * (args.games // 2):
            loads.append(os.getloadavg()[0])
            print(f"  {played} games: {args.threads} threads win {wins / played:.1%} [{low:.1%}, {high:.1%}]; "
                  f"iterations per move {args.threads} threads {many.searched / max(many.searches, 1):,.0f}, "
                  f"1 thread {one.searched / max(one.searches, 1):,.0f}; wall ms per move "
                  f"{1000 * wall[many] / max(many.searches, 1):.2f} / {1000 * wall[one] / max(one.searches, 1):.2f}, "
                  f"CPU ms per move {1000 * cpu_used[many] / max(many.searches, 1):.2f} / "
                  f"{1000 * cpu_used[one] / max(one.searches, 1):.2f} (load {load()})", flush=True)
    print(f"{what}: {args.threads} threads win {wins / played:.1%} [{low:.1%}, {high:.1%}] of {played} seat-swapped "
          f"games ({time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU; 1-minute load "
          f"average {min(loads):.1f} to {max(loads):.1f})")


def cmd_ladder(args, trees, cache: Path) -> None:
    out: dict[str, list[float]] = {name: [] for name, _ in trees}
    for name, tree in trees:  # warm-up: compile or load the kernels
        subprocess.run([sys.executable, "-m", "toolkit", "simulate", "classic", "--bots", "mcts:5,greedy", "--games",
                        "2", "--no-progress"], cwd=tree, env=env_for(tree, cache), check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.rounds):
            for name, tree in trees:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "toolkit", "ladder", "random", "greedy", "mcts:200", "--games",
                                "200", "--no-progress", "--out", str(Path(scratch) / name)],
                               cwd=tree, env=env_for(tree, cache), check=True, capture_output=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                out[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    print(f"patchwork ladder random greedy mcts:200 --games 200 (classic), CPU seconds (load {load()})")
    for name, values in out.items():
        print(f"  {name:<10} {spread(values, '.1f')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("rate", "match", "threads", "ladder"))
    parser.add_argument("--before", default="3d8f4b8", help="the commit to compare with")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="the older tree and both kernel caches")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--ms", type=float, default=20.0, help="CPU milliseconds per move in the match")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--seconds", type=float, default=0.05, help="threads: the time budget per move")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--per-thread", type=int, default=0,
                        help="threads: an iteration budget per thread instead of --seconds (the load-free proxy)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "threads":
        cmd_threads(args)
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    trees = [(args.before, export(args.before, args.cache)), ("now", ROOT)]
    {"rate": cmd_rate, "match": cmd_match, "ladder": cmd_ladder}[args.what](args, trees, args.cache)


if __name__ == "__main__":
    main()
