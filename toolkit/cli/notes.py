"""One-line notes a command prints on stderr before slow work the user did not ask for."""
from __future__ import annotations

import importlib
import os

import typer

COMPILE_NOTE = "compiling the rules kernel (first run only, may take a minute)..."


def compile_pending(modules: list[str]) -> bool:
    """True when one of these modules has compiled functions but none of them cached on disk.

    Reads numba's cache index the way numba itself does (a missing index, or one stale because
    the source changed, is empty). A module with some functions cached has been compiled before:
    the functions a game never calls stay uncached forever. Any surprise in numba's internals
    counts as "no compile expected", since this only decides whether to print a note.
    """
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    try:
        from toolkit import warmup

        # `patchwork compile` ran to its end for this kernel source: the toolkit's kernels are cached
        if all(name.startswith("toolkit.") for name in modules) and warmup.everything_compiled():
            return False
        for name in modules:
            module = importlib.import_module(name)
            indexes = []
            for value in vars(module).values():
                cache = getattr(value, "_cache", None)
                py_func = getattr(value, "py_func", None)
                if cache is None or py_func is None or py_func.__module__ != name:
                    continue
                indexes.append(cache._cache_file._load_index)
            if indexes and not any(index() for index in indexes):
                return True
    except Exception:
        return False
    return False


def note_compile(modules: list[str]) -> None:
    """Say on one line, before it happens, that the kernels of `modules` are about to compile."""
    if compile_pending(modules):
        typer.echo(COMPILE_NOTE, err=True)
        from toolkit.cli.waiting import announced

        announced()  # the compile that follows needs no second note


def note_compile_for(edition, simulate: bool = False) -> None:
    """The note for a command that plays `edition` (with the simulator's turn loop if `simulate`)."""
    from toolkit.families import family_of

    family = family_of(edition)
    # The simulator calls only its turn loop from Python; the kernel compiles into it, and numba
    # keeps the cache of what Python calls, so the loop's cache is the one that tells.
    note_compile(list(family.loop_modules if simulate else family.kernel_modules))
