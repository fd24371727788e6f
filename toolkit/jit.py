"""numba's compiled-code cache: one per machine, user and kernel source, safe to load from.

numba keys a cached function by its own file only: a kernel or chooser edited in another module
would leave a stale compiled turn loop in the cache, and so would a changed constant it froze into
its machine code (a table's column number, a bot kind). So each kernel module's functions are
cached in a folder named after a digest of its source closure: the module and every toolkit module
it imports, directly or not (`source_closure`, `module_key`). An edit selects fresh folders for
the modules that import what changed, and only for them: editing the Doodle expert leaves the
time-track kernels compiled. Nothing is deleted, and an unchanged install keeps finding its
compiled kernels.

numba also names the folder of each module after the absolute path of its source, so a second
clone, a second virtual environment or the test suite run from the source tree would compile
everything again. `_PackageLocator` names it after the module's path inside the package instead:
every install of the same kernel source on a machine shares one compile (numba still checks each
module's content hash before it loads anything).

The folder is `$PATCHWORK_CACHE_DIR`, else `$XDG_CACHE_HOME/patchwork-toolkit`, else
`~/.cache/patchwork-toolkit`, then `numba-<digest>` (of numba's version and any changed
code-generation setting), then `toolkit/<package folder>/<module>-<module_key>`. numba loads its
cache index with pickle, so a folder another user could write is never used: the folder must be a
directory of this user (not a link), writable by nobody else, on a path whose every folder is owned
by this user or root and is writable by nobody else unless sticky (like /tmp). When the folder is refused or cannot be made,
kernels compile in memory for each command and `CACHE_REFUSED` says why (`patchwork compile`
prints it). A cache that cannot be written (a full disk) costs the cache, never the command.

Every kernel module imports `njit` (or `no_alloc`) from here, so this runs before the first decorator;
those that write LLVM code take `intrinsic` from here too, and numba's settings are read and set
through `jit_disabled()` and `_settings` (typed here once: see `_Settings`).

It also keeps the flag that says numba's compiler is running (`compiling()`): from numba's
compiler-lock events (its public event API), a thread is marked from the moment it asks for the
compiler until it has let go of it. The command line's Ctrl-C handling reads the flag (a key
raised inside the compiler's callbacks can be swallowed by it) without importing numba: no
compile can start before this module is imported.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, cast

import numba
from numba.core import caching, event
from numba.extending import intrinsic as _numba_intrinsic

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

PACKAGE = Path(__file__).resolve().parent


class _Settings(Protocol):
    """The numba settings this toolkit reads or sets. numba.config makes each NUMBA_*
    variable a module global in a loop when it is imported, so numba's type information declares
    none of them; they are declared here, once, and read through `_settings`."""

    DISABLE_JIT: int
    """NUMBA_DISABLE_JIT: nonzero when nothing is compiled (functions run as plain Python)."""
    CACHE_DIR: str
    """NUMBA_CACHE_DIR: the folder of compiled-code caches ("" for numba's default places)."""


_settings = cast(_Settings, numba.config)


def jit_disabled() -> bool:
    """True when numba compiles nothing (NUMBA_DISABLE_JIT=1, for debugging and coverage): the
    kernels run as plain Python, and what only compiled code can do needs a Python stand-in."""
    return bool(_settings.DISABLE_JIT)


_Args = ParamSpec("_Args")


def intrinsic(definition: Callable[Concatenate[Any, _Args], object]) -> Callable[_Args, Any]:
    """numba's `intrinsic`, typed as compiled code calls it. `definition(typingctx, *args)` gets
    the argument types and returns the signature and the LLVM code generator; a caller passes
    only `args`, and gets what the signature says. (numba's own stub types a call with the
    typing context among the arguments and as never returning, since the Python object cannot
    be called: every line after a call in a kernel would look unreachable to the checker.)"""
    return cast(Callable[_Args, Any], _numba_intrinsic(definition))


def njit(fn=None, **options):
    """numba's `njit`; `cache=True` caches in this toolkit's folder, or nowhere when it was refused
    (numba would otherwise fall back to a folder beside the source or in the home folder)."""
    if options.get("cache"):
        options["cache"] = CACHE_DIR is not None
    decorate = numba.njit(**options)
    if fn is None:
        return lambda function: _saving_safely(decorate(function))
    return _saving_safely(decorate(fn))


def no_alloc(fn=None, **options):
    """`njit(cache=True)` for a function that creates no arrays: compiled without numba's
    reference counting. A compiled call otherwise increments and decrements (atomically) the
    count of every array it is handed; the time-track tables are two dozen arrays, so that was
    most of the cost of a ply. Such a function may read, write and slice arrays it is given."""
    decorate = njit(cache=True, _nrt=False, **options)
    return decorate if fn is None else decorate(fn)


_unsaved: list[str] = []
"""Why a compiled kernel could not be saved to the cache (the first reason only)."""


def _saving_safely(dispatcher):
    """A failure to write the cache (a full disk, a folder removed) is said once and costs only
    the cache: the compiled kernel is still used."""
    cache = getattr(dispatcher, "_cache", None)
    save = getattr(cache, "save_overload", None)
    if cache is None or save is None:
        return dispatcher

    def save_overload(sig, data):
        try:
            save(sig, data)
        except OSError as error:
            if not _unsaved:
                _unsaved.append(error.strerror or str(error))
                sys.stderr.write(f"patchwork: note: compiled kernels are not being saved to {CACHE_DIR} "
                                 f"({_unsaved[0]}); they are compiled again by the next command\n")

    cache.save_overload = save_overload
    return dispatcher


def kernel_sources() -> list[Path]:
    """The modules of the toolkit that compile functions with numba (they import this module)."""
    return [path for path in sorted(PACKAGE.rglob("*.py")) if _is_kernel_source(path)]


def kernel_source(name: str) -> Path | None:
    """The source of toolkit module `name` (`toolkit.games.rng`) if it compiles functions."""
    path = _module_path(name) if name.startswith("toolkit.") else None
    return path if path is not None and _is_kernel_source(path) else None


def _is_kernel_source(path: Path) -> bool:
    try:
        return "toolkit.jit import" in path.read_text(encoding="utf-8")
    except OSError:
        return False


_IMPORT = re.compile(r"^(?:from[ \t]+(toolkit(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+(toolkit(?:\.\w+)*))", re.MULTILINE)
"""A module-level import of a toolkit module (`from toolkit.x import (a, b)`, `import toolkit.x`):
only these, at the start of a line, make names a compiled function can read."""


def _module_path(name: str) -> Path | None:
    """The source of toolkit module `name` (`toolkit.games.rng`), None if it is not one."""
    parts = name.split(".")[1:]
    for path in (PACKAGE.joinpath(*parts).with_suffix(".py") if parts else None,
                 PACKAGE.joinpath(*parts, "__init__.py")):
        if path is not None and path.is_file():
            return path
    return None


def _imported(path: Path) -> list[Path]:
    """The toolkit modules `path` imports at module level (a submodule named in `from x import`
    counts too)."""
    found = []
    text = path.read_text(encoding="utf-8")
    for match in _IMPORT.finditer(text):
        module = match.group(1) or match.group(3)
        if (source := _module_path(module)) is not None:
            found.append(source)
        for name in re.sub(r"#[^\n]*", "", match.group(2) or "").strip("()").split(","):
            name = name.split(" as ")[0].strip()
            if name.isidentifier() and (source := _module_path(f"{module}.{name}")) is not None:
                found.append(source)
    return found


_closures: dict[Path, list[Path]] = {}
"""Module -> its source_closure, for this process (a command imports a few kernel modules that
share most of theirs)."""
_imports: dict[Path, list[Path]] = {}


def source_closure(path: Path) -> list[Path]:
    """`path` and every toolkit module it imports, directly or not: all the source a compiled
    function of `path` can have built into it (its callees, and the constants numba freezes into
    its machine code, such as a table's column numbers)."""
    path = Path(os.path.realpath(path))
    if path not in _closures:
        seen = {path}
        todo = [path]
        while todo:
            module = todo.pop()
            if module not in _imports:
                _imports[module] = [Path(os.path.realpath(source)) for source in _imported(module)]
            for source in _imports[module]:
                if source not in seen:
                    seen.add(source)
                    todo.append(source)
        _closures[path] = sorted(seen)
    return _closures[path]


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def module_key(path: Path) -> str:
    """A digest of the source a compiled function of module `path` depends on (source_closure):
    its kernels are cached under it, so an edit recompiles the modules that import what changed,
    and only them."""
    return _digest(source_closure(path))


def module_cache_folder(path: Path) -> str | None:
    """The folder that caches the kernels of module `path` (a source under toolkit/) for this
    source: `<CACHE_DIR>/toolkit/<package folder>/<module>-<module_key>`; None without a cache."""
    if not CACHE_DIR:
        return None
    source = Path(os.path.realpath(path))
    return os.path.join(CACHE_DIR, "toolkit", *source.parent.relative_to(PACKAGE).parts,
                        f"{source.stem}-{module_key(source)}")


CODEGEN_DEFAULTS = {"OPT": "3", "LOOP_VECTORIZE": "1", "SLP_VECTORIZE": "0", "BOUNDSCHECK": "None"}
"""numba's settings that change the machine code of a kernel but not the key numba files it under
in its cache (its index keys on the signature, the source and the CPU only), with their defaults:
NUMBA_OPT=0, for one, would otherwise leave slower kernels in the cache that later commands load."""


def codegen_settings() -> str:
    """The settings of CODEGEN_DEFAULTS that differ from numba's defaults in this process ("" when
    none does), as `NAME=value` pairs."""
    changed = [f"{name}={value}" for name, default in CODEGEN_DEFAULTS.items()
               if (value := _setting_text(getattr(numba.config, name))) != default]
    return " ".join(changed)


def _setting_text(value: object) -> str:
    """A setting as its variable would spell it (NUMBA_OPT is an int that may mean "max")."""
    if getattr(value, "is_opt_max", False):
        return "max"
    return str(int(value)) if isinstance(value, int) else str(value)


def settings_key() -> str:
    """A digest of numba's version and any changed code-generation setting (only a setting changed
    from numba's default adds to it): the cache folder's name."""
    digest = hashlib.sha256(numba.__version__.encode())
    if settings := codegen_settings():
        digest.update(b"\0settings\0" + settings.encode())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The folder that holds one cache folder per kernel source digest."""
    if os.environ.get("PATCHWORK_CACHE_DIR"):
        return Path(os.environ["PATCHWORK_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "patchwork-toolkit"
    return Path.home() / ".cache" / "patchwork-toolkit"


def unsafe_reason(folder: Path) -> str | None:
    """Why compiled code must not be loaded from `folder` (None: it is safe): it, or a folder on
    its path, is not a folder of this user or root, or another user could write it."""
    me = os.getuid()
    try:
        info = os.lstat(folder)
    except OSError as error:
        return f"{folder}: {error.strerror or error}"
    if stat.S_ISLNK(info.st_mode):
        return f"{folder} is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return f"{folder} is not a folder"
    if info.st_uid != me:
        return f"{folder} belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{folder} can be written by other users (mode {stat.S_IMODE(info.st_mode):o})"
    for parent in Path(os.path.realpath(folder)).parents:
        try:
            info = os.stat(parent)
        except OSError as error:
            return f"{parent}: {error.strerror or error}"
        if info.st_uid not in (me, 0):
            return f"{parent} (on the cache's path) belongs to another user (uid {info.st_uid})"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX:
            return (f"{parent} (on the cache's path) can be written by other users "
                    f"(mode {stat.S_IMODE(info.st_mode):o})")
    return None


CACHE_REFUSED: str | None = None
"""Why no folder caches compiled kernels in this process (None: CACHE_DIR is used)."""


def _configure() -> str | None:
    global CACHE_REFUSED
    if _settings.CACHE_DIR:  # the user chose a cache folder (NUMBA_CACHE_DIR): keep theirs if safe
        folder = Path(_settings.CACHE_DIR)
    else:
        folder = cache_root() / f"numba-{settings_key()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        CACHE_REFUSED = f"cannot make {folder}: {error.strerror or error}"
    else:
        CACHE_REFUSED = unsafe_reason(folder)
    if CACHE_REFUSED is None and not os.access(folder, os.W_OK | os.X_OK):
        CACHE_REFUSED = f"{folder} is not writable"
    if CACHE_REFUSED is not None:
        _settings.CACHE_DIR = ""
        return None
    _settings.CACHE_DIR = str(folder)
    return str(folder)


class _PackageLocator(caching.UserProvidedCacheLocator):
    """Caches a toolkit module's kernels under its path inside the package and the digest of the
    source they depend on (`toolkit/bots/doodle/greedy-<module_key>/`), so every install of the
    same source on this machine finds them, and an edit elsewhere leaves them alone unless they
    import it."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = module_cache_folder(Path(py_file)) or ""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not CACHE_DIR or not Path(os.path.realpath(py_file)).is_relative_to(PACKAGE):
            return None
        return super().from_function(py_func, py_file)


CACHE_DIR = _configure()
"""Where compiled kernels are cached in this process (None: in memory only, see CACHE_REFUSED)."""

if _PackageLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, _PackageLocator)
