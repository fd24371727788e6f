"""The fast front door: commands that never play a game do not import numba (or any kernel), so
they answer in a fraction of a second on a cold machine."""
from __future__ import annotations

import json
import re
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
@pytest.mark.slow
def test_commands_that_do_not_play_never_import_numba(tmp_path, args):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=300)
    assert "EXIT 0" in done.stdout, done.stdout + done.stderr
    assert "LOADED \n" in done.stdout or done.stdout.rstrip().endswith("LOADED"), done.stdout


@pytest.mark.slow
def test_a_command_that_plays_does_load_the_kernel(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, "deal", "classic", "--seed", "1"],
                          capture_output=True, text=True, timeout=600)
    assert "EXIT 0" in done.stdout and "numba" in done.stdout, done.stdout + done.stderr


REFUSALS = [
    ["deal", "classic", "--seed", "-1"],
    ["deal", "classic", "--seed", "1", "--players", "3"],
    ["deal", "", "--seed", "1"],
    ["play", "classic", "--seed", str(2**64), "--bots", "random,random"],
    ["play", "classic", "--seed", "1", "--bots", "random,nope"],
    ["simulate", "classic", "--games", "0"],
    ["simulate", "classic", "--seed", "-1"],
    ["simulate", "classic", "--games", "2", "--workers", "0"],
    ["balance", "classic", "six-buttons", "--games", "0"],
    ["balance", "classic", "six-buttons", "six-buttons"],
    ["balance", "classic", "six-buttons", "--sprt", "score", "--sprt-alpha", "2"],
    ["price", "classic", "P05", "--seed", str(2**64)],
    ["price", "classic", "P05", "--values", "0..1000000000"],
    ["price", "classic", "P05", "--width", "nan"],
    ["price", "classic", "P05", "--games", "0"],
    ["sweep", "classic", "--set", "starting_buttons=0..1000000000"],
    ["sweep", "classic", "--set", "starting_buttons=4,5", "--seed", "-1"],
    ["sweep", "classic", "--set", "starting_buttons=4,5", "--sprt", "score", "--sprt-alpha", "nan"],
    ["ladder", "random", "greedy", "--seed", str(2**64)],
    ["ladder", "greedy", "greedy"],
    ["ladder", "random", "greedy", "--games", "3"],
    ["deck", "check", "six-buttons", "--games", "0"],
    ["deck", "pack", "classic", "--patches", "P01,P01"],
    ["render", "challenge", "--seed", "-1"],
    ["render", "tiles", "--format", "png", "--out", "x.pdf"],
]
"""Refusals of the commands that play games (and of a few that draw), as typed."""

REFUSAL_PROBE = """
import json, sys
from typer.testing import CliRunner
from toolkit.cli.app import app
for args in json.loads(sys.argv[1]):
    result = CliRunner().invoke(app, args)
    print(json.dumps([args, result.exit_code, "numba" in sys.modules]))
"""


@pytest.mark.slow
def test_refusals_are_decided_before_numba_is_imported(tmp_path):
    # Every refusal above, in one fresh process: the options are checked before the simulator
    # (and the compiled kernels) are imported, so a refusal costs about what starting does.
    done = subprocess.run([sys.executable, "-c", REFUSAL_PROBE, json.dumps(REFUSALS)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(rows) == len(REFUSALS), done.stdout + done.stderr
    for args, code, loaded in rows:
        assert code != 0, args
        assert not loaded, f"{' '.join(args)} loaded numba before refusing"


@pytest.mark.slow
def test_deck_generate_never_overwrites_a_file_it_did_not_write(tmp_path, monkeypatch):
    # `init deck my-deck` then `deck generate --out my-deck.yaml` once replaced the variant silently
    from typer.testing import CliRunner

    from toolkit.cli.app import app
    from toolkit.errors import UsageError

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(app, ["init", "deck", "my-deck"]).exit_code == 0
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    for out in ("my-deck.yaml", "my-deck-patches.yaml"):
        result = runner.invoke(app, ["deck", "generate", "--count", "5", "--out", out])
        message = str(result.exception)  # the command line prints it as one line, exit 2
        assert isinstance(result.exception, UsageError) and "--force" in message and "not written by" in message
        assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before
    # NAME-patches.yaml pairs with NAME.yaml, as `init deck NAME` names them; drawing again is allowed
    for seed in ("1", "2"):
        result = runner.invoke(app, ["deck", "generate", "--count", "5", "--seed", seed, "--out", "drawn-patches.yaml"])
        assert result.exit_code == 0, result.output
    assert "wrote drawn-patches.yaml: the patch set" in result.stdout
    assert "wrote drawn.yaml: the variant that plays it" in result.stdout
    assert "patches: \"drawn-patches.yaml\"" in (tmp_path / "drawn.yaml").read_text()
    forced = runner.invoke(app, ["deck", "generate", "--count", "5", "--out", "my-deck-patches.yaml", "--force"])
    assert forced.exit_code == 0 and "kind: patch-set" in (tmp_path / "my-deck-patches.yaml").read_text()


@pytest.mark.parametrize("low, verdict", [(0.44996, "undecided"), (0.45004, "meets"), (0.45, "meets")])
def test_tune_prints_an_interval_that_agrees_with_its_verdict(low, verdict):
    # '53.1% [45.0, 56.2]' beside a band from 45.0% reads as met; it must be printed so it is not
    from toolkit.reports.workbench import _target_clause

    target = {"figure": "seat-win", "value": 0.5, "scale": 0.05}
    iv = {"estimate": 0.531, "low": low, "high": 0.5624, "verdict": verdict, "more_games": None}
    text = _target_clause(target, iv)
    shown_low = float(re.search(r"\[([\d.]+),", text).group(1))
    value, scale = re.search(r"([\d.]+)% \+- ([\d.]+) pp", text).groups()
    assert (shown_low >= float(value) - float(scale) - 1e-9) == (verdict == "meets"), text


@pytest.mark.slow
def test_players_are_player_1_and_player_2_in_what_simulate_and_balance_print(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from toolkit.cli.app import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")
    runner = CliRunner()
    for args in (["simulate", "classic", "--games", "20", "--bots", "greedy,random", "--no-progress"],
                 ["balance", "classic", "six-buttons", "--games", "20", "--no-progress"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "player 1 win rate" in result.output and "player 2" in result.output, result.output
        assert not re.search(r"seats? [01]\b", result.output), result.output
        assert "points of percentage" not in result.output


@pytest.mark.slow
def test_version_names_the_commit_after_pip_install_from_a_clone(tmp_path):
    # `pip install .` builds from a copy: the commit is recorded at build time (setup.py), since the
    # installed package has no .git to ask
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(root / name, clone / name)
    for folder in ("toolkit", "specs"):
        shutil.copytree(root / folder, clone / folder, ignore=shutil.ignore_patterns("__pycache__", "BUILD_COMMIT"))
    git = ["git", "-C", str(clone), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "clone"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(clone)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and ("NewConnectionError" in done.stderr or "No matching distribution" in done.stderr):
        pytest.skip("pip cannot fetch the build backend here")
    assert done.returncode == 0, done.stderr
    assert (site / "toolkit" / "BUILD_COMMIT").read_text().strip() == commit
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from typer.testing import CliRunner; "
             "from toolkit.cli.app import app; import toolkit; assert toolkit.__file__.startswith(sys.argv[1]); "
             "print(CliRunner().invoke(app, ['--version']).output)")
    shown = subprocess.run([sys.executable, "-c", probe, str(site)], capture_output=True, text=True, cwd=tmp_path,
                           timeout=120)
    assert f"(commit {commit[:12]})" in shown.stdout, shown.stdout + shown.stderr
