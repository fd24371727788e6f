"""Shared pytest options and set-up. `--regen-golden` rewrites the golden playthroughs in
tests/golden/ instead of comparing against them (review the diff before committing).

The `patchwork` app's click command is built once per test process: typer's CliRunner otherwise
rebuilds it from the command functions' signatures on every `invoke` (about 0.1 CPU-seconds, most
of an in-process refusal's cost, and the suite runs thousands). A built command is used the way the
console script uses it, once per run: each invocation makes its own context, so nothing carries
over from one run to the next."""
from __future__ import annotations

import sys

import pytest
import typer.main
import typer.testing

_build_command = typer.main.get_command
_built: dict[str, object] = {}


def _command(app: typer.Typer) -> object:
    """The click command of `app`, built once for the toolkit's own app (any other app as typer does)."""
    root = getattr(sys.modules.get("toolkit.cli.app"), "app", None)
    if app is not root:
        return _build_command(app)
    if "root" not in _built:
        _built["root"] = _build_command(app)
    return _built["root"]


typer.testing._get_command = _command  # type: ignore[attr-defined]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.json from the current engines instead of comparing",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files."""
    return bool(request.config.getoption("--regen-golden"))
