"""`patchwork compile`: compile every kernel now, so no later command waits for it."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from toolkit.errors import UsageError

FIRST_COMPILE_CPU_SECONDS = 360
"""What compiling everything on an empty cache costs on the README's 2-core machine (357 CPU-s at
f00f4e8; `python benchmarks/bench_compile.py --only compile` prints it again), to say up front that
the first compile takes minutes."""

QUIET_SECONDS = 10.0
"""Off a terminal (a log), a progress line at most this often."""


def register(app: typer.Typer) -> None:
    app.command("compile")(compile_kernels)


def compile_kernels(
    processes: int = typer.Option(0, "--processes", "-j", metavar="N",
                                  help="Processes that compile at once, one rules family each (default: one per "
                                       "core, at most one per family)."),
    where: bool = typer.Option(False, "--where", help="Only say where compiled kernels are cached (or why they "
                                                      "are not) and whether everything is compiled there."),
    prune: bool = typer.Option(False, "--prune", help="Only remove the compiled kernels this version never loads "
                                                      "(older versions and edits, other numba versions or "
                                                      "settings) from the cache, and say how much that freed."),
) -> None:
    """Compile every rules kernel and bot now (once per machine, user and version: every install of
    the same version shares it), so games, hints and simulations start at once; the README's set-up
    command runs it."""
    if processes < 0 or processes > 64:
        raise UsageError(f"--processes must be 0..64 (0: one per core), got {processes}")
    if where and prune:
        raise UsageError("--where and --prune: give one of them (each only looks at the cache)")
    if processes and (where or prune):
        raise UsageError(f"--processes: {'--where' if where else '--prune'} compiles nothing")
    from toolkit import jit, warmup

    if where:
        if jit.CACHE_DIR is None:
            typer.echo(f"compiled kernels are not cached: {jit.CACHE_REFUSED}; every command compiles what it "
                       "uses in memory (set PATCHWORK_CACHE_DIR to a folder only you can write)")
        else:
            state = "everything compiled" if warmup.everything_compiled() else "not everything compiled yet"
            typer.echo(f"{jit.CACHE_DIR} ({state})")
        return
    if prune:
        if jit.CACHE_DIR is None:
            typer.echo(f"compiled kernels are not cached: {jit.CACHE_REFUSED}; nothing to remove")
            return
        removed, freed = warmup.prune_cache()
        typer.echo(f"removed {removed} unused entries ({freed / 1e6:.1f} MB) from {jit.cache_root()}; "
                   f"this version's kernels stay in {jit.CACHE_DIR}")
        return
    processes = processes or warmup.default_processes()
    lanes = warmup.lanes()
    count = sum(len(lane) for lane in lanes)
    if jit.CACHE_DIR is None:
        typer.echo(f"patchwork: note: compiled kernels cannot be cached ({jit.CACHE_REFUSED}), so this compiles "
                   "them for this command only; set PATCHWORK_CACHE_DIR to a folder only you can write", err=True)
    else:
        typer.echo(f"compiling {count} groups of kernels into {jit.CACHE_DIR}, {min(processes, len(lanes))} at "
                   f"once: the first time some {FIRST_COMPILE_CPU_SECONDS} CPU-seconds of work (minutes), after an "
                   "edit only the kernels that depend on it, a few seconds once all are cached", err=True)
    progress = _Progress(count)
    started = time.perf_counter()
    with progress.shown():
        compiled = warmup.compile_all(processes, progress.done, progress.compiling)
    total = sum(item.cpu_seconds for item in compiled)
    typer.echo(f"compiled: {progress.kernels} kernels, {total:.0f} CPU-s in {time.perf_counter() - started:.0f} s",
               err=True)


class _Progress:
    """What each process compiles now, how many groups and kernels are done, and for how long."""

    def __init__(self, groups: int):
        self.groups = groups
        self.finished = 0
        self.kernels = 0
        self.now: dict[int, str] = {}
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.item = None
        self.said = 0.0

    def text(self) -> str:
        names = "; ".join(name.removeprefix("toolkit.") for _, name in sorted(self.now.items()))
        return f"{self.finished}/{self.groups} groups, {self.kernels} kernels compiled; now {names or '...'}"

    def compiling(self, event) -> None:
        from toolkit.cli.waiting import STATUS

        with self.lock:
            self.kernels += 1
            self.now[event.lane] = event.name
            if self.item is not None and STATUS.live:
                self.item.text = self.text()[:110]
            elif time.monotonic() - self.said >= QUIET_SECONDS:
                self.said = time.monotonic()
                typer.echo(f"  {time.monotonic() - self.started:.0f} s: {self.text()}", err=True)

    def done(self, item) -> None:
        from toolkit.cli.waiting import STATUS

        with self.lock:
            self.finished += 1
            STATUS.line(f"  done {self.finished}/{self.groups}: {item.label} ({item.cpu_seconds:.1f} CPU-s)")

    @contextmanager
    def shown(self) -> Iterator["_Progress"]:
        from toolkit.cli.waiting import activity

        with activity(self.text()) as item:
            self.item = item
            self.said = time.monotonic() - QUIET_SECONDS  # off a terminal, the first kernel is said at once
            yield self
