"""No silent waits: what a person sees while the toolkit compiles a kernel or a bot thinks.

- `watch_compiles()`: from the moment numba is imported, every compile says so on one line of
  stderr before it runs (`compiling toolkit.bots.mcts (first run only ...)`), unless the command
  just announced it, and on a terminal a status line counts the seconds while it runs.
- `thinking(label)`: on a terminal, a status line `player 2 (mcts:1000) is thinking... 3 s` while
  a bot chooses; the caller gets the seconds it took to say them when they were many.
- `Warmer`: compiles the kernels a game will need (the bots' choices and the hint) in a
  background process while the person thinks at the first prompt, so their first bot move and
  first hint do not wait; the prompt waits for it (saying so) only when it is needed before it
  is done.

Status lines go to stderr and only to a terminal; piped output gets the one-line notes only.
Compiled code holds the interpreter while it runs, so a status line cannot count during one
long compiled call: it is drawn before the call and cleared after it.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from toolkit.cli import notes

if TYPE_CHECKING:
    from toolkit.games.base import Game

COMPILE_HINT = "first run only; `patchwork compile` compiles everything ahead"
SESSION_GAP = 1.5
"""Seconds between two compiles that still count as one wait (one note, one running count)."""
ANNOUNCED_FOR = 30.0
"""Seconds after a command's own note during which a compile needs no second note."""
TICK = 0.25


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# ----- the status line --------------------------------------------------------------------------


@dataclass
class _Activity:
    text: str
    started: float = field(default_factory=time.monotonic)


class Status:
    """One transient line at the bottom of a terminal: the latest activity and its seconds.
    Lines printed through `line()` go above it. Off when stderr is not a terminal."""

    def __init__(self) -> None:
        self.activities: list[_Activity] = []
        self.lock = threading.RLock()
        self.drawn = False
        self.shown = ""
        self.ticker: threading.Thread | None = None

    @property
    def stream(self):
        return sys.stderr

    @property
    def live(self) -> bool:
        return _is_terminal(self.stream)

    def _draw(self) -> None:
        if not self.live:
            return
        if not self.activities:
            self._erase()
            return
        top = self.activities[-1]
        seconds = time.monotonic() - top.started
        text = f"{top.text}... {seconds:.0f} s" if seconds >= 1 else f"{top.text}..."
        if self.drawn and text == self.shown:
            return
        self.stream.write("\r\x1b[2K" + text)
        self.stream.flush()
        self.drawn = True
        self.shown = text

    def _erase(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.drawn = False

    def line(self, text: str) -> None:
        """Print a line on stderr above the status line."""
        with self.lock:
            if self.drawn:
                self._erase()
            self.stream.write(text + "\n")
            self.stream.flush()
            self._draw()

    def push(self, text: str, started: float | None = None) -> _Activity:
        activity = _Activity(text, time.monotonic() if started is None else started)
        with self.lock:
            self.activities.append(activity)
            self._draw()
            if self.live and (self.ticker is None or not self.ticker.is_alive()):
                self.ticker = threading.Thread(target=self._tick, name="patchwork-status", daemon=True)
                self.ticker.start()
        return activity

    def pop(self, activity: _Activity) -> None:
        with self.lock:
            if activity in self.activities:
                self.activities.remove(activity)
            self._draw() if self.activities else self._erase()

    def _tick(self) -> None:
        while True:
            time.sleep(TICK)
            with self.lock:
                if not self.activities:
                    return
                self._draw()


STATUS = Status()


@contextmanager
def activity(text: str) -> Iterator[_Activity]:
    """A status line for the duration of the block."""
    item = STATUS.push(text)
    try:
        yield item
    finally:
        STATUS.pop(item)


# ----- bots thinking ----------------------------------------------------------------------------


@dataclass
class Timer:
    seconds: float = 0.0


THINKING_SHOWN = 0.5
"""A bot that takes longer than this says how long it thought."""


@contextmanager
def thinking(label: str) -> Iterator[Timer]:
    """`label is thinking...` on a terminal while the block runs; the Timer holds its seconds."""
    timer = Timer()
    started = time.monotonic()
    item = STATUS.push(f"{label} is thinking")
    try:
        yield timer
    finally:
        timer.seconds = time.monotonic() - started
        STATUS.pop(item)


def took(seconds: float) -> str:
    """` (thought 2.3 s)` for a long choice, else ''."""
    return f" (thought {seconds:.1f} s)" if seconds > THINKING_SHOWN else ""


# ----- compiles ---------------------------------------------------------------------------------


class _CompileWatch:
    """numba's compile events, told to a person (see the module text)."""

    def __init__(self) -> None:
        self.depth = 0
        self.session_started = 0.0
        self.last_end = -1e9
        self.announced = -1e9
        self.item: _Activity | None = None
        self.total = 0.0

    def start(self, what: str) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        self.depth += 1
        if self.depth > 1:
            return
        now = time.monotonic()
        if now - self.last_end > SESSION_GAP:
            self.session_started = now
            if now - self.announced > ANNOUNCED_FOR:
                STATUS.line(f"compiling {what} ({COMPILE_HINT})...")
            self.announced = now
        self.item = STATUS.push("compiling", self.session_started)

    def end(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        self.depth = max(0, self.depth - 1)
        if self.depth:
            return
        self.last_end = time.monotonic()
        if self.item is not None:
            STATUS.pop(self.item)
            self.item = None


WATCH = _CompileWatch()
_installed = False


def announced() -> None:
    """A command has just said that a compile is coming: the next one needs no note of its own."""
    WATCH.announced = time.monotonic()


def note_compile(modules: list[str]) -> bool:
    """The command's own one-line note before a compile it expects (toolkit.cli.notes), marked as
    said; True when it was printed."""
    if notes.compile_pending(modules):
        STATUS.line(notes.COMPILE_NOTE)
        announced()
        return True
    return False


def note_compile_for(edition, simulate: bool = False) -> None:
    """The note for a command that plays `edition` (with the simulator's turn loop if `simulate`)."""
    from toolkit.families import family_of

    family = family_of(edition)
    # The simulator calls only its turn loop from Python; the kernel compiles into it, and numba
    # keeps the cache of what Python calls, so the loop's cache is the one that tells.
    note_compile(list(family.loop_modules if simulate else family.kernel_modules))


def _module_words(dispatcher: Any) -> str:
    func = getattr(dispatcher, "py_func", None)
    module = getattr(func, "__module__", "") or "a kernel"
    return module


def _install() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            WATCH.start(_module_words((ev.data or {}).get("dispatcher")))

        def on_end(self, ev):
            WATCH.end()

    event.register("numba:compile", Listener())


class _JitFinder:
    """Installs the compile watch right after toolkit.jit (which every kernel imports first) is
    imported, so commands that never compile never import numba for it."""

    def find_spec(self, name, path, target=None):
        if name != "toolkit.jit":
            return None
        import importlib.machinery

        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module):
            run(module)
            _install()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec

    def invalidate_caches(self) -> None:
        pass


def watch_compiles() -> None:
    """Say every compile of this process from now on (see the module text); idempotent."""
    if _installed or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return
    if "toolkit.jit" in sys.modules:
        _install()
        return
    if not any(isinstance(finder, _JitFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _JitFinder())


# ----- compiling in the background --------------------------------------------------------------

STAGES = ("bots", "hint", "done")
"""What the background process has compiled, in the order it reports them."""


def background_allowed() -> bool:
    """A person types at a terminal (input from a script leaves no thinking time to use), and
    PATCHWORK_NO_BACKGROUND_COMPILE is not set (one core, or a test that wants none)."""
    if os.environ.get("PATCHWORK_NO_BACKGROUND_COMPILE", "") not in ("", "0"):
        return False
    return _is_terminal(sys.stdin)


def _marker(modules: list[str]) -> str | None:
    """A file in this install's kernel cache that says the prompt's kernels were compiled for
    these modules' current source (None: no cache folder)."""
    import importlib

    try:
        from toolkit import jit
    except Exception:
        return None
    if not jit.CACHE_DIR:
        return None
    digest = hashlib.sha256()
    for name in sorted(set(modules)):
        try:  # the module's source and every toolkit module it imports (what its kernels build in)
            source = Path(importlib.import_module(name).__file__ or "")
            digest.update(name.encode() + b"\0" + jit.module_key(source).encode())
        except Exception:
            digest.update(name.encode())
    return os.path.join(jit.CACHE_DIR, f"prompt-warm-{digest.hexdigest()[:16]}.done")


class Warmer:
    """Compiles, in a background process, what a game at the prompt will call: each bot's choice
    and the hint (toolkit.cli.waiting:_warm_main reads the game from stdin)."""

    def __init__(self, payload: dict[str, Any], modules: list[str]):
        self.payload = payload
        self.modules = modules
        self.process: subprocess.Popen | None = None
        self.ready = {stage: threading.Event() for stage in STAGES}
        self.started = 0.0
        self.marker = _marker(modules)

    def needed(self) -> bool:
        if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
            return False
        from toolkit import warmup

        if warmup.everything_compiled(self.modules):  # `patchwork compile` ran: only cached kernels to load
            return False
        return not (self.marker and os.path.exists(self.marker))

    def start(self) -> bool:
        """Start the background compile if anything is left to compile; True when it started."""
        if not self.needed():
            for event in self.ready.values():
                event.set()
            return False
        code = "from toolkit.cli.waiting import _warm_main; _warm_main()"
        try:
            self.process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                            start_new_session=True)
        except OSError:
            for event in self.ready.values():
                event.set()
            return False
        self.started = time.monotonic()
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(self.payload))
            self.process.stdin.close()
        except OSError:
            pass
        threading.Thread(target=self._read, name="patchwork-warm", daemon=True).start()
        return True

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            stage = line.strip()
            if stage in self.ready:
                self.ready[stage].set()
        self.process.wait()
        for event in self.ready.values():  # finished or failed: nothing more to wait for
            event.set()
        if self.process.returncode == 0 and self.marker:
            try:
                with open(self.marker, "w") as handle:
                    handle.write("compiled\n")
            except OSError:
                pass

    def wait(self, stage: str, why: str) -> None:
        """Wait until the background process has compiled `stage`, saying so when it takes time."""
        event = self.ready[stage]
        if event.is_set():
            return
        STATUS.line(f"{why} waits for the compile started at the first prompt (first run only)...")
        with activity("compiling in the background") as item:
            item.started = self.started
            while not event.wait(TICK):
                pass

    def stop(self) -> None:
        """Stop the background process (it was started by this command)."""
        process = self.process
        if process is not None and process.poll() is None:
            try:
                process.kill()
                process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass


def warm_payload(game: Game, names: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """What the background process needs to set up the same game."""
    from toolkit.specs.loader import spec_of

    return {"spec": spec_of(game.edition), "name": game.edition.name, "seed": int(game.seed),
            "players": game.players, "names": list(names), "options": dict(options),
            "actions": [str(a) for a in game.history]}


def _warm_main() -> None:
    """The background process: set up the game, compile each stage, report it on stdout."""
    from toolkit.sim.backends import tie_to_parent

    tie_to_parent(os.getppid())  # the game it compiles for ends with its command, even one killed outright
    payload = json.loads(sys.stdin.read())
    from toolkit import play as playing
    from toolkit.families import family_of
    from toolkit.specs.loader import edition_from_spec

    edition = edition_from_spec(payload["spec"], f"edition '{payload['name']}'")
    family = family_of(edition)
    players = payload["players"] if family.info.fixed_seats is None else None
    options = payload["options"]
    seats = playing.seat(edition, ",".join(payload["names"]), players, options.get("automa_level"),
                         options.get("automa_deck"))
    game = playing.new_game(edition, payload["seed"], players, seats)
    for text in payload["actions"]:
        game.apply(game.parse_action(text))
    rngs = playing.bot_rngs(payload["seed"], len(seats.bots))

    def report(stage: str) -> None:
        sys.stdout.write(stage + "\n")
        sys.stdout.flush()

    for at, bot in enumerate(seats.bots):
        if bot is not None and not game.is_over:
            try:
                bot.choose(game.copy(), rngs[at].copy())
            except Exception:  # a bot that cannot act in this position compiles at its own turn
                pass
    report("bots")
    if not game.is_over:
        playing.hint(game)
    report("hint")
    # Play on to the end with the family's cheapest bot, asking for a hint now and then: the
    # kernels some positions need (a last round's search) compile now rather than at that hint.
    cheap = playing.build_bot(playing.bot_for(family.info.balance_bots.split(",")[0], edition), edition)
    copy = game.copy()
    rng = playing.bot_rngs(payload["seed"] + 1, 1)[0]
    ply = 0
    while not copy.is_over:
        if ply % 4 == 0:
            playing.hint(copy)
        at = copy.current_player
        seated = seats.bots[at]  # a bot bound to its seat (Automa) plays it; every other seat, the cheap bot
        bot = seated if seated is not None and seated.seat is not None else cheap
        copy.apply(bot.choose(copy, rng))
        ply += 1
    report("done")
