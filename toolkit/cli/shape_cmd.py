"""Commands registered by shape_cmd (filled in by its owner)."""

import typer


def register(app: typer.Typer) -> None:
    pass
