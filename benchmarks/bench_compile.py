"""What compiling costs a new user: `patchwork compile` on an empty cache, a second install of the
same version, and the first command of each kind without `patchwork compile`.

Each run gets an empty kernel cache of its own (PATCHWORK_CACHE_DIR in a temporary folder), and is
timed in CPU-seconds of the command and every process it started (the children's rusage), which a
busy machine moves less than wall time; the wall time is printed beside it with the load.

    python benchmarks/bench_compile.py                      # this tree
    python benchmarks/bench_compile.py --tree /tmp/base     # another tree (a `git worktree` of an
                                                            # older commit), in the same run
    python benchmarks/bench_compile.py --only compile       # or: second-install, edited, first-commands
    python benchmarks/bench_compile.py --only edited --edit bots/doodle/expert.py   # which module to edit
    python benchmarks/bench_compile.py --set NUMBA_OPT=1    # under a numba setting (repeatable)
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

HERE = Path(__file__).resolve().parent.parent
FIRST_COMMANDS = {
    "simulate classic greedy": ["simulate", "classic", "--bots", "greedy,greedy", "--games", "2", "--no-progress"],
    "simulate classic mcts": ["simulate", "classic", "--bots", "mcts:50,random", "--games", "2", "--no-progress"],
    "simulate doodle greedy": ["simulate", "doodle", "--bots", "greedy", "--games", "2", "--no-progress"],
}

EDITS = ("bots/doodle/expert.py", "bots/greedy.py", "games/timetrack/tables.py")
"""Modules `edited` edits by default: a leaf bot, a bot the search builds on, a table module."""


def timed(args: list[str], tree: Path, cache: Path, settings: dict[str, str]) -> tuple[float, float, int]:
    """(CPU-seconds of the command and its children, wall seconds, exit code)."""
    env = {**os.environ, **settings, "PATCHWORK_CACHE_DIR": str(cache), "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=tree, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        print(f"  ! {' '.join(args)} exited {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    return cpu, wall, done.returncode


def load() -> str:
    return "load %.1f" % os.getloadavg()[0]


def private_cache(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir(mode=0o700)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=HERE, help="the source tree to measure (default: this one)")
    parser.add_argument("--only", choices=("compile", "second-install", "edited", "first-commands"), action="append",
                        help="measure only these (repeatable; default: all)")
    parser.add_argument("--edit", action="append", metavar="MODULE",
                        help="for `edited`: a module under toolkit/ to edit (a comment appended) in a copy of the "
                             "tree, then compile again into the same cache; repeatable, each edit on its own copy "
                             f"(default: {', '.join(EDITS)})")
    parser.add_argument("--set", action="append", default=[], metavar="NUMBA_NAME=VALUE",
                        help="a numba setting for every timed command (repeatable), e.g. NUMBA_OPT=1")
    args = parser.parse_args()
    settings = dict(item.split("=", 1) for item in args.set if "=" in item)
    if len(settings) != len(args.set) or not all(name.startswith("NUMBA_") for name in settings):
        parser.error("--set takes NUMBA_NAME=VALUE")
    tree = args.tree.resolve()
    only = set(args.only or ("compile", "second-install", "edited", "first-commands"))
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "(no git)"
    print(f"tree {tree} at {commit}; {os.cpu_count()} cores; settings: "
          f"{' '.join(f'{name}={value}' for name, value in settings.items()) or 'numba defaults'}")
    with tempfile.TemporaryDirectory(prefix="patchwork-bench-compile-") as scratch:
        root = Path(scratch)
        root.chmod(0o700)
        if only & {"compile", "second-install", "edited"}:
            cache = private_cache(root, "compile")
            cpu, wall, _ = timed(["compile"], tree, cache, settings)
            print(f"patchwork compile, empty cache: {cpu:.0f} CPU-s, {wall:.0f} s wall ({load()})")
            if "second-install" in only:
                copy = root / "second-install"
                shutil.copytree(tree / "toolkit", copy / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
                shutil.copytree(tree / "specs", copy / "specs")
                cpu, wall, _ = timed(["compile"], copy, cache, settings)
                print(f"patchwork compile from a second copy of the same source, same cache: {cpu:.1f} CPU-s, "
                      f"{wall:.1f} s wall ({load()})")
            if "edited" in only:
                for module in args.edit or EDITS:
                    copy = root / f"edited-{module.replace('/', '-')}"
                    shutil.copytree(tree / "toolkit", copy / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
                    shutil.copytree(tree / "specs", copy / "specs")
                    source = copy / "toolkit" / module
                    if not source.is_file():
                        parser.error(f"--edit {module}: no such module under toolkit/")
                    source.write_text(source.read_text() + "\n# edited\n")
                    cpu, wall, _ = timed(["compile"], copy, cache, settings)
                    print(f"patchwork compile after an edit of toolkit/{module}, same cache: {cpu:.1f} CPU-s, "
                          f"{wall:.1f} s wall ({load()})")
        if "first-commands" in only:
            for label, command in FIRST_COMMANDS.items():
                cache = private_cache(root, label.replace(" ", "-"))
                cpu, wall, _ = timed(command, tree, cache, settings)
                print(f"{label} ({' '.join(command[:4])}), empty cache: {cpu:.1f} CPU-s, {wall:.0f} s wall ({load()})")


if __name__ == "__main__":
    main()
