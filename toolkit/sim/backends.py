"""Where shards run: in this process, in a local process pool, or on a Dask distributed cluster.

Every backend runs the same pure `run_shard` on the same shards (the simulator's and the
workbench's alike) and hands the results back in shard order, so the merged statistics are identical whatever the backend or worker count. Only a
bounded number of shards is in flight at once, and each result is a small tally, so memory stays
flat however many games a run plays.

Local workers are tied to this process: they ignore Ctrl-C (the parent stops them at once and says
so in one line) and end within PARENT_POLL_SECONDS of their parent, even when it was killed
outright (the kernel's parent-death signal, and a watchdog where there is none), so neither
workers nor multiprocessing's helper process outlive a run. A worker ties itself to its parent
before it imports anything heavy: this module loads the simulator (and numba) only when a shard
runs, so a worker started just before its parent died does not spend seconds importing first.
More workers than the cores this process may use only queue behind each other, so
`useful_workers` caps the count. `tie_to_parent` does the same for any other helper process.

Dask (`--scheduler tcp://HOST:PORT`) is an optional extra: `distributed` is imported only when a
scheduler is named, and a missing package or an unreachable scheduler is one clear UsageError.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import concurrent.futures.process
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from toolkit.errors import Interrupted, ToolkitError, UsageError

if TYPE_CHECKING:  # the simulator (and numba) load when a shard runs, not when a worker starts
    from toolkit.sim.shards import Shard, ShardResult

ProgressFn = Callable[["ShardResult"], None]
"""Called once per finished shard, in completion order (for progress bars)."""

_Work = TypeVar("_Work")

DASK_CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before giving up."""


PARENT_POLL_SECONDS = 0.2
"""How often a worker checks that its parent is still there (where the OS cannot tell it)."""
_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def useful_workers(requested: int) -> tuple[int, str]:
    """(workers worth starting, why fewer than requested): never more than the usable cores."""
    cores = usable_cores()
    if requested > cores:
        return cores, f"this machine gives the run {cores} core{'s' if cores != 1 else ''}; more workers only wait"
    return requested, ""


def tie_to_parent(parent: int) -> None:
    """End this process as soon as `parent` is gone: at once through the kernel's parent-death
    signal (Linux), else within PARENT_POLL_SECONDS through a watchdog thread; at once when the
    parent is gone already. For any helper process a command starts (workers, compilers)."""
    if sys.platform.startswith("linux"):
        try:  # the kernel kills this process the moment its parent ends
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker_init(parent: int) -> None:
    """Runs first in every worker (`initializer=worker_init, initargs=(os.getpid(),)`): leave Ctrl-C
    to the parent, and die with the parent. Start workers with submit_holding_ctrl_c, so a key
    pressed while one starts is held until this has run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # started with Ctrl-C held off: a held key is now dropped
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    tie_to_parent(parent)


def submit_holding_ctrl_c(pool: cf.ProcessPoolExecutor, fn: Callable[[_Work], object], shard: _Work) -> cf.Future:
    """pool.submit(fn, shard), with Ctrl-C held off (not dropped) while it may start a worker
    (shard: a simulator Shard, or the compile's list of kernels for one lane).

    A worker started meanwhile inherits Ctrl-C blocked and ignores it from its first line
    (worker_init), so a key pressed while it starts cannot make it print a traceback; the parent
    gets the key the moment submit returns. Where signals cannot be blocked (not POSIX), Ctrl-C is
    ignored while a worker starts instead.
    """
    if threading.current_thread() is not threading.main_thread():
        return pool.submit(fn, shard)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with without_main_script():
                return pool.submit(fn, shard)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with without_main_script():
            return pool.submit(fn, shard)
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def without_main_script():
    """While workers start here, they do not run the script that started this process.

    A spawned worker first re-imports the parent's main script (for `patchwork`, the whole CLI),
    which takes long enough that a parent killed meanwhile leaves it running until the import
    ends; workers run only functions of the toolkit's own modules, so they skip it and reach
    their initializer (tie_to_parent) at once. Started as `python -m toolkit`, multiprocessing
    skips it by itself."""
    from multiprocessing import spawn

    original = spawn.get_preparation_data

    def lean(name):
        data = original(name)
        data.pop("init_main_from_path", None)
        return data

    spawn.get_preparation_data = lean
    try:
        yield
    finally:
        spawn.get_preparation_data = original


def _stop(pool: cf.ProcessPoolExecutor) -> None:
    """End the workers now, without waiting for their shards."""
    processes = list(getattr(pool, "_processes", {}).values())
    for process in processes:
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)


def run_local(shards: Sequence["Shard"], workers: int = 1, progress: ProgressFn | None = None) -> Iterator["ShardResult"]:
    """Run shards here (workers=1) or in `workers` fresh processes; yield results in shard order.

    Ctrl-C stops at once with Interrupted (the workers are ended, not waited for).
    """
    from toolkit.sim.shards import run_shard, warm_up

    return run_calls(run_shard, shards, workers, progress, warm_up)


def run_calls(fn: Callable, items: Sequence, workers: int = 1, progress: Callable | None = None,
              warm: Callable | None = None) -> Iterator:
    """`fn(item)` for every item, here (workers=1) or in `workers` fresh processes tied to this one;
    results in item order, so the outcome is the same whatever the worker count. `fn` is a
    module-level function (it is sent to the workers by name); `warm(items[0])` runs here first
    (e.g. to fill the kernel cache once rather than in every worker).
    """
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    workers = min(useful_workers(workers)[0], len(items))
    if workers <= 1 or len(items) <= 1:
        for item in items:
            result = fn(item)
            if progress:
                progress(result)
            yield result
        return
    # Fresh interpreters, not forks: the parent may run threads (the progress bar), and forking a
    # threaded process can deadlock; compiled kernels load from numba's on-disk cache, which the
    # warm-up fills once here rather than in every worker.
    if warm is not None:
        warm(items[0])
    context = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                  initializer=worker_init, initargs=(os.getpid(),))

    def submit(fn, shard):
        return submit_holding_ctrl_c(pool, fn, shard)

    try:
        yield from _ordered(items, submit, 2 * workers, _wait_local, progress, fn)
    except KeyboardInterrupt:
        _stop(pool)
        raise Interrupted("interrupted: the simulation was stopped and nothing was written") from None
    except cf.process.BrokenProcessPool as error:
        _stop(pool)
        raise ToolkitError(f"a simulation worker process died ({error}); try again with --workers 1") from None
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _wait_local(futures):
    done, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
    return done


def _ordered(shards, submit, window, wait_any, progress, fn=None) -> Iterator["ShardResult"]:
    """Keep `window` shards in flight, yield results in shard order as soon as each is next."""
    if fn is None:
        from toolkit.sim.shards import run_shard as fn

    pending: dict = {}
    ready: dict[int, ShardResult] = {}
    next_submit = 0
    next_yield = 0
    total = len(shards)
    try:
        while next_yield < total:
            while next_submit < total and len(pending) < window:
                future = submit(fn, shards[next_submit])
                pending[future] = next_submit
                next_submit += 1
            for future in wait_any(list(pending)):
                index = pending.pop(future)
                result = future.result()
                if progress:
                    progress(result)
                ready[index] = result
            while next_yield in ready:
                yield ready.pop(next_yield)
                next_yield += 1
    finally:
        for future in pending:
            future.cancel()


def _import_distributed():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(
            "--scheduler needs Dask distributed, which is not installed; install the extra: "
            "pip install 'patchwork-toolkit[cluster]'") from None
    return distributed


def connect(address: str, timeout: float = DASK_CONNECT_TIMEOUT):
    """A Dask client for the scheduler at `address`, or a UsageError saying why not."""
    distributed = _import_distributed()
    if "://" not in address:
        raise UsageError(f"--scheduler '{address}': expected an address like tcp://HOST:PORT")
    try:
        return distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def run_dask(shards: Sequence["Shard"], address: str, progress: ProgressFn | None = None) -> Iterator["ShardResult"]:
    """Run shards on the Dask cluster at `address`; yield results in shard order."""
    from toolkit.sim.shards import warm_up

    distributed = _import_distributed()
    client = connect(address)
    warm_up(shards[0])  # workers on this machine then load the compiled loops from the cache
    try:
        workers = max(1, sum(client.nthreads().values()))
        finished = distributed.as_completed(loop=client.loop)

        def submit(fn, shard):
            # pure=False: every shard is submitted once and must really run, never be deduplicated.
            future = client.submit(fn, shard, pure=False)
            finished.add(future)
            return future

        def wait_any(futures):
            return [next(finished), *finished.next_batch(block=False)]

        yield from _ordered(shards, submit, 2 * workers, wait_any, progress)
    except (OSError, TimeoutError, cf.CancelledError) as error:  # lost workers or scheduler
        raise ToolkitError(f"the Dask cluster at {address} failed during the run: {error!r}") from None
    finally:
        client.close()


def run_shards(
    shards: Sequence["Shard"],
    workers: int = 1,
    scheduler: str | None = None,
    progress: ProgressFn | None = None,
) -> Iterator["ShardResult"]:
    """Run shards on the chosen backend (Dask when a scheduler is named); results in shard order."""
    if scheduler:
        return run_dask(shards, scheduler, progress)
    return run_local(shards, workers, progress)
