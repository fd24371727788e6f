"""`patchwork compile`: compile every kernel now, so no later command waits for it."""
from __future__ import annotations

import time

import typer

from toolkit.errors import UsageError


def register(app: typer.Typer) -> None:
    app.command("compile")(compile_kernels)


def compile_kernels(
    processes: int = typer.Option(0, "--processes", "-j", metavar="N",
                                  help="Worker processes that compile at once (default: the cores, at most 4)."),
) -> None:
    """Compile every rules kernel and bot now (once per machine and upgrade), so games, hints and
    simulations start at once; the README's set-up command runs it."""
    from toolkit import warmup

    if processes < 0 or processes > 64:
        raise UsageError(f"--processes must be 0..64 (0: the cores, at most 4), got {processes}")
    processes = processes or warmup.default_processes()
    jobs = warmup.jobs()
    typer.echo(f"compiling the kernels of {len(jobs)} groups on {processes} process(es); this takes a few "
               "minutes the first time and a few seconds once they are cached ...", err=True)
    started = time.perf_counter()
    total = 0.0

    def done(item: warmup.Compiled) -> None:
        nonlocal total
        total += item.cpu_seconds
        typer.echo(f"  {item.label}: {item.cpu_seconds:.1f} CPU-s", err=True)

    warmup.compile_all(processes, done)
    typer.echo(f"compiled: {total:.0f} CPU-s in {time.perf_counter() - started:.0f} s", err=True)
