"""The command line's habits: examples in every --help that parse, plain metavars, --version,
shell completion of editions, spec files, bots and patch ids, --json on stdout, colour only for a
terminal (none with NO_COLOR or in a pipe), tables that keep their row labels, and validate
reporting everything at once (guessing a missing kind)."""
from __future__ import annotations

import json
import os
import pty
import re
import select
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolkit import __version__
from toolkit.cli.app import app
from toolkit.cli.examples import EXAMPLES
from toolkit.cli.habits import commands

from cli_helpers import app_command

runner = CliRunner()
ESCAPE = "\x1b"


def _all_commands():
    return [(" ".join(path), command) for path, command in commands(app_command())]


def _leaf_context(args: list[str]):
    """Parse a command line as click would, without running the command: descend through the
    groups, then let the command parse its own arguments (callbacks included)."""
    root = app_command()
    command, path, parent = root, [], None
    while getattr(command, "commands", None) and args and args[0] in command.commands:
        parent = command.make_context(path[-1] if path else "patchwork", [args[0]], parent=parent,
                                      resilient_parsing=True)
        command, path, args = command.commands[args[0]], path + [args[0]], args[1:]
    return command, path, command.make_context(path[-1] if path else "patchwork", args, parent=parent)


# ----- examples and help -------------------------------------------------------------------------

@pytest.mark.slow
def test_every_command_has_one_to_three_examples():
    for name, command in _all_commands():
        examples = EXAMPLES.get(name, ())
        assert 1 <= len(examples) <= 3, name
        assert command.patchwork_examples == examples
        for example in examples:
            assert example == f"patchwork {name}".rstrip() or example.startswith(f"patchwork {name}".rstrip() + " ")
    assert set(EXAMPLES) <= {name for name, _ in _all_commands()}, "examples of a command that does not exist"


@pytest.mark.slow
def test_every_example_parses(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, examples in EXAMPLES.items():
        for example in examples:
            words = shlex.split(example)
            assert words[0] == "patchwork"
            command, path, ctx = _leaf_context(words[1:])
            with ctx:  # parsing ran every option's callback; closing undoes what they set up
                pass
            assert path[: len(name.split())] == name.split(), (example, path)  # a group's: a subcommand


@pytest.mark.slow
def test_help_ends_with_examples_and_names_values_plainly(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    for name, command in _all_commands():
        text = runner.invoke(app, [*name.split(), "--help"]).stdout
        assert "Examples:" in text, name
        tail = text.split("Examples:")[1]
        for example in EXAMPLES[name]:
            assert example in tail, (name, example)
        assert not re.search(r"<(?:int|float|str|bool|path|int range|float range|list\[\w+\])>", text), (name, text)
        assert "{" not in text.split("\n", 1)[0], (name, text)  # the usage line: EDITION, not {EDITION}
        assert "<=x<=" not in text, name
        for param in command.params:
            if getattr(param, "param_type_name", "") == "option" and not getattr(param, "is_flag", False):
                assert param.metavar and param.metavar == param.metavar.strip(), (name, param.name)
    play = runner.invoke(app, ["play", "--help"]).stdout
    assert "--seed N" in play and "--bots BOTS" in play and "Usage: patchwork play [OPTIONS] [EDITION]" in play
    assert "0..9223372036854775807" in runner.invoke(app, ["deal", "--help"]).stdout
    assert "BOTS..." in runner.invoke(app, ["ladder", "--help"]).stdout


def test_version_names_the_version_and_the_commit_of_a_checkout():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    line = result.stdout.strip()
    assert line.startswith(f"patchwork {__version__}")
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / ".git").exists():
        head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
        if head.returncode == 0:
            assert re.search(r"\(commit [0-9a-f]{12}\)$", line), line
            assert head.stdout.strip().startswith(line[-13:-1])


# ----- completion --------------------------------------------------------------------------------

def _completion_env(words: str) -> dict[str, str]:
    return {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}


def _complete_by_script(words: str, cwd: Path) -> list[str]:
    """What the installed `patchwork` script answers bash (completion answers to its name)."""
    script = Path(sys.executable).parent / "patchwork"
    done = subprocess.run([str(script)], env={**os.environ, **_completion_env(words)}, cwd=cwd, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.split()


def _complete(words: str, cwd: Path) -> list[str]:
    """The same answer from the app in this process, under the script's name (a process each would
    cost a start-up of the command line per word)."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        done = runner.invoke(app, [], env=_completion_env(words), prog_name="patchwork")
    finally:
        os.chdir(here)
    assert done.exit_code == 0, done.output
    assert done.exception is None and "Traceback" not in done.stderr, (done.exception, done.stderr)
    return done.stdout.split()


@pytest.mark.slow
def test_completion_of_editions_files_bots_patch_ids_and_words(tmp_path):
    (tmp_path / "my-variant.yaml").write_text(
        "kind: variant\nextends: classic\nadd_patches:\n  - {id: N01, shape: '#../###/..#', cost: 3, time: 3, income: 1}\n")
    (tmp_path / "notes.txt").write_text("not a spec")
    assert {"classic", "classic-revised"} <= set(_complete_by_script("patchwork play cla", tmp_path))
    assert _complete_by_script("patchwork price my-variant.yaml N", tmp_path) == \
        _complete("patchwork price my-variant.yaml N", tmp_path)
    assert {"classic", "classic-revised"} <= set(_complete("patchwork play cla", tmp_path))
    assert "six-buttons" in _complete("patchwork simulate si", tmp_path)
    assert _complete("patchwork play my", tmp_path) == ["my-variant.yaml"]
    assert _complete("patchwork validate ", tmp_path) == ["my-variant.yaml"]
    assert {"greedy,mcts", "greedy,mcts:200"} <= set(_complete("patchwork simulate classic --bots greedy,mc", tmp_path))
    assert "human" in _complete("patchwork play classic --bots ", tmp_path)
    assert {"P01", "P02"} <= set(_complete("patchwork price classic P0", tmp_path))
    assert "N01" in _complete("patchwork price my-variant.yaml N", tmp_path)
    assert _complete("patchwork init ", tmp_path) == ["variant", "deck", "edition"]
    assert _complete("patchwork render pad --paper l", tmp_path) == ["letter"]
    assert "expert" in _complete("patchwork ladder ", tmp_path)


# ----- --json ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_json_puts_the_results_document_alone_on_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "classic", "--games", "4", "--no-progress", "--json", "--out", "run"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads((tmp_path / "run" / "results.json").read_text())
    assert result.stdout == (tmp_path / "run" / "results.json").read_text()
    assert "games in" in result.stderr and "wrote" in result.stderr  # the summary is still there
    for args in (["balance", "classic", "six-buttons", "--games", "4"],
                 ["price", "classic", "P05", "--values", "0..2", "--games", "4"],
                 ["sweep", "classic", "--set", "starting_buttons=3..4", "--games", "4"],
                 ["ladder", "random", "greedy", "--games", "4"]):
        result = runner.invoke(app, [*args, "--no-progress", "--json"])
        assert result.exit_code == 0, (args, result.output)
        doc = json.loads(result.stdout)
        assert doc["command"].startswith(f"patchwork {args[0]}"), args


@pytest.mark.slow
def test_a_table_never_cuts_the_labels_of_its_rows(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    result = runner.invoke(app, ["sweep", "classic", "--set", "starting_buttons=3..4", "--set", "patches.P05.cost=0,2",
                                 "--games", "2", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    for label in ("starting_buttons=3", "patches.P05.cost=0"):
        assert label in result.stdout


# ----- colour ------------------------------------------------------------------------------------

def _in_terminal(args: list[str], env: dict, cwd: Path) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; everything it wrote."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "toolkit", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, env=env, cwd=cwd, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


COLOURED = [["--help"], ["validate", "bad.yaml"], ["shape", "##./.##"], ["render", "pad", "--frobnicate"]]


@pytest.fixture
def bad_spec(tmp_path):
    (tmp_path / "bad.yaml").write_text("kind: variant\nextends: classic\nstarting_buttons: -3\n")
    return tmp_path


@pytest.mark.slow
def test_a_terminal_gets_colour_and_no_color_turns_it_off(bad_spec):
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    coloured = {" ".join(args): _in_terminal(args, env, bad_spec) for args in COLOURED}
    assert ESCAPE in coloured["--help"] and ESCAPE in coloured["validate bad.yaml"]
    assert ESCAPE in coloured["render pad --frobnicate"]  # the error line
    for args in COLOURED:
        text = _in_terminal(args, {**env, "NO_COLOR": "1"}, bad_spec)
        assert ESCAPE not in text, (args, text)
        assert text.strip(), args


@pytest.mark.slow
def test_piped_output_holds_no_escape_codes(bad_spec):
    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    cases = COLOURED + [["sweep", "classic", "--set", "starting_buttons=3..4", "--games", "2"],
                        ["simulate", "classic", "--games", "2"]]
    for args in cases:
        done = subprocess.run([sys.executable, "-m", "toolkit", *args], env=env, cwd=bad_spec, capture_output=True,
                              text=True, timeout=600)
        assert ESCAPE not in done.stdout + done.stderr, (args, done.stdout, done.stderr)
        assert (done.stdout + done.stderr).strip(), args


# ----- validate reports everything at once -------------------------------------------------------

@pytest.mark.slow
def test_validate_guesses_a_missing_kind_and_reports_every_problem(tmp_path):
    path = tmp_path / "nokind.yaml"
    path.write_text("name: v\nextends: classic\nstarting_buttons: -3\nboard: {width: 0}\n")
    track = tmp_path / "track.yaml"
    track.write_text("id: t\nfinal_space: 9\nincome_marks: [3, 9]\nleather_patches: [4]\n")
    result = runner.invoke(app, ["validate", str(path), str(track)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any("kind: missing `kind:`" in line and "say this is a variant file" in line and "add `kind: variant`" in line
               for line in lines), lines
    assert any("starting_buttons: must be at least 0" in line for line in lines)
    assert any("board.width: must be at least 1" in line for line in lines)
    assert any("track.yaml" in line and "a time-track file" in line for line in lines)
    assert "4 error(s)" in result.stderr


def test_a_merged_variant_is_checked_even_when_another_problem_was_found(tmp_path):
    (tmp_path / "base.yaml").write_text(
        "kind: edition\nname: base\ntitle: Base\nfamily: time-track\nplayers: 2\nboard: {width: 9, height: 9}\n"
        "patches: classic\ntime_track: classic-original\nbonus: null\n")
    variant = tmp_path / "v.yaml"
    variant.write_text("kind: variant\nextends: base.yaml\nbonus: {points: 3}\nstarting_buttons: -2\n")
    result = runner.invoke(app, ["validate", str(variant)])
    assert result.exit_code == 1
    assert "bonus.square_size: missing required key 'square_size'" in result.stdout
    assert "starting_buttons: must be at least 0" in result.stdout


def test_a_file_whose_keys_say_no_kind_is_not_guessed(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("cards: []\nfinal_space: 9\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "expected one of: patch-set" in result.stdout and "say this is" not in result.stdout
