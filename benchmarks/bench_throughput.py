"""Throughput of the time-track kernel and bots, side by side with an older commit (default 844c036).

    python benchmarks/bench_throughput.py [--before REV] [--rounds 3] [--random-games 20000]
        [--greedy-games 1000] [--doodle-games 5000] [--automa-games 10000] [--memory-games 200000]
        [--mcts-positions 40] [--mcts-iterations 400] [--cold] [--mcts-match GAMES] [--mcts-ms 20]

The older commit is checked out with `git worktree add --detach` into a temporary folder; both
trees run with this interpreter (its site-packages hold the dependencies), PYTHONPATH selecting
the source tree. Every measurement runs in a fresh child process pinned to one core, after a
warm-up that compiles or loads its kernels, and the two trees alternate round by round, so a
busy shared machine disturbs both alike. Rates are per CPU-second of the child.

Match-ups (the simulator's own entry point, `prepare` + `run`, as `patchwork simulate` calls it):
classic-revised random vs random, greedy vs greedy, anniversary random vs Automa level 3, Doodle
solo random. Each prints games per CPU-second of both trees (the best round, the least disturbed),
the speed-up, and whether the seeded results are the same (a digest of the simulation's figures).

Also: MCTS iterations per CPU-second on positions of real greedy games; memory (RSS) after the
first tenth and at the end of `--memory-games` random games in one process; `--cold`: CPU seconds
of a first `simulate classic-revised --bots greedy,mcts:10` with an empty compiled-kernel cache;
`--mcts-match N`: N seat-swapped games of the new `mcts` against the old one at equal CPU time
per move (each side starts at its iterations per second, measured again at about the budget's
search size, x `--mcts-ms`, and is rescaled after every pair of games by the budget over its CPU
time per move in that pair; the mean CPU time per move each side used is printed); both
searches run in their own child process and the game itself is played by this tree's kernel.

Measured on the project's shared 2-core machine (`--cold --mcts-match 400 --mcts-ms 20`):

    match-up                          844c036 games/s    now games/s  speed-up  same games
    classic-revised random,random              11,476         23,936     2.09x  yes
    classic-revised greedy,greedy                 317          2,228     7.02x  yes
    anniversary random,automa:3                14,318         30,362     2.12x  yes
    doodle random (solo)                       13,271         13,233     1.00x  no (*)
    mcts iterations per CPU-second             15,671         71,777     4.58x
    memory: RSS after 20,000 / 200,000 random games: 844c036 157.9 / 158.2 MiB, now 157.9 / 158.3
    mcts match at 20 ms per move (--match-only --mcts-match 400), iterations rescaled every pair
    (new about 830-1120, old about 190-240): measured CPU per move new 20.3 ms, old 20.3 ms;
    new mcts wins 74.0 % [69.5 %, 78.1 %] of 400 seat-swapped games

    first compile (empty cache), alternating: 844c036 40.2, 38.7 CPU-s; now 37.6, 37.8 CPU-s

(*) Doodle's seeded results changed with the Doodle work after 844c036, not with the time-track
kernel; its speed is unchanged.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_match import SearchServer, equal_cpu_match, wilson  # noqa: E402  (benchmarks/search_match.py)

ROOT = Path(__file__).resolve().parent.parent

# Runs inside a child process with PYTHONPATH = one tree; reads its job as JSON from argv[1].
CHILD = r'''
import hashlib, json, os, sys, time
import numpy as np
job = json.loads(sys.argv[1])
cpus = sorted(os.sched_getaffinity(0))
os.sched_setaffinity(0, {cpus[-1]})

def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

def simulate(edition, bots, games, seed, level):
    from toolkit.sim.experiment import prepare, run, simulation_document
    request = prepare([edition], bots, games, seed, automa_level=level)
    return request, run(request)

def positions(edition, count, seed):
    """Positions of greedy-vs-greedy games, every third move, with this tree's kernel."""
    from toolkit.bots import greedy
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack import kernel as k
    from toolkit.games.timetrack.tables import tables_for
    from toolkit.specs import load_edition
    t = tables_for(load_edition(edition)).arrays
    found = []
    game = 0
    while len(found) < count:
        rng = seed_state(seed, game)
        bot_rng = seed_state(seed, game, 1)
        s, q = k.new_state(t, rng)
        ply = 0
        while not k.is_over(t, s) and len(found) < count:
            if ply % 3 == 1:
                found.append((s.copy(), q.copy()))
            k.apply(t, s, q, greedy.choose(t, s, q, bot_rng, greedy.WEIGHTS), rng)
            ply += 1
        game += 1
    return t, found

kind = job["kind"]
if kind == "simulate":
    from toolkit.sim.experiment import simulation_document
    simulate(job["edition"], job["bots"], job["warm"], job["seed"] + 1, job["level"])
    start = time.process_time()
    request, outcome = simulate(job["edition"], job["bots"], job["games"], job["seed"], job["level"])
    cpu = time.process_time() - start
    figures = simulation_document(request, outcome, "bench")["figures"]
    digest = hashlib.sha256(json.dumps(figures, sort_keys=True, default=str).encode()).hexdigest()[:12]
    print(json.dumps({"cpu": cpu, "games": job["games"], "digest": digest}))
elif kind == "memory":
    from toolkit.sim.experiment import prepare, run
    chunk = job["games"] // 10
    rss = []
    for i in range(10):
        run(prepare([job["edition"]], job["bots"], chunk, job["seed"] + i))
        rss.append(rss_mib())
    print(json.dumps({"first": rss[0], "last": rss[-1], "games": chunk * 10}))
elif kind == "mcts_rate":
    from toolkit.bots import mcts
    from toolkit.games.rng import seed_state
    t, found = positions(job["edition"], job["positions"], job["seed"])
    s, q = found[0]
    mcts.choose(t, s.copy(), q.copy(), seed_state(0), 10)
    rng = seed_state(job["seed"], 99)
    start = time.process_time()
    for s, q in found:
        mcts.choose(t, s, q, rng, job["iterations"])
    cpu = time.process_time() - start
    print(json.dumps({"rate": len(found) * job["iterations"] / cpu}))
'''


def child_env(tree: Path, cache: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PATCHWORK_CACHE_DIR", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = str(tree)
    env["NUMBA_NUM_THREADS"] = "1"
    env["OMP_NUM_THREADS"] = "1"
    if cache is not None:
        env["PATCHWORK_CACHE_DIR"] = str(cache)
    return env


def child(tree: Path, job: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(job)], cwd=tree, env=child_env(tree),
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_throughput: the {tree.name} tree failed on {job['kind']}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def clear_pycache(tree: Path) -> None:
    for folder in (tree / "toolkit").rglob("__pycache__"):
        shutil.rmtree(folder, ignore_errors=True)


def cold_cpu(tree: Path, env: dict[str, str]) -> float:
    """CPU seconds of a first simulate that compiles every time-track chooser."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "toolkit", "simulate", "classic-revised", "--bots", "greedy,mcts:10",
                    "--games", "2", "--no-progress"], cwd=tree, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="844c036", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per match-up (best kept)")
    parser.add_argument("--random-games", type=int, default=20_000)
    parser.add_argument("--greedy-games", type=int, default=1_000)
    parser.add_argument("--automa-games", type=int, default=10_000)
    parser.add_argument("--doodle-games", type=int, default=5_000)
    parser.add_argument("--memory-games", type=int, default=200_000, help="random games for the memory check (0: skip)")
    parser.add_argument("--mcts-positions", type=int, default=40, help="positions for MCTS iterations per second")
    parser.add_argument("--mcts-iterations", type=int, default=400, help="iterations per search for the rate")
    parser.add_argument("--cold", action="store_true", help="also time a first run with an empty kernel cache")
    parser.add_argument("--mcts-match", type=int, default=0, metavar="GAMES",
                        help="also play GAMES seat-swapped games, new mcts vs old, at equal time per move")
    parser.add_argument("--mcts-ms", type=float, default=20.0, help="CPU milliseconds per move in the match")
    parser.add_argument("--match-only", action="store_true",
                        help="with --mcts-match: measure the MCTS rates and play the match, nothing else")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="throughput-"))
    old = scratch / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), args.before],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    trees = ((args.before, old), ("now", ROOT))
    try:
        cases = [
            ("classic-revised random,random", "classic-revised", "random,random", args.random_games, 0),
            ("classic-revised greedy,greedy", "classic-revised", "greedy,greedy", args.greedy_games, 0),
            ("anniversary random,automa:3", "anniversary", "random,automa", args.automa_games, 3),
            ("doodle random (solo)", "doodle", "random", args.doodle_games, 0),
        ]
        if args.match_only:
            cases = []
        else:
            print(f"{'match-up':<32} {args.before + ' games/s':>16} {'now games/s':>14} {'speed-up':>9}  same games")
        for label, edition, bots, games, level in cases:
            best = {}
            digests = {}
            for _ in range(args.rounds):
                for name, tree in trees:
                    out = child(tree, {"kind": "simulate", "edition": edition, "bots": bots, "games": games,
                                       "seed": args.seed, "level": level, "warm": max(games // 50, 20)})
                    best[name] = max(best.get(name, 0.0), out["games"] / out["cpu"])
                    digests[name] = out["digest"]
            same = "yes" if digests[args.before] == digests["now"] else "no"
            print(f"{label:<32} {best[args.before]:>16,.0f} {best['now']:>14,.0f} "
                  f"{best['now'] / best[args.before]:>8.2f}x  {same}", flush=True)

        rates = {}
        for _ in range(args.rounds):
            for name, tree in trees:
                out = child(tree, {"kind": "mcts_rate", "edition": "classic-revised", "positions": args.mcts_positions,
                                   "iterations": args.mcts_iterations, "seed": args.seed})
                rates[name] = max(rates.get(name, 0.0), out["rate"])
        print(f"{'mcts iterations per CPU-second':<32} {rates[args.before]:>16,.0f} {rates['now']:>14,.0f} "
              f"{rates['now'] / rates[args.before]:>8.2f}x", flush=True)

        if args.memory_games and not args.match_only:
            for name, tree in trees:
                out = child(tree, {"kind": "memory", "edition": "classic-revised", "bots": "random,random",
                                   "games": args.memory_games, "seed": args.seed})
                print(f"memory {name:<10} RSS after {out['games'] // 10:,} games {out['first']:.1f} MiB, "
                      f"after {out['games']:,} games {out['last']:.1f} MiB", flush=True)

        if args.cold and not args.match_only:
            counter = iter(range(1000))
            for _ in range(args.rounds):
                for name, tree in trees:
                    if tree == old:
                        clear_pycache(old)
                        env = child_env(old)
                    else:
                        env = child_env(ROOT, scratch / f"cache-{next(counter)}")
                    print(f"first compile {name:<10} {cold_cpu(tree, env):6.1f} CPU-s "
                          "(simulate classic-revised --bots greedy,mcts:10, empty cache)", flush=True)

        if args.mcts_match:
            # A search's cost per iteration grows with its size: measure again at the budget's size.
            budget = {}
            for name, tree in trees:
                guess = max(1, round(rates[name] * args.mcts_ms / 1000))
                out = child(tree, {"kind": "mcts_rate", "edition": "classic-revised", "positions": args.mcts_positions,
                                   "iterations": guess, "seed": args.seed})
                budget[name] = max(1, round(out["rate"] * args.mcts_ms / 1000))
            iterations = [budget["now"], budget[args.before]]
            print(f"mcts match at {args.mcts_ms:g} CPU ms per move: new mcts:{iterations[0]} vs "
                  f"{args.before} mcts:{iterations[1]} to start with", flush=True)
            servers = (SearchServer(ROOT, child_env(ROOT), "classic-revised"),
                       SearchServer(old, child_env(old), "classic-revised"))
            wins, played = equal_cpu_match(servers, "classic-revised", args.mcts_match, args.seed, iterations,
                                           args.mcts_ms, "bench_throughput")
            low, high = wilson(wins / played, played)
            print(f"new mcts wins {wins / played:.1%} [{low:.1%}, {high:.1%}] of {played} seat-swapped games "
                  f"(shared results count half)")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
