"""Files in and out, safely: what the toolkit reads is a regular file read with a size cap (and for
JSON a nesting cap checked before parsing); what it writes goes through a check of every target
before any work, then a temporary file beside the target and a rename, so a failed or
interrupted run never leaves a half-written file in place and never replaces something that is
not a regular file (a device, a FIFO, a folder).

Every OS failure becomes one InputError or OutputError line that names the path.
"""
from __future__ import annotations

import errno
import itertools
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from toolkit.errors import InputError, OutputError

PART_SUFFIX = ".part"
"""Temporary files are named `.<target name>.<random>.part`, beside their target."""
MAX_SEATS = 100
"""The most seats a game may have (Doodle has no upper bound of its own): bounds `--players`
and the seat count of a record, so a huge number is refused instead of filling the memory."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _reason(error: OSError) -> str:
    return error.strerror or error.__class__.__name__


def path_kind(path: str | os.PathLike) -> str | None:
    """What `path` is when it is not a regular file (`a FIFO (named pipe)`, `a directory`, `a
    symlink loop`, ...), None for a regular file (or a link to one) and for a missing path."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a link to a missing file" if os.path.islink(path) else None
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symlink loop"
        return None
    except ValueError:  # a NUL byte in the name
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


# ----- reading ---------------------------------------------------------------------------------

def read_upto(fd: int, limit: int) -> bytes:
    """At most `limit` + 1 bytes from the open file `fd`: one byte more than allowed tells the
    caller the file is too large (or grew while read). OSError as os.read raises it."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_capped_bytes(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The content of the regular file `path`, at most `limit` bytes, else InputError.

    Opening never blocks (a FIFO is refused, not waited on) and a device such as /dev/zero is
    refused before a byte is read.
    """
    shown = os.fspath(path)
    if not shown:
        raise InputError(f"an empty name is not a {what}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        kind = path_kind(path)
        raise InputError(f"{shown}: is {kind}, not a {what}" if kind else f"{shown}: no such {what}") from None
    except ValueError:
        raise InputError(f"{shown!r}: a file name cannot hold a NUL byte") from None
    except OSError as error:
        kind = path_kind(path) if error.errno in (errno.ELOOP, errno.EISDIR) else None
        detail = f"is {kind}, not a {what}" if kind else f"cannot read: {_reason(error)}"
        raise InputError(f"{shown}: {detail}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
            raise InputError(f"{shown}: is {kind}, not a {what}")
        if info.st_size > limit:
            raise InputError(f"{shown}: is {info.st_size:,} bytes; a {what} is at most {limit:,} bytes")
        data = read_upto(fd, limit)
    except OSError as error:
        raise InputError(f"{shown}: cannot read: {_reason(error)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise InputError(f"{shown}: is larger than {limit:,} bytes; a {what} is at most that")
    return data


def read_capped_text(path: str | os.PathLike, limit: int, what: str) -> str:
    """read_capped_bytes, decoded as UTF-8 (a BOM is allowed); InputError for other bytes."""
    data = read_capped_bytes(path, limit, what)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{os.fspath(path)}: not a {what}: byte {error.start} is not UTF-8 text") from None


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\x02", "}": "\x02"})


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON `text`, found without parsing it (so a
    hostile file cannot exhaust the parser's recursion)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if not brackets:
        return 0
    steps = (1 if c == "\x01" else -1 for c in brackets.translate(_STEP))
    return max(itertools.accumulate(steps))


def check_json_depth(text: str, limit: int, where: str = "JSON") -> None:
    """InputError when `text` nests arrays and objects deeper than `limit` levels."""
    depth = json_depth(text)
    if depth > limit:
        raise InputError(f"{where}: nested {depth:,} levels deep; at most {limit} are allowed")


MAX_RECORD_BYTES = 4 * 1024 * 1024
"""A game record holds a few hundred short actions; anything this big is not one."""
MAX_RECORD_DEPTH = 72
"""A record embeds its edition's spec (nested at most 64 levels, like a spec file) under a few
levels of its own; deeper JSON is refused before it is parsed (the bundled editions give 6 to 8)."""


def read_record_text(path: str | os.PathLike) -> str:
    """The text of a game record file: a regular file, size-capped, UTF-8, JSON nested at most
    MAX_RECORD_DEPTH levels (checked before parsing). InputError otherwise."""
    text = read_capped_text(path, MAX_RECORD_BYTES, "record file")
    check_json_depth(text, MAX_RECORD_DEPTH, f"{os.fspath(path)}: not a game record")
    return text


def check_count(value: int, low: int, high: int, what: str) -> int:
    """`value` when low <= value <= high, else an InputError that gives the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{what}: expected a whole number from {low} to {high}, got {value!r}")
    return value


# ----- writing ---------------------------------------------------------------------------------

def _nearest_existing(path: Path) -> Path:
    for folder in path.parents:
        if os.path.lexists(folder):
            return folder
    return Path(path.anchor or ".")


def _probe_folder(folder: Path, target: Path) -> None:
    """Create and remove a scratch file named as the atomic write will name it: the only test that
    also holds for root, for read-only file systems and for names that are too long."""
    try:
        fd, scratch = tempfile.mkstemp(prefix=f".{target.name}.", suffix=PART_SUFFIX, dir=folder)
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            raise OutputError(f"cannot write {target}: the name is too long") from None
        # creating in /proc and the like fails with ENOENT, which would only confuse here
        detail = "" if error.errno == errno.ENOENT else f" ({_reason(error)})"
        raise OutputError(f"cannot write {target}: folder {folder} is not writable{detail}") from None
    os.close(fd)
    os.unlink(scratch)


def _overlong_name(path: Path) -> str | None:
    """A part of `path` longer than a file name may be (with room for the temporary suffixes)."""
    try:
        limit = os.pathconf(_nearest_existing(path), "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    return next((part for part in path.parts if len(os.fsencode(part)) + 20 > limit), None)


def check_target(raw: str | os.PathLike) -> Path:
    """The path to write for `raw` (a link to a regular file is followed), or OutputError when it
    cannot be written: an empty name, something that is not a regular file, a folder on the way
    that is a file, a folder that is not writable, a name that is too long. Writes nothing."""
    if not os.fspath(raw):
        raise OutputError("cannot write to an empty file name")
    if "\x00" in os.fspath(raw):
        raise OutputError(f"cannot write {os.fspath(raw)!r}: a file name cannot hold a NUL byte")
    target = Path(raw)
    too_long = _overlong_name(target)
    if too_long:
        raise OutputError(f"cannot write {target}: the name {too_long[:40]}... is longer than the "
                          "file system allows")
    kind = path_kind(target)
    if kind == "a directory":
        raise OutputError(f"cannot write {target}: it is a directory; remove it or choose another name")
    if kind is not None:
        raise OutputError(f"cannot write {target}: it is {kind}, not a regular file; "
                          "remove it or choose another name")
    if os.path.islink(target):
        target = Path(os.path.realpath(target))
    folder = _nearest_existing(target)
    folder_kind = path_kind(folder)
    if folder_kind is not None and folder_kind != "a directory":
        raise OutputError(f"cannot write {target}: {folder} is {folder_kind}, not a folder")
    if folder_kind is None:
        if folder.is_file():
            raise OutputError(f"cannot write {target}: {folder} is a file, not a folder")
        raise OutputError(f"cannot write {target}: folder {folder} does not exist")
    _probe_folder(folder, target)
    return target


FORMAT_SUFFIXES = {"pdf": (".pdf",), "svg": (".svg",), "png": (".png",), "json": (".json",), "yaml": (".yaml", ".yml"),
                   "md": (".md",)}
"""The file names each output format is written under."""


def check_suffix(path: str | os.PathLike, fmt: str, option: str = "--out") -> None:
    """UsageError unless the name `path` agrees with the format written into it (`x.pdf` for a
    PDF): PNG bytes in a file named .pdf open nowhere. Checked before any work."""
    from toolkit.errors import UsageError

    suffixes = FORMAT_SUFFIXES.get(fmt, (f".{fmt}",))
    name = Path(os.fspath(path)).name
    if not name.lower().endswith(suffixes):
        stem = name.rsplit(".", 1)[0] if "." in name.strip(".") else name
        raise UsageError(f"{option} {name[:60]}: a {fmt.upper()} file is named *{suffixes[0]}, "
                          f"e.g. {(stem or 'out')[:40]}{suffixes[0]}")


def check_targets(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """check_target for each path (each folder probed once); the paths to write."""
    return [check_target(p) for p in paths]


def missing_folders(folder: Path) -> list[Path]:
    """`folder` and those of its parents that do not exist yet, deepest first."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def remove_empty(folders: list[Path]) -> None:
    """Remove these folders, deepest first, while they are empty (undoing missing_folders)."""
    for folder in folders:  # deepest first
        try:
            folder.rmdir()
        except OSError:
            break


def _write_error(path: Path, error: OSError) -> OutputError:
    where = error.filename
    detail = _reason(error) if not where or str(where) == str(path) else f"{where}: {_reason(error)}"
    return OutputError(f"cannot write {path}: {detail}")


_Target = TypeVar("_Target", bound=str | os.PathLike)
"""How a caller names its targets (Path or str): a mapping's key type is fixed, so a dict keyed by
Path is not a Mapping[str | PathLike, bytes] to the type checker."""


def write_files(files: Mapping[_Target, bytes]) -> list[Path]:
    """Write several files as one step: every file goes to a temporary file beside its target
    first, and only when all are complete are they renamed into place. On any failure (a full
    disk, Ctrl-C) the temporary files and any folders made for them are removed and the targets
    are untouched. OS failures become one OutputError naming the file."""
    targets = [(check_target(path), data) for path, data in files.items()]
    made: list[Path] = []
    temps: list[tuple[str, Path]] = []
    current = targets[0][0] if targets else Path()
    try:
        for target, data in targets:
            current = target
            missing = missing_folders(target.parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            made = missing + made
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=PART_SUFFIX, dir=target.parent)
            temps.append((tmp, target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
        for tmp, target in temps:
            current = target
            os.replace(tmp, target)
    except BaseException as error:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        remove_empty(sorted(made, key=lambda p: len(p.parts), reverse=True))
        if isinstance(error, OSError):
            raise _write_error(current, error) from None
        raise
    return [target for target, _ in targets]


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write `data` to a temporary file beside `path`, then rename it over `path` (OutputError
    when it cannot be written; nothing is left behind)."""
    return write_files({path: data})[0]


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Text flavour of atomic_write_bytes (UTF-8, newlines as given)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def stale_parts(folder: Path) -> list[Path]:
    """Temporary `.part` files an interrupted write left in `folder` (not in its subfolders)."""
    try:
        return sorted(p for p in folder.iterdir()
                      if p.name.startswith(".") and p.name.endswith(PART_SUFFIX) and p.is_file())
    except OSError:
        return []
