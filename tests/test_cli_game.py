"""`patchwork deal`, `play` and `replay` end to end, for both families, including bad input."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import fails, ok, runner

from toolkit.cli.app import app
from toolkit.errors import ToolkitError, UsageError

PATCHWORK = [sys.executable, "-m", "toolkit"]


@pytest.mark.slow
def test_deal_json_is_the_same_for_the_same_seed():
    a = ok("deal", "classic", "--seed", "42", "--json").stdout
    b = ok("deal", "classic", "--seed", "42", "--json").stdout
    c = ok("deal", "classic", "--seed", "43", "--json").stdout
    assert a == b and a != c
    deal = json.loads(a)
    assert deal["circle"][-1] == "P00" and len(deal["window"]) == 3
    assert deal["time_track"]["leather_patches"] == [20, 26, 32, 44, 50]


@pytest.mark.slow
def test_deal_of_a_variant_file(tmp_path):
    variant = tmp_path / "rich.yaml"
    variant.write_text("kind: variant\nname: rich\ntitle: Rich\nextends: express\nstarting_buttons: 9\n")
    deal = json.loads(ok("deal", str(variant), "--seed", "1", "--json").stdout)
    assert deal["starting_buttons"] == [9, 9] and len(deal["circle"]) == 15


@pytest.mark.slow
def test_deal_text_draws_the_board():
    out = ok("deal", "express", "--seed", "3").stdout
    assert "market (" in out and "time track" in out


@pytest.mark.slow
def test_bots_play_to_the_end_and_the_record_replays(tmp_path):
    record = tmp_path / "game.json"
    out = ok("play", "classic", "--seed", "7", "--bots", "random,random", "--record", str(record)).stdout
    final = [line for line in out.splitlines() if line.startswith("final scores:")][0]
    data = json.loads(record.read_text())
    assert data["players"] == ["random", "random"] and data["final_scores"] is not None
    replayed = ok("replay", str(record)).stdout
    assert final.split(":", 1)[1].strip() in replayed.replace("final scores: ", "")


@pytest.mark.slow
def test_same_seed_same_record_bytes(tmp_path):
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        ok("play", "express", "--seed", "11", "--bots", "random,random", "--record", str(path))
    assert paths[0].read_bytes() == paths[1].read_bytes()


@pytest.mark.slow
def test_play_against_automa_with_level_and_deck(tmp_path):
    record = tmp_path / "solo.json"
    ok(
        "play", "anniversary", "--seed", "2", "--bots", "random,automa",
        "--automa-level", "5", "--automa-deck", "tactical", "--record", str(record),
    )
    data = json.loads(record.read_text())
    assert data["options"] == {"automa_level": 5, "automa_deck": "tactical"}
    assert data["players"] == ["random", "automa:5"]
    ok("replay", str(record))


def test_automa_cannot_take_the_first_seat():
    error = fails("play", "anniversary", "--seed", "1", "--bots", "automa,random")
    assert isinstance(error, UsageError) and "seat 2" in str(error)


def test_a_human_gets_help_legal_moves_and_error_messages():
    text = "help\nlegal buy\nbuy P99 o0 r0 c0\nadvance\nquit\n"
    out = ok("play", "classic", "--seed", "1", "--bots", "random", input=text).stdout
    assert "buy P17 o3 r2 c4" in out  # the notation help
    assert "legal action(s)" in out
    assert "error: illegal action 'buy P99 o0 A1': there is no patch P99" in out  # as a person names the square
    assert "player 2 (random):" in out
    assert "game stopped" in out


@pytest.mark.slow
def test_two_humans_and_a_partial_record(tmp_path):
    record = tmp_path / "partial.json"
    ok("play", "classic", "--seed", "1", "--record", str(record), input="advance\nadvance\nquit\n")
    data = json.loads(record.read_text())
    assert data["actions"] == ["advance", "advance"] and data["final_scores"] is None
    assert "game not finished" in ok("replay", str(record)).stdout


@pytest.mark.slow
def test_input_ending_early_stops_the_game_like_quit(tmp_path):
    record = tmp_path / "stopped.json"
    out = ok("play", "classic", "--seed", "1", "--record", str(record), input="advance\n").stdout
    assert "game stopped (end of input)" in out and f"patchwork play --resume {record}" in out
    assert json.loads(record.read_text())["actions"] == ["advance"]


@pytest.mark.slow
def test_unknown_bot_and_too_many_bots():
    assert "unknown bot 'nobody'" in str(fails("play", "classic", "--seed", "1", "--bots", "nobody,random"))
    assert "names 3 players" in str(fails("play", "classic", "--seed", "1", "--bots", "random,random,random"))


@pytest.mark.slow
def test_doodle_deal_and_bot_game(tmp_path):
    deal = json.loads(ok("deal", "doodle", "--seed", "5", "--players", "3", "--json").stdout)
    assert deal
    record = tmp_path / "doodle.json"
    log = ok("play", "doodle", "--seed", "5", "--players", "2", "--bots", "random,random", "--record", str(record)).stdout
    data = json.loads(record.read_text())
    assert data["seats"] == 2 and data["final_scores"] is not None
    ok("replay", str(record))
    # Every player's round score is printed (not `None` for all but the last seat).
    for player in (1, 2):
        assert len(re.findall(rf"player {player} scores -?\d+", log)) == 3, log
    assert "scores None" not in log
    # The record holds every roll and current card: 6 + 6 + 5 rolled turns and the final free choice.
    turns = data["chance"]
    assert [(t["round"], t["turn"]) for t in turns] == (
        [(r, t) for r in (1, 2) for t in range(1, 7)] + [(3, t) for t in range(1, 6)] + [(3, "final")])
    deck = {card["id"] for card in data["edition"]["spec"]["patches"]}
    for t in turns[:-1]:
        assert t["roll"] in (1, 2, 3) and t["card"] in deck and len(t["drawn"]) == 2
    assert turns[-1]["roll"] is None and turns[-1]["card"] is None


# ----- through the real entry point: one error line, exit code, no traceback --------------------

def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*PATCHWORK, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.slow
def test_replay_of_a_bad_record_names_the_action_and_exits_1(tmp_path):
    record = tmp_path / "game.json"
    ok("play", "classic", "--seed", "3", "--bots", "random,random", "--record", str(record))
    data = json.loads(record.read_text())
    data["actions"][4] = "leather r0 c0"
    record.write_text(json.dumps(data))
    result = run_cli("replay", str(record))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: action 4 ('leather r0 c0'): illegal action")
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_unknown_edition_exits_2_without_output_file(tmp_path):
    record = tmp_path / "never.json"
    result = run_cli("play", "no-such-edition", "--seed", "1", "--bots", "random,random", "--record", str(record))
    assert result.returncode == 2 and result.stderr.startswith("patchwork: error: ")
    assert "Traceback" not in result.stderr
    assert not record.exists()


# ----- one way from text to a bot: play and simulate read --bots alike ----------------------------


def refusal(*args: str) -> str:
    """The one-line message a command refuses with (play raises it, simulate prints it)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code != 0
    if isinstance(result.exception, ToolkitError):
        return str(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), result.stderr
    return lines[0].removeprefix("patchwork: error: ")


@pytest.mark.parametrize("bots", ["greedy,automa:3", "random,automa:2:tactical"])
@pytest.mark.slow
def test_play_and_simulate_seat_the_same_automa_texts(bots, tmp_path):
    record = tmp_path / "solo.json"
    ok("play", "anniversary", "--seed", "1", "--bots", bots, "--record", str(record))
    level, _, deck = bots.split(":", 1)[1].partition(":")
    options = json.loads(record.read_text())["options"]
    assert options == {"automa_level": int(level), "automa_deck": deck or "normal"}
    out = ok("simulate", "anniversary", "--bots", bots, "--games", "2").stdout
    assert f"automa L{level} {deck or 'normal'}" in out


@pytest.mark.parametrize("bots, message", [
    ("mcts:abc,random", "bot 'mcts:abc': the MCTS budget must be an integer"),
    ("greedy:3,random", "bot 'greedy:3': greedy takes no argument"),
    ("expert,random", "bot 'expert' plays the doodle editions only"),
    ("nobody,random", "unknown bot 'nobody'"),
    ("random,automa:9", "bot 'automa:9': the Automa level must be 1..5, got 9"),
    ("random,automa:x", "bot 'automa:x': the Automa level must be a whole number"),
    ("random,automa:3:cheating", "unknown Automa deck 'cheating' for 'anniversary'"),
])
@pytest.mark.slow
def test_play_and_simulate_refuse_a_bad_bot_text_with_the_same_line(bots, message):
    played = refusal("play", "anniversary", "--seed", "1", "--bots", bots)
    simulated = refusal("simulate", "anniversary", "--bots", bots, "--games", "2")
    assert played == simulated and message in played


@pytest.mark.slow
def test_automa_on_an_edition_without_its_deck_is_one_message_for_both():
    played = refusal("play", "classic", "--seed", "1", "--bots", "random,automa")
    simulated = refusal("simulate", "classic", "--bots", "random,automa", "--games", "2")
    assert played == simulated == "classic has no Automa deck: the automa bot needs an edition with one (anniversary)"


@pytest.mark.slow
def test_human_sits_at_the_prompt_only():
    error = refusal("simulate", "classic", "--bots", "human,random", "--games", "2")
    assert "bot 'human': a person plays only at the prompt (patchwork play)" in error
    out = ok("play", "classic", "--seed", "1", "--bots", "human,random", input="quit\n").stdout
    assert "game stopped" in out
