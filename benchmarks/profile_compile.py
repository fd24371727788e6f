"""Where compiling the kernels goes: numba's compile events, per compiled function, in one process.

Runs `patchwork compile`'s warm-up jobs (toolkit.warmup) in this process on an empty private
kernel cache, and prints the CPU time of the whole, how much of it numba spent inside LLVM (its
`numba:llvm_lock` events: optimising the IR and emitting machine code) and in its own Python
passes (the rest: bytecode analysis, type inference, lowering), and the functions that cost most.
A function's time is its own, without the functions it compiled on the way (its callees), but
with its LLVM work, which covers the callees' IR again (numba links each callee's IR into every
caller and optimises the whole).

    python benchmarks/profile_compile.py                          # every warm-up job
    python benchmarks/profile_compile.py --jobs timetrack_simulator --top 20
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
JOBS = ("timetrack_simulator", "timetrack_prompt", "doodle_simulator", "doodle_expert")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", default=",".join(JOBS), help=f"warm-up jobs, comma-separated (of {', '.join(JOBS)})")
    parser.add_argument("--top", type=int, default=30, help="how many of the costliest functions to list")
    args = parser.parse_args()
    jobs = [job for job in args.jobs.split(",") if job]
    if not jobs or any(job not in JOBS for job in jobs):
        parser.error(f"--jobs takes some of {', '.join(JOBS)}")
    with tempfile.TemporaryDirectory(prefix="patchwork-profile-compile-") as scratch:
        os.chmod(scratch, 0o700)
        os.environ["PATCHWORK_CACHE_DIR"] = scratch  # before toolkit.jit reads it: an empty cache
        profile(jobs, args.top)


def profile(jobs: list[str], top: int) -> None:
    sys.path.insert(0, str(HERE))
    from numba.core import event

    from toolkit import warmup

    own: collections.Counter[str] = collections.Counter()
    llvm: collections.Counter[str] = collections.Counter()
    compiles: collections.Counter[str] = collections.Counter()
    stack: list[list] = []  # [name, started, callees' time, LLVM time]
    llvm_started: list[float] = []
    deepest = 0

    class Compiles(event.Listener):
        def on_start(self, ev):
            nonlocal deepest
            function = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            name = f"{function.__module__}.{function.__qualname__}" if function else "?"
            stack.append([name, time.process_time(), 0.0, 0.0])
            deepest = max(deepest, len(stack))

        def on_end(self, ev):
            name, started, callees, in_llvm = stack.pop()
            spent = time.process_time() - started
            own[name] += spent - callees
            llvm[name] += in_llvm
            compiles[name] += 1
            if stack:
                stack[-1][2] += spent

    class Llvm(event.Listener):
        def on_start(self, ev):
            llvm_started.append(time.process_time())

        def on_end(self, ev):
            spent = time.process_time() - llvm_started.pop()
            if stack and not llvm_started:  # the outermost LLVM section, charged to the function compiling
                stack[-1][3] += spent

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())
    started = time.process_time()
    for job in jobs:
        warmup.run_job(f"toolkit.warmup:{job}")
    total = time.process_time() - started
    in_compile = sum(own.values())
    in_llvm = sum(llvm.values())
    print(f"jobs: {', '.join(jobs)}; load {os.getloadavg()[0]:.1f}")
    print(f"{total:.1f} CPU-s in all, {in_compile:.1f} compiling ({sum(compiles.values())} function compiles, "
          f"calls nested {deepest} deep): {in_llvm:.1f} in LLVM ({in_llvm / in_compile:.0%}), "
          f"{in_compile - in_llvm:.1f} in numba's own passes")
    print(f"the {top} costliest functions (own CPU-s, of which LLVM; compiles):")
    for name, seconds in own.most_common(top):
        print(f"  {seconds:6.2f}  llvm {llvm[name]:6.2f}  x{compiles[name]:<2d} {name}")


if __name__ == "__main__":
    main()
