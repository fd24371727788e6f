"""Runs started from the studio: `balance`, `price`, `sweep` and `deck check` as child processes
of `python -m toolkit ...`, exactly the command a terminal would run (the page shows it).

A run writes into FOLDER/studio-runs/<id>/ (`--out`, or `--json` for `deck check`), so its
result files are the report's own: results.json, report.md, report.pdf and any chart PNGs.
Progress is the command's own progress bar, read from its stderr (rich draws it into the pipe
when told the pipe is a terminal). Stopping a run is Ctrl-C for its process group, as in a
terminal, then SIGKILL if it has not ended within a grace period; the studio stops every run
the same way when it stops. At most MAX_RUNNING runs play at once.
"""
from __future__ import annotations

import ctypes
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from toolkit.errors import UsageError
from toolkit.studio import files
from toolkit.studio.security import shown

RUNS_FOLDER = "studio-runs"
MAX_REPORT_BYTES = 64 * 1024 * 1024
"""Largest result file of a run the studio reads (a report PDF with its charts is far smaller)."""
MAX_RUNNING = 2
"""Runs playing at once (each takes a core)."""
MAX_KEPT = 50
REPORT_DPI = 110
"""Resolution of the report pages the page shows (the PDF itself is a link beside them)."""
STOP_GRACE_SECONDS = 5.0
TAIL_BYTES = 64 * 1024
_PROGRESS = re.compile(r"(\d+)/(\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/,=\[\]+-]{0,200}$")
"""A value passed on a run's command line: never starts with '-' (no option can be slipped in)."""
_counter = itertools.count(1)

COMMANDS: dict[str, dict[str, Any]] = {
    "balance": {"argv": ["balance"], "positional": ["base", "variants"], "out": True, "games_per": "edition",
                "options": {"bots": "--bots", "games": "--games", "seed": "--seed", "sprt": "--sprt"}},
    "price": {"argv": ["price"], "positional": ["edition", "patch"], "out": True,
              "options": {"values": "--values", "over": "--over", "bots": "--bots", "games": "--games",
                          "max_games": "--max-games", "seed": "--seed", "width": "--width"}},
    "sweep": {"argv": ["sweep"], "positional": ["base"], "out": True, "games_per": "point",
              "options": {"set": "--set", "bots": "--bots", "games": "--games", "seed": "--seed"}},
    "deck-check": {"argv": ["deck", "check"], "positional": ["variant"], "out": False,
                   "options": {"base": "--base", "bots": "--bots", "games": "--games",
                               "search_games": "--search-games", "seed": "--seed", "band": "--band",
                               "min_buys": "--min-buys"}},
}
"""What the page may start: each command's positional arguments and options (nothing else
reaches the command line). `games_per` names what `--games` counts for: the command's progress bar
counts the games of all of them (balance --games 4000 over a base and one variant: 8000)."""
SPEC_ARGS = {"base", "variants", "edition", "variant"}
"""Arguments that name an edition: a bundled name or a spec file of FOLDER."""
INT_OPTIONS = {"games": (1, 10**7), "max_games": (1, 10**7), "seed": (0, 2**63 - 1), "search_games": (1, 10**6), "min_buys": (0, 10**6)}
FLOAT_OPTIONS = {"width": (0.001, 1000.0), "band": (0.0, 1.0)}


def _word(value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise UsageError(f"{what}: expected text or a number")
    text = str(value).strip()
    if not _WORD.match(text):
        raise UsageError(f"{what}: {text[:40]!r} is not a value this run takes (letters, digits and "
                         "'_.:/,=[]+-', not starting with '-')")
    return text


def command_line(root: Path, body: dict[str, Any]) -> tuple[list[str], str, bool]:
    """(argv after `python -m toolkit`, the command's name, whether it takes --out) of a posted
    run, every value checked."""
    from toolkit.studio.design import edition_path

    if not isinstance(body, dict):
        raise UsageError("expected {command, args}")
    name = body.get("command")
    if name not in COMMANDS:
        raise UsageError(f"command: one of {', '.join(COMMANDS)}, got {str(name)[:40]!r}")
    spec = COMMANDS[name]
    args = body.get("args") or {}
    if not isinstance(args, dict):
        raise UsageError("args: expected an object of the command's options")
    unknown = sorted(set(args) - set(spec["positional"]) - set(spec["options"]))
    if unknown:
        raise UsageError(f"{name} takes no {', '.join(k[:40] for k in unknown)}")
    argv = list(spec["argv"])
    for key in spec["positional"]:
        value = args.get(key)
        values = value if isinstance(value, list) else [value]
        values = [v for v in values if v not in (None, "")]
        if not values:
            raise UsageError(f"{name}: {key} is needed")
        for v in values[:20]:
            text = _word(v, key)
            if key in SPEC_ARGS:
                target = edition_path(root, text)
                text = shown(root, target)
            argv.append(text)
    for key, flag in spec["options"].items():
        value = args.get(key)
        if value in (None, ""):
            continue
        for v in (value if isinstance(value, list) else [value])[:20]:
            if key in INT_OPTIONS:
                low, high = INT_OPTIONS[key]
                if isinstance(v, str) and v.strip().isdigit():
                    v = int(v)
                if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                    raise UsageError(f"{key}: a whole number {low}..{high}")
            elif key in FLOAT_OPTIONS:
                low, high = FLOAT_OPTIONS[key]
                try:
                    v = float(v)
                except (TypeError, ValueError):
                    raise UsageError(f"{key}: a number {low:g}..{high:g}") from None
                if not low <= v <= high:
                    raise UsageError(f"{key}: a number {low:g}..{high:g}")
                v = f"{v:g}"
            elif key == "base" and name == "deck-check":
                v = shown(root, edition_path(root, _word(v, key)))
            argv += [flag, _word(v, key)]
    return argv, name, spec["out"]


def _die_with_parent() -> None:
    """In the child before exec: its own process group (the studio's Ctrl-C is the studio's to
    pass on), and killed by the kernel if the studio dies without stopping it."""
    os.setsid()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


class Run:
    """One child process and what it has said."""

    def __init__(self, root: Path, argv: list[str], name: str, takes_out: bool):
        self.id = f"r{next(_counter)}-{time.strftime('%Y%m%d-%H%M%S')}"
        self.root = root
        self.name = name
        # made from FOLDER one held folder at a time: a studio-runs that leads out of FOLDER is refused
        self.rel = files.make_folders(root, f"{RUNS_FOLDER}/{self.id}")
        self.folder = root / self.rel
        # The command writes into a private folder (0700, outside FOLDER), never by a path of
        # FOLDER that could be swapped for a link while it runs; when it ends, its files are
        # written into FOLDER/studio-runs/<run>/ the way the studio writes every file (each folder
        # held open, no link followed, a temporary file renamed into place).
        self.private = tempfile.mkdtemp(prefix="patchwork-studio-run-") if takes_out else None
        self.collected = not takes_out
        shown_argv = [*argv, "--out", self.rel] if takes_out else [*argv, "--json"]
        self.argv = [*argv, "--out", self.private] if takes_out else shown_argv
        self.command = shlex.join(["patchwork", *shown_argv])
        """The command as a terminal in FOLDER would repeat it."""
        argv = self.argv
        self.started = time.time()
        self.ended: float | None = None
        self.stopping = False
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.done = 0
        self.total = 0
        self.collect_error = ""
        env = dict(os.environ, TTY_COMPATIBLE="1", TTY_INTERACTIVE="1", NO_COLOR="1", COLUMNS="100",
                   PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolkit", *argv], cwd=root, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_die_with_parent)
        self._readers = [threading.Thread(target=self._read, args=(self.process.stdout, self.stdout, False), daemon=True),
                         threading.Thread(target=self._read, args=(self.process.stderr, self.stderr, True), daemon=True)]
        for reader in self._readers:
            reader.start()
        # the end is noted when the process ends, not when someone next looks at the run
        threading.Thread(target=self._wait, daemon=True).start()

    def _wait(self) -> None:
        self.process.wait()
        if self.ended is None:
            self.ended = time.time()
        try:
            self._collect()
        finally:
            self.collected = True

    def _collect(self) -> None:
        """The command's result files, from its private folder into the run's folder of FOLDER."""
        if self.private is None:
            return
        try:
            with os.scandir(self.private) as entries:
                names = sorted(e.name for e in entries if e.is_file(follow_symlinks=False))
            for name in names:
                fd = os.open(os.path.join(self.private, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as handle:
                    data = handle.read(MAX_REPORT_BYTES + 1)
                if len(data) <= MAX_REPORT_BYTES:
                    files.write_bytes(self.root, f"{self.rel}/{name}", data)
        except (OSError, UsageError) as error:
            self.collect_error = f"the results were not saved into {self.rel}: {error}"
        finally:
            shutil.rmtree(self.private, ignore_errors=True)

    def _read(self, pipe, buffer: bytearray, progress: bool) -> None:
        while True:
            chunk = pipe.read1(8192) if hasattr(pipe, "read1") else pipe.read(8192)
            if not chunk:
                break
            buffer.extend(chunk)
            if len(buffer) > TAIL_BYTES * 2:
                del buffer[:len(buffer) - TAIL_BYTES]
            if progress:
                text = _ANSI.sub("", chunk.decode("utf-8", "replace"))
                found = _PROGRESS.findall(text)
                if found:
                    done, total = found[-1]
                    self.done, self.total = int(done), int(total)
        pipe.close()

    @property
    def state(self) -> str:
        code = self.process.poll()
        if code is None or not self.collected:
            return "stopping" if self.stopping else "running"
        if self.ended is None:
            self.ended = time.time()
        if self.stopping:
            return "stopped"
        return "finished" if code == 0 else "failed"

    def stop(self) -> None:
        """Ctrl-C for the run's process group; SIGKILL after the grace period."""
        if self.process.poll() is not None:
            return
        self.stopping = True
        try:
            os.killpg(self.process.pid, signal.SIGINT)
        except ProcessLookupError:
            return

        def reap():
            try:
                self.process.wait(STOP_GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()

        threading.Thread(target=reap, daemon=True).start()

    def files(self) -> list[str]:
        return files.file_names(self.root, self.rel)

    def read(self, name: str, limit: int) -> bytes:
        """A result file of this run, read as every file of FOLDER is (no link out, no FIFO)."""
        return files.read_bytes(self.root, f"{self.rel}/{name}", limit)[0]

    @staticmethod
    def _text(buffer: bytearray) -> str:
        text = _ANSI.sub("", bytes(buffer[-TAIL_BYTES:]).decode("utf-8", "replace"))
        # a progress bar redraws its line after a carriage return: keep the last drawing only
        return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))

    @property
    def games(self) -> int | None:
        """The run's --games, or None when it has none (price deciding by itself)."""
        if "--games" in self.argv[:-1]:
            return int(self.argv[self.argv.index("--games") + 1])
        return None

    def view(self) -> dict[str, Any]:
        state = self.state
        return {"id": self.id, "command_name": self.name, "command": self.command, "state": state, "pid": self.process.pid,
                "exit_code": self.process.poll(), "done": self.done, "total": self.total,
                "games": self.games, "games_per": COMMANDS[self.name].get("games_per"),
                "seconds": round((self.ended or time.time()) - self.started, 1),
                "folder": self.rel, "files": self.files(),
                "stdout": self._text(self.stdout),
                "stderr": "\n".join(filter(None, [self._text(self.stderr).strip(), self.collect_error]))}


class Runs:
    """The studio's runs: at most MAX_RUNNING playing, the last MAX_KEPT remembered."""

    def __init__(self, root: Path, max_running: int = MAX_RUNNING):
        self.root = root
        self.max_running = max_running
        self.runs: dict[str, Run] = {}
        self.lock = threading.Lock()

    def start(self, body: dict[str, Any]) -> Run:
        argv, name, takes_out = command_line(self.root, body)
        with self.lock:
            running = [r for r in self.runs.values() if r.process.poll() is None]
            if len(running) >= self.max_running:
                raise UsageError(f"{len(running)} runs are playing already (at most {self.max_running} at once): "
                                 "stop one or wait for it")
            run = Run(self.root, argv, name, takes_out)
            self.runs[run.id] = run
            if len(self.runs) > MAX_KEPT:
                for old in [r for r in self.runs.values() if r.process.poll() is not None][:len(self.runs) - MAX_KEPT]:
                    del self.runs[old.id]
        return run

    def get(self, run_id: str) -> Run:
        run = self.runs.get(run_id)
        if run is None:
            raise UsageError(f"no run {run_id[:40]!r} in this studio")
        return run

    def stop_all(self, wait: float = STOP_GRACE_SECONDS) -> None:
        """Stop every run and wait for them (the studio is stopping)."""
        running = [r for r in self.runs.values() if r.process.poll() is None]
        for run in running:
            run.stop()
        deadline = time.monotonic() + wait + 1
        for run in running:
            try:
                run.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(run.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def report(self, run_id: str) -> dict[str, Any]:
        """The run's report: report.md as written, its chart PNGs, and the number of PDF pages."""
        run = self.get(run_id)
        names = run.files()
        md = run.read("report.md", MAX_REPORT_BYTES).decode("utf-8", "replace") if "report.md" in names else None
        pages = 0
        if "report.pdf" in names:
            pages = len(_pdf_pages(run))
        return {"id": run.id, "markdown": md, "images": [f for f in names if f.endswith(".png")],
                "pdf_pages": pages, "json": run._text(run.stdout) if not names or "results.json" not in names else None}


_PAGE_CACHE: dict[tuple[str, str], list[bytes]] = {}


def _pdf_pages(run: Run, dpi: int = REPORT_DPI) -> list[bytes]:
    """The report PDF's pages as PNG (the charts as the PDF draws them), cached per content."""
    import hashlib

    from toolkit.render.png import pdf_to_pngs

    data = run.read("report.pdf", MAX_REPORT_BYTES)
    key = (run.rel, hashlib.sha256(data).hexdigest())
    if key not in _PAGE_CACHE:
        if len(_PAGE_CACHE) > 8:
            _PAGE_CACHE.clear()
        _PAGE_CACHE[key] = pdf_to_pngs(data, dpi)
    return _PAGE_CACHE[key]


def report_page(run: Run, page: int) -> bytes:
    pages = _pdf_pages(run)
    if not 0 <= page < len(pages):
        raise UsageError(f"page: 0..{len(pages) - 1}")
    return pages[page]
