"""A `patchwork` run builds only the command it runs (toolkit.cli.app._Commands): the others are
named, listed and suggested without being built, and `--help` builds each of them once."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

import toolkit.cli.app as cli_app
from toolkit.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ["validate", "schema", "init", "shape", "build", "deal", "replay", "play", "show", "simulate", "balance",
            "price", "sweep", "ladder", "tune", "feel", "studio", "compile", "render", "export", "deck"]


@pytest.fixture
def built(monkeypatch) -> list[str]:
    """The names of the commands built from here on, by a root built afresh for each invocation
    (not the one tests/conftest.py keeps for the whole test process)."""
    names: list[str] = []
    build = cli_app._build

    def counting(info):
        names.append(info.name)
        return build(info)

    monkeypatch.setattr(cli_app, "_build", counting)
    monkeypatch.setattr(typer.testing, "_get_command", typer.main.get_command)
    return names


def test_running_a_command_builds_that_command_alone(built):
    result = CliRunner().invoke(app, ["shape", "##./.##", "--json"])
    assert result.exit_code == 0, result.output
    assert built == ["shape"]


def test_a_group_builds_its_own_commands_alone(built):
    result = CliRunner().invoke(app, ["render", "pad", "--help"])
    assert result.exit_code == 0, result.output
    assert built == ["render"]
    assert "patchwork render pad --sheets 40" in result.stdout  # its examples: habits applied on build


def test_names_and_suggestions_build_nothing(built):
    root = typer.main.get_command(app)
    assert list(root.commands) == COMMANDS  # type: ignore[attr-defined]
    assert "shape" in root.commands and "frobnicate" not in root.commands  # type: ignore[attr-defined]
    result = CliRunner().invoke(app, ["shap"])
    assert result.exit_code == 2
    assert "No such command 'shap'. Did you mean 'shape', 'schema'?" in result.stderr
    assert built == []


def test_help_builds_every_command_once(built):
    for _ in range(2):
        result = CliRunner().invoke(app, ["--help"])
        assert result.exit_code == 0, result.output
    assert sorted(built) == sorted(COMMANDS * 2)  # once for each fresh root
    root = typer.main.get_command(app)
    assert root.commands["render"] is root.commands["render"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("args", [["deal", "--bogus"], ["render", "pad", "--help"], ["frobnicate"]])
def test_help_and_refusals_do_not_import_pydantic(args):
    """typer converts option values through pydantic (0.1-0.2 CPU-seconds to import); a run that
    reads no option value (a --help, a mistyped command or option) has no need of it."""
    probe = ("import sys; from toolkit.cli.app import main; sys.argv = ['patchwork', *sys.argv[1:]]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "assert 'pydantic' not in sys.modules, 'pydantic was imported'")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", probe, *args], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert "pydantic was imported" not in result.stderr and "Traceback" not in result.stderr, result.stderr
