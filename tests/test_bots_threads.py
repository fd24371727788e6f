"""The text of a search bot on several threads (`mcts:0.5s:2t`) and what `--threads N` makes of a
`--bots` list (toolkit.bots.registry). Nothing here plays or times anything."""
from __future__ import annotations

import pytest

from toolkit.bots.registry import MAX_THREADS, Family, has_time_budget, parse_bot, with_threads
from toolkit.errors import UsageError


def test_a_time_budget_takes_threads_and_its_name_round_trips():
    spec = parse_bot("mcts:0.5s:2t", Family.TIME_TRACK)
    assert (spec.name, spec.threads, spec.iterations) == ("mcts:0.5s:2t", 2, -500_000)
    assert parse_bot(spec.name, Family.TIME_TRACK) == spec
    assert parse_bot("MCTS:0.5s:1t", Family.TIME_TRACK) == parse_bot("mcts:0.5s", Family.TIME_TRACK)
    assert parse_bot("mcts:2000", Family.TIME_TRACK).threads == 1


@pytest.mark.parametrize("text, message", [
    ("mcts:2000:2t", "only a time budget searches on several threads"),
    ("mcts:0.5s:2", "e.g. mcts:0.5s:2t"),
    ("mcts:0.5s:xt", "e.g. mcts:0.5s:2t"),
    ("mcts:0.5s:", "e.g. mcts:0.5s:2t"),
    ("mcts:0.5s:0t", f"1..{MAX_THREADS}"),
    (f"mcts:0.5s:{MAX_THREADS + 1}t", f"1..{MAX_THREADS}"),
])
def test_bad_threads_get_one_line_naming_the_bot(text, message):
    with pytest.raises(UsageError, match=message) as error:
        parse_bot(text, Family.TIME_TRACK)
    assert f"bot '{text}'" in str(error.value) and "\n" not in str(error.value)


def test_the_threads_option_goes_to_time_budgets_that_name_none():
    assert with_threads("mcts:0.5s,greedy", 2) == "mcts:0.5s:2t,greedy"
    assert with_threads("mcts:0.5s:3t, mcts:1s", 2) == "mcts:0.5s:3t,mcts:1s:2t"
    assert with_threads("mcts:2000,mcts:0.1s", 4) == "mcts:2000,mcts:0.1s:4t"
    assert with_threads("random,greedy", 1) == "random,greedy"
    assert has_time_budget("greedy,MCTS:1s") and not has_time_budget("mcts:2000,greedy")
    assert not has_time_budget(None) and not has_time_budget("mcts")


def test_the_threads_option_is_checked():
    with pytest.raises(UsageError, match="--threads must be"):
        with_threads("mcts:1s", 0)


@pytest.mark.parametrize("lists", [["mcts:2000,greedy"], ["greedy"], [None], ["greedy,greedy", "mcts:200,mcts:200"]])
def test_the_commands_refuse_threads_without_a_time_budget(lists):
    from toolkit.cli.options import threaded_lists

    with pytest.raises(UsageError, match="--threads 2: no bot of .* has a time budget"):
        threaded_lists(lists, 2)
    assert threaded_lists(lists, 1) == lists


def test_the_commands_give_threads_to_every_tier_with_a_time_budget():
    from toolkit.cli.options import threaded_lists

    assert threaded_lists(["greedy,greedy", "mcts:0.01s,mcts:0.01s"], 2, workers=1) == [
        "greedy,greedy", "mcts:0.01s:2t,mcts:0.01s:2t"]


@pytest.mark.slow
def test_the_commands_play_a_time_budget_on_two_threads_end_to_end(tmp_path):
    import json

    from cli_helpers import ok

    out = tmp_path / "ladder"
    result = ok("ladder", "greedy", "mcts:0.002s", "--threads", "2", "--games", "2", "--out", str(out), "--no-progress")
    doc = json.loads((out / "results.json").read_text())
    assert "mcts:0.002s:2t" in result.output and doc["reproducible"] is False
    result = ok("simulate", "classic", "--bots", "mcts:0.002s:2t,mcts:20", "--games", "2", "--no-progress")
    assert "mcts:0.002s:2t" in result.output


@pytest.mark.slow
def test_the_commands_refuse_threads_in_one_line():
    from workbench_helpers import refused

    for args in (("simulate", "classic", "--bots", "greedy,mcts:200", "--threads", "2"),
                 ("ladder", "greedy", "mcts:200", "--threads", "2"),
                 ("price", "classic", "P05", "--threads", "2"),
                 ("sweep", "classic", "--set", "starting_buttons=3..4", "--threads", "0"),
                 ("balance", "classic", "six-buttons", "--bots", "mcts:0.5s:2,greedy")):
        line = refused(*args)
        assert "--threads" in line or "mcts:0.5s:2t" in line, line
