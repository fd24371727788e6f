"""Compile every kernel ahead of use: `patchwork compile`.

numba compiles a kernel the first time it is called and keeps the machine code in the toolkit's
cache (toolkit.jit), so without this the first game, hint or simulation of each kind waits for it.
Each family names its warm-up jobs (RulesFamily.warm_ups): tiny seeded workloads, defined at the end
of this module since they play through the simulator and the play loop above the families, that
call every compiled entry point its commands use (the validated game, the simulator's turn loop
with each bot, the search bots).
Jobs run in separate processes, so two cores compile two groups at once; a job whose kernels are
cached already costs a fraction of a second.
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from toolkit.families import all_families
from toolkit.families.base import WarmUp


@dataclass(frozen=True)
class Compiled:
    label: str
    cpu_seconds: float
    """CPU time the job's process spent (compiling, or loading from the cache, and the workload)."""


def jobs() -> list[WarmUp]:
    """Every family's warm-up jobs, in the families' order."""
    return [job for family in all_families() for job in family.warm_ups()]


def run_job(target: str) -> float:
    """Run one workload in this process; its CPU seconds."""
    started = time.process_time()
    module, _, name = target.partition(":")
    getattr(importlib.import_module(module), name)()
    return time.process_time() - started


def compile_all(processes: int = 2, on_done: Callable[[Compiled], None] | None = None) -> list[Compiled]:
    """Run every warm-up job on `processes` worker processes (1: in this process)."""
    found = jobs()
    done: list[Compiled] = []

    def record(job: WarmUp, seconds: float) -> None:
        item = Compiled(job.label, seconds)
        done.append(item)
        if on_done is not None:
            on_done(item)

    if processes <= 1:
        for job in found:
            record(job, run_job(job.target))
        return done
    import multiprocessing

    from toolkit.sim.backends import submit_holding_ctrl_c, worker_init

    # fork would copy this process's state; a fresh interpreter per worker is what a command sees.
    # Workers leave Ctrl-C to this process and end with it (worker_init), even when it is killed.
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=min(processes, len(found)), mp_context=context,
                                initializer=worker_init, initargs=(os.getpid(),)) as pool:
        futures = {submit_holding_ctrl_c(pool, run_job, job.target): job for job in found}
        try:
            for future in cf.as_completed(futures):
                record(futures[future], future.result())
        except BaseException:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return done


def default_processes() -> int:
    return max(1, min(4, os.cpu_count() or 1))


# ----- the families' workloads -----------------------------------------------------------

def timetrack_simulator() -> None:
    from toolkit.sim import experiment

    for editions, bots in ((["classic"], "mcts:5,greedy"), (["anniversary"], "greedy,automa"),
                           (["express"], "random,random")):
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
    from toolkit.play import Session, hint, new_game, seat
    from toolkit.sim import experiment
    from toolkit.specs import load_edition

    experiment.run(experiment.prepare(["doodle"], "expert", 1, 0))
    # A hint in each phase of each round (start card, the first rounds, the last round's search).
    edition = load_edition("doodle")
    seats = seat(edition, "greedy", 1)
    game = new_game(edition, 0, 1, seats)
    session = Session(game, seats, 0)
    hinted = set()
    while not game.is_over:
        if (game.phase, game.round) not in hinted:
            hinted.add((game.phase, game.round))
            hint(game)
        at = game.current_player
        game.apply(seats.bots[at].choose(game, session.rngs[at]))


def doodle_prompt() -> None:
    from toolkit.play import play_bots
    from toolkit.specs import load_edition

    play_bots(load_edition("doodle"), "greedy,random", 0)
