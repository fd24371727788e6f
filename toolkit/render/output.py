"""Where printed files go: checking output targets before anything is written, and turning a
failed write into one clear error.

Checking every target first means a build or render that cannot finish writes nothing at all,
rather than stopping with a traceback after some files are already in place. The checks and the
atomic writes themselves live in toolkit.fileio, shared with every other command that writes.
"""
from __future__ import annotations

import os
import tempfile  # noqa: F401  (tests make the probe fail through this module)
from pathlib import Path

from toolkit.errors import OutputError
from toolkit.fileio import atomic_write_bytes, check_targets, write_files

FORMATS = ("pdf", "svg", "png")
"""The formats a printed document is written in."""

__all__ = ["OutputError", "check_targets", "write_all", "write_bytes"]


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """atomic_write_bytes, with any OS failure reported as an OutputError naming the path."""
    try:
        return atomic_write_bytes(path, data)
    except OSError as error:
        where = error.filename
        detail = error.strerror if not where or str(where) == str(path) else f"{where}: {error.strerror}"
        raise OutputError(f"cannot write {path}: {detail or error.__class__.__name__}") from None


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file or none (fileio.write_files: temporary files renamed once all are
    complete), with an OS failure reported as one OutputError naming the file."""
    try:
        return write_files(files)
    except OSError as error:
        raise OutputError(f"cannot write {error.filename or 'the output'}: {error.strerror or error}") from None
