"""Compile every kernel ahead of use: `patchwork compile`.

numba compiles a kernel the first time it is called and keeps the machine code in the toolkit's
cache (toolkit.jit), so without this the first game, hint or simulation of each kind waits for it.
Each family names its warm-up jobs (RulesFamily.warm_ups): tiny seeded workloads, defined at the end
of this module since they play through the simulator and the play loop above the families, that
call every compiled entry point its commands use (the validated game, the simulator's turn loop
with each bot, the search bots).

A family's jobs share most of their kernels, so they run one after another in one process (a lane),
each finding what the one before compiled in the cache; the families' lanes run side by side, one
process each, so no kernel is compiled twice. Each process reports every kernel as it starts to
compile it, so the command can show what it is doing from its first second. When every job has
run, a mark in each kernel module's cache folder says so: games and hints whose modules all have
it know nothing is left to compile, and an edit removes the mark only of the modules it touches.
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from toolkit.families import all_families
from toolkit.families.base import WarmUp

COMPILED_MARK = "compiled-everything"
"""The file, in the cache folder of each kernel module (toolkit.jit.module_cache_folder: named after
the digest of the module's source closure), that says every warm-up job ran to its end with that
source: a command whose modules all have it has nothing to compile."""


def mark_paths(modules: list[str] | None = None) -> list[str] | None:
    """The marks of the kernel modules among `modules` (names, `toolkit.games.rng`; None: every
    kernel module of the toolkit); None without a cache folder."""
    from toolkit import jit

    if not jit.CACHE_DIR:
        return None
    if modules is None:
        sources = jit.kernel_sources()
    else:
        sources = [path for name in modules if (path := jit.kernel_source(name)) is not None]
    return [os.path.join(jit.module_cache_folder(path) or "", COMPILED_MARK) for path in sources]


@dataclass(frozen=True)
class Compiled:
    label: str
    cpu_seconds: float
    """CPU time the job's process spent (compiling, or loading from the cache, and the workload)."""


@dataclass(frozen=True)
class Compiling:
    """A kernel a lane has started to compile."""

    lane: int
    name: str
    """`module.function` of the kernel."""


def jobs() -> list[WarmUp]:
    """Every family's warm-up jobs, in the families' order."""
    return [job for lane in lanes() for job in lane]


def lanes() -> list[list[WarmUp]]:
    """The jobs, one list per family: a lane runs in one process, its jobs in order."""
    return [jobs for family in all_families() if (jobs := list(family.warm_ups()))]


def run_job(target: str) -> float:
    """Run one workload in this process; its CPU seconds."""
    started = time.process_time()
    module, _, name = target.partition(":")
    getattr(importlib.import_module(module), name)()
    return time.process_time() - started


_reports: "queue.Queue | None" = None
_lane = 0


def _lane_init(parent: int, reports, lane_numbers) -> None:
    """A lane's process: leave Ctrl-C to the parent, die with it, and report each kernel compile."""
    from toolkit.sim.backends import worker_init

    worker_init(parent)
    global _reports, _lane
    _reports = reports
    with lane_numbers.get_lock():
        _lane = lane_numbers.value
        lane_numbers.value += 1
    _report_compiles(lambda name: reports.put(("compiling", _lane, name)))


def _report_compiles(say: Callable[[str], None]) -> None:
    from toolkit import jit  # noqa: F401  (numba's cache is configured before the first compile)
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            dispatcher = (ev.data or {}).get("dispatcher")
            function = getattr(dispatcher, "py_func", None)
            if function is not None and function.__module__.startswith("toolkit."):
                say(f"{function.__module__}.{function.__qualname__}")

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())


def _run_lane(targets: list[str]) -> list[float]:
    seconds = []
    for target in targets:
        seconds.append(run_job(target))
        if _reports is not None:
            _reports.put(("done", _lane, target, seconds[-1]))
    return seconds


def compile_all(processes: int = 2, on_done: Callable[[Compiled], None] | None = None,
                on_compiling: Callable[[Compiling], None] | None = None) -> list[Compiled]:
    """Run every warm-up job, a family's jobs in one process, up to `processes` families at once
    (1: all in this process); mark the cache complete when all ran."""
    groups = lanes()
    labels = {job.target: job.label for lane in groups for job in lane}
    done: list[Compiled] = []

    def record(target: str, seconds: float) -> None:
        item = Compiled(labels[target], seconds)
        done.append(item)
        if on_done is not None:
            on_done(item)

    if processes <= 1:
        if on_compiling is not None:
            _report_compiles(lambda name: on_compiling(Compiling(0, name)))
        for lane in groups:
            for job in lane:
                record(job.target, run_job(job.target))
        mark_compiled()
        return done
    import multiprocessing

    from toolkit.sim.backends import submit_holding_ctrl_c

    # fork would copy this process's state; a fresh interpreter per lane is what a command sees.
    # Lanes leave Ctrl-C to this process and end with it, even when it is killed.
    context = multiprocessing.get_context("spawn")
    reports = context.Queue()
    numbers = context.Value("i", 0)
    stop = threading.Event()

    def relay() -> None:
        while not stop.is_set():
            try:
                message = reports.get(timeout=0.1)
            except queue.Empty:
                continue
            except (EOFError, OSError):
                return
            if message[0] == "compiling" and on_compiling is not None:
                on_compiling(Compiling(message[1], message[2]))
            elif message[0] == "done":
                record(message[2], message[3])

    relayer = threading.Thread(target=relay, name="compile-progress", daemon=True)
    relayer.start()
    finished = False
    try:
        with cf.ProcessPoolExecutor(max_workers=min(processes, len(groups)), mp_context=context,
                                    initializer=_lane_init, initargs=(os.getpid(), reports, numbers)) as pool:
            futures = [submit_holding_ctrl_c(pool, _run_lane, [job.target for job in lane])
                       for lane in groups]
            try:
                for future in cf.as_completed(futures):
                    future.result()
            except BaseException:
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.kill()
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        finished = True
    finally:
        deadline = time.monotonic() + 5
        while (finished and len(done) < sum(len(lane) for lane in groups) and time.monotonic() < deadline
               and relayer.is_alive()):
            time.sleep(0.05)  # the last reports are still in the queue
        stop.set()
        relayer.join(timeout=1)
    mark_compiled()
    return done


def mark_compiled() -> None:
    """Say in each kernel module's cache folder that its kernels are compiled (nothing to say
    without a cache)."""
    for mark in mark_paths() or []:
        try:
            os.makedirs(os.path.dirname(mark), mode=0o700, exist_ok=True)
            with open(mark, "w", encoding="utf-8") as handle:
                handle.write("every warm-up job ran with this module's source\n")
        except OSError:
            pass


def everything_compiled(modules: list[str] | None = None) -> bool:
    """True when `patchwork compile` (or its equivalent) ran to its end for the current source of
    the kernel modules among `modules` (None: every kernel module of the toolkit)."""
    marks = mark_paths(modules)
    return marks is not None and all(os.path.exists(mark) for mark in marks)


def unused_cache_entries() -> list[str]:
    """What the kernel cache holds that this source, numba and its settings never load: module
    folders of other sources (older versions, edits), older marks, and, when the cache folder is
    the toolkit's own, the folders of other numba versions or settings. [] without a cache."""
    import re

    from toolkit import jit

    if not jit.CACHE_DIR:
        return []
    cache = Path(jit.CACHE_DIR)
    used = {jit.module_cache_folder(path) for path in jit.kernel_sources()}
    unused = []
    for folder, names, _ in os.walk(cache / "toolkit"):
        for name in list(names):
            path = os.path.join(folder, name)
            if re.fullmatch(r"\w+-[0-9a-f]{16}", name):
                names.remove(name)  # a module's folder: nothing below it is another module's
                if path not in used:
                    unused.append(path)
    unused += [str(path) for path in cache.glob(f"{COMPILED_MARK}*")]  # where older versions kept the mark
    if cache.parent == jit.cache_root():
        unused += [str(path) for path in cache.parent.glob("numba-*")
                   if path != cache and re.fullmatch(r"numba-[0-9a-f]{16}", path.name)]
    return sorted(unused)


def prune_cache() -> tuple[int, int]:
    """Remove unused_cache_entries(); (entries removed, bytes freed). A link is removed as a link,
    never followed."""
    import shutil

    removed = freed = 0
    for entry in unused_cache_entries():
        path = Path(entry)
        if path.is_symlink() or not path.is_dir():
            freed += path.lstat().st_size
            path.unlink()
        else:
            freed += sum(item.stat().st_size for item in path.rglob("*") if item.is_file() and not item.is_symlink())
            shutil.rmtree(path)
        removed += 1
    return removed, freed


def default_processes() -> int:
    return max(1, min(len(lanes()), os.cpu_count() or 1))


# ----- the families' workloads -----------------------------------------------------------

def timetrack_simulator() -> None:
    from toolkit.sim import experiment

    # One workload per turn loop (toolkit.families.timetrack.loop compiles one per mix of kinds).
    for editions, bots in ((["classic"], "mcts:5,greedy"), (["anniversary"], "greedy,automa"),
                           (["classic"], "mcts:5,random"), (["express"], "random,random")):
        experiment.run(experiment.prepare(editions, bots, 2 if "automa" not in bots else 1, 0))


def timetrack_prompt() -> None:
    from toolkit.play import hint, new_game, play_bots
    from toolkit.specs import load_edition

    play_bots(load_edition("classic"), "greedy,mcts:5", 0)
    play_bots(load_edition("classic"), "greedy,mcts:0.002s:2t", 0)  # the shared tree of --threads
    play_bots(load_edition("anniversary"), "random,automa", 0)
    game = new_game(load_edition("classic"), 0)
    hint(game)


def doodle_simulator() -> None:
    from toolkit.sim import experiment

    experiment.run(experiment.prepare(["doodle"], "greedy,random", 1, 0))


def doodle_expert() -> None:
    from toolkit.games.doodle.game import DoodleGame
    from toolkit.play import Session, hint, new_game, seat
    from toolkit.sim import experiment
    from toolkit.specs import load_edition

    experiment.run(experiment.prepare(["doodle"], "expert", 1, 0))
    # A hint in each phase of each round (start card, the first rounds, the last round's search).
    edition = load_edition("doodle")
    seats = seat(edition, "greedy", 1)
    game = new_game(edition, 0, 1, seats)
    assert isinstance(game, DoodleGame)
    session = Session(game, seats, 0)
    hinted = set()
    while not game.is_over:
        if (game.phase, game.round) not in hinted:
            hinted.add((game.phase, game.round))
            hint(game)
        at = game.seat_to_act
        bot = seats.bots[at]
        assert bot is not None  # every seat is the greedy bot
        game.apply(bot.choose(game, session.rngs[at]))


def doodle_prompt() -> None:
    from toolkit.play import play_bots
    from toolkit.specs import load_edition

    play_bots(load_edition("doodle"), "greedy,random", 0)
