"""Balance experiments: variants on the same deal seeds, paired differences checked by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.sim import experiment
from toolkit.sim.botspec import parse_bots
from toolkit.bots.timetrack_loop import play_time_track
from toolkit.sim.shards import deal_generators
from toolkit.families.timetrack.results import time_track_outcomes
from toolkit.games.timetrack.tables import tables_for
from toolkit.specs import load_edition


def _balance(refs, bots, games, seed):
    request = experiment.prepare(refs, bots, games, seed)
    return experiment.balance_document(request, experiment.run(request), "cmd")


def test_a_variant_identical_to_the_base_differs_by_exactly_zero(tmp_path):
    copy = tmp_path / "same.yaml"
    copy.write_text("kind: variant\nname: same\ntitle: Classic again\nextends: classic\n")
    doc = _balance(["classic", str(copy)], "random,random", 40, 1)
    for row in doc["variants"][0]["differences"]:
        assert row["difference"]["mean"] == 0.0, row
        assert not row["difference"]["significant"]
        assert row["base"] == row["variant"]


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


def test_doodle_balance_pairs_only_the_rounds_both_editions_score():
    doc = _balance(["doodle", "doodle-4-rounds"], "random", 10, 3)
    metrics = [r["metric"] for r in doc["variants"][0]["differences"]]
    assert metrics == ["score", "empty", "round1", "round2", "round3"]
    assert [r["round"] for r in doc["variants"][0]["figures"]["rounds"]] == [1, 2, 3, 4]
    # Same seeds: round 1 starts from the same pile, start cards and rolls.
    first = doc["variants"][0]["differences"][2]
    assert first["difference"]["mean"] == 0.0


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
