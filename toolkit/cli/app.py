"""The `patchwork` command: a thin typer app; each command module registers its commands.

Every error a user can cause ends as one line on stderr, `patchwork: error: ...`, and a non-zero
exit code, never a traceback: a ToolkitError with its own code, a command-line mistake (unknown
option, bad value, missing argument) with 2, Ctrl-C with 130. `patchwork` alone, like
`patchwork render` alone, prints the help and exits 0.
"""
from __future__ import annotations

import errno
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from toolkit.errors import Interrupted, ToolkitError

def _click_class(name: str) -> type:
    """A click exception class, found through typer's public BadParameter (typer may carry its own
    copy of click, whose classes are not the `click` package's)."""
    return next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == name)


_ClickException = _click_class("ClickException")
_UsageError = _click_class("UsageError")

PROG = "patchwork"
USAGE_EXIT = 2
INTERRUPT_EXIT = 130


def error_line(message: str) -> str:
    """How every error is shown: one line, prefixed with the program name (a SpecError lists one
    problem per line after it)."""
    return f"{PROG}: error: {message}"


def _usage_message(error) -> str:
    message = " ".join(error.format_message().split())
    command = error.ctx.command_path if error.ctx is not None else PROG
    return f"{message} (see '{command} --help')"


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured in a test)
        pass


class _Group(TyperGroup):
    """typer's group with plain one-line errors instead of its boxed multi-line ones."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C anywhere in a command: one line and exit 130
            raise Interrupted("interrupted") from None

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _UsageError as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # `patchwork`, `patchwork render`
                typer.echo(error.ctx.get_help())
                sys.exit(0)
            typer.echo(error_line(_usage_message(error)), err=True)
            sys.exit(USAGE_EXIT)
        except _ClickException as error:  # e.g. a file argument click could not open
            typer.echo(error_line(" ".join(error.format_message().split())), err=True)
            sys.exit(error.exit_code)
        except (typer.Abort, KeyboardInterrupt):
            typer.echo(error_line("interrupted"), err=True)
            sys.exit(INTERRUPT_EXIT)
        except OSError as error:  # the terminal or pipe we print to failed (full disk, closed reader)
            _silence_stdout()
            if error.errno != errno.EPIPE:  # a closed reader (`| head`) wants no message
                where = f": {error.filename}" if error.filename else " (while printing the output)"
                typer.echo(error_line(f"{error.strerror or error}{where}"), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name=PROG,
    cls=_Group,
    help="Specs, print kits, rules engines, bots and balance simulation for the Patchwork games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"max_content_width": 100},
)


@app.callback()
def _root() -> None:
    """Specs, print kits, rules engines, bots and balance simulation for the Patchwork games."""


# Each module defines register(app). Order = order in --help.
from toolkit.cli import specs_cmds, shape_cmd, render_cmds, game_cmds, sim_cmds, deck_cmds, workbench_cmds, studio_cmd  # noqa: E402

for _module in (specs_cmds, shape_cmd, render_cmds, game_cmds, sim_cmds, workbench_cmds, deck_cmds, studio_cmd):
    _module.register(app)


def fail(error: ToolkitError) -> None:
    """Print a toolkit error as the user should see it and exit with its code."""
    typer.echo(error_line(error.render()), err=True)
    raise typer.Exit(error.exit_code)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except ToolkitError as error:  # errors raised outside a command body (e.g. option callbacks)
        typer.echo(error_line(error.render()), err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        typer.echo(error_line("interrupted"), err=True)
        sys.exit(INTERRUPT_EXIT)
