"""Hostile input, round four: the command line and game records, by class of failure.

3 memory an allowed value asks for (threads of a time-budget search, an iteration budget), bounded
  by what the process may still take, with the figure when refused, and never a traceback;
4 empty and absurd values (an empty bot list, a target a billion away at a scale of 1e-300, a
  shell that does not exist, final scores of a game that is not over) refused with one line;
5 echoes: no control character, undecodable byte or 131 KB value reaches the terminal raw, and
  the message names what was wrong (not an alias a file does not have, not a --bots never given);
7 decks too big to fit or pack refused with their count before they are parsed;
8 refusals decided from the options alone load neither the simulator nor the compiled kernels
  (checked in a fresh process, so it does not depend on what other tests loaded);
9 a record's labels and embedded spec are covered: a solo opponent's label, a Doodle start
  card's source edited with one recomputed hash, a Doodle record set back to format 2;
10 the completion environment: a COMP_CWORD that is not a number, an unknown instruction.

The command-line cases run through tests/test_hostile_cli.py's `run_case` (no traceback, one line,
exit code, nothing written), with `clean` adding this round's checks on what a line may show.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_hostile_cli import Case, run_case, text

from toolkit import records
from toolkit.errors import RecordError, UsageError

GOLDEN = Path(__file__).parent / "golden"
BIG = "v" * 131_072
"""A 131 KB value, as an option's value or a name."""
TERMINAL = "\x1b]0;owned\x07\x1b[2J\x00"
"""Escape sequences that retitle and clear a terminal, and a NUL."""
MAX_SHOWN = 500
"""Longest error line accepted (as test_hostile_cli.MAX_LINE; a cut value is about 100 characters)."""


def clean(message: str) -> list[str]:
    """What is wrong with how an error line shows: raw control characters, undecodable bytes
    (lone surrogates), a line too long to read."""
    wrong = []
    if any(ord(c) < 32 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in message):
        wrong.append("raw control character")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in message):
        wrong.append("undecodable byte shown as a surrogate")
    if any(len(line) > MAX_SHOWN for line in message.splitlines()):
        wrong.append("line too long")
    return wrong


def refused(case: Case, tmp_path: Path, *, unwanted: tuple[str, ...] = ()) -> str:
    """Run `case`; it must be a clean refusal. Returns the message."""
    outcome = run_case(case, tmp_path)
    problems = outcome.failures + clean(outcome.message)
    problems += [f"says {word!r}" for word in unwanted if word.lower() in outcome.message.lower()]
    assert not problems, (problems, outcome.message[:400])
    return outcome.message


def _huge_patch_set(count: int) -> str:
    shapes = ["##", "###", "####", "##/##", "#./##", "###/#..", "##./.##", "#####", ".#./###"]
    lines = ["kind: patch-set", "name: huge", "patches:"]
    for i in range(count):
        lines += [f"  - id: H{i:05d}", f"    cost: {i % 21}", f"    time: {i // 21 % 11}", f"    income: {i // 231}",
                  f"    shape: \"{shapes[i % len(shapes)]}\""]
    return "\n".join(lines) + "\n"


def _copies_patch_set() -> str:
    """60 patches of 99 copies each: 5,940 pieces in a small file."""
    return "kind: patch-set\nname: copies\npatches:\n" + "".join(
        f"  - {{id: C{i:02d}, shape: '{'#' * (1 + i % 5)}', cost: {i}, time: 1, copies: 99}}\n" for i in range(60))


def _golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def _record_file(name: str, change=None) -> str:
    record = _golden(name)
    record["toolkit_version"] = "0"
    if change:
        change(record)
    return json.dumps(record)


def _unfinished(name: str, actions: int):
    """A record of the first `actions` actions of the golden game (chance log cut to match)."""
    from toolkit.families import engine_for

    whole = _golden(name)
    edition = records.record_edition(whole)
    game = engine_for(edition).new_game(edition, whole["seed"], whole.get("seats"), **whole["options"])
    for action in whole["actions"][:actions]:
        game.apply(game.parse_action(action))
    record = records.make_record(game, whole["players"], whole["options"])
    assert record["final_scores"] is None
    return record


# ----- the cases ---------------------------------------------------------------------------------

ABSURD = [  # class 4: values that are empty, not finite or of an absurd size
    Case("tune-target-inf", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "score=inf",
                             "--no-progress"), code=2, expect=("--target",)),
    Case("tune-target-scale-zero", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "length=60~0",
                                    "--no-progress"), code=2, expect=("--target",)),
    Case("tune-target-scale-huge", ("tune", "classic", "--set", "starting_buttons=4,5", "--target",
                                    "seat-win=0.5~1e400", "--no-progress"), code=2, expect=("--target",)),
    Case("tune-target-value-huge", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "score=-1e12",
                                    "--no-progress"), code=2, expect=("--target",)),
    Case("tune-target-empty", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "",
                               "--no-progress"), code=2, expect=("--target",)),
    Case("tune-target-no-value", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "margin=",
                                  "--no-progress"), code=2, expect=("--target",)),
    Case("tune-bots-empty", ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "margin=0", "--bots", "",
                             "--no-progress"), code=2, expect=("--bots",)),
    Case("feel-bots-empty", ("feel", "classic", "--bots", "", "--no-progress"), code=2, expect=("--bots",)),
    Case("sweep-bots-empty", ("sweep", "classic", "--set", "starting_buttons=4,5", "--bots", "", "--no-progress"),
         code=2, expect=("--bots",)),
    Case("price-bots-empty-tier", ("price", "classic", "P05", "--bots", "greedy,greedy", "--bots", "",
                                   "--no-progress"), code=2, expect=("--bots",)),
    Case("price-width-huge", ("price", "classic", "P05", "--width", "1e300", "--games", "2", "--bots",
                              "random,random", "--no-progress"), code=2, expect=("--width",)),
    Case("sweep-sprt-delta-huge", ("sweep", "classic", "--set", "starting_buttons=4,5", "--sprt", "score",
                                   "--sprt-delta", "1e300", "--games", "2", "--no-progress"), code=2,
         expect=("--sprt-delta",)),
    Case("show-completion-empty", ("--show-completion", ""), code=2, expect=("--show-completion",)),
    Case("show-completion-typo", ("--show-completion=bsh",), code=2, expect=("bsh",)),
    Case("install-completion-unknown", ("--install-completion", "tcsh"), code=2, expect=("tcsh",)),
    Case("resume-scores-unfinished", ("play", "--resume", "rec.json"),
         (text("rec.json", lambda: json.dumps({**_unfinished("classic", 9), "final_scores": [5, 7]})),), code=1,
         expect=("not over",)),
    Case("replay-scores-unfinished-doodle", ("replay", "rec.json"),
         (text("rec.json", lambda: json.dumps({**_unfinished("doodle", 7), "final_scores": [1, 2, 3]})),), code=1,
         expect=("not over",)),
    Case("replay-players-missing-seat", ("replay", "rec.json"),
         (text("rec.json", lambda: _record_file("classic", lambda r: r["players"].pop())),), code=1,
         expect=("players",)),
]

ECHOES = [  # class 5: what an error line shows
    Case("echo-price-over-131k", ("price", "classic", "P05", "--over", BIG, "--no-progress"), code=2),
    Case("echo-balance-sprt-131k", ("balance", "classic", "six-buttons", "--sprt", BIG, "--no-progress"), code=2),
    Case("echo-deck-pack-board-131k", ("deck", "pack", "classic", "--board", BIG), code=2),
    Case("echo-ladder-scheduler-131k", ("ladder", "random", "greedy", "--scheduler", BIG, "--no-progress"), code=2),
    Case("echo-simulate-out-131k", ("simulate", "classic", "--out", BIG, "--no-progress"), code=2),
    Case("echo-price-scheduler-escape", ("price", "classic", "P05", "--scheduler", TERMINAL, "--no-progress"), code=2),
    Case("echo-deck-pack-out-newline", ("deck", "pack", "classic", "--out", "a\nb/c.svg"), (text("a\nb", "x"),)),
    Case("echo-deck-fit-escape", ("deck", "fit", "x" + TERMINAL + ".yaml")),
    Case("echo-validate-latin1-name", ("validate", "\udcff\udcfe.yaml")),
    Case("echo-replay-bot-escape", ("replay", "rec.json"),
         (text("rec.json", lambda: _record_file("classic", lambda r: r["players"].__setitem__(0, "gre" + TERMINAL))),),
         expect=("players[0]",)),
    Case("echo-resume-bot-nul", ("play", "--resume", "rec.json"),
         (text("rec.json", lambda: json.dumps({**_unfinished("classic", 4), "players": ["random", "ran\x00dom"]})),),
         expect=("players[1]",)),
]

BIG_DECKS = [  # class 7
    Case("deck-fit-6000-patches", ("deck", "fit", "big.yaml"), (text("big.yaml", lambda: _huge_patch_set(6000)),),
         code=2, expect=("6,000",)),
    Case("deck-pack-6000-patches", ("deck", "pack", "big.yaml", "--max-nodes", "10"),
         (text("big.yaml", lambda: _huge_patch_set(6000)),), code=2, expect=("6,000",)),
    Case("deck-pack-copies", ("deck", "pack", "copies.yaml", "--max-nodes", "10"),
         (text("copies.yaml", _copies_patch_set),), code=2, expect=("5,940",)),
    Case("deck-fit-copies", ("deck", "fit", "copies.yaml"), (text("copies.yaml", _copies_patch_set),), code=2,
         expect=("5,940",)),
]

COMPLETION = {  # class 10: the environment a completion request runs in
    "cword-word": {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_WORDS": "patchwork pl", "COMP_CWORD": "one"},
    "cword-negative": {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_WORDS": "patchwork pl", "COMP_CWORD": "-1"},
    "cword-huge": {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_WORDS": "patchwork pl", "COMP_CWORD": "9" * 40},
    "cword-empty": {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_WORDS": "patchwork pl", "COMP_CWORD": ""},
    "words-missing": {"_PATCHWORK_COMPLETE": "complete_bash", "COMP_CWORD": "1"},
    "unknown-shell": {"_PATCHWORK_COMPLETE": "complete_tcsh"},
    "unknown-instruction": {"_PATCHWORK_COMPLETE": "explode_bash"},
}

CASES = ABSURD + ECHOES + BIG_DECKS


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.slow
def test_hostile_case_is_refused_cleanly(case, tmp_path, monkeypatch):
    completion = "completion" in case.name
    if completion:  # a completion script that would be installed goes nowhere real
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
    refused(case, tmp_path)
    assert not (completion and (tmp_path / "home").exists())


@pytest.mark.parametrize("name", COMPLETION)
def test_a_bad_completion_environment_is_one_line(name, tmp_path, monkeypatch):
    for key, value in COMPLETION[name].items():
        monkeypatch.setenv(key, value)
    if "COMP_WORDS" not in COMPLETION[name]:
        monkeypatch.delenv("COMP_WORDS", raising=False)
    refused(Case(f"completion-{name}", (), code=2), tmp_path)


def test_a_good_completion_request_still_completes(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from toolkit.cli.app import app

    monkeypatch.setenv("_PATCHWORK_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "patchwork pla")
    monkeypatch.setenv("COMP_CWORD", "1")
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0 and "play" in result.output.split()


# ----- class 5: the one place lines are made printable --------------------------------------------

def test_printable_escapes_cuts_and_is_idempotent():
    from toolkit.errors import printable

    line = "bad \x00\x1b[2J\x07 name \udcff\udcfe.yaml\nsecond " + BIG + " \u202e"
    shown = printable(line)
    assert clean(shown) == [] and "\n" not in shown
    assert "\\x00\\x1b[2J\\x07" in shown and "\\xff\\xfe.yaml" in shown and "\\n" in shown and "\\u202e" in shown
    assert "[131,072 characters]" in shown and len(shown) < 200
    assert printable(shown) == shown
    assert printable("plain: --games must be positive, got 0") == "plain: --games must be positive, got 0"


def test_a_spec_problem_per_line_stays_a_line_each():
    from toolkit.errors import Problem, SpecError

    error = SpecError([Problem("a\x1b.yaml", 1, 2, "k", "bad\nvalue"), Problem("b.yaml", 3, 4, "j", BIG)])
    lines = error.render().split("\n")
    assert len(lines) == 2 and all(clean(line) == [] for line in lines)


@pytest.mark.slow
def test_a_long_list_without_aliases_is_not_blamed_on_aliases(tmp_path):
    from toolkit.specs.source import UnreadableSpec, read_tree

    path = tmp_path / "long.yaml"  # read directly: parsing 200,000 items takes seconds in any case
    path.write_text("kind: variant\nextends: classic\nname: long\nnotes: [" + ",".join(["a"] * 200_000) + "]\n")
    with pytest.raises(UnreadableSpec) as error:
        read_tree(path)
    message = error.value.problem.message
    assert "holds 200,001 YAML nodes" in message and "alias" not in message
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{','.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefgh", "bcdefghi")))
    with pytest.raises(UnreadableSpec, match="through aliases"):
        read_tree(bomb)


def test_feel_names_the_default_bots_it_chose(tmp_path):
    message = refused(Case("feel-doodle-default", ("feel", "doodle", "--games", "2", "--no-progress"), code=2,
                           expect=("default",)), tmp_path, unwanted=("--bots 'greedy'",))
    assert "--bots greedy,greedy" in message  # what to type instead


def test_the_cli_knows_the_figures_tune_reads():
    from toolkit.cli.workbench_cmds import TARGET_FIGURES
    from toolkit.workbench.ntbea import FIGURES

    assert tuple(FIGURES) == TARGET_FIGURES


# ----- class 3: memory ------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_threaded_time_budget_searches_in_the_tree_that_fits(monkeypatch):
    from toolkit.bots import mcts
    from toolkit.bots.registry import time_budget
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack.game import TimeTrackGame
    from toolkit.specs import load_edition

    game = TimeTrackGame(load_edition("classic"), 3)
    wanted = mcts.shared_tree_bytes(mcts.MAX_TIMED_ITERATIONS * 64, 9, game.quilts.shape[1])
    assert wanted > 14 * 1024**3  # what 64 threads of a time budget asked for before
    monkeypatch.setattr(mcts, "memory_left", lambda: 64 * 1024**2)
    bot = mcts.MctsBot(time_budget(0.01), threads=64)
    action = bot.choose(game, seed_state(3, 1))
    assert action in game.legal_actions()
    assert bot._shared.kept_bytes() <= 32 * 1024**2 + 1024**2  # half of what is left, give or take a row


def test_an_iteration_budget_that_does_not_fit_is_refused_with_its_figure(monkeypatch):
    from toolkit.bots import mcts
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack.game import TimeTrackGame
    from toolkit.specs import load_edition

    game = TimeTrackGame(load_edition("classic"), 3)
    monkeypatch.setattr(mcts, "memory_left", lambda: 100 * 1024**2)
    with pytest.raises(UsageError, match=r"mcts:200000 bot's search tree needs \d+ MiB; 50 MiB is free"):
        mcts.MctsBot(200_000).choose(game, seed_state(3, 1))
    with pytest.raises(UsageError, match=r"on each of 4 threads need .* GiB"):
        mcts.MctsBot(200_000, threads=4).choose(game, seed_state(3, 1))


def test_running_out_of_memory_anyway_is_one_line(tmp_path, monkeypatch):
    from toolkit.cli import game_cmds

    def exhausted(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(game_cmds, "deal_game", exhausted)
    message = refused(Case("deal-out-of-memory", ("deal", "classic", "--seed", "1"), code=1), tmp_path)
    assert "out of memory" in message


@pytest.mark.slow
def test_memory_left_is_held_to_the_address_space_limit():
    probe = ("import resource\nresource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))\n"
             "from toolkit.bots import mcts\nprint(mcts.memory_left())")
    left = int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout)
    assert 0 < left < 3 * 1024**3


# ----- class 8: refusals decided from the options load no engine --------------------------------------

HEAVY = ("numba", "toolkit.sim.shards", "toolkit.workbench.runner", "toolkit.reports.workbench")
"""Modules that mean the simulator (and its compiled kernels) loaded."""
LIGHT_REFUSALS = {
    "tune-target-typo": ["tune", "classic", "--set", "starting_buttons=4,5", "--target", "marign=0"],
    "tune-watch-unknown": ["tune", "classic", "--set", "starting_buttons=4,5", "--target", "margin=0", "--watch",
                           "P99"],
    "tune-key-unknown": ["tune", "classic", "--set", "nokey=4,5", "--target", "margin=0"],
    "tune-bots-unknown": ["tune", "classic", "--set", "starting_buttons=4,5", "--target", "margin=0", "--bots",
                          "greedy,nobody"],
    "feel-default-bots-one-seat": ["feel", "doodle", "--games", "2"],
    "feel-two-families": ["feel", "classic", "doodle", "--games", "2"],
    "feel-bots-unknown": ["feel", "classic", "--bots", "greedy,nobody"],
    "show-dpi-negative": ["show", "{record}", "--dpi", "-1"],
    "show-dpi-huge": ["show", "{record}", "--out", "x.png", "--dpi", "100000"],
    "deck-fit-too-big": ["deck", "fit", "{big}"],
}

_PROBE = """
import json, os, sys, resource
from typer.testing import CliRunner
from toolkit.cli.app import app
cases = json.loads(sys.argv[1])
CliRunner().invoke(app, ["deal", "classic", "--seed", "-1"])  # the command line built and loaded once, as in use
out = {}
for name, args in cases.items():
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        before = resource.getrusage(resource.RUSAGE_SELF)
        result = CliRunner().invoke(app, args)
        after = resource.getrusage(resource.RUSAGE_SELF)
        code = result.exception.exit_code if hasattr(result.exception, "exit_code") else result.exit_code
        report = {"code": code, "heavy": [m for m in HEAVY if m in sys.modules],
                  "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime}
        os.write(write, json.dumps(report).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.waitpid(pid, 0)
    out[name] = json.loads(data)
print(json.dumps(out))
"""


def light_refusals(tmp_path: Path) -> dict:
    """Each refusal of LIGHT_REFUSALS forked from a fresh process with the command line loaded:
    its exit code, the heavy modules it loaded and its CPU-seconds."""
    (tmp_path / "rec.json").write_text(_record_file("classic"))
    (tmp_path / "big.yaml").write_text(_huge_patch_set(6000))
    cases = {name: [a.format(record=tmp_path / "rec.json", big=tmp_path / "big.yaml") for a in args]
             for name, args in LIGHT_REFUSALS.items()}
    script = f"HEAVY = {HEAVY!r}\n" + _PROBE
    done = subprocess.run([sys.executable, "-c", script, json.dumps(cases)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_refusals_decided_from_the_options_load_no_engine(tmp_path):
    found = light_refusals(tmp_path)
    wrong = {name: r for name, r in found.items() if r["code"] != 2 or r["heavy"]}
    assert not wrong, wrong


# ----- class 9: what a record's hashes cover ----------------------------------------------------------

def _rehashed(record: dict) -> dict:
    """The record with its edition's content hash recomputed from the (edited) embedded spec."""
    from toolkit.specs.loader import edition_from_spec

    record["edition"]["content_hash"] = edition_from_spec(record["edition"]["spec"], "edited").content_hash
    return record


def _refused(record: dict, match: str) -> None:
    with pytest.raises(RecordError, match=match) as error:
        records.replay(record)
    assert "\n" not in error.value.render() and clean(error.value.render()) == []


@pytest.mark.parametrize("label", ["automa:2", "automa:3:normal", "automa:5"])
def test_a_solo_opponents_label_must_agree_with_the_options(label):
    record = _golden("anniversary")
    record["players"][1] = label
    _refused(record, "options say automa_level 3")


def test_options_naming_an_opponent_no_seat_plays_are_refused():
    record = _golden("anniversary")
    record["players"][1] = "greedy"
    _refused(record, "no player is the solo opponent")


@pytest.mark.parametrize("path", [("start_cards", 0, "source"), ("start_cards", 1, "source"), ("title",)])
def test_a_doodle_spec_edited_with_one_recomputed_hash_is_refused(path):
    record = _golden("doodle")
    where = record["edition"]["spec"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = str(where[path[-1]]) + " (edited)"
    _refused(_rehashed(record), "deal was dealt on content hash")


def test_a_doodle_record_set_back_to_format_2_is_refused():
    from toolkit.specs.loader import edition_from_spec, model_hash

    record = _golden("doodle")
    record["edition"]["spec"]["start_cards"][2]["source"] += " (edited)"
    record["format_version"] = 2
    record["edition"]["content_hash"] = model_hash(edition_from_spec(record["edition"]["spec"], "edited"))
    _refused(copy.deepcopy(record), "deal was dealt on content hash")
    record["deal"].pop("content_hash")  # and with the deal's copy of the hash taken out too
    _refused(record, "deal carries no content hash")


def test_a_record_written_before_deals_carried_the_hash_still_replays_when_its_spec_is_bundled():
    old = _golden("doodle")
    old["deal"].pop("content_hash")  # as format 3 wrote a Doodle record before this round
    assert records.replay(old).scores() == old["final_scores"]
    old["edition"]["spec"]["start_cards"][0]["source"] += " (edited)"
    _refused(_rehashed(old), "not the bundled one")


@pytest.mark.parametrize("name", ["classic", "anniversary", "doodle", "express"])
def test_the_golden_records_replay(name):
    record = _golden(name)
    assert records.replay(record).scores() == record["final_scores"]
    assert record["deal"]["content_hash"] == record["edition"]["content_hash"]


def test_a_deal_hash_that_disagrees_is_refused():
    record = _golden("classic")
    record["deal"]["content_hash"] = "0" * 64
    _refused(record, "the record was edited")


@pytest.mark.slow
def test_an_unfinished_record_still_resumes(tmp_path):
    from cli_helpers import runner
    from toolkit.cli.app import app

    path = tmp_path / "rec.json"
    path.write_text(json.dumps(_unfinished("classic", 6)))
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["final_scores"] is not None


def test_seat_labels_of_every_bot_written_by_play_are_accepted():
    record = _golden("classic")
    for label in ("mcts:0.5s:2t", "MCTS:200", "human", "greedy"):
        record["players"][0] = label
        records.replay_edition(record)
    assert records.replay(record).scores() == record["final_scores"]
