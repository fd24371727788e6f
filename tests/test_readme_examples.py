"""The README's shape: a quick start per task and the two set-up commands exactly as CI runs them.
That every command it shows runs, in order, in a fresh folder, as a newcomer would type it after
activating the virtual environment, tests/test_guide_commands.py checks with every guide page."""
from __future__ import annotations

import re
from pathlib import Path

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
