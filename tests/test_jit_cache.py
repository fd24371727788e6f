"""The compiled-kernel cache: shared by every install of the same source, never a folder another
user can write, and a cache that cannot be written costs only the cache."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toolkit import jit

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, cwd: Path, cache: Path | None, **extra: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NUMBA_", "PATCHWORK_"))}
    env["PYTHONPATH"] = str(cwd)
    if cache is not None:
        env["PATCHWORK_CACHE_DIR"] = str(cache)
    env.update(extra)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def copy_of_toolkit(folder: Path) -> Path:
    """`folder` holding a copy of the toolkit's source (a second install of the same version)."""
    folder.mkdir()
    shutil.copytree(ROOT / "toolkit", folder / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def private(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


def test_a_private_folder_of_this_user_is_safe(tmp_path):
    assert jit.unsafe_reason(private(tmp_path / "cache")) is None


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722, 0o702])
def test_a_folder_others_can_write_is_refused(tmp_path, mode):
    folder = private(tmp_path / "cache")
    folder.chmod(mode)
    assert "can be written by other users" in jit.unsafe_reason(folder)


def test_a_link_or_a_file_is_refused(tmp_path):
    target = private(tmp_path / "real")
    (tmp_path / "link").symlink_to(target)
    assert "symbolic link" in jit.unsafe_reason(tmp_path / "link")
    (tmp_path / "file").write_text("")
    assert "not a folder" in jit.unsafe_reason(tmp_path / "file")


def test_a_folder_under_a_parent_others_can_write_is_refused(tmp_path):
    shared = private(tmp_path / "shared")
    shared.chmod(0o777)  # anyone could rename the cache folder away and plant another
    assert "on the cache's path" in jit.unsafe_reason(private(shared / "cache"))
    shared.chmod(0o777 | stat.S_ISVTX)  # sticky, as /tmp is: only the owner may rename it
    assert jit.unsafe_reason(shared / "cache") is None


@pytest.mark.slow
def test_a_refused_folder_compiles_in_memory_and_says_why(tmp_path):
    cache = private(tmp_path / "cache")
    cache.chmod(0o777)
    done = run_python("""
        from toolkit import jit
        from toolkit.games import rng
        import numpy as np
        state = rng.seed_state(3)
        rng.randbelow(state, 10)
        print(jit.CACHE_DIR, '|', jit.CACHE_REFUSED)
        """, ROOT, cache)
    assert done.returncode == 0, done.stderr
    folder, reason = done.stdout.strip().split(" | ")
    assert folder == "None" and "can be written by other users" in reason
    assert list(cache.iterdir()) == [cache / f"numba-{jit.settings_key()}"]  # made, then refused: nothing in it
    assert not any((cache / f"numba-{jit.settings_key()}").iterdir())


@pytest.mark.slow
def test_compile_says_where_the_cache_is_and_why_a_folder_was_refused(tmp_path):
    cache = private(tmp_path / "cache")
    cache.chmod(0o777)
    done = subprocess.run([sys.executable, "-m", "toolkit", "compile", "--where"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PATCHWORK_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "not cached" in done.stdout and "can be written by other users" in done.stdout
    cache.chmod(0o700)
    done = subprocess.run([sys.executable, "-m", "toolkit", "compile", "--where"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PATCHWORK_CACHE_DIR": str(cache)})
    assert done.returncode == 0 and str(cache / f"numba-{jit.settings_key()}") in done.stdout


@pytest.mark.slow
def test_a_second_copy_of_the_toolkit_loads_what_the_first_compiled(tmp_path):
    """Two installs of the same source (two clones, two virtual environments) share one compile."""
    cache = private(tmp_path / "cache")
    copies = []
    for name in ("first", "second"):
        copies.append(copy_of_toolkit(tmp_path / name))
    code = """
        from toolkit.games import rng
        state = rng.seed_state(3)
        rng.randbelow(state, 10)
        stats = rng.randbelow.stats
        print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), rng.__file__)
        """
    first = run_python(code, copies[0], cache)
    second = run_python(code, copies[1], cache)
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert first.stdout.split()[:2] == ["0", "1"], first.stdout  # compiled
    assert second.stdout.split()[:2] == ["1", "0"], second.stdout  # loaded, from another path
    assert str(copies[1]) in second.stdout.split()[2]


@pytest.mark.slow
def test_an_edited_kernel_is_compiled_again(tmp_path):
    cache = private(tmp_path / "cache")
    copy = copy_of_toolkit(tmp_path / "copy")
    code = """
        from toolkit.games import rng
        rng.randbelow(rng.seed_state(3), 10)
        print(sum(rng.randbelow.stats.cache_misses.values()))
        """
    assert run_python(code, copy, cache).stdout.strip() == "1"
    assert run_python(code, copy, cache).stdout.strip() == "0"
    source = copy / "toolkit" / "games" / "rng.py"
    source.write_text(source.read_text() + "\n# edited\n")
    assert run_python(code, copy, cache).stdout.strip() == "1"


def test_a_kernel_module_depends_on_what_it_imports_and_nothing_else():
    """The source a compiled function can build in: its callees' modules and the modules whose
    constants it freezes (the time-track tables' column numbers, the bot kinds), not the rest."""
    closure = {path.relative_to(jit.PACKAGE).as_posix()
               for path in jit.source_closure(jit.PACKAGE / "families" / "timetrack" / "loop.py")}
    assert {"families/timetrack/loop.py", "games/timetrack/kernel.py", "games/timetrack/tables.py",
            "bots/registry.py", "bots/greedy.py", "bots/mcts.py", "bots/packing.py", "games/rng.py",
            "jit.py"} <= closure
    assert not any(name.startswith(("games/doodle/", "bots/doodle/", "cli/", "sim/")) for name in closure)
    rng = {path.relative_to(jit.PACKAGE).as_posix() for path in jit.source_closure(jit.PACKAGE / "games" / "rng.py")}
    assert rng == {"games/rng.py", "jit.py"}


@pytest.mark.slow
def test_an_edit_recompiles_the_kernels_that_import_it_and_only_them(tmp_path):
    """A constant table's module is no kernel, yet the time-track kernel freezes its numbers: an
    edit there compiles that kernel again, and leaves the generators (which do not import it)
    loaded from the cache."""
    cache = private(tmp_path / "cache")
    copy = copy_of_toolkit(tmp_path / "copy")
    code = """
        import numpy as np
        from toolkit.games import rng
        from toolkit.games.timetrack import kernel
        rng.randbelow(rng.seed_state(3), 10)
        kernel._word(np.zeros((2, 1), dtype=np.uint64), 0, 1)
        print(sum(rng.randbelow.stats.cache_misses.values()), sum(kernel._word.stats.cache_misses.values()))
        """
    assert run_python(code, copy, cache).stdout.split() == ["1", "1"]  # both compiled
    assert run_python(code, copy, cache).stdout.split() == ["0", "0"]  # both loaded
    tables = copy / "toolkit" / "games" / "timetrack" / "tables.py"
    tables.write_text(tables.read_text() + "\n# edited\n")
    assert run_python(code, copy, cache).stdout.split() == ["0", "1"]  # only the kernel compiled again


@pytest.mark.slow
def test_a_changed_code_generation_setting_gets_a_folder_of_its_own(tmp_path):
    """numba's index does not key on NUMBA_OPT and the like: kernels compiled under them must not be
    loaded by a command run with the defaults (nor the other way round)."""
    cache = private(tmp_path / "cache")
    code = "from toolkit import jit; print(jit.CACHE_DIR)"
    folders = {setting: run_python(code, ROOT, cache, **dict([setting])).stdout.strip()
               for setting in [("NUMBA_OPT", "3"), ("NUMBA_OPT", "0"), ("NUMBA_OPT", "max"),
                               ("NUMBA_LOOP_VECTORIZE", "0"), ("NUMBA_SLP_VECTORIZE", "1"),
                               ("NUMBA_BOUNDSCHECK", "1")]}
    assert all(folders.values()) and len(set(folders.values())) == len(folders), folders
    default = run_python(code, ROOT, cache).stdout.strip()
    assert default == folders[("NUMBA_OPT", "3")]  # the defaults, spelled out, change nothing


@pytest.mark.slow
def test_a_kernel_compiled_under_another_setting_is_not_loaded(tmp_path):
    cache = private(tmp_path / "cache")
    code = """
        from toolkit.games import rng
        rng.randbelow(rng.seed_state(3), 10)
        print(sum(rng.randbelow.stats.cache_misses.values()))
        """
    assert run_python(code, ROOT, cache).stdout.strip() == "1"
    assert run_python(code, ROOT, cache, NUMBA_OPT="0").stdout.strip() == "1"
    assert run_python(code, ROOT, cache).stdout.strip() == "0"


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_costs_only_the_cache(tmp_path):
    """A full disk (here: every save fails as on one) is one note, and the command goes on."""
    cache = private(tmp_path / "cache")
    done = run_python("""
        import errno
        from numba.core import caching

        def full(self, *args):
            raise OSError(errno.ENOSPC, "No space left on device")

        caching.IndexDataCacheFile._save_index = full
        from toolkit.games import rng
        state = rng.seed_state(3)
        print(rng.randbelow(state, 10) < 10, rng.next_u32(state) >= 0)
        """, ROOT, cache)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
    assert done.stderr.count("No space left on device") == 1, done.stderr
    assert "not being saved" in done.stderr


def test_after_compile_nothing_warms_or_says_compiling(tmp_path, monkeypatch):
    """Once `patchwork compile` ran to its end, a game starts no background compile and no
    command prints the first-compile note: there is only the cache to load."""
    from toolkit import warmup
    from toolkit.cli import notes
    from toolkit.cli.waiting import Warmer

    class ReadTheIndexes(BaseException):
        pass

    def import_module(name):
        raise ReadTheIndexes(name)

    monkeypatch.setattr(jit, "CACHE_DIR", str(private(tmp_path / "cache")))
    warmer = Warmer({}, ["toolkit.games.timetrack.kernel"])
    monkeypatch.setattr(notes.importlib, "import_module", import_module)
    assert not warmup.everything_compiled() and warmer.needed()
    with pytest.raises(ReadTheIndexes):  # not marked: the note looks at numba's cache
        notes.compile_pending(["toolkit.games.timetrack.kernel"])
    warmup.mark_compiled()
    assert warmup.everything_compiled()
    assert not warmer.needed()
    assert notes.compile_pending(["toolkit.games.timetrack.kernel"]) is False


def test_prune_removes_what_this_source_never_loads_and_keeps_the_rest(tmp_path):
    """`compile --prune`: another source's module folder, an older mark and another numba's
    folder go; this source's kernels stay and still load."""
    cache = private(tmp_path / "cache")
    load = """
        from toolkit.games import rng
        rng.randbelow(rng.seed_state(3), 10)
        print(sum(rng.randbelow.stats.cache_misses.values()))
        """
    assert run_python(load, ROOT, cache).stdout.strip() == "1"
    ours = cache / f"numba-{jit.settings_key()}"
    stale = [ours / "toolkit" / "games" / "rng-0123456789abcdef", ours / "toolkit" / "bots" / "greedy-aaaaaaaaaaaaaaaa",
             cache / "numba-0000000000000000" / "toolkit"]
    for folder in stale:
        folder.mkdir(parents=True)
        (folder / "old.nbi").write_bytes(b"x" * 1000)
    (ours / "compiled-everything-0123456789abcdef").write_text("an older source\n")
    (ours / "notes.txt").write_text("not the cache's: left alone\n")
    done = subprocess.run([sys.executable, "-m", "toolkit", "compile", "--prune"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PATCHWORK_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "removed 4 unused entries" in done.stdout
    assert not any(folder.exists() for folder in stale) and not (cache / "numba-0000000000000000").exists()
    assert not (ours / "compiled-everything-0123456789abcdef").exists() and (ours / "notes.txt").exists()
    assert run_python(load, ROOT, cache).stdout.strip() == "0"  # this source's kernels were kept
