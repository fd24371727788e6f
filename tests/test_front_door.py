"""The fast front door: commands that never play a game do not import numba (or any kernel), so
they answer in a fraction of a second on a cold machine."""
from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
from typer.testing import CliRunner
from toolkit.cli.app import app
result = CliRunner().invoke(app, sys.argv[1:])
loaded = sorted(m for m in sys.modules if m == "numba" or (m.startswith("toolkit.") and (m.endswith(".kernel") or "loop" in m)))
print("EXIT", result.exit_code)
print("LOADED", ",".join(loaded))
"""


@pytest.mark.parametrize("args", [
    ["--help"],
    ["validate"],
    ["shape", "##./.##"],
    ["schema"],
    ["render", "sheet", "doodle", "--out", "{tmp}/sheet.pdf"],
    ["build", "--out", "{tmp}/kit"],
    ["simulate", "--help"],
    ["play", "--help"],
])
def test_commands_that_do_not_play_never_import_numba(tmp_path, args):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=300)
    assert "EXIT 0" in done.stdout, done.stdout + done.stderr
    assert "LOADED \n" in done.stdout or done.stdout.rstrip().endswith("LOADED"), done.stdout


def test_a_command_that_plays_does_load_the_kernel(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, "deal", "classic", "--seed", "1"],
                          capture_output=True, text=True, timeout=600)
    assert "EXIT 0" in done.stdout and "numba" in done.stdout, done.stdout + done.stderr
