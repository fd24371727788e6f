"""How fast the front door is: `--help`, `validate`, a first `deal classic` and a first
`simulate doodle`, cold (empty compiled-kernel cache) and warm, for this checkout and for an
older commit checked out beside it (default 844c036, before the family seam).

    python benchmarks/bench_front_door.py [--before REV] [--repeat N]

Cold for this checkout: PATCHWORK_CACHE_DIR points at a fresh folder. Cold for the older commit:
a fresh `git worktree` (its numba cache lived in the source tree's __pycache__). Both run with
this interpreter, whose site-packages hold the dependencies; PYTHONPATH selects the source tree.
Prints wall and CPU seconds of each command.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "--help": ["--help"],
    "validate": ["validate"],
    "deal classic": ["deal", "classic", "--seed", "1"],
    "simulate doodle": ["simulate", "doodle", "--games", "20", "--no-progress"],
}


def run(tree: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=tree, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def clear_pycache(tree: Path) -> None:
    for folder in (tree / "toolkit").rglob("__pycache__"):
        shutil.rmtree(folder, ignore_errors=True)


def measure(label: str, tree: Path, cold_env) -> None:
    for name, args in COMMANDS.items():
        env = cold_env()
        cold = run(tree, args, env)
        warm = run(tree, args, env)
        print(f"{label:<8} {name:<16} cold {cold[0]:6.2f} s wall {cold[1]:6.2f} s cpu   "
              f"warm {warm[0]:6.2f} s wall {warm[1]:6.2f} s cpu", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="844c036")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="front-door-"))
    try:
        old = scratch / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), args.before],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base_env = {k: v for k, v in os.environ.items() if k not in ("PATCHWORK_CACHE_DIR", "NUMBA_CACHE_DIR")}

        def cold_old():
            clear_pycache(old)
            return {**base_env, "PYTHONPATH": str(old)}

        counter = iter(range(1000))

        def cold_new():
            folder = scratch / f"cache-{next(counter)}"
            return {**base_env, "PYTHONPATH": str(ROOT), "PATCHWORK_CACHE_DIR": str(folder)}

        measure(args.before, old, cold_old)
        measure("now", ROOT, cold_new)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(scratch / "before")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
