"""The first-compile note is said only for work that will happen: every refusal comes before it."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli_helpers import ok
from toolkit.cli import notes
from toolkit.cli.app import app
from toolkit.errors import ToolkitError

runner = CliRunner()


def refusal(*args: str) -> tuple[str, str]:
    """(the error, everything printed) of a command that must refuse its input.

    The game commands raise their ToolkitError to the app's entry point; the others print it.
    """
    result = runner.invoke(app, list(args))
    assert result.exit_code != 0, result.output
    if isinstance(result.exception, ToolkitError):
        return str(result.exception), result.output
    assert "patchwork: error: " in result.output, (result.output, result.exception)
    return result.output, result.output


@pytest.fixture
def compile_pending(monkeypatch):
    """Every command believes its kernels are about to compile, so it prints the note when it gets there."""
    monkeypatch.setattr(notes, "compile_pending", lambda modules: True)


@pytest.mark.slow
def test_a_command_that_goes_ahead_says_it_will_compile(compile_pending):
    assert notes.COMPILE_NOTE in runner.invoke(app, ["deal", "classic", "--seed", "1"]).output
    for command in ("simulate", "balance"):
        refs = ["classic", "six-buttons"] if command == "balance" else ["classic"]
        result = runner.invoke(app, [command, *refs, "--games", "2", "--no-progress"])
        assert result.exit_code == 0 and notes.COMPILE_NOTE in result.output, result.output


@pytest.mark.parametrize("args", [
    ("simulate", "classic", "--bots", "expert:3"),
    ("simulate", "doodle", "--bots", "mcts"),
    ("simulate", "classic", "--bots", "greedy"),
    ("simulate", "classic", "--games", "7"),
    ("simulate", "classic", "--scheduler", "nowhere"),
    ("balance", "classic", "six-buttons", "--bots", "expert"),
    ("balance", "classic", "doodle"),
    ("balance", "classic", "six-buttons", "--sprt", "wins"),
    ("balance", "classic", "six-buttons", "--sprt-delta", "1"),
    ("balance", "classic", "six-buttons", "--games", "100", "--sprt-delta", "0.1"),
    ("balance", "doodle", "doodle-4-rounds", "--sprt", "margin"),
    ("deal", "classic", "--seed", "1", "--players", "3"),
    ("play", "classic", "--seed", "1", "--bots", "expert,random"),
])
@pytest.mark.slow
def test_a_refusal_comes_before_the_note(compile_pending, args):
    _, printed = refusal(*args)
    assert notes.COMPILE_NOTE not in printed


@pytest.mark.slow
def test_a_record_with_the_wrong_seats_is_refused_before_the_note(tmp_path, monkeypatch):
    record = tmp_path / "game.json"
    ok("play", "classic", "--seed", "3", "--bots", "random,random", "--record", str(record))
    data = json.loads(record.read_text())
    data["seats"] = 3
    record.write_text(json.dumps(data))
    monkeypatch.setattr(notes, "compile_pending", lambda modules: True)
    error, printed = refusal("replay", str(record))
    assert "the record has seats: 3" in error and notes.COMPILE_NOTE not in printed


@pytest.mark.slow
def test_any_compile_anywhere_says_so_first(capsys):
    """The app watches numba's compiles: one that no command announced (a bot's, a hint's, a
    challenge's par) prints its own note before it runs."""
    import numpy as np

    from toolkit.cli import waiting

    waiting.watch_compiles()
    import toolkit.jit  # noqa: F401  (the watch starts with the first kernel module)

    if not waiting._installed:
        pytest.skip("numba JIT is disabled in this run")
    from numba import njit

    @njit
    def a_fresh_kernel(values):
        return values.sum() + 1

    waiting.WATCH.announced = waiting.WATCH.last_end = -1e9
    assert a_fresh_kernel(np.arange(3)) == 4
    err = capsys.readouterr().err
    assert err.count("compiling test_cli_compile_note (first run only") == 1
    waiting.announced()  # a command's own note covers the next compile
    assert a_fresh_kernel(np.arange(3.0)) == 4.0
    assert "compiling" not in capsys.readouterr().err
