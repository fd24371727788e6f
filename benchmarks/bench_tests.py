"""What the test suite costs: the everyday tier (`pytest -m "not slow"`) and the whole suite (what
the README's test command and CI run), each as wall seconds and CPU-seconds of pytest and its
workers.

The CPU-seconds are the fairer figure on a shared machine: divided by the cores pytest used, they
give the wall time the run would take with the machine to itself. Run it after `patchwork
compile` (the suite expects compiled kernels, as the README's test command provides).

    python benchmarks/bench_tests.py                 # both tiers, two workers
    python benchmarks/bench_tests.py --only everyday
    python benchmarks/bench_tests.py --workers 4 --durations 15   # and the slowest tests
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TIERS = {"everyday": ["-m", "not slow"], "whole": []}


def run(tier: str, workers: int, durations: int) -> None:
    # `--verbosity=-1`, not `-q`: the configured options already hold a `-q`, and a second one (-qq)
    # drops the summary line this reads the counts and time from
    args = [sys.executable, "-m", "pytest", "--verbosity=-1", "-n", str(workers), "-p", "no:cacheprovider",
            *TIERS[tier]]
    if durations:
        args += [f"--durations={durations}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(args, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = next((line for line in reversed(done.stdout.splitlines()) if re.search(r"\d+ (passed|failed|errors?)\b.* in ", line)), "?")
    print(f"{tier:9} {wall:7.1f} s wall  {cpu:7.1f} CPU-s  ({cpu / workers:6.1f} s on {workers} idle cores)"
          f"  load {load:.1f}  exit {done.returncode}  {summary.strip()}")
    if durations:
        block = done.stdout.split("slowest", 1)[-1].splitlines()[1:durations + 1]
        print("\n".join("    " + line for line in block))
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=sorted(TIERS), help="one tier")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (default 2)")
    parser.add_argument("--durations", type=int, default=0, help="also print the N slowest tests")
    options = parser.parse_args()
    for tier in [options.only] if options.only else list(TIERS):
        run(tier, options.workers, options.durations)


if __name__ == "__main__":
    main()
