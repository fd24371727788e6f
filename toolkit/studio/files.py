"""FOLDER's files as the studio reads and writes them: reached from a directory descriptor one
name at a time, never by a path checked first and opened after.

Another program may swap a subfolder for a symlink out of FOLDER while the studio works, or
leave a FIFO named like a spec. So every folder on the way is opened with O_NOFOLLOW relative to
the one before; a symlink is followed only by reading it and walking on from FOLDER, so it may
lead anywhere inside FOLDER and nowhere else; a file is opened with O_NOFOLLOW | O_NONBLOCK and
read only when fstat says it is a regular file of a bounded size (a FIFO, device or socket is
refused, never waited on). A file is written as a private temporary sibling (O_EXCL, a random
name), then renamed over the old one in the same held folder, keeping the old file's mode.

Specs are loaded from a *mirror*: a private folder (0700, in the system's temporary folder)
holding copies of the FOLDER files one spec needs, read as above. The loader reads only those
copies, so nothing it follows (`extends:`, `patches: ./x.yaml`) can reach outside FOLDER, and a
reference that leads out is refused before anything is loaded.
"""
from __future__ import annotations

import atexit
import errno
import os
import secrets
import shutil
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator

from toolkit.errors import UsageError
from toolkit.fileio import read_upto
from toolkit.studio.security import relative_parts

MAX_LINKS = 32
"""Symlinks followed while reaching one file (more is taken for a loop)."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest file of FOLDER the studio reads (specs and records are far smaller)."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class Missing(UsageError):
    """No file by that name in FOLDER."""


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


class Place:
    """A file's folder, held open, and its name there; `rel` is its path from FOLDER with every
    symlink followed (what the page shows)."""

    def __init__(self, folder_fd: int, name: str, rel: tuple[str, ...]):
        self.folder_fd = folder_fd
        self.name = name
        self.rel = rel

    @property
    def shown(self) -> str:
        return "/".join(self.rel)


def _link_parts(root: Path, target: str, here: tuple[str, ...], text: str) -> list[str]:
    """A symlink's target as names to walk from FOLDER (here: the link's folder)."""
    if target.startswith("/"):
        try:
            inner = Path(target).relative_to(root)
        except ValueError:
            raise UsageError(f"{text}: leads out of the studio's folder (through a symlink)") from None
        return list(inner.parts)
    return [*here, *PurePosixPath(target).parts]


@contextmanager
def place(root: Path, text: str) -> Iterator[Place]:
    """Where the path `text` (relative to FOLDER) leads, symlinks inside FOLDER followed, its
    folder held open; UsageError when it leads out of FOLDER or through something not a folder."""
    parts = relative_parts(text)
    root = root.resolve()
    pending = list(parts)
    names: list[str] = []
    fds = [os.open(root, _DIR_FLAGS)]
    links = 0
    try:
        while pending:
            name = pending.pop(0)
            if name in ("", "."):
                continue
            if name == "..":
                if not names:
                    raise UsageError(f"{text}: leads out of the studio's folder (through a symlink)")
                names.pop()
                os.close(fds.pop())
                continue
            try:
                target = os.readlink(name, dir_fd=fds[-1])
            except OSError as error:
                if error.errno not in (errno.EINVAL, errno.ENOENT):
                    raise UsageError(f"{text}: {error.strerror}") from None
                target = None
            if target is not None:
                links += 1
                if links > MAX_LINKS:
                    raise UsageError(f"{text}: too many symlinks (a loop?)")
                # walk again from FOLDER: the link's own folder, then its target's names
                pending = _link_parts(root, target, tuple(names), text) + pending
                for fd in fds[1:]:
                    os.close(fd)
                del fds[1:]
                names = []
                continue
            if not pending:
                held = fds.pop()
                try:
                    yield Place(held, name, tuple(names) + (name,))
                finally:
                    os.close(held)
                return
            try:
                fds.append(os.open(name, _DIR_FLAGS, dir_fd=fds[-1]))
            except FileNotFoundError:
                raise Missing(f"{text}: its folder does not exist") from None
            except OSError as error:
                if error.errno in (errno.ENOTDIR, errno.ELOOP):
                    raise UsageError(f"{text}: {'/'.join([*names, name])} is not a folder (or changed while read)") from None
                raise UsageError(f"{text}: {error.strerror}") from None
            names.append(name)
        raise UsageError("no file named: give a path inside the studio's folder")
    finally:
        for fd in fds:
            os.close(fd)


def _read_at(where: Place, text: str, limit: int) -> bytes:
    try:
        fd = os.open(where.name, _READ_FLAGS, dir_fd=where.folder_fd)
    except FileNotFoundError:
        raise Missing(f"{text}: no such file in the studio's folder") from None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symlink put there since the walk
            raise UsageError(f"{text}: changed while read (now a symlink); try again") from None
        try:  # a socket cannot be opened at all (ENXIO): say what it is
            mode = os.stat(where.name, dir_fd=where.folder_fd, follow_symlinks=False).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise UsageError(f"{text}: is {_kind(mode)}, not a regular file") from None
        raise UsageError(f"{text}: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{text}: is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise UsageError(f"{text}: is {info.st_size:,} bytes; the studio reads files of at most {limit:,}")
        data = read_upto(fd, limit)
    except OSError as error:
        raise UsageError(f"{text}: cannot read: {error.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise UsageError(f"{text}: grew beyond {limit:,} bytes while read")
    return data


def read_bytes(root: Path, text: str, limit: int = MAX_FILE_BYTES) -> tuple[bytes, str]:
    """The content of a regular file of FOLDER and its path from FOLDER (symlinks followed)."""
    with place(root, text) as where:
        return _read_at(where, text, limit), where.shown


def read_head(root: Path, rel: str, size: int) -> bytes:
    """The first bytes of a file of FOLDER (b"" when it is not a readable regular file)."""
    try:
        with place(root, rel) as where:
            fd = os.open(where.name, _READ_FLAGS, dir_fd=where.folder_fd)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return b""
                return os.read(fd, size)
            finally:
                os.close(fd)
    except (UsageError, OSError):
        return b""


def file_mode(root: Path, text: str) -> int | None:
    """The permission bits of a regular file of FOLDER, None when there is none by that name."""
    with place(root, text) as where:
        try:
            info = os.stat(where.name, dir_fd=where.folder_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{text}: is {_kind(info.st_mode)}, not a regular file")
        return stat.S_IMODE(info.st_mode)


def write_bytes(root: Path, text: str, data: bytes, mode: int | None = None) -> str:
    """Write a file of FOLDER whole: a private temporary sibling renamed over it, in the folder
    held open, keeping the old file's mode (a new file gets `mode`, else 0644 less the umask).
    Returns its path from FOLDER."""
    with place(root, text) as where:
        try:
            old = os.stat(where.name, dir_fd=where.folder_fd, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise UsageError(f"{text}: is {_kind(old.st_mode)}, not a regular file")
        keep = stat.S_IMODE(old.st_mode) if old is not None else mode
        temp = f".{where.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600 if keep is not None else 0o644, dir_fd=where.folder_fd)
        except OSError as error:
            raise UsageError(f"{text}: cannot write: {error.strerror}") from None
        try:
            try:
                if keep is not None:
                    os.fchmod(fd, keep)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(temp, where.name, src_dir_fd=where.folder_fd, dst_dir_fd=where.folder_fd)
        except OSError as error:
            try:
                os.unlink(temp, dir_fd=where.folder_fd)
            except OSError:
                pass
            raise UsageError(f"{text}: cannot write: {error.strerror}") from None
        return where.shown


_IN_FOLDER = ".in-folder"
"""A name placed after a folder's path, so that `place` walks into the folder itself (and refuses
it when it is not one) and holds it open."""


def make_folders(root: Path, text: str) -> str:
    """Create a folder of FOLDER and the ones above it (as `mkdir -p`), each made in the folder
    held open before it; UsageError when the way leads out of FOLDER. Returns its path from FOLDER."""
    parts = relative_parts(text)
    for depth in range(1, len(parts) + 1):
        with place(root, "/".join(parts[:depth])) as where:
            try:
                os.mkdir(where.name, 0o777, dir_fd=where.folder_fd)
            except FileExistsError:
                pass
            except OSError as error:
                raise UsageError(f"{text}: cannot make the folder: {error.strerror}") from None
    with place(root, f"{text}/{_IN_FOLDER}") as where:  # refused unless a folder inside FOLDER
        return "/".join(where.rel[:-1])


def file_names(root: Path, text: str) -> list[str]:
    """The regular files (not hidden, not links) directly in a folder of FOLDER, sorted; [] when
    there is no such folder."""
    try:
        with place(root, f"{text}/{_IN_FOLDER}") as where:
            with os.scandir(where.folder_fd) as entries:
                return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_file(follow_symlinks=False))
    except (UsageError, OSError):
        return []


def walk(root: Path, suffixes: tuple[str, ...], skipped: tuple[str, ...], limit: int) -> list[str]:
    """Files under FOLDER with one of the suffixes, relative, sorted; hidden names, the skipped
    folders and symlinked folders left out; at most `limit`."""
    found: list[str] = []
    fd = os.open(root.resolve(), _DIR_FLAGS)
    try:
        for folder, dirs, files, _ in os.fwalk(".", dir_fd=fd, follow_symlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in skipped)
            for name in sorted(files):
                if name.lower().endswith(suffixes) and not name.startswith("."):
                    found.append(os.path.normpath(os.path.join(folder, name)))
                    if len(found) >= limit:
                        return found
    finally:
        os.close(fd)
    return found


# ----- the mirror the loader reads ---------------------------------------------------------------

class Mirror:
    """Private copies of FOLDER's files, at their paths from FOLDER, for the spec loader."""

    def __init__(self):
        self.path = Path(tempfile.mkdtemp(prefix="patchwork-studio-")).resolve()
        self.lock = threading.RLock()
        atexit.register(shutil.rmtree, self.path, True)

    def sound(self) -> bool:
        """True while the mirror's folder is still ours alone (a folder of the system's temporary
        folder may be cleaned away, and its name taken by someone else)."""
        try:
            info = os.lstat(self.path)
        except OSError:
            return False
        return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077

    def put(self, rel: str, data: bytes) -> Path:
        """The copy of FOLDER's `rel` holding `data` (written only when it changed, so the loader's
        cache, which looks at modification times, stays valid)."""
        target = self.path.joinpath(*PurePosixPath(rel).parts)
        try:
            if target.read_bytes() == data:
                return target
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "wb") as handle:
            handle.write(data)
        os.replace(temp, target)
        return target

    def shown(self, text: str) -> str:
        """A message or file name with the mirror's folder taken out (names relative to FOLDER)."""
        for base in (str(self.path), os.path.relpath(self.path)):
            if not base.startswith(".."):
                text = text.replace(base + os.sep, "").replace(base, ".")
        return text

    def close(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


_MIRRORS: dict[Path, Mirror] = {}
_MIRRORS_LOCK = threading.Lock()


def mirror_of(root: Path) -> Mirror:
    with _MIRRORS_LOCK:
        key = root.resolve()
        mirror = _MIRRORS.get(key)
        if mirror is None or not mirror.sound():
            mirror = _MIRRORS[key] = Mirror()
        return mirror
