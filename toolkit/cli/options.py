"""Checks shared by the option declarations of the commands: output paths, counts, bot lists.

They run while the command line is parsed, before any work, so a bad value is one usage line
(`patchwork: error: Invalid value for '--out': ...`, exit 2) and a long run never starts with a
target it cannot write.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from toolkit.errors import ToolkitError
from toolkit.fileio import MAX_SEATS, check_target, path_kind

MAX_SEED = 2**63 - 1
"""Seeds are 63-bit, like the per-deal seeds derived from them."""
MAX_SHEETS = 2000
"""The most sheets one pad may print (the published pad has 80)."""
SEED_HELP = f"0..{MAX_SEED}"

MAX_BOT_NAME = 40


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


def capped_workers(value: int) -> int:
    """--workers, capped at the cores this process may use (more only queue behind each other);
    the cap is said on stderr. Values below 1 are left for the command to refuse."""
    from toolkit.sim.backends import useful_workers

    capped, reason = useful_workers(value)
    if capped != value:
        typer.echo(f"patchwork: note: --workers {value} capped at {capped} ({reason})", err=True)
    return capped


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
           "shape_text", "players_range"]
