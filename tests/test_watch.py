"""`--watch` on validate, render and build: each save of a spec, or of a file it refers to, runs
the command again; a bad save prints its problems and the watch goes on; Ctrl-C stops it with one
line and exit code 130."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from toolkit.cli import watch
from toolkit.errors import SpecError

VARIANT = "kind: variant\nname: v\ntitle: V\nextends: {parent}\nstarting_buttons: {buttons}\n"
BASE = ("kind: edition\nname: base\ntitle: Base\nfamily: time-track\nplayers: 2\nboard: {{width: 9, height: 9}}\n"
        "patches: classic\ntime_track: classic-original\nstarting_buttons: {buttons}\n")


def _save(path: Path, text: str) -> None:
    """Write as an editor would, and make sure the time stamp moves even on a coarse clock."""
    path.write_text(text)
    stamp = time.time_ns() + 10_000_000
    os.utime(path, ns=(stamp, stamp))


class Watched:
    """A `patchwork ... --watch` process whose output is read line by line as it comes."""

    def __init__(self, args: list[str], cwd: Path):
        env = {**os.environ, "PATCHWORK_WATCH_INTERVAL": "0.05", "NO_COLOR": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "toolkit", *args], cwd=cwd, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, count: int = 1, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(text in line for line in self.lines) >= count:
                return
            if self.proc.poll() is not None and not self.reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"no {count} x {text!r} in:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=60)
        self.reader.join(timeout=10)
        return code

    def __enter__(self) -> "Watched":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.mark.slow
def test_validate_watch_follows_saves_good_and_bad_and_stops_on_ctrl_c(tmp_path):
    variant = tmp_path / "v.yaml"
    _save(variant, VARIANT.format(parent="classic", buttons=5))
    with Watched(["validate", "v.yaml", "--watch"], tmp_path) as run:
        run.wait_for("0 error(s)")
        run.wait_for("watching")
        _save(variant, VARIANT.format(parent="classic", buttons=-5))
        run.wait_for("starting_buttons: must be at least 0")
        _save(variant, "kind: variant\nextends: [classic\n")  # not even YAML
        run.wait_for("YAML syntax error")
        _save(variant, VARIANT.format(parent="classic", buttons=6))
        run.wait_for("0 error(s)", count=2)
        assert run.stop() == 130
    assert run.lines[-1] == "patchwork: error: interrupted: stopped watching"
    assert not any("Traceback" in line for line in run.lines)
    assert sum("changed at" in line for line in run.lines) == 3


@pytest.mark.slow
def test_a_change_to_a_file_the_spec_refers_to_runs_it_again(tmp_path):
    base = tmp_path / "base.yaml"
    _save(base, BASE.format(buttons=5))
    _save(tmp_path / "v.yaml", VARIANT.format(parent="base.yaml", buttons=5))
    with Watched(["validate", "v.yaml", "--watch"], tmp_path) as run:
        run.wait_for("watching 4 file(s)")  # v.yaml, base.yaml and the bundled patches and track
        _save(base, BASE.format(buttons=5) + "market_window: 0\n")
        run.wait_for("base.yaml changed")
        run.wait_for("market_window: must be at least 1")
        assert run.stop() == 130


@pytest.mark.slow
def test_render_watch_writes_the_file_again_on_each_good_save(tmp_path):
    variant = tmp_path / "v.yaml"
    _save(variant, VARIANT.format(parent="classic", buttons=5))
    with Watched(["render", "rules", "v.yaml", "--out", "rules.pdf", "--watch"], tmp_path) as run:
        run.wait_for("wrote rules.pdf")
        first = (tmp_path / "rules.pdf").read_bytes()
        run.wait_for("watching")
        _save(variant, VARIANT.format(parent="classic", buttons=-1))
        run.wait_for("patchwork: error: ")
        _save(variant, VARIANT.format(parent="classic", buttons=9))
        run.wait_for("wrote rules.pdf", count=2)  # its own file is replaced, no --force needed
        assert run.stop() == 130
    assert (tmp_path / "rules.pdf").read_bytes() != first  # the rules reference states the buttons


@pytest.mark.slow
def test_build_watch_of_one_edition_builds_again(tmp_path):
    variant = tmp_path / "v.yaml"
    _save(variant, VARIANT.format(parent="express", buttons=5))
    with Watched(["build", "--edition", "v.yaml", "--out", "kit", "--watch"], tmp_path) as run:
        run.wait_for("total:")
        run.wait_for("watching")
        _save(variant, VARIANT.format(parent="express", buttons=7))
        run.wait_for("total:", count=2)
        assert run.stop() == 130
    assert not any("already exists" in line for line in run.lines), run.lines
    assert not list((tmp_path / "kit").rglob(".*watch-old"))


def test_the_watch_loop_survives_a_failing_run(tmp_path, monkeypatch):
    monkeypatch.setenv(watch.INTERVAL_ENV, "0.02")
    path = tmp_path / "spec.yaml"
    _save(path, "one")
    runs: list[bool] = []
    started = [threading.Event() for _ in range(3)]

    def step(again: bool) -> None:
        runs.append(again)
        started[len(runs) - 1].set()
        if len(runs) == 1:
            raise SpecError([])

    def edit() -> None:  # each save once the run before it has started, as a person would
        for number, text in enumerate(("two", "three!")):
            assert started[number].wait(60)
            time.sleep(0.1)
            _save(path, text)

    editor = threading.Thread(target=edit)
    editor.start()
    watch.watch(step, lambda: [path], runs=3)
    editor.join()
    assert runs == [False, False, True]  # `again` only once a run has succeeded


@pytest.mark.slow
def test_a_wrong_name_on_the_command_line_is_refused_at_once(tmp_path):
    done = subprocess.run([sys.executable, "-m", "toolkit", "validate", "missing.yaml", "--watch"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no such file or folder" in done.stderr


@pytest.mark.parametrize("value, expected", [("0.2", 0.2), ("junk", watch.DEFAULT_INTERVAL), ("0", 0.01)])
def test_the_interval_comes_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv(watch.INTERVAL_ENV, value)
    assert watch.interval() == expected


def _picture(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    buffer = __import__("io").BytesIO()
    Image.new("RGB", (8, 8), colour).save(buffer, "PNG")
    path.write_bytes(buffer.getvalue())
    stamp = time.time_ns() + 10_000_000
    os.utime(path, ns=(stamp, stamp))


@pytest.mark.slow
def test_render_watch_runs_again_when_the_theme_or_a_picture_it_names_changes(tmp_path):
    theme = tmp_path / "look.yaml"
    _picture(tmp_path / "back.png", (200, 40, 40))
    _save(theme, "kind: theme\ntitle: First Title\ncard_back: back.png\n")
    with Watched(["render", "rules", "classic", "--theme", "look.yaml", "--out", "rules.pdf", "--watch"],
                 tmp_path) as run:
        run.wait_for("wrote rules.pdf")
        first = (tmp_path / "rules.pdf").read_bytes()
        run.wait_for("watching")
        _save(theme, "kind: theme\ntitle: Second Title\ncard_back: back.png\n")
        run.wait_for("look.yaml changed")
        run.wait_for("wrote rules.pdf", count=2)
        _picture(tmp_path / "back.png", (40, 40, 200))
        run.wait_for("back.png changed")
        run.wait_for("wrote rules.pdf", count=3)
        assert run.stop() == 130
    assert (tmp_path / "rules.pdf").read_bytes() != first  # the rules reference prints the title


def test_the_theme_files_watched_include_missing_and_named_files(tmp_path):
    from toolkit.render.theme_file import theme_files

    theme = tmp_path / "look.yaml"
    theme.write_text("kind: theme\nfonts: {regular: f/R.ttf, bold: f/B.ttf}\ncard_back: back.png\n"
                     "automa_back: a.png\npatches: {P01: {art: p1.png}, default: {pattern: dots}}\n")
    names = [p.relative_to(tmp_path).as_posix() for p in theme_files(theme)]
    assert names == ["look.yaml", "f/R.ttf", "f/B.ttf", "back.png", "a.png", "p1.png"]
    theme.write_text("kind: theme\ncolours: [oops\n")  # not YAML: the file itself is still watched
    assert theme_files(theme) == [theme.absolute()]
    assert watch.look_files({"theme": None}) == []


def test_ctrl_c_while_the_old_files_are_deleted_still_deletes_them_all(tmp_path, monkeypatch):
    """A build's last line, then Ctrl-C: the key lands as the files set aside are deleted, and none
    of them may stay behind (the key is raised once they are gone)."""
    files = [tmp_path / f"card-{n}.png" for n in range(3)]
    for path in files:
        path.write_text("old")
    aside = watch._set_aside(set(files))
    real_unlink = Path.unlink
    keys = [KeyboardInterrupt()]

    def unlink_then_key(self, missing_ok=False):
        real_unlink(self, missing_ok=missing_ok)
        if keys:
            raise keys.pop()

    monkeypatch.setattr(Path, "unlink", unlink_then_key)
    with pytest.raises(KeyboardInterrupt):
        watch._discard(aside)
    assert not list(tmp_path.glob(".*watch-old")) and not keys
