"""Where printed files go: checking output targets before anything is written, and turning a
failed write into one clear error.

Checking every target first means a build or render that cannot finish writes nothing at all,
rather than stopping with a traceback after some files are already in place. The checks and the
atomic writes themselves live in toolkit.fileio, shared with every other command that writes.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile  # noqa: F401  (tests make the probe fail through this module)
from pathlib import Path

from toolkit.errors import InputError, OutputError
from toolkit.fileio import atomic_write_bytes, check_targets, read_capped_text, write_files

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


# ----- which files are the toolkit's own ---------------------------------------------------------

OWN_FILES = ".patchwork-files.json"
"""In each folder the toolkit writes printed files into: the name and SHA-256 of each file it
wrote there, so a second run may replace them (and only them) without --force."""
MAX_OWN_LIST_BYTES = 4 * 1024 * 1024
_HASH_CHUNK = 1 << 20


def _digest(path: Path) -> str | None:
    """SHA-256 of the regular file `path` (links are not followed), None when it is not one."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        digest = hashlib.sha256()
        while chunk := os.read(fd, _HASH_CHUNK):
            digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


def _own_list(folder: Path) -> dict[str, str]:
    try:
        text = read_capped_text(folder / OWN_FILES, MAX_OWN_LIST_BYTES, "list of written files")
        found = json.loads(text)
    except (InputError, ValueError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): str(v) for k, v in found.items() if isinstance(v, str)}


def is_own(path: str | os.PathLike) -> bool:
    """Whether `path` is a file the toolkit wrote and nobody changed since (its name and content
    are in its folder's OWN_FILES), so writing it again replaces only the toolkit's own work."""
    path = Path(path)
    expected = _own_list(path.parent).get(path.name)
    return expected is not None and _digest(path) == expected


def not_own(paths) -> list[Path]:
    """Those of `paths` that exist (or are links) and are not the toolkit's own files."""
    return [Path(p) for p in paths if os.path.lexists(p) and not is_own(p)]


def remember(files) -> None:
    """Record `files` ({path: bytes} or paths already written) as the toolkit's own, folder by
    folder; a list that cannot be written only means the next run asks for --force."""
    by_folder: dict[Path, dict[str, str]] = {}
    for path in files:
        path = Path(path)
        data = files[path] if isinstance(files, dict) else None
        digest = hashlib.sha256(data).hexdigest() if data is not None else _digest(path)
        if digest is not None:
            by_folder.setdefault(path.parent, {})[path.name] = digest
    for folder, entries in by_folder.items():
        known = _own_list(folder)
        known = {name: digest for name, digest in known.items() if (folder / name).exists()}
        known.update(entries)
        try:
            write_files({folder / OWN_FILES: (json.dumps(known, indent=1, sort_keys=True) + "\n").encode()})
        except (OSError, OutputError):
            continue
