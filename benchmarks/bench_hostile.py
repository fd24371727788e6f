"""Run every hostile-input case of tests/test_hostile_cli.py, each in a forked child, and count
failures by kind: traceback, hang, crash (killed by a signal), wrong exit code, not one error
line, half-written output. Also prints the in-process refusal times.

    .venv/bin/python benchmarks/bench_hostile.py [--timeout 10] [--only NAME-PREFIX] [--list] [--in-process]

With --in-process every case runs in this one process, one after the other, as the test suite
runs them (only safe once nothing crashes or hangs); the refusal times are then those of a
warm process, which is what a test or a long-lived caller sees. A child gets an address-space cap, so a case that would eat the machine's memory fails fast
instead; a child still running after --timeout seconds is a hang and is killed.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_hostile_cli import CASES, REFUSAL_TARGET, run_case  # noqa: E402

MEMORY_CAP = 3 * 1024**3


def run_forked(case, timeout: float) -> tuple[list[str], float, str]:
    read_end, write_end = os.pipe()
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_end)
            try:
                resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
                outcome = run_case(case, Path(tmp))
                payload = json.dumps([outcome.failures, outcome.seconds, outcome.message[:300]])
            except BaseException as error:  # noqa: BLE001 - reported, never raised
                payload = json.dumps([["traceback"], 0.0, f"runner: {error!r}"[:300]])
            os.write(write_end, payload.encode())
            os._exit(0)
        os.close(write_end)
        started = time.monotonic()
        status = None
        while time.monotonic() - started < timeout:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.02)
        else:
            for stray in [pid, *_descendants(pid)]:  # simulation workers die with it
                os.kill(stray, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read_end)
            return ["hang"], timeout, f"still running after {timeout:g} s"
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
        os.close(read_end)
        if os.WIFSIGNALED(status):
            return ["crash"], time.monotonic() - started, f"killed by signal {os.WTERMSIG(status)}"
        failures, seconds, message = json.loads(data or b'[["crash"], 0, "no report"]')
        return failures, seconds, message


def _descendants(pid: int) -> list[int]:
    """Processes started, directly or not, by `pid`."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, p in parents.items() if p == parent]
        found += children
        frontier += children
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true", help="Print every failing case.")
    parser.add_argument("--in-process", action="store_true", help="Run the cases in this process.")
    args = parser.parse_args()
    cases = [c for c in CASES if c.name.startswith(args.only)]
    counts: collections.Counter[str] = collections.Counter()
    failing = []
    times = []
    for case in cases:
        if args.in_process:
            with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
                outcome = run_case(case, Path(tmp))
            failures, seconds, message = outcome.failures, outcome.seconds, outcome.message
        else:
            failures, seconds, message = run_forked(case, args.timeout)
        counts.update(failures)
        if failures:
            failing.append((case.name, failures, message))
        elif case.code != 0:  # refusals only, not the cases that must succeed
            times.append(seconds)
    print(f"{len(cases)} cases, {len(failing)} failing")
    for kind in ("traceback", "hang", "crash", "wrong exit code", "not one error line", "half-written output"):
        print(f"  {kind:22} {counts[kind]}")
    if times:
        times.sort()
        slow = sum(t > REFUSAL_TARGET for t in times)
        print(f"clean refusals: median {times[len(times) // 2] * 1000:.1f} ms, "
              f"95th percentile {times[int(len(times) * 0.95)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms; "
              f"{slow} over {REFUSAL_TARGET * 1000:.0f} ms")
    if args.list:
        for name, failures, message in failing:
            print(f"{name}: {', '.join(failures)}: {message[:200]}")


if __name__ == "__main__":
    main()
