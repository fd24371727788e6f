"""Commands registered by sim_cmds (filled in by its owner)."""

import typer


def register(app: typer.Typer) -> None:
    pass
