"""numba's compiled-code cache, keyed by the source of every kernel module.

numba keys a cached function by its own file only: a kernel or chooser edited in another module
would leave a stale compiled turn loop in the cache. So before any kernel is compiled, the cache
is pointed at a folder named after a digest of the source of every module under toolkit/ that
compiles functions (and the numba version): any edit there selects a fresh folder, nothing is
deleted, and an unchanged install keeps finding its compiled kernels.

The folder is `$PATCHWORK_CACHE_DIR`, else `$XDG_CACHE_HOME/patchwork-toolkit`, else
`~/.cache/patchwork-toolkit`, then `numba-<digest>`; when none is writable, numba compiles in
memory. Every kernel module imports `njit` (or `no_alloc`) from here, so this runs before the first decorator.

It also keeps the flag that says numba's compiler is running (`compiling()`): from numba's
compiler-lock events (its public event API), a thread is marked from the moment it asks for the
compiler until it has let go of it. The command line's Ctrl-C handling reads the flag (a key
raised inside the compiler's callbacks can be swallowed by it) without importing numba: no
compile can start before this module is imported.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import numba
from numba.core import event

_inside: dict[int, int] = {}
"""Thread id -> depth of the compiler sections it is in now (the compiler's lock is re-entrant)."""


def compiling(thread: threading.Thread | None = None) -> bool:
    """True while `thread` (any thread, when None) is in numba's compiler or waits for it."""
    if thread is None:
        return any(depth > 0 for depth in list(_inside.values()))
    return _inside.get(thread.ident or -1, 0) > 0


@contextlib.contextmanager
def compiling_now() -> Iterator[None]:
    """Mark this thread as compiling for the block (numba's compiler marks itself through it)."""
    _enter()
    try:
        yield
    finally:
        _leave()


def _enter() -> None:
    me = threading.get_ident()
    _inside[me] = _inside.get(me, 0) + 1


def _leave() -> None:
    me = threading.get_ident()
    depth = _inside.get(me, 0) - 1
    if depth > 0:
        _inside[me] = depth
    else:
        _inside.pop(me, None)


class _CompilerWatch(event.Listener):
    """Marks the thread that takes numba's compiler lock (the event starts before the lock is
    taken and ends after it is let go, so the whole compile is inside)."""

    def on_start(self, ev: event.Event) -> None:
        _enter()

    def on_end(self, ev: event.Event) -> None:
        _leave()


event.register("numba:compiler_lock", _CompilerWatch())

from numba import njit  # noqa: E402,F401  (kernel modules import it from here)

PACKAGE = Path(__file__).resolve().parent


def no_alloc(fn=None, **options):
    """`njit(cache=True)` for a function that creates no arrays: compiled without numba's
    reference counting. A compiled call otherwise increments and decrements (atomically) the
    count of every array it is handed; the time-track tables are two dozen arrays, so that was
    most of the cost of a ply. Such a function may read, write and slice arrays it is given."""
    decorate = njit(cache=True, _nrt=False, **options)
    return decorate if fn is None else decorate(fn)


def kernel_sources() -> list[Path]:
    """The modules of the toolkit that compile functions with numba (they import this module)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        if "toolkit.jit import" in text:
            found.append(path)
    return found


def cache_key() -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources():
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    if os.environ.get("PATCHWORK_CACHE_DIR"):
        return Path(os.environ["PATCHWORK_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "patchwork-toolkit"
    return Path.home() / ".cache" / "patchwork-toolkit"


def _configure() -> str | None:
    if numba.config.CACHE_DIR:  # the user chose a cache folder (NUMBA_CACHE_DIR): keep theirs
        return numba.config.CACHE_DIR
    for root in (_cache_root(), Path(tempfile.gettempdir()) / "patchwork-toolkit"):
        folder = root / f"numba-{cache_key()}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / ".writable"
            probe.touch()
        except OSError:
            continue
        numba.config.CACHE_DIR = str(folder)
        return str(folder)
    return None


CACHE_DIR = _configure()
"""Where compiled kernels are cached in this process (None: in memory only)."""
