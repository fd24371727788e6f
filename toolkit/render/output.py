"""Where printed files go: checking output targets before anything is written, and turning a
failed write into one clear error.

Checking every target first means a build or render that cannot finish writes nothing at all,
rather than stopping with a traceback after some files are already in place.
"""
from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolkit.errors import ToolkitError
from toolkit.fileio import atomic_write_bytes


class OutputError(ToolkitError):
    """An output file or folder that cannot be written."""

    exit_code = 1


def _reason(error: OSError) -> str:
    return error.strerror or error.__class__.__name__


def _nearest_existing(path: Path) -> Path:
    for folder in path.parents:
        if folder.exists():
            return folder
    return Path(path.anchor or ".")


def _probe_folder(folder: Path, target: Path) -> None:
    """Create and remove a scratch file in `folder`: the only test that also holds for root and
    for read-only file systems."""
    try:
        fd, scratch = tempfile.mkstemp(prefix=".patchwork-probe.", dir=folder)
    except OSError as error:
        # creating in /proc and the like fails with ENOENT, which would only confuse here
        detail = "" if error.errno == errno.ENOENT else f" ({_reason(error)})"
        raise OutputError(f"cannot write {target}: folder {folder} is not writable{detail}") from None
    os.close(fd)
    os.unlink(scratch)


def check_targets(paths: Iterable[str | os.PathLike]) -> None:
    """Raise OutputError for the first target that cannot be written; writes nothing lasting."""
    probed: set[Path] = set()
    for raw in paths:
        target = Path(raw)
        if target.is_dir():
            raise OutputError(f"cannot write {target}: it is a directory; remove it or choose another name")
        if target.exists() and not target.is_file():
            raise OutputError(f"cannot write {target}: it exists and is not a regular file")
        folder = target.parent if target.parent.exists() else _nearest_existing(target)
        if not folder.is_dir():
            raise OutputError(f"cannot write {target}: {folder} is a file, not a folder")
        if folder not in probed:
            _probe_folder(folder, target)
            probed.add(folder)


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """atomic_write_bytes, with any OS failure reported as an OutputError naming the path."""
    try:
        return atomic_write_bytes(path, data)
    except OSError as error:
        where = error.filename
        detail = _reason(error) if not where or str(where) == str(path) else f"{where}: {_reason(error)}"
        raise OutputError(f"cannot write {path}: {detail}") from None
