"""Faults from outside: SIGKILL in the middle of a build or a simulation, Ctrl-C in a simulation.

A killed run leaves no process behind (workers and multiprocessing's helper die with their
parent), no result file and no incomplete kit in sight; what a killed build leaves hidden is
cleared, and said, by the next build. Ctrl-C stops a run with workers promptly, with one line and
exit code 130.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see processes")

def _kit() -> set[str]:
    """The top-level names a whole build writes."""
    from toolkit.render.build import _jobs
    from toolkit.render.paper import parse_paper

    return {relative.split("/")[0] for relative, _ in _jobs(parse_paper("a4"))}
LONG_RUN = ["simulate", "classic", "--bots", "greedy,greedy", "--games", "200000", "--seed", "3",
            "--workers", "2", "--no-progress"]


def start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "toolkit", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _parents() -> dict[int, int]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return found


def descendants(pid: int) -> set[int]:
    parents = _parents()
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        children = {child for child, p in parents.items() if p == parent}
        frontier += children - found
        found |= children
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that never reaps it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_until(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def workers_of(proc: subprocess.Popen) -> set[int]:
    """The worker processes (and multiprocessing's helper) once at least two workers run."""
    def found():
        pids = descendants(proc.pid)
        return pids if len(pids) >= 2 else None
    return wait_until(found, 120, "the simulation workers to start")


def _kill_all(proc: subprocess.Popen, children: set[int]) -> None:
    """Clean up after a failing test: the run and everything it started (orphans included)."""
    for pid in descendants(proc.pid) | children | {proc.pid}:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_sigkill_of_a_simulation_leaves_no_process_and_no_file(tmp_path):
    proc = start(*LONG_RUN, "--out", "runs", cwd=tmp_path)
    children: set[int] = set()
    try:
        children = workers_of(proc)
        time.sleep(0.5)  # let the workers get going
        proc.kill()
        proc.wait(timeout=10)
        wait_until(lambda: not any(alive(pid) for pid in children), 10, "the workers to end with their parent")
    finally:
        _kill_all(proc, children)
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").iterdir())


def test_ctrl_c_stops_a_simulation_at_once_with_one_line(tmp_path):
    proc = start(*LONG_RUN, "--out", "runs", cwd=tmp_path)
    children: set[int] = set()
    try:
        children = workers_of(proc)
        time.sleep(0.5)
        pressed = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
        _, err = proc.communicate(timeout=30)
        stopped = time.monotonic() - pressed
        wait_until(lambda: not any(alive(pid) for pid in children), 10, "the workers to end")
    finally:
        _kill_all(proc, children)
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: interrupted"), err
    assert stopped < 5, f"took {stopped:.1f} s to stop"
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").iterdir())


def test_ctrl_c_pressed_while_a_worker_starts_is_held_not_lost():
    # Starting a worker happens inside pool.submit; a key pressed then must still stop the run.
    from toolkit.sim.backends import submit_holding_ctrl_c

    class Pool:
        submitted = []

        def submit(self, fn, shard):
            # The key, while the worker starts. Sent to the main thread: a process-wide signal goes
            # to any thread that does not block it, such as one an earlier test started.
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            self.submitted.append(shard)
            return "future"

    # Python's own Ctrl-C handler, whatever an earlier test (or a library it loaded) left in place,
    # with the key unblocked: the test is about the hold, not about the state it inherits.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        with pytest.raises(KeyboardInterrupt):
            submit_holding_ctrl_c(Pool(), print, "shard")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert Pool.submitted == ["shard"], "the shard is submitted before the key is taken"


def test_sigkill_of_a_build_leaves_the_old_kit_and_the_next_build_clears_up(tmp_path):
    out = tmp_path / "kit"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    proc = start("build", "--out", str(out), cwd=tmp_path)
    try:
        staging = wait_until(lambda: [p for p in out.iterdir() if p.name.startswith(".patchwork-build-")
                                      and any(p.iterdir())], 60, "the build to start writing")
        proc.kill()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    # nothing of the new kit is in sight: only what was there and the hidden staging folder
    assert {p.name for p in out.iterdir() if not p.name.startswith(".")} == {"notes.txt"}
    assert staging[0].exists()
    again = subprocess.run([sys.executable, "-m", "toolkit", "build", "--out", str(out)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"removed {staging[0]}, left by an interrupted build" in again.stderr
    assert {p.name for p in out.iterdir()} == _kit() | {"notes.txt"}
    assert not [p for p in out.rglob(".*")]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_printing_to_a_full_disk_or_a_closed_pipe_is_no_traceback(tmp_path):
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "toolkit", "schema"], stdout=full, stderr=subprocess.PIPE,
                             text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr == "patchwork: error: No space left on device (while printing the output)\n"
    reader = subprocess.Popen([sys.executable, "-m", "toolkit", "schema"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    reader.stdout.close()  # the reader goes away, as `| head -1` does
    _, err = reader.communicate(timeout=120)
    assert reader.returncode == 1 and b"Traceback" not in err and b"Exception ignored" not in err
