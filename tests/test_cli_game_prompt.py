"""`patchwork play` and `replay`: the prompt's shapes, hints and help, bot loading, record paths
checked before a game, messages for options an edition cannot take, the first-compile note."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest
from cli_helpers import fails, ok, runner

from toolkit.cli import notes
from toolkit.cli.app import app
from toolkit.errors import ToolkitError, UsageError
from toolkit.geometry import Shape
from toolkit.specs import load_edition


# ----- shapes and orientation numbers ------------------------------------------------------------


def test_shapes_draws_every_orientation_in_the_notation_order():
    out = ok("play", "classic", "--seed", "1", "--bots", "random", input="shapes P17\nquit\n").stdout
    images = load_edition("classic").patch("P17").shape.orientations(True)
    assert f"P17: {len(images)} orientation(s)" in out
    block = out.split(f"P17: {len(images)} orientation(s)")[1].split("player 1>")[0].splitlines()[1:]
    header = block[0].split()
    assert header == [f"o{i}" for i in range(len(images))]
    starts = [block[0].index(label) for label in header]
    for i, image in enumerate(images):
        drawn = [line[starts[i]:starts[i] + image.width] for line in block[1:1 + image.height]]
        assert Shape.parse(drawn) == image


@pytest.mark.slow
def test_shapes_without_an_id_draws_the_market_and_unknown_ids_are_named():
    out = ok("play", "classic", "--seed", "1", "--bots", "random", input="shapes\nshapes Q99\nquit\n").stdout
    deal = json.loads(ok("deal", "classic", "--seed", "1", "--json").stdout)
    for pid in deal["window"]:
        assert f"{pid}: " in out and "orientation(s)" in out
    assert "no patch or card 'Q99' in classic" in out


@pytest.mark.slow
def test_the_board_text_draws_the_market_patches():
    out = ok("deal", "classic", "--seed", "1").stdout
    deal = json.loads(ok("deal", "classic", "--seed", "1", "--json").stdout)
    edition = load_edition("classic")
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split() == deal["window"])
    first = edition.patch(deal["window"][0]).shape
    assert [line[:first.width] for line in lines[header + 1:header + 1 + first.height]] == list(first.rows())


@pytest.mark.slow
def test_help_mentions_shapes_and_automa_only_in_automa_games():
    out = ok("play", "classic", "--seed", "1", "--bots", "random", input="help\nquit\n").stdout
    assert "shapes P17" in out and "shapes [ID ...]" in out
    assert "let Automa take its turn" not in out
    solo = ok("play", "anniversary", "--seed", "1", "--automa-level", "2", input="help\nquit\n").stdout
    assert "let Automa take its turn" in solo


def test_many_legal_actions_are_grouped_then_listed_by_orientation():
    out = ok("play", "classic", "--seed", "1", "--bots", "random", input="legal\nlegal buy P29\nquit\n").stdout
    listing = out.split("player 1> ")[1]
    assert "legal action(s), by what they take or draw" in listing and "\n  advance\n" in listing
    assert re.search(r"\n  buy P29 +\d+ placement\(s\) in 8 orientation\(s\)", listing), listing
    squares = out.split("player 1> ")[2]
    assert "start with 'buy P29';\n  per orientation, the squares of the top-left cell" in squares
    rows = [line for line in squares.splitlines() if line.startswith("  buy P29 o")]
    assert [row.split()[2] for row in rows] == [f"o{i}" for i in range(8)]
    assert all(len(line) < 80 for line in squares.splitlines())


# ----- Doodle: the cards in play are drawn --------------------------------------------------------


@pytest.mark.slow
def test_doodle_shows_the_start_card_and_the_neighbours():
    doodle = load_edition("doodle")
    text = "legal\nshapes\nstart o0 r0 c0\nquit\n"
    out = ok("play", "doodle", "--seed", "1", "--players", "2", "--bots", "greedy", input=text).stdout
    deal = json.loads(ok("deal", "doodle", "--seed", "1", "--players", "2", "--json").stdout)
    start = deal["start_cards"][0]
    assert f"start card {start}" in out
    assert f"{start}: {len(doodle.rules.start_cards[[c.id for c in doodle.rules.start_cards].index(start)].shape.orientations(True))} orientation(s)" in out
    assert "legal buy" not in out and re.search(r"\n  start o0( [A-I][1-9])+\n", out)
    assert "token card D" in out and "neighbour left D" in out and "neighbour right D" in out


# ----- bots are loaded by name --------------------------------------------------------------------


@pytest.mark.slow
def test_a_broken_bot_module_breaks_only_its_own_bot(tmp_path, monkeypatch):
    (tmp_path / "broken_bot_module.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from toolkit.bots import registry
    from toolkit.specs.models import Family

    monkeypatch.setitem(registry._ENTRIES, (Family.TIME_TRACK, "broken"),
                        registry.BotEntry("broken", Family.TIME_TRACK, registry.RANDOM, "broken_bot_module:BrokenBot"))
    monkeypatch.setattr(registry, "_failed", {})
    ok("play", "classic", "--seed", "1", "--bots", "random,random")
    for _ in range(2):  # the failure is remembered, and said again
        error = fails("play", "classic", "--seed", "1", "--bots", "broken,random")
        assert isinstance(error, UsageError)
        assert "bot 'broken' cannot be loaded: module broken_bot_module failed to import" in str(error)
        assert "no_such_module_anywhere" in str(error)
    ok("play", "classic", "--seed", "1", "--bots", "greedy,random")


@pytest.mark.slow
def test_a_random_game_imports_no_other_bot_module():
    code = textwrap.dedent("""
        import sys
        from toolkit.bots import make_bot
        from toolkit.specs import load_edition
        make_bot("random", load_edition("classic"))
        print(sorted(m for m in sys.modules if m.startswith("toolkit.bots.") and m not in ("toolkit.bots.base", "toolkit.bots.registry")))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "['toolkit.bots.random']"


@pytest.mark.slow
def test_greedy_is_the_doodle_greedy_for_doodle():
    out = ok("play", "doodle", "--seed", "2", "--players", "1", "--bots", "greedy").stdout
    assert "player 1 (greedy):" in out and "game over: player 1 " in out


# ----- record paths are checked before the game starts ---------------------------------------------


@pytest.mark.parametrize("where", ["dir", "proc"])
def test_a_bad_record_path_stops_before_the_first_move(tmp_path, where):
    target = str(tmp_path) if where == "dir" else "/proc/version"
    if where == "proc" and not __import__("os").path.exists(target):
        pytest.skip("no /proc")
    result = runner.invoke(app, ["play", "classic", "--seed", "1", "--record", target], input="advance\n")
    # refused while the command line is read, as every output target is: one usage line, exit 2
    assert result.exit_code == 2 and result.stderr.startswith("patchwork: error: ")
    assert "player 1>" not in result.stdout  # no move was asked for
    assert "--record" in result.stderr


@pytest.mark.slow
def test_bad_records_give_one_error_line_through_the_entry_point(tmp_path):
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\x00\x81")
    result = subprocess.run(
        [sys.executable, "-m", "toolkit", "replay", str(binary)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and "not UTF-8" in result.stderr


# ----- messages -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_automa_options_on_an_edition_without_automa():
    error = fails("play", "classic", "--automa-deck", "tactical", "--bots", "random,random", "--seed", "1")
    assert "classic has no Automa" in str(error) and "--automa-deck" in str(error)
    assert "anniversary" in str(error) and "played by" not in str(error)
    error = fails("play", "classic", "--bots", "random,automa", "--seed", "1")
    assert "classic has no Automa" in str(error)


# ----- the first-compile note ---------------------------------------------------------------------


def test_a_compile_is_pending_until_the_module_is_cached(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tiny_kernel_for_note.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    module = importlib.import_module("tiny_kernel_for_note")
    try:
        if not hasattr(module.twice, "_cache"):
            pytest.skip("numba JIT is disabled in this run")
        assert notes.compile_pending(["tiny_kernel_for_note"])
        assert module.twice(3) == 6
        assert not notes.compile_pending(["tiny_kernel_for_note"])
    finally:
        sys.modules.pop("tiny_kernel_for_note", None)


# ----- a friendly prompt ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition, bots", [("classic", "human,greedy"), ("classic-revised", "human,greedy"),
                                           ("christmas", "human,greedy"), ("express", "human,greedy"),
                                           ("anniversary", "human,automa"), ("doodle", "human")])
@pytest.mark.slow
def test_every_edition_gives_a_hint(edition, bots):
    out = ok("play", edition, "--seed", "1", "--bots", bots, input="hint\nquit\n").stdout
    assert "hint for player 1: " in out and "no hint" not in out


@pytest.mark.slow
def test_the_time_track_hint_says_what_it_expects_and_why():
    out = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", input="hint\nquit\n").stdout
    hint = out.split("hint for player 1: ")[1]
    assert "expects: player 1 wins " in hint and " points " in hint
    assert "why: " in hint and "buttons" in hint and "leaves player 2" in hint


@pytest.mark.slow
def test_a_game_without_a_seed_gets_one_and_says_it(tmp_path):
    record = tmp_path / "game.json"
    out = ok("play", "classic", "--bots", "random,random", "--record", str(record)).stdout
    seed = int(out.split("seed ", 1)[1].split()[0])
    assert f"play this deal again with --seed {seed}" in out
    assert json.loads(record.read_text())["seed"] == seed
    assert "final scores:" in ok("play", "doodle", "--bots", "greedy").stdout


@pytest.mark.slow
def test_a_resumed_game_goes_on_exactly_as_it_would_have(tmp_path):
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    moves = "advance\nadvance\nadvance\n"
    ok("play", "classic", "--seed", "6", "--bots", "human,mcts:30", "--record", str(whole), input=moves + "quit\n")
    ok("play", "classic", "--seed", "6", "--bots", "human,mcts:30", "--record", str(part), input="advance\nquit\n")
    out = ok("play", "--resume", str(part), input="advance\nadvance\nquit\n").stdout
    assert "resuming" in out
    assert json.loads(part.read_text())["actions"] == json.loads(whole.read_text())["actions"]


@pytest.mark.slow
def test_resume_refusals(tmp_path):
    record = tmp_path / "game.json"
    ok("play", "classic", "--seed", "6", "--bots", "random,random", "--record", str(record))
    assert "is finished" in str(fails("play", "--resume", str(record)))
    assert "leave out EDITION, --seed" in str(fails("play", "classic", "--seed", "1", "--resume", str(record)))
    assert "name an EDITION" in str(fails("play"))


@pytest.mark.slow
def test_mistyped_words_get_a_suggestion():
    listed = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", input="legal buy\nquit\n").stdout
    action = " ".join(next(line.split()[:4] for line in listed.splitlines() if line.startswith("  buy P")))
    patch = action.split()[1]
    typed = f"advnce\nhnit\nbuy {patch}\nbyu {action[4:]}\nquit\n"
    out = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", input=typed).stdout
    assert "(did you mean 'advance'?)" in out and "(did you mean 'hint'?)" in out
    assert f"legal action(s) start with 'buy {patch}'" in out and f"'legal buy {patch}' lists them" in out
    assert f"(did you mean '{action}'?)" in out


def test_undo_takes_back_the_person_and_the_bots_after(tmp_path):
    out = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", input="advance\nundo\nundo\nquit\n").stdout
    assert "took back 'advance' and the bots' replies after it" in out
    assert "nothing to undo: no action of a person yet" in out


def test_the_board_in_a_pipe_has_ids_tokens_and_marks_but_no_colour():
    text = "buy P17 o0 r0 c0\nquit\n"
    out = ok("play", "classic", "--seed", "1", "--bots", "human,random", input="legal buy\n" + text).stdout
    assert "\x1b" not in out
    track = next(line for line in out.splitlines() if line.startswith("time "))
    assert "X" in track  # both tokens on the start space
    assert "7x7 bonus tile (+7): open" in out and "; on 0 ($ in 5, L in 20)" in out


@pytest.mark.slow
def test_doodle_board_marks_the_scored_rectangle_and_the_specials():
    game_input = "".join(["hint\n"] * 1) + "quit\n"
    out = ok("play", "doodle", "--seed", "2", "--bots", "greedy", input=game_input).stdout
    assert "specials: NEIGHBOUR [" in out and "latest: * " in out
    assert re.search(r"round 3: scored [A-I][1-9] \d+x\d+ = ", out)
    assert "edges of the rectangle scored in round 1, 2, 3" in out


@pytest.mark.slow
def test_a_preview_keeps_what_chance_brings_next_hidden():
    hint = ok("play", "doodle", "--seed", "5", input="hint\nquit\n").stdout
    move = hint.split("hint for player 1: ")[1].splitlines()[0].strip()
    out = ok("play", "doodle", "--seed", "5", input=f"{move} ?\nquit\n").stdout
    preview = out.split("player 1> ", 1)[1].split("player 1> ")[0]
    assert f"PREVIEW of '{move}'" in preview and "what chance brings next shows once the action is played" in preview
    assert "roll " not in preview and "token card" not in preview and "then: " not in preview


# ----- one way to name a square ------------------------------------------------------------------


@pytest.mark.slow
def test_a_square_reads_back_into_the_record_form_for_every_legal_action():
    # what a person reads (C5) is read back into what records keep (r4 c2), for both families;
    # the record form itself is still read, and patch ids or cut lines are never taken for squares
    from toolkit.games.squares import machine_text, parse_square, people_text, square_name
    from toolkit.play import new_game

    for edition in ("classic", "doodle"):
        game = new_game(load_edition(edition), 3, None)
        for _ in range(6):
            actions = [str(a) for a in game.legal_actions()]
            for text in actions:
                shown = people_text(text)
                assert not re.search(r"\br\d+ c\d+\b", shown), shown
                assert machine_text(shown) == text and machine_text(text) == text
                assert game.parse_action(machine_text(shown.upper())) == game.parse_action(text)
            game.apply(game.legal_actions()[len(actions) // 2])
    assert square_name(4, 2) == "C5" and parse_square("c5") == (4, 2) and parse_square("P17") == (16, 15)
    assert machine_text("buy P17 o3 E3") == "buy P17 o3 r2 c4"
    assert machine_text("free D07 cut h2 a draw o0 A1") == "free D07 cut h2 a draw o0 r0 c0"
    assert people_text("score r0 c0 5x4") == "score A1 5x4"


@pytest.mark.slow
def test_the_prompt_names_squares_as_the_printed_board_does(tmp_path):
    from toolkit.games.squares import parse_square

    out = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", input="legal buy\nhelp\nquit\n").stdout
    assert "     A  B  C  D  E  F  G  H  I" in out and "\n  9  · " in out
    rows = [line.strip() for line in out.splitlines() if re.fullmatch(r"  buy P\d\d o\d( [A-I][1-9])+", line)]
    assert rows and not re.search(r"\bbuy P\d\d o\d r\d", out.split("actions (")[0])
    listed = [" ".join(row.split()[:4]) for row in rows]
    assert "buy P17 o3 E3" in out and " r2 c4" in out  # the help: the square, and the record's form still read
    record = tmp_path / "game.json"
    played = ok("play", "classic", "--seed", "1", "--bots", "human,greedy", "--record", str(record),
                input=f"{listed[0]}\nquit\n").stdout
    assert "error" not in played
    # the record keeps the machine's form, so stored records and goldens replay unchanged
    what, square = listed[0].rsplit(" ", 1)
    row, col = parse_square(square)
    assert json.loads(record.read_text())["actions"][0] == f"{what} r{row} c{col}"
    replayed = ok("replay", str(record)).stdout  # the board view, with its legend, not a letter per patch
    assert "     A  B  C  D  E  F  G  H  I" in replayed and "labels: patch ids" in replayed
