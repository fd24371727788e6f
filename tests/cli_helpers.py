"""Helpers for tests that drive the `patchwork` app in-process."""
from __future__ import annotations

import typer.testing
from typer.testing import CliRunner

from toolkit.cli.app import app
from toolkit.errors import ToolkitError

runner = CliRunner()


def app_command():
    """The app's click command as CliRunner runs it: built once per test process (tests/conftest.py)."""
    return typer.testing._get_command(app)  # type: ignore[attr-defined]


def ok(*args: str, input: str | None = None):
    """Run the app; it must exit 0."""
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def fails(*args: str, input: str | None = None) -> ToolkitError:
    """Run the app; it must exit non-zero with a ToolkitError (never a stray exception)."""
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code != 0
    assert isinstance(result.exception, ToolkitError), result.exception
    return result.exception
