"""Helpers for the workbench command tests."""
from __future__ import annotations

from typer.testing import CliRunner

from toolkit.cli.app import app

runner = CliRunner()


def refused(*args: str) -> str:
    """Run the app; it must exit non-zero with exactly one `patchwork: error: ...` line and no traceback."""
    result = runner.invoke(app, [*args, "--no-progress"])
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]
