"""Every command the README shows runs, in order, in a fresh folder, as a newcomer would type it
after activating the virtual environment (`init` makes the files the later examples use; a game
with a person in it is stopped with `quit`). The two set-up commands stay exactly as CI runs them."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from toolkit.cli.app import app

README = Path(__file__).resolve().parents[1] / "README.md"
SET_UP = (
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/patchwork compile && .venv/bin/patchwork build",
    'python3 -m venv .venv && .venv/bin/pip install ".[test]" && .venv/bin/patchwork compile && .venv/bin/python -m pytest',
)


def readme_commands() -> list[str]:
    """The `patchwork ...` lines of the README's code blocks, in order; in a set-up line, the
    `.venv/bin/patchwork ...` part."""
    text = README.read_text()
    commands = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            for part in line.split("&&"):
                part = part.strip()
                if part.startswith(".venv/bin/patchwork "):
                    part = part[len(".venv/bin/"):]
                if part.startswith("patchwork "):
                    commands.append(part)
    return commands


SEQUENTIAL = ("balance", "price")
"""Commands that play until their answer is decided (minutes): here they run with a small cap, since
this test checks that each command runs; benchmarks/audit_balance.py and the price and deck audits
check their answers at the defaults."""


def capped(words: list[str]) -> list[str]:
    """A README command's words, with `--max-games 200` added to a sequential command that has no count."""
    if words and words[0] in SEQUENTIAL and not {"--games", "--max-games"} & set(words):
        return [*words, "--max-games", "200"]
    return words


def test_the_set_up_commands_are_the_ones_ci_runs():
    text = README.read_text()
    for command in SET_UP:
        assert f"```\n{command}\n```" in text, command
    ci = (README.parent / ".ci" / "run").read_text()
    assert SET_UP[1] in ci.replace(" -q", "")


def test_the_readme_is_short_and_has_a_quick_start_per_task():
    text = README.read_text()
    assert len(text.splitlines()) <= 120
    for heading in ("## Set up", "## Print a pad or a kit", "## Play a game", "## Draw and check a new patch",
                    "## Test a variant's balance"):
        assert heading in text, heading
    assert "source .venv/bin/activate" in text and ".venv/bin/patchwork --help" in text
    assert len(readme_commands()) >= 15


def test_every_readme_command_runs_in_a_fresh_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()
    for command in readme_commands():
        result = runner.invoke(app, capped(shlex.split(command)[1:]), input="quit\n")
        assert result.exit_code == 0, (command, result.output, result.exception)
        assert "Traceback" not in result.output, command
    assert (tmp_path / "my-variant.yaml").is_file() and (tmp_path / "game.json").is_file()
    assert (tmp_path / "runs" / "mine" / "results.json").is_file()
    assert list((tmp_path / "output").glob("*.pdf"))
