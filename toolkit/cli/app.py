"""The `patchwork` command: a thin typer app; each command module registers its commands.

Errors raised as ToolkitError become one clear message on stderr and a non-zero exit code.
"""
from __future__ import annotations

import sys

import typer

from toolkit.errors import ToolkitError

app = typer.Typer(
    name="patchwork",
    help="Specs, print kits, rules engines, bots and balance simulation for the Patchwork games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

@app.callback()
def _root() -> None:
    """Specs, print kits, rules engines, bots and balance simulation for the Patchwork games."""


# Each module defines register(app). Order = order in --help.
from toolkit.cli import specs_cmds, shape_cmd, render_cmds, game_cmds, sim_cmds, deck_cmds  # noqa: E402

for _module in (specs_cmds, shape_cmd, render_cmds, game_cmds, sim_cmds, deck_cmds):
    _module.register(app)


def fail(error: ToolkitError) -> None:
    """Print a toolkit error as the user should see it and exit with its code."""
    typer.echo(f"error: {error.render()}", err=True)
    raise typer.Exit(error.exit_code)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except ToolkitError as error:  # errors raised outside a command body (e.g. option callbacks)
        typer.echo(f"error: {error.render()}", err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
