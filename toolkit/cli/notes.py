"""Whether a command is about to compile, and the one-line note it then prints first.

Only the deciding is here; the note is printed through the status line (toolkit.cli.waiting), so
the compile that follows knows it was announced."""
from __future__ import annotations

import importlib
import os

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
        if all(name.startswith("toolkit.") for name in modules) and warmup.everything_compiled(modules):
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
