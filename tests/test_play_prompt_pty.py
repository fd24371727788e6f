"""The play prompt as a person meets it: the real `patchwork play` on a pseudo-terminal (pexpect),
typed at like a person types: hint, preview and ok, undo (and its refusal once chance has shown
something), did-you-mean, stopping with Ctrl-D and Ctrl-C with the record kept, --resume, colour
on a terminal and none with NO_COLOR, a bot that thinks, the compile in the background.

Each step waits for the output it expects (never a fixed sleep), with timeouts generous enough for
a loaded machine and a kernel that must compile first.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

TIMEOUT = 600
"""Seconds any one step may take (a first compile on a busy machine included)."""
ROOT = Path(__file__).resolve().parents[1]


def spawn(*args: str, colour: bool = False, env: dict | None = None, cwd: Path | None = None):
    full = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "50",
            "PATCHWORK_NO_BACKGROUND_COMPILE": "1"}
    full.pop("NO_COLOR", None)
    if not colour:
        full["NO_COLOR"] = "1"
    full.update(env or {})
    child = pexpect.spawn(sys.executable, ["-m", "toolkit", *args], env=full, encoding="utf-8", timeout=TIMEOUT,
                          cwd=str(cwd or ROOT), dimensions=(50, 120))
    return child


def prompt(child, who: str = "player 1") -> str:
    """Wait for the prompt of `who`; everything printed before it."""
    child.expect_exact(f"{who}> ")
    return child.before


def finish(child) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)


@pytest.mark.slow
def test_hint_preview_ok_undo_and_did_you_mean(tmp_path):
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy")
    board = prompt(child)
    assert "time " in board and "market" in board and "7x7 bonus tile (+7): open" in board
    child.sendline("hint")
    said = prompt(child)
    assert "hint for player 1: " in said and "expects: player 1 wins" in said and "why: " in said
    child.sendline("hnit")
    assert "did you mean 'hint'?" in prompt(child)
    child.sendline("advance ?")
    preview = prompt(child)
    assert "PREVIEW of 'advance' (not played)" in preview and "type 'ok' to play it" in preview
    child.sendline("ok")
    played = prompt(child)
    assert "player 2 (greedy): " in played and "last: player 2: " in played
    child.sendline("undo")
    undone = prompt(child)
    assert "took back 'advance' and the bots' replies after it" in undone
    assert "move 1: player 1 to move" in undone
    child.sendline("undo")
    assert "nothing to undo" in prompt(child)
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.slow
def test_a_placement_preview_marks_the_cells_it_would_cover():
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy")
    prompt(child)
    child.sendline("legal buy")
    groups = prompt(child)  # grouped by patch, then one line of squares per orientation
    patch = next(line.split()[1] for line in groups.splitlines() if line.startswith("  buy P"))
    child.sendline(f"legal buy {patch}")
    listed = prompt(child)
    action = " ".join(next(line.split()[:4] for line in listed.splitlines() if line.startswith(f"  buy {patch} o")))
    child.sendline(f"preview {action}")
    preview = prompt(child)
    assert f"PREVIEW of '{action}'" in preview
    rows = [line for line in preview.splitlines() if "*" in line and line[:3].strip().isdigit()]
    assert rows, preview  # the cells the patch would cover carry the latest-placement mark
    patch = action.split()[1]
    assert f"*{patch[-2:]}" in preview
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.parametrize("edition, bots", [("classic", "human,greedy"), ("doodle", "human")])
@pytest.mark.slow
def test_each_turn_fits_a_terminal_of_80_by_24(edition, bots):
    # the board a person sees each turn, with the prompt, fits without a line wrapping or the
    # time track scrolling away; `board` then shows every detail
    child = spawn("play", edition, "--seed", "7", "--bots", bots, env={"COLUMNS": "80", "LINES": "24"})
    first = prompt(child)
    board = first[first.index("Patchwork"):].replace("\r", "")
    lines = board.rstrip("\n").split("\n")
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert len(lines) + 1 <= 24, board  # the board, its one-time 'help' line and the prompt
    child.sendline(next(a for a in ("advance", "start o0 A1") if edition == "classic" or a.startswith("start")))
    turn = prompt(child).replace("\r", "")
    shown = turn[turn.index("Patchwork"):].rstrip("\n").split("\n")
    assert all(len(line) <= 80 for line in shown) and len(shown) + 1 <= 24, turn
    assert any(line.startswith("time ") for line in shown) or edition == "doodle"
    child.sendline("board")
    assert "labels: " in prompt(child)  # the whole board on request
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.slow
def test_undo_is_refused_once_the_automa_has_drawn_a_card():
    child = spawn("play", "anniversary", "--seed", "2", "--automa-level", "3")
    prompt(child)
    child.sendline("advance")
    after = prompt(child)
    assert "Automa (automa:3): automa (Automa drew a card" in after
    child.sendline("undo")
    refused = prompt(child)
    assert "cannot undo 'advance': since then the Automa drew a card" in refused
    child.sendline("hint")
    assert "hint for player 1: " in prompt(child)  # against the Automa too
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.slow
def test_undo_is_refused_once_the_die_has_rolled_in_doodle():
    child = spawn("play", "doodle", "--seed", "3")
    prompt(child)
    child.sendline("hint")
    hint = prompt(child)
    move = hint.split("hint for player 1: ")[1].splitlines()[0].strip()
    child.sendline(move)
    after = prompt(child)
    assert "roll " in after and "last: player 1: " in after
    child.sendline("undo")
    assert "since then the die rolled" in prompt(child)
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.slow
def test_ctrl_d_stops_like_quit_and_the_game_resumes(tmp_path):
    record = tmp_path / "game.json"
    child = spawn("play", "classic", "--seed", "9", "--bots", "human,greedy", "--record", str(record))
    prompt(child)
    child.sendline("advance")
    prompt(child)
    child.sendeof()
    child.expect_exact("game stopped (end of input)")
    child.expect_exact(f"patchwork play --resume {record}")
    assert finish(child) == 0
    data = json.loads(record.read_text())
    played = len(data["actions"])
    assert data["actions"][0] == "advance" and data["final_scores"] is None and "bot_rngs" in data["resume"]

    child = spawn("play", "--resume", str(record))
    board = prompt(child)
    assert f"resuming {record}: {played} action(s) played so far" in board
    assert f"move {played + 1}: player 1 to move" in board
    child.sendline("advance")
    prompt(child)
    child.sendline("quit")
    assert finish(child) == 0
    again = json.loads(record.read_text())
    assert again["actions"][:played] == data["actions"] and again["actions"][played] == "advance"


@pytest.mark.slow
def test_ctrl_c_stops_with_130_and_keeps_the_record(tmp_path):
    record = tmp_path / "game.json"
    child = spawn("play", "classic", "--seed", "9", "--bots", "human,greedy", "--record", str(record))
    prompt(child)
    child.sendline("advance")
    prompt(child)
    child.sendintr()
    child.expect_exact("patchwork: error: interrupted")
    assert finish(child) == 130
    data = json.loads(record.read_text())
    assert data["actions"][0] == "advance" and data["final_scores"] is None


@pytest.mark.slow
def test_colour_on_a_terminal_and_none_with_no_color():
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy", colour=True)
    coloured = prompt(child)
    child.sendline("quit")
    finish(child)
    assert "\x1b[" in coloured and "on #" not in coloured
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy")
    plain = prompt(child)
    child.sendline("quit")
    finish(child)
    assert "\x1b[" not in plain.replace("\x1b[2K", "")


@pytest.mark.slow
def test_a_bot_that_thinks_says_so_and_for_how_long():
    child = spawn("play", "classic", "--seed", "4", "--bots", "human,mcts:0.8s")
    prompt(child)
    child.sendline("advance")
    child.expect_exact("player 2 (mcts:0.8s) is thinking")
    child.expect(r"player 2 \(mcts:0\.8s\): \S.*\(thought \d+\.\d s\)")
    prompt(child)
    child.sendline("quit")
    assert finish(child) == 0


def copied_cache(tmp_path: Path, *leave_out: str) -> Path:
    """A copy of this machine's kernel cache, without the files named."""
    from toolkit import jit

    if not jit.CACHE_DIR:
        pytest.skip("no kernel cache folder on this machine")
    cache = tmp_path / "cache"
    shutil.copytree(jit.CACHE_DIR, cache / Path(jit.CACHE_DIR).name, ignore=shutil.ignore_patterns(*leave_out))
    return cache


@pytest.mark.slow
def test_the_first_prompt_starts_the_background_compile(tmp_path):
    """With nothing left to compile (a copy of this machine's cache without the prompt's marker,
    nor compile's mark that everything is compiled), the background process says what it does and
    the hint waits for it at most briefly."""
    from toolkit import warmup

    cache = copied_cache(tmp_path, "prompt-warm-*", ".writable", f"{warmup.COMPILED_MARK}*")
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy",
                  env={"PATCHWORK_CACHE_DIR": str(cache), "PATCHWORK_NO_BACKGROUND_COMPILE": "0"})
    child.expect_exact("compiling the bots and the hint in the background while you think")
    prompt(child)
    child.sendline("hint")
    assert "hint for player 1: " in prompt(child)
    child.sendline("quit")
    assert finish(child) == 0


@pytest.mark.slow
def test_after_compile_the_prompt_compiles_nothing_and_says_nothing_of_it(tmp_path):
    """Once `patchwork compile` has run to its end (its mark in the cache), a game starts no
    background compile and no line speaks of compiling."""
    from toolkit import jit, warmup

    if not warmup.everything_compiled():
        pytest.skip("`patchwork compile` has not run for this source: the copy would have kernels left to compile")
    cache = copied_cache(tmp_path, "prompt-warm-*", ".writable")
    for mark in warmup.mark_paths() or []:  # in each kernel module's folder of the copy
        copied = cache / Path(jit.CACHE_DIR or "").name / os.path.relpath(mark, jit.CACHE_DIR or "")
        copied.parent.mkdir(parents=True, exist_ok=True)
        copied.write_text("every warm-up job ran\n")
    child = spawn("play", "classic", "--seed", "5", "--bots", "human,greedy",
                  env={"PATCHWORK_CACHE_DIR": str(cache), "PATCHWORK_NO_BACKGROUND_COMPILE": "0"})
    first = prompt(child)
    child.sendline("hint")
    second = prompt(child)
    child.sendline("quit")
    assert finish(child) == 0
    assert "hint for player 1: " in second
    assert "compil" not in first + second
