"""Ctrl-C at any moment: one line, `patchwork: error: interrupted`, and exit code 130 within a second.

Python turns Ctrl-C into a KeyboardInterrupt in the main thread, which the command line turns
into that line (toolkit.cli.app) after the work in progress has cleaned up (workers stopped,
temporary files removed). That is not enough everywhere:

- numba compiles a kernel (the first run after an install or an upgrade takes minutes), and a
  KeyboardInterrupt raised inside the compiler's callbacks can be caught and wrapped by it:
  compiling went on and the run ended in a long traceback. While toolkit.jit says a compile
  runs (`jit.compiling()`), a key raises nothing; the run ends from a watcher thread instead. Compiled code is
  cached through temporary files and renames, and outputs are written the same way, so ending
  the process there leaves no half-written file.
- A key pressed while the command line itself is still importing, or while the interpreter shuts
  down, would print a traceback; then too the run ends at once.
- Anything that swallows the KeyboardInterrupt, or cleans up for too long, is cut short: the
  watcher, woken by the signal itself (signal.set_wakeup_fd, so even while the main thread sits
  in a long C call), ends the process GRACE seconds after the key with the one line, unless an
  error line was printed already (console.echo_error prints through `print_error_line`).

Only the `patchwork` console script and `python -m toolkit` install this (`install_early` when
toolkit.cli is imported by them, `install` in app.main); a library user's process keeps Python's
own handling. A command that handles Ctrl-C itself (the studio's server replaces the handler)
is left alone: the watcher acts only while the handler is this module's.
"""
from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time

GRACE = 0.5
"""Seconds the normal path (KeyboardInterrupt, cleanup, the error line) has before the watcher
ends the process; the whole stop stays well within a second."""
EXIT_CODE = 130
LINE = "patchwork: error: interrupted\n"

_print_lock = threading.Lock()
"""Held while an error line is printed (and by the process's last moment, exit_now)."""
_phase = "off"
"""off (not installed), starting (importing the CLI), running (a command), finishing (exiting)."""
_pressed: float | None = None
"""When Ctrl-C was first pressed (time.monotonic), None before."""
_said = False
"""An error line was printed after the key (by the command line or by the watcher)."""
_installed: tuple | None = None
"""(previous SIGINT handler, previous wakeup fd, read end, write end) while installed."""


def _compiling() -> bool:
    """True while numba's compiler runs (toolkit.jit's flag); never imports numba: no compile
    can start before toolkit.jit is imported, which every kernel module imports first. In the
    main thread (the signal handler): whether the main thread compiles; elsewhere (the watcher):
    whether any thread does."""
    flag = getattr(sys.modules.get("toolkit.jit"), "compiling", None)
    if flag is None:
        return False
    if threading.current_thread() is threading.main_thread():
        return flag(threading.main_thread())
    return flag()


def print_error_line(write) -> None:
    """Print an error line through `write` (console.echo_error's), unless Ctrl-C was pressed and
    a line has been printed since: after the key only one line is printed, by the command line
    or by the watcher, whichever comes first (the watcher waits for a line being printed)."""
    global _said
    with _print_lock:
        if _pressed is not None and _said:
            return
        write()
        if _pressed is not None:
            _said = True


def reported() -> None:
    """A command that answers Ctrl-C in its own words (the studio: `studio stopped`) has said
    what there is to say: no error line follows."""
    global _said
    with _print_lock:
        _said = True


def _flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


def exit_now() -> None:
    """Print the one line (unless an error line was printed after the key) and end the process
    with code 130, without running any more of the program (outputs are written atomically)."""
    global _said
    _print_lock.acquire(timeout=0.3)  # a line being printed is finished first; never released: the end
    say = not _said
    _said = True
    # stdout may be held by the main thread (a write to a pipe that is not read): flush it from a
    # helper and wait a moment, never forever
    flusher = threading.Thread(target=_flush, args=(sys.stdout,), daemon=True)
    flusher.start()
    flusher.join(0.2)
    releaser = threading.Thread(target=_release_semaphores, daemon=True)
    releaser.start()
    releaser.join(0.2)
    if say:
        try:
            os.write(2, LINE.encode())
        except OSError:
            pass
    os._exit(EXIT_CODE)


def _release_semaphores() -> None:
    """What multiprocessing does first at a normal exit, which os._exit skips: its finalizers of
    exit priority 0 and up, which unlink a worker pool's named semaphores and strike them off the
    resource tracker's list. Without this, the tracker (a process of its own, sharing the
    terminal) unlinked them after the command had ended and printed a two-line warning about
    leaked semaphores below the command's one line. Never imports multiprocessing."""
    util = sys.modules.get("multiprocessing.util")
    run = getattr(util, "_run_finalizers", None)
    if callable(run):
        try:
            run(0)
        except Exception:  # noqa: BLE001 - the process ends next whatever happens here
            pass


def _on_key(signum, frame) -> None:
    """SIGINT in the main thread."""
    global _pressed
    first = _pressed is None
    if first:
        _pressed = time.monotonic()
    if _phase in ("starting", "finishing"):
        exit_now()
    if _compiling() or not first:
        return  # the compiler would swallow it, or cleanup is under way: the watcher ends the run
    raise KeyboardInterrupt


def _watch(fd: int) -> None:
    """Woken by the signal itself (the wakeup fd); ends the run if the normal path does not."""
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:
            return
        if not data:
            os.close(fd)
            return
        if signal.SIGINT not in data or signal.getsignal(signal.SIGINT) is not _on_key:
            continue  # another signal, or a command that handles Ctrl-C itself
        deadline = time.monotonic() + GRACE
        while time.monotonic() < deadline:
            if _compiling():
                break
            time.sleep(0.02)
        exit_now()


def _install(phase: str) -> None:
    global _phase, _installed
    if _phase != "off":
        _phase = phase
        return
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "set_wakeup_fd"):
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except (ValueError, OSError):
        os.close(read_end)
        os.close(write_end)
        return
    _installed = (signal.signal(signal.SIGINT, _on_key), previous_fd, read_end, write_end)
    _phase = phase
    threading.Thread(target=_watch, args=(read_end,), name="patchwork-ctrl-c", daemon=True).start()
    atexit.register(_last_moments)  # registered first, so it runs after every later exit handler


def _last_moments() -> None:
    """The interpreter's own end (after the last exit handler): it is about to put Python's signal
    handlers back to the system's, and a key from then on would end the finished command by
    SIGINT, silently; ignore it instead (a key pressed before is answered by finishing)."""
    if _installed is not None and _pressed is None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def install_early() -> None:
    """From the first import of the command line: a key ends the run at once (nothing has started)."""
    _install("starting")


def install() -> None:
    """When a command starts: a key raises KeyboardInterrupt (cleanup, then the one line), except
    while numba compiles; the watcher ends the run within GRACE seconds in any case."""
    _install("running")


def uninstall() -> None:
    """Give Ctrl-C back to what handled it before (main() called as a function, e.g. by a test:
    the process goes on, so it must not keep a handler that ends it)."""
    global _phase, _installed, _pressed, _said
    if _installed is None or threading.current_thread() is not threading.main_thread():
        return
    handler, previous_fd, read_end, write_end = _installed
    _installed = None
    _phase, _pressed, _said = "off", None, False
    signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
    try:
        signal.set_wakeup_fd(previous_fd)
    except (ValueError, OSError):
        pass
    os.close(write_end)  # the watcher reads the end of its pipe and returns


def finishing() -> None:
    """The command has ended: a key now ends the process at once (no traceback from the exit).

    After a key, the process ends here with the one line (if none was printed: typer turns a key
    pressed while the command line is parsed into a bare exit code) and code 130, without the
    interpreter's own ending: a KeyboardInterrupt raised inside exec() or eval() (dataclasses and
    typing use them while modules load) makes CPython end by re-raising SIGINT, whatever code
    the command exits with."""
    global _phase
    if _phase == "off":
        return
    _phase = "finishing"
    if _pressed is not None:
        _flush(sys.stderr)
        exit_now()


def is_console_script() -> bool:
    """This process runs `patchwork` (the console script) or `python -m toolkit` (not a worker
    process of one, which re-runs the script as `__mp_main__` and leaves Ctrl-C to its parent)."""
    main = sys.modules.get("__main__")
    if getattr(main, "__name__", None) != "__main__":
        return False
    # The script that runs, not sys.argv: a test that sets argv to `patchwork ...` and calls main()
    # runs inside pytest, whose process must keep its own Ctrl-C afterwards.
    first = str(getattr(main, "__file__", "") or "")
    return os.path.basename(first) == "patchwork" or first.endswith(os.path.join("toolkit", "__main__.py"))
