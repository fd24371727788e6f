"""Run every hostile-input case of tests/test_hostile_cli.py, each in a forked child, and count
failures by kind (test_hostile_cli.KINDS): traceback, hang, crash (killed by a signal), wrong
exit, unclear (quotes a file that is not a spec, lists too much, or does not name what was
wrong), multi-line, half-written, orphan (a process of the case still running a second after
it ended), slow (a refusal costing more than REFUSAL_CPU CPU-seconds or loading numba).

    .venv/bin/python benchmarks/bench_hostile.py [--timeout 10] [--only PREFIX,...] [--list] [--in-process]
    .venv/bin/python benchmarks/bench_hostile.py --cold     # refusal CPU of fresh `patchwork` processes

The children are forked from this process, which has the CLI loaded but not numba, so a
refusal's CPU time is what it adds to the command line's own start-up, and a refusal that loads
the compiled kernels is seen. With --in-process every case runs in this one process, one after
the other, as the test suite runs them (only safe once nothing crashes or hangs). A child gets an
address-space cap, so a case that would eat the machine's memory fails fast instead; a child
still running after --timeout seconds is a hang and is killed, with everything it started.

--cold runs one refusal of each command that plays games in a fresh interpreter (as a person
typing it does) and prints its CPU time beside that of `patchwork --version`, the floor every
command pays to start.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_hostile_cli import CASES, KINDS, REFUSAL_CPU, REFUSAL_TARGET, run_case  # noqa: E402

MEMORY_CAP = 3 * 1024**3
ORPHAN_GRACE = 1.0
"""Seconds a process of a case may outlive it (workers end with their parent)."""

COLD_REFUSALS = {
    "floor: --version": ["--version"],
    "deal --seed -1": ["deal", "classic", "--seed", "-1"],
    "deal --players 3": ["deal", "classic", "--seed", "1", "--players", "3"],
    "play --seed 2^64": ["play", "classic", "--seed", str(2**64), "--bots", "random,random"],
    "play --bots nope": ["play", "classic", "--seed", "1", "--bots", "random,nope"],
    "simulate --games 0": ["simulate", "classic", "--games", "0"],
    "simulate --seed -1": ["simulate", "classic", "--seed", "-1"],
    "balance --games 0": ["balance", "classic", "six-buttons", "--games", "0"],
    "balance --sprt-alpha 2": ["balance", "classic", "six-buttons", "--sprt", "score", "--sprt-alpha", "2"],
    "price --seed 2^64": ["price", "classic", "P05", "--seed", str(2**64)],
    "price --values 0..10^9": ["price", "classic", "P05", "--values", "0..1000000000"],
    "price P99": ["price", "classic", "P99"],
    "sweep --seed -1": ["sweep", "classic", "--set", "starting_buttons=4,5", "--seed", "-1"],
    "sweep --set 0..10^9": ["sweep", "classic", "--set", "starting_buttons=0..1000000000"],
    "ladder --seed 2^64": ["ladder", "random", "greedy", "--seed", str(2**64)],
    "ladder --games 3": ["ladder", "random", "greedy", "--games", "3"],
    "deck check --games 0": ["deck", "check", "six-buttons", "--games", "0"],
    "deck pack polyominoes:8 --patches NOPE": ["deck", "pack", "polyominoes:8", "--patches", "NOPE"],
    "deck pack --patches P01,P01": ["deck", "pack", "classic", "--patches", "P01,P01"],
    "deck check nope.yaml": ["deck", "check", "nope.yaml"],
    "render challenge --seed -1": ["render", "challenge", "--seed", "-1"],
    "render tiles --format png --out x.pdf": ["render", "tiles", "--format", "png", "--out", "x.pdf"],
    "render pad \"\"": ["render", "pad", ""],
    "render pad 2000 sheets at 1200 dpi": ["render", "pad", "--sheets", "2000", "--format", "png", "--dpi", "1200",
                                           "--paper", "1000x1000mm"],
}
"""One refusal per command that plays games (and a few that render), as typed at a terminal."""


def _session_members(sid: int) -> list[int]:
    """Running processes of session `sid` (a forked case calls setsid, so its workers are here)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def _kill(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run_forked(case, timeout: float) -> tuple[list[str], float, float, str]:
    """(failures, seconds, CPU-seconds, message) of `case` run in a forked child."""
    read_end, write_end = os.pipe()
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_end)
            try:
                os.setsid()  # the case's processes are this session's, wherever they are reparented
                resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
                outcome = run_case(case, Path(tmp), slow_cpu=REFUSAL_CPU)
                payload = json.dumps([outcome.failures, outcome.seconds, outcome.cpu, outcome.message[:300]])
            except BaseException as error:  # noqa: BLE001 - reported, never raised
                payload = json.dumps([["traceback"], 0.0, 0.0, f"runner: {error!r}"[:300]])
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
            _kill([pid, *_session_members(pid)])
            os.waitpid(pid, 0)
            os.close(read_end)
            return ["hang"], timeout, 0.0, f"still running after {timeout:g} s"
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
        os.close(read_end)
        ended = time.monotonic()
        while (left := _session_members(pid)) and time.monotonic() - ended < ORPHAN_GRACE:
            time.sleep(0.05)
        _kill(left)
        if os.WIFSIGNALED(status):
            return ["crash"], time.monotonic() - started, 0.0, f"killed by signal {os.WTERMSIG(status)}"
        failures, seconds, cpu, message = json.loads(data or b'[["crash"], 0, 0, "no report"]')
        if left and "orphan" not in failures:
            failures.append("orphan")
            message += f" [{len(left)} process(es) left running]"
        return failures, seconds, cpu, message


def _capped() -> None:
    """In a --cold child: the same address-space cap as a forked case (a range built before it is
    checked would otherwise take the machine's memory)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def cold(repeat: int) -> None:
    """CPU-seconds of each refusal in COLD_REFUSALS in a fresh interpreter (best of `repeat`)."""
    print(f"refusals in a fresh process (best of {repeat}; user+system CPU-s, peak MB, numba loaded?)")
    probe = ("import sys\nfrom toolkit.cli.app import main\ntry:\n    main()\nfinally:\n"
             "    sys.stderr.write('NUMBA %s\\n' % ('numba' in sys.modules))\n")
    refusals: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cold-") as tmp:
        for label, args in COLD_REFUSALS.items():
            runs = []
            for _ in range(repeat):
                proc = subprocess.Popen([sys.executable, "-c", probe, *args], cwd=tmp, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, preexec_fn=_capped)
                err = proc.stderr.read()
                proc.stderr.close()
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                line = next((x for x in err.splitlines() if x.startswith("patchwork")), "")
                runs.append((usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, "NUMBA True" in err,
                             proc.returncode, line))
            cpu, peak, numba, code, line = min(runs)
            if code != 0:
                refusals.append(cpu)
            print(f"  {label:40} {cpu:5.2f} CPU-s {peak:4.0f} MB numba {'yes' if numba else 'no ':3} exit {code:3}  "
                  f"{line[:100]}")
    refusals.sort()
    if refusals:
        print(f"{len(refusals)} refusals: min {refusals[0]:.2f}, median {refusals[len(refusals) // 2]:.2f}, "
              f"max {refusals[-1]:.2f} CPU-s; {sum(c >= REFUSAL_CPU for c in refusals)} at {REFUSAL_CPU:g} or more")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--only", default="", help="Only the cases whose names start so (several: comma-separated).")
    parser.add_argument("--list", action="store_true", help="Print every failing case.")
    parser.add_argument("--in-process", action="store_true", help="Run the cases in this process.")
    parser.add_argument("--cold", action="store_true", help="Time one refusal per command in fresh processes.")
    parser.add_argument("--repeat", type=int, default=3, help="With --cold: runs per refusal (the best counts).")
    args = parser.parse_args()
    if args.cold:
        cold(args.repeat)
        return
    if "numba" in sys.modules:
        print("note: numba is loaded before the cases run, so `slow` sees only the CPU time")
    cases = [c for c in CASES if c.name.startswith(tuple(args.only.split(",")))]
    counts: collections.Counter[str] = collections.Counter()
    failing = []
    times, cpus = [], []
    for case in cases:
        if args.in_process:
            with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
                outcome = run_case(case, Path(tmp), slow_cpu=REFUSAL_CPU)
            failures, seconds, cpu, message = outcome.failures, outcome.seconds, outcome.cpu, outcome.message
        else:
            failures, seconds, cpu, message = run_forked(case, args.timeout)
        counts.update(failures)
        if failures:
            failing.append((case.name, failures, message))
        if case.code != 0 and not set(failures) & {"hang", "crash"}:  # refusals only
            times.append(seconds)
            cpus.append(cpu)
    print(f"{len(cases)} cases, {len(failing)} failing")
    for kind in KINDS:
        print(f"  {kind:14} {counts[kind]}")
    if times:
        times.sort()
        cpus.sort()
        slow = sum(t > REFUSAL_TARGET for t in times)
        print(f"refusals: min {times[0] * 1000:.1f} ms, median {times[len(times) // 2] * 1000:.1f} ms, "
              f"95th percentile {times[int(len(times) * 0.95)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms; "
              f"{slow} over {REFUSAL_TARGET * 1000:.0f} ms")
        print(f"refusals' CPU beyond the loaded CLI: min {cpus[0]:.3f} s, median {cpus[len(cpus) // 2]:.3f} s, "
              f"95th percentile {cpus[int(len(cpus) * 0.95)]:.3f} s, max {cpus[-1]:.3f} s; "
              f"{sum(c > REFUSAL_CPU for c in cpus)} over {REFUSAL_CPU:g} s")
    if args.list:
        for name, failures, message in failing:
            print(f"{name}: {', '.join(failures)}: {message[:200]}")


if __name__ == "__main__":
    main()
