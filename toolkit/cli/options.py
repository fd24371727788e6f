"""Checks shared by the option declarations of the commands: output paths, counts, seeds, ranges,
bot lists, lists of ids.

They run while the command line is parsed, or first thing in a command's body, before any work
and before anything heavy is imported (numba and the kernels load only for a run that will
happen), so a bad value is one usage line (`patchwork: error: Invalid value for '--out': ...`,
exit 2), a refusal costs no more than starting the command line, and a long run never starts
with a target it cannot write. Every number has a stated range (seeds 0..2^63-1 everywhere,
`seed_range()`); a range option is judged from its numbers, never by building it; ids in a list
are distinct; a long list in a message is shortened (toolkit.errors.shortened).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

import math
import re

from toolkit.errors import ToolkitError, UsageError, shortened
from toolkit.fileio import MAX_SEATS, check_target, path_kind

MAX_SEED = 2**63 - 1
"""Seeds are 63-bit, like the per-deal seeds derived from them."""
MAX_SHEETS = 2000
"""The most sheets one pad may print (the published pad has 80)."""
SEED_HELP = f"0..{MAX_SEED}"

MAX_BOT_NAME = 40
MAX_RUN_GAMES = 10**8
"""The most games per point a workbench run (price, sweep, ladder) may ask for."""


def seed_range() -> dict:
    """typer.Option keywords that bound a seed: 0..2^63-1, like the per-deal seeds derived from it."""
    return {"min": 0, "max": MAX_SEED}


def check_run(games: int, workers: int, scheduler: str | None = None, max_games: int = MAX_RUN_GAMES,
              seed: int | None = None) -> None:
    """The counts of a run of games, first thing in a command (before the simulator and its
    kernels are imported): UsageError with the same words as the simulator's own checks."""
    if games <= 0:
        raise UsageError(f"--games must be a positive number of games, got {games}")
    if games > max_games:
        raise UsageError(f"--games must be at most {max_games}, got {games}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be 0..{MAX_SEED}, got {seed}")
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if scheduler is not None and "://" not in scheduler:
        raise UsageError(f"--scheduler '{scheduler[:60]}': expected an address like tcp://HOST:PORT")


def check_fraction(value: float | None, option: str, low: float = 0.0, high: float = math.inf,
                   open_low: bool = True, open_high: bool = False) -> None:
    """A decimal option within its stated range (NaN and infinities never are)."""
    if value is None:
        return
    above = value > low if open_low else value >= low
    below = value < high if open_high else value <= high
    if not (math.isfinite(value) and above and below):
        span = f"{'(' if open_low else '['}{low:g}, {high:g}{')' if open_high or math.isinf(high) else ']'}"
        raise UsageError(f"{option} must be a finite number in {span}, got {value:g}")


_RANGE_TEXT = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+))?\s*$")


def range_count(text: str, where: str) -> None:
    """A values text (`A..B[:STEP]` or `a,b,c`) of at most setpath.MAX_VALUES values, judged from
    its numbers before anything is built; the key's own range is checked later, against the
    edition. UsageError naming `where`."""
    from toolkit.workbench.setpath import MAX_VALUES

    match = _RANGE_TEXT.match(text)
    if match:
        digits = max(len(match[1]), len(match[2]), len(match[3] or ""))
        if digits > 18:
            raise UsageError(f"{where}: {text.strip()[:40]!r} holds a number of {digits} digits; values are small "
                             "whole numbers, e.g. 0..8 or 0..12:3")
        a, b, step = int(match[1]), int(match[2]), int(match[3] or 1)
        if step >= 1 and b >= a and (b - a) // step + 1 > MAX_VALUES:
            raise UsageError(f"{where}: {text.strip()[:40]} is {(b - a) // step + 1:,} values; at most {MAX_VALUES}")
    elif text.count(",") + 1 > MAX_VALUES and "[" not in text:
        raise UsageError(f"{where}: {text.count(',') + 1:,} values; at most {MAX_VALUES}")


def values_text(value: Optional[str]) -> Optional[str]:
    """Callback of `--values` (price): a range judged from its numbers while parsing."""
    if value is not None:
        try:
            range_count(value, "--values")
        except UsageError as error:
            raise typer.BadParameter(str(error).removeprefix("--values: ")) from None
    return value


def settings_text(values: Optional[list]) -> Optional[list]:
    """Callback of `--set KEY=VALUES` (sweep): each range judged from its numbers while parsing."""
    for text in values or ():
        key, sep, rest = text.partition("=")
        if sep:
            try:
                range_count(rest, f"--set {key.strip()[:40]}")
            except UsageError as error:
                raise typer.BadParameter(str(error)) from None
    return values


def distinct_ids(text: str, option: str) -> list[str]:
    """The ids of a comma-separated list (`--patches P01,P05`): none empty, none twice."""
    ids = [part.strip() for part in text.split(",")]
    if not any(ids):
        raise UsageError(f"{option} {text[:40]!r}: no id given; expected ids such as P01,P05")
    if any(not part for part in ids):
        raise UsageError(f"{option} {text[:40]!r}: an empty id between commas; expected ids such as P01,P05")
    twice = sorted({part for part in ids if ids.count(part) > 1})
    if twice:
        raise UsageError(f"{option}: {shortened(twice)} listed twice; name each id once")
    return ids


def distinct_names(names: list[str], what: str) -> list[str]:
    """Names given one per argument or option (bots of a ladder, variants of a balance): none twice."""
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"{what}: {shortened(twice)} named twice; name each once")
    return names


def path_text(text) -> Path:
    """Parser of path options: an empty name is refused here, before it would read as `.`."""
    if isinstance(text, str) and not text:
        raise typer.BadParameter("an empty name is not a path")
    return Path(text)


def output_file(value: Optional[Path]) -> Optional[Path]:
    """An --out/--record file that can be written (checked now, written at the end)."""
    if value is None:
        return None
    raw = str(value)
    if raw in ("", "."):
        raise typer.BadParameter("an empty name is not a file name")
    try:
        check_target(value)
    except ToolkitError as error:
        raise typer.BadParameter(error.render()) from None
    return value


def output_folder(value: Optional[Path]) -> Optional[Path]:
    """An --out folder: not a file or a special file, and inside a writable folder."""
    if value is None:
        return None
    if str(value) == "":
        raise typer.BadParameter("an empty name is not a folder name")
    try:
        check_target(value / ".patchwork-probe")
    except ToolkitError as error:
        raise typer.BadParameter(error.render().replace("/.patchwork-probe", "")) from None
    kind = path_kind(value)
    if kind not in (None, "a directory") or (kind is None and value.exists()):
        raise typer.BadParameter(f"{value} exists and is {kind or 'a file'}, not a folder")
    return value


def bot_list(value: Optional[str]) -> Optional[str]:
    """--bots text: comma-separated names such as `random`, `greedy`, `mcts:200`, `human`."""
    if value is None:
        return None
    names = [name.strip() for name in value.split(",")]
    for name in names:
        if not name:
            raise typer.BadParameter(f"{value[:60]!r} has an empty bot name; expected e.g. greedy,random")
        if len(name) > MAX_BOT_NAME:
            raise typer.BadParameter(f"bot name {name[:20]!r}... is {len(name):,} characters long; "
                                     "expected a name like random, greedy, automa or mcts:N")
        if name.endswith(":"):
            raise typer.BadParameter(f"bot {name!r}: the budget must be a whole number after the colon, "
                                     "e.g. mcts:2000 (or mcts alone for the default)")
    return value


def bot_lists(values: Optional[list]) -> Optional[list]:
    """Callback of a --bots that may be repeated (price's skill tiers): each list as `bot_list`."""
    for value in values or ():
        bot_list(value)
    return values


def capped_workers(value: int) -> int:
    """--workers, capped at the cores this process may use (more only queue behind each other);
    the cap is said on stderr. Values below 1 are left for the command to refuse."""
    from toolkit.sim.backends import useful_workers

    capped, reason = useful_workers(value)
    if capped != value:
        typer.echo(f"patchwork: note: --workers {value} capped at {capped} ({reason})", err=True)
    return capped


THREADS_HELP = ("Threads each search bot with a time budget (mcts:0.5s) grows its tree on: more search in the "
                "same wall time (time budgets are not reproducible anyway). Iteration budgets (mcts:2000) search on "
                "one thread, so a seed still gives the same games.")


def threads_count(value: int) -> int:
    """--threads: 1..MAX_THREADS (the registry is imported only for a value other than 1)."""
    if value == 1:
        return value
    from toolkit.bots.registry import MAX_THREADS

    if not 1 <= value <= MAX_THREADS:
        raise typer.BadParameter(f"{value} is not in 1..{MAX_THREADS}")
    return value


def threads_option():
    """The --threads option of a command that seats bots."""
    return typer.Option(1, "--threads", metavar="N", callback=threads_count, help=THREADS_HELP)


def threaded_bots(bots: Optional[str], threads: int, workers: int = 1) -> Optional[str]:
    """--bots with --threads given to its time-budget bots (toolkit.bots.registry.with_threads)."""
    return threaded_lists([bots], threads, workers)[0]


def threaded_lists(lists: list[Optional[str]], threads: int, workers: int = 1) -> list[Optional[str]]:
    """Several bot lists (price's tiers, ladder's bots) with --threads given to their time-budget
    bots; refused when none has one (None: the command's default bots). A note on stderr when the
    workers' threads together outnumber the cores: a time-budget search then gets less of a core
    than its budget says."""
    if threads == 1:
        return lists
    from toolkit.bots.registry import has_time_budget, with_threads
    from toolkit.sim.backends import usable_cores

    if not any(has_time_budget(text) for text in lists):
        shown = ", ".join(f"'{text}'" for text in lists if text) or "the default bots"
        raise UsageError(f"--threads {threads}: no bot of {shown} has a time budget; only a time budget "
                         "(e.g. mcts:0.5s) searches on several threads, an iteration budget on one so that a "
                         "seed gives the same games")
    cores = usable_cores()
    if workers * threads > cores:
        typer.echo(f"patchwork: note: --workers {workers} x --threads {threads} is {workers * threads} searching "
                   f"threads on {cores} core{'s' if cores != 1 else ''}: each time-budget search gets less of a core "
                   "than its budget, so it searches less than on free cores", err=True)
    return [None if text is None else with_threads(text, threads) for text in lists]


def shape_text(value: str) -> str:
    """A SHAPE argument holds no blanks (in a spec file, indented rows are fine; on the command
    line a blank only hides a typing mistake); the shape parser checks everything else."""
    blank = next((c for c in value if c.isspace() or not c.isprintable()), None)
    if blank is not None:
        raise typer.BadParameter(f"{value[:40]!r} holds {blank!r}; write rows of '#' and '.' joined by '/' "
                                 "with no blanks, e.g. '##./.##'")
    return value


def players_range() -> dict:
    """typer.Option keywords that bound a player count."""
    return {"min": 1, "max": MAX_SEATS}


__all__ = ["MAX_SEATS", "MAX_SEED", "MAX_SHEETS", "output_file", "output_folder", "bot_list", "capped_workers", "path_text",
           "shape_text", "players_range", "seed_range", "check_run", "check_fraction", "range_count", "values_text",
           "settings_text", "distinct_ids", "distinct_names"]
