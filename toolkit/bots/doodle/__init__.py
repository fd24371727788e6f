"""The Doodle bots: compiled choosers over the Doodle kernel, the turn loop that plays them, and
their Bot wrappers for validated games.

- `greedy` (toolkit.bots.doodle.greedy): the fast tier, one ply with a one-card look-ahead.
- `expert` (toolkit.bots.doodle.expert): the strong tier, a search over the die rolls and the
  unseen pile.
- `loop` (toolkit.bots.doodle.loop): `play_doodle`, the one compiled Doodle turn loop the
  simulator and the tests run.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent
_SOURCES = (
    _PACKAGE.parent.parent / "games" / "rng.py",
    _PACKAGE.parent.parent / "games" / "doodle" / "kernel.py",
    *sorted(_PACKAGE.glob("*.py")),
)
"""Every source the compiled Doodle bots and loop compile in."""


class _DependencyStamp:
    """numba keys the on-disk cache of a function by its own file only, but a chooser or the
    turn loop compiles the kernel's functions into itself. For this package the key also covers
    the kernel and every module of the package, so a change to any of them compiles afresh
    instead of running a stale loop; nothing is deleted."""

    _digest: str | None = None

    def get_source_stamp(self):
        if _DependencyStamp._digest is None:
            digest = hashlib.sha256()
            for path in _SOURCES:
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
            _DependencyStamp._digest = digest.hexdigest()
        return (super().get_source_stamp(), _DependencyStamp._digest)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not getattr(py_func, "__module__", "").startswith(__name__ + "."):
            return None
        return super().from_function(py_func, py_file)


class _UserDirLocator(_DependencyStamp, caching.UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR, when set, as numba's own first choice."""


class _InTreeLocator(_DependencyStamp, caching.InTreeCacheLocator):
    """The package's __pycache__, as numba's usual choice."""


for _locator in (_InTreeLocator, _UserDirLocator):
    if _locator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, _locator)
