"""`--watch`: run a command again whenever a spec it reads, or a file that spec refers to, changes
(and, for the render commands and build, the `--theme` file and every font and picture it names).

Polls modification times and sizes (no file-system events, so no new dependency, and it works
on every file system); a change is acted on once the files have stood still for one more poll,
so an editor's save in several writes gives one run. A bad save prints its problems and the
watch goes on; Ctrl-C stops it with one line and exit code 130.

`validate --watch` is declared in toolkit.cli.specs_cmds; the render commands and `build` get the
option from `attach`, called for every command when the app is built (toolkit.cli.habits).
"""
from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import typer
import typer.main

from toolkit.errors import ToolkitError

INTERVAL_ENV = "PATCHWORK_WATCH_INTERVAL"
DEFAULT_INTERVAL = 0.5
"""Seconds between two looks at the files (PATCHWORK_WATCH_INTERVAL overrides it)."""
WATCH_HELP = ("Keep running: do it again whenever the spec, the --theme file or a file either refers to "
              "changes (Ctrl-C stops).")
RENDER_COMMANDS = ("sheet", "pad", "cards", "tiles", "automa", "tokens", "rules", "boards", "kit", "challenge")
WATCHED = {f"render {name}" for name in RENDER_COMMANDS} | {"build"}
"""Commands that get `--watch` from `attach` (validate declares its own)."""

Stamps = dict[Path, Optional[tuple[int, int]]]


def interval() -> float:
    try:
        value = float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return min(max(value, 0.01), 60.0)


def stamp(path: Path) -> Optional[tuple[int, int]]:
    try:
        info = path.stat()
    except (OSError, ValueError):
        return None
    return info.st_mtime_ns, info.st_size


def stamps(paths: Iterable[Path]) -> Stamps:
    return {Path(p): stamp(Path(p)) for p in paths}


def spec_files_of(refs: Iterable[Path]) -> list[Path]:
    """The spec files under these files and folders, and every file they refer to (`extends:`,
    patch sets, tracks, ...), as the loader reads them; a broken file still counts itself."""
    from toolkit.specs.loader import spec_files, validate_report

    refs = [Path(r) for r in refs]
    files = [p for p in spec_files(refs) if p.suffix.lower() in (".yaml", ".yml")]
    try:
        involved = list(validate_report(files).involved) if files else []
    except (ToolkitError, OSError, ValueError):
        involved = []
    found: dict[Path, None] = {}
    for path in [*refs, *files, *involved]:
        found.setdefault(Path(path).absolute(), None)
    return list(found)


def edition_files(ref: Optional[str], default: Callable[[], Optional[str]] = lambda: None) -> list[Path]:
    """The files of an edition given by name or path (the bundled file for a bundled name)."""
    from toolkit.specs.catalogue import EDITIONS_DIR, VARIANTS_DIR, bundled_specs_dir

    ref = ref if ref is not None else default()
    if ref is None:  # every bundled spec (a whole-kit build)
        return spec_files_of([bundled_specs_dir()])
    path = Path(ref)
    if path.suffix.lower() not in (".yaml", ".yml"):
        for folder in (EDITIONS_DIR, VARIANTS_DIR):
            bundled = bundled_specs_dir() / folder / f"{ref}.yaml"
            if bundled.is_file():
                return spec_files_of([bundled])
    return spec_files_of([path])


def look_files(kwargs: dict) -> list[Path]:
    """The `--theme` file of a command and every font and picture it names (none without one)."""
    theme = kwargs.get("theme")
    if not theme:
        return []
    from toolkit.render.theme_file import theme_files

    return theme_files(theme)


def _say(text: str) -> None:
    typer.echo(f"patchwork: {text}", err=True)


def _changed(before: Stamps, after: Stamps) -> list[Path]:
    return [p for p in after if before.get(p, ...) != after[p]] + [p for p in before if p not in after]


def run_once(step: Callable[[], Any]) -> bool:
    """One run of the watched command; its failure is printed, never raised. True when it succeeded."""
    from toolkit.cli.errors import ClickException, error_line
    from toolkit.cli.console import echo_error

    try:
        step()
    except KeyboardInterrupt:
        raise
    except ToolkitError as error:
        echo_error(error_line(error.render()))
        return False
    except ClickException as error:
        echo_error(error_line(" ".join(error.format_message().split())))
        return False
    except (typer.Exit, SystemExit) as done:
        code = getattr(done, "exit_code", getattr(done, "code", 0))
        return not code
    except Exception as error:  # a bad save must never end the watch; say what happened in one line
        echo_error(error_line(f"{type(error).__name__}: {error}"))
        return False
    return True


def watch(step: Callable[[bool], Any], files: Callable[[], list[Path]], *, runs: Optional[int] = None) -> None:
    """Run `step(again)`, then again whenever one of `files()` changes (`again`: an earlier run
    of this watch succeeded). The list of files is taken anew after every run, so a reference
    added to a spec is watched from then on; a file is compared with what it was when the last
    run started, so a save made while a run works is not missed. `runs` stops after that many
    runs (for tests); otherwise only Ctrl-C stops it (Interrupted: one line, exit 130)."""
    from toolkit.errors import Interrupted

    pause = interval()
    try:
        before = stamps(files())
        succeeded = run_once(lambda: step(False))
        count = 1
        said: set[Path] = set()
        while runs is None or count < runs:
            listed = files()
            baseline = {p: before[p] if p in before else stamp(p) for p in listed}
            if set(baseline) != said:  # said once, and again when the set of files changes
                said = set(baseline)
                _say(f"watching {len(baseline)} file(s) for changes (Ctrl-C stops)")
            changed = _wait_for_change(baseline, pause)
            before = stamps(baseline)
            names = ", ".join(_shown(p) for p in changed[:3]) + (" ..." if len(changed) > 3 else "")
            _say(f"{names} changed at {datetime.now():%H:%M:%S}; running again")
            succeeded = run_once(lambda: step(succeeded)) or succeeded
            count += 1
            sys.stdout.flush()
    except KeyboardInterrupt:
        raise Interrupted("interrupted: stopped watching") from None


def _wait_for_change(baseline: Stamps, pause: float) -> list[Path]:
    """Poll until the files differ from `baseline` and have stood still for one more poll (an
    editor's save in several writes is one change); the files that changed."""
    previous = None
    while True:
        time.sleep(pause)
        now = stamps(baseline)
        if now == baseline:
            previous = None
        elif now == previous:
            return _changed(baseline, now)
        else:
            previous = now


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# ----- --watch on the render commands and build ---------------------------------------------------

def _watch_option() -> Any:
    """A fresh `--watch` flag, made by typer as it makes every other option."""
    holder = typer.Typer()

    @holder.command()
    def _holder(watch: bool = typer.Option(False, "--watch", help=WATCH_HELP)) -> None:
        """Holds the option."""

    return typer.main.get_command(holder).params[0]


def attach(path: str, command: Any) -> None:
    """Give `command` a `--watch` flag when it is one of WATCHED (once)."""
    if path not in WATCHED or any(p.name == "watch" for p in command.params):
        return
    command.params.append(_watch_option())
    original = command.callback
    build = path == "build"

    def callback(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.pop("watch", False):
            return original(*args, **kwargs)
        if build:
            return _watch_build(original, args, kwargs)
        kind = path.split()[-1]

        def step(again: bool) -> Any:
            # the file a run of this watch wrote is replaced by the next run
            return original(*args, **{**kwargs, "force": kwargs.get("force", False) or again})

        def files() -> list[Path]:
            from toolkit.render import default_edition

            return edition_files(kwargs.get("edition"), lambda: default_edition(kind)) + look_files(kwargs)

        watch(step, files)

    command.callback = callback


def _watch_build(original: Callable, args: tuple, kwargs: dict) -> None:
    """`build --watch`: a whole-kit build overwrites its files anyway; `build --edition` refuses to
    replace a file, so the files this watch itself created are set aside before each new run
    (and put back when the run fails)."""
    out = Path(kwargs.get("out") or "output")
    before = set(_tree(out))
    mine: set[Path] = set()

    def step(again: bool) -> None:
        aside = _set_aside(mine) if again else {}
        built = False
        try:
            original(*args, **kwargs)
            built = True
        finally:  # Ctrl-C just after the run's last line must not leave the old files behind
            if built:
                _discard(aside)
            else:
                _put_back(aside)
        mine.update(set(_tree(out)) - before)

    watch(step, lambda: edition_files(kwargs.get("edition")) + look_files(kwargs))


def _tree(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")]
    except OSError:
        return []


def _set_aside(files: set[Path]) -> dict[Path, Path]:
    aside = {}
    for path in files:
        if path.is_file():
            saved = path.with_name(f".{path.name}.watch-old")
            os.replace(path, saved)
            aside[path] = saved
    return aside


def _discard(aside: dict[Path, Path]) -> None:
    """Delete the files set aside, every one of them even when Ctrl-C comes meanwhile (the key is
    raised again once they are gone)."""
    key: KeyboardInterrupt | None = None
    for saved in aside.values():
        try:
            saved.unlink(missing_ok=True)
        except KeyboardInterrupt as pressed:
            key = pressed
            saved.unlink(missing_ok=True)
    if key is not None:
        raise key


def _put_back(aside: dict[Path, Path]) -> None:
    for path, saved in aside.items():
        if saved.exists():
            os.replace(saved, path)
