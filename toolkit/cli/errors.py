"""How the command line shows an error: one line on stderr, `patchwork: error: ...`, and an exit code.

The one place for it: the app's entry point (toolkit.cli.app), the commands (`fail`,
`reporting_errors`) and `--watch` (toolkit.cli.watch) all print through here, and this module
imports no command and not the app, so every module of the command line can import it.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import typer

from toolkit.cli.console import echo_error
from toolkit.errors import ToolkitError

PROG = "patchwork"
USAGE_EXIT = 2
"""A command-line mistake: an unknown option, a bad value, a missing argument."""
INTERRUPT_EXIT = 130
"""Ctrl-C."""


def _click_class(name: str) -> type:
    """A click exception class, found through typer's public BadParameter (typer may carry its own
    copy of click, whose classes are not the `click` package's)."""
    return next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == name)


ClickException = _click_class("ClickException")
"""What click raises for a command-line mistake it found (a file argument it could not open)."""
ClickUsageError = _click_class("UsageError")
"""click's command-line mistakes that come with a context (and `--help` to point at)."""


def error_line(message: str) -> str:
    """How every error is shown: one line, prefixed with the program name (a SpecError lists one
    problem per line after it)."""
    return f"{PROG}: error: {message}"


def usage_message(error: Any) -> str:
    """A click usage error as one line that names the help to read."""
    message = " ".join(error.format_message().split())
    command = error.ctx.command_path if error.ctx is not None else PROG
    return f"{message} (see '{command} --help')"


def fail(error: ToolkitError) -> None:
    """Print a toolkit error as the user should see it and exit with its code."""
    echo_error(error_line(error.render()))
    raise typer.Exit(error.exit_code)


def reporting_errors(command: Callable) -> Callable:
    """The command with a ToolkitError it raises turned into one `error: ...` line and its exit code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ToolkitError as error:
            fail(error)

    return wrapper
