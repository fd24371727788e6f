"""Balance experiments: variants on the same deal seeds, paired differences checked by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.sim import experiment
from toolkit.sim.botspec import parse_bots
from toolkit.families.timetrack.loop import play_time_track
from toolkit.sim.shards import deal_generators
from toolkit.families.timetrack.results import time_track_outcomes
from toolkit.games.timetrack.tables import tables_for
from toolkit.specs import load_edition
from toolkit.stats import minimum_detectable


def _balance(refs, bots, games, seed):
    request = experiment.prepare(refs, bots, games, seed)
    return experiment.balance_document(request, experiment.run(request), "cmd")


@pytest.mark.slow
def test_a_variant_identical_to_the_base_differs_by_exactly_zero(tmp_path):
    copy = tmp_path / "same.yaml"
    copy.write_text("kind: variant\nname: same\ntitle: Classic again\nextends: classic\n")
    doc = _balance(["classic", str(copy)], "random,random", 40, 1)
    for row in doc["variants"][0]["differences"]:
        assert row["difference"]["mean"] == 0.0, row
        assert not row["difference"]["significant"]
        assert row["base"] == row["variant"]


@pytest.mark.slow
def test_paired_differences_match_a_hand_computation():
    games, seed = 40, 6
    doc = _balance(["classic", "six-buttons"], "greedy,random", games, seed)
    rows = {r["metric"]: r for r in doc["variants"][0]["differences"]}
    game_rngs, bot_rngs, swap = deal_generators(seed, 0, games // 2, 2)
    outcomes = []
    for name in ("classic", "six-buttons"):
        edition = load_edition(name)
        out = play_time_track(tables_for(edition).arrays, parse_bots("greedy,random", edition), game_rngs, bot_rngs, swap)
        outcomes.append(time_track_outcomes(out, 2))
    for key in ("seat0_win", "score_seat0", "margin", "plies"):
        d = (outcomes[1][key] - outcomes[0][key]) / 2.0  # per deal, per game
        mean, se = d.mean(), d.std(ddof=1) / math.sqrt(len(d))
        got = rows[key]["difference"]
        assert got["n"] == games // 2
        assert got["mean"] == pytest.approx(mean, abs=1e-6)
        assert got["se"] == pytest.approx(se, abs=1e-6)
        assert got["low"] == pytest.approx(mean - 1.959964 * se, abs=1e-5)
        assert got["significant"] == (abs(mean) > 1.959964 * se)
    # Six starting buttons for both seats: seat 0 scores more on average over the same deals.
    assert rows["score_seat0"]["variant"]["estimate"] == pytest.approx(rows["score_seat0"]["base"]["estimate"] + rows["score_seat0"]["difference"]["mean"])


@pytest.mark.slow
def test_doodle_balance_pairs_only_the_rounds_both_editions_score():
    doc = _balance(["doodle", "doodle-4-rounds"], "random", 10, 3)
    metrics = [r["metric"] for r in doc["variants"][0]["differences"]]
    assert metrics == ["score", "empty", "round1", "round2", "round3"]
    assert [r["round"] for r in doc["variants"][0]["figures"]["rounds"]] == [1, 2, 3, 4]
    # Same seeds: round 1 starts from the same pile, start cards and rolls.
    first = doc["variants"][0]["differences"][2]
    assert first["difference"]["mean"] == 0.0


@pytest.mark.slow
def test_every_variant_plays_the_same_deals_as_the_base():
    doc = _balance(["classic", "revised-leather", "cheap-p11"], "random,random", 20, 9)
    assert [v["ref"] for v in doc["variants"]] == ["revised-leather", "cheap-p11"]
    for variant in doc["variants"]:
        assert all(r["difference"]["n"] == 10 for r in variant["differences"])
        assert variant["figures"]["games"] == 20
    # Every result states its time-track layout.
    assert doc["base"]["edition"]["time_track"]["leather_patches"] == [20, 26, 32, 44, 50]
    assert doc["variants"][0]["edition"]["time_track"]["leather_patches"] == [26, 32, 38, 44, 50]
    # P11 at no cost is bought more often on the same deals.
    p11 = [next(p for p in fig["patches"] if p["id"] == "P11")["bought"]
           for fig in (doc["base"]["figures"], doc["variants"][1]["figures"])]
    assert p11[1] >= p11[0]


# ----- what the balance report says first --------------------------------------------------------


def _difference(label, metric, mean, significant):
    return {"label": label, "metric": metric,
            "difference": {"mean": mean, "low": mean - 1, "high": mean + 1, "significant": significant}}


def test_the_verdict_sentence_names_what_moved_and_whether_it_changes_who_wins():
    from toolkit.reports.simulation import variant_verdict

    variant = {"ref": "six-buttons", "differences": [
        _difference("mean score, player 1", "score0", 3.1, True), _difference("mean score, player 2", "score1", 2.9, True),
        _difference("player 1 win rate", "seat0_win", 0.01, False)]}
    assert variant_verdict(variant) == ("six-buttons: mean score, player 1 up by about 3.10, mean score, player 2 up by "
                                        "about 2.90, and no change in who wins is found.")
    variant["differences"][2] = _difference("player 1 win rate", "seat0_win", -0.04, True)
    assert variant_verdict(variant).endswith("player 1 win rate down by about 4.0 percentage points, and changes who wins.")
    assert variant_verdict({"ref": "same", "differences": []}) == "same: no figure differs significantly from the base after Holm's adjustment."


@pytest.mark.slow
def test_balance_defaults_to_greedy_and_a_random_run_is_flagged(tmp_path):
    import json

    from cli_helpers import ok

    doc = json.loads(ok("balance", "classic", "six-buttons", "--games", "20", "--no-progress", "--json").stdout)
    assert {b["name"] for b in doc["bots"]} == {"greedy"} and "--bots greedy,greedy" in doc["command"]
    out = tmp_path / "random"
    result = ok("balance", "classic", "six-buttons", "--bots", "random,random", "--games", "20", "--no-progress",
                "--out", str(out))
    assert "warning: made with random bots" in result.output
    assert "**Warning: made with random bots" in (out / "report.md").read_text()


@pytest.mark.slow
def test_an_early_sequential_stop_keeps_the_typed_games_and_labels_its_intervals(tmp_path):
    import json

    from cli_helpers import ok

    out = tmp_path / "sprt"
    ok("balance", "classic", "six-buttons", "--games", "4000", "--sprt", "score", "--no-progress", "--out", str(out))
    doc = json.loads((out / "results.json").read_text())
    assert "--games 4000" in doc["command"]
    seq = doc["sequential"]
    assert seq["games_cap"] == 4000 and seq["games_played"] == doc["variants"][0]["sprt"]["games"] < 4000
    assert "stopped early" in (out / "report.md").read_text()


@pytest.mark.slow
def test_balance_plays_until_decided_by_default_and_an_undecided_run_says_what_would_decide(tmp_path):
    import json

    from cli_helpers import ok

    # no --games: the sequential test on the seat 0 win rate; a small cap leaves it undecided
    result = ok("balance", "classic", "six-buttons", "--max-games", "200", "--no-progress", "--json")
    doc = json.loads(result.stdout)
    verdict = doc["variants"][0]["sprt"]
    assert verdict["figure"] == "seat-win" and verdict["decision"] == "undecided"
    assert doc["sequential"]["games_cap"] == 200 and doc["games"] == 200
    assert verdict["more_games"] > 0 and verdict["detectable"] > 0
    assert verdict["fixed_games"] == verdict["more_games"] + 200
    sentence = [line for line in result.output.splitlines() if line.startswith("six-buttons:")][0]
    assert "undecided after 200 games" in sentence and "more games per edition would resolve" in sentence
    assert "changes who wins" not in sentence
    assert "--sprt seat-win" in doc["command"] and "--games 200" in doc["command"]


@pytest.mark.slow
def test_a_fixed_run_adjusts_its_figures_together_and_names_what_it_could_detect():
    import json

    from cli_helpers import ok

    result = ok("balance", "classic", "six-buttons", "revised-leather", "--games", "40", "--no-progress", "--json")
    doc = json.loads(result.stdout)
    assert "sequential" not in doc and "Holm" in doc["correction"]
    diffs = [d["difference"] for v in doc["variants"] for d in v["differences"]]
    ps = sorted(d["p_value"] for d in diffs if d["p_value"] is not None)
    smallest = min(d["p_adjusted"] for d in diffs if d["p_adjusted"] is not None)
    assert smallest == pytest.approx(min(1.0, len(ps) * ps[0]), abs=1e-6)  # Holm's first step over all 12 figures
    for d in diffs:
        assert d["significant"] == (d["p_adjusted"] is not None and d["p_adjusted"] < 0.05)
        # 80 % power at Holm's strictest level, 5 % over the tests: what the verdict can find
        tests = sum(x["p_value"] is not None for x in diffs)
        assert d["se"] is None or d["detectable"] == pytest.approx(minimum_detectable(d["se"], 0.05 / tests), rel=1e-3)


@pytest.mark.parametrize("args, words", [
    (["--games", "200", "--max-games", "400"], "--max-games caps the default sequential run"),
    (["--games", "200", "--sprt-delta", "0.1"], "which --games alone turns off"),
    (["--max-games", "0"], "--max-games must be a positive number"),
])
@pytest.mark.slow
def test_balance_refuses_contradicting_counts(args, words):
    from workbench_helpers import refused

    assert words in refused("balance", "classic", "six-buttons", *args)


@pytest.mark.slow
def test_a_fixed_run_says_how_large_a_difference_its_games_could_find():
    from cli_helpers import ok

    output = ok("balance", "classic", "six-buttons", "--games", "20", "--no-progress").output
    assert ("smallest differences these 20 games could detect (80 % power at Holm's strictest level): "
            "player 1 win rate") in output
    assert "does not change who wins" not in output  # 20 games cannot say that
