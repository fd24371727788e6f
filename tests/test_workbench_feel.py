"""`patchwork feel`: each measure on hand-made standings whose answer is known, then on played games."""
from __future__ import annotations

import json

import pytest

from cli_helpers import ok
from toolkit.specs import load_edition
from toolkit.workbench import feel
from workbench_helpers import refused


def test_a_wire_to_wire_win_has_no_lead_change_and_is_decided_at_the_start():
    m = feel.game_measures([[0, 0], [3, 1], [5, 2], [9, 4]], winner=0)
    assert m.lead_changes == 0 and m.decided_at == 0 and m.winner_deficit == 0 and m.margin == 5


def test_a_comeback_counts_its_lead_changes_its_deficit_and_when_it_became_permanent():
    # seat 1 leads, seat 0 passes it at action 3, falls back at 4, leads for good from action 5 of 6
    rows = [[0, 0], [0, 4], [1, 7], [9, 8], [9, 12], [14, 12], [20, 18]]
    m = feel.game_measures(rows, winner=0)
    assert m.lead_changes == 3
    assert m.winner_deficit == 6  # 7 - 1 at action 2
    assert m.decided_at == pytest.approx(5 / 6)
    assert m.margin == 2


def test_ties_keep_the_last_leader():
    m = feel.game_measures([[0, 0], [2, 0], [2, 2], [3, 2], [3, 3], [3, 5]], winner=1)
    assert m.lead_changes == 1 and m.decided_at == pytest.approx(4 / 5)


def test_a_tie_broken_by_the_first_to_finish_is_decided_when_the_winner_stops_trailing():
    m = feel.game_measures([[0, 0], [0, 2], [5, 5]], winner=0)
    assert m.decided_at == 1.0 and m.margin == 0 and m.winner_deficit == 2


def test_a_game_without_a_single_winner_has_no_decided_at():
    m = feel.game_measures([[0, 0], [3, 3]], winner=None)
    assert m.decided_at is None and m.winner_deficit is None and m.margin == 0


def test_three_seats_compare_the_winner_with_the_best_other():
    m = feel.game_measures([[0, 0, 0], [1, 6, 2], [10, 6, 9]], winner=0)
    assert m.winner_deficit == 5 and m.margin == 1 and m.lead_changes == 1


def test_decisive_counts_the_gaps_at_or_above_the_threshold():
    m = feel.game_measures([[0, 0], [1, 0]], winner=0, gaps=[0, feel.DECISIVE - 1, feel.DECISIVE, 12])
    assert m.decisive == 2


def test_figures_give_shares_and_means_with_intervals():
    ms = [feel.game_measures([[0, 0], [0, 8], [9, 8]], winner=0),   # comeback, close
          feel.game_measures([[0, 0], [5, 0], [20, 0]], winner=0)]  # neither
    f = feel.figures(ms)
    assert f["comeback"]["estimate"] == 0.5 and f["close"]["estimate"] == 0.5
    assert f["lead_changes"]["estimate"] == 0.5 and f["winner_deficit"]["estimate"] == 4


def test_the_standing_adds_the_income_still_to_come_on_the_time_track():
    from toolkit.play import new_game
    ed = load_edition("classic")
    game = new_game(ed, 3)
    assert feel.standing(game, ed) == [float(s) for s in game.scores()]  # no income on an empty quilt yet


def test_played_games_are_seeded_and_a_variant_is_paired_with_the_base():
    ed = load_edition("express")
    a = feel.run(ed, "greedy,greedy", 4, 4)
    assert a == feel.run(ed, "greedy,greedy", 4, 4)
    assert all(m.decided_at is None or 0 <= m.decided_at <= 1 for m in a)
    d = feel.differences(a, a)
    assert d["lead_changes"]["mean"] == 0


@pytest.mark.slow
def test_feel_cli_reports_every_edition_with_definitions(tmp_path):
    out = tmp_path / "feel"
    ok("feel", "express", "express", "--games", "4", "--decisive", "--no-progress", "--out", str(out))
    doc = json.loads((out / "results.json").read_text())
    assert [e["ref"] for e in doc["editions"]] == ["express", "express"]
    assert "decisive" in doc["editions"][0]["figures"] and "standing" in doc["definitions"]
    assert doc["editions"][1]["differences"]["close"]["mean"] == 0
    assert "Definitions:" in (out / "report.md").read_text()


def test_feel_refuses_editions_of_two_families():
    assert "one rules family" in refused("feel", "classic", "doodle", "--games", "2")


def test_feel_refuses_a_solo_game():
    assert "two or more seats" in refused("feel", "doodle", "--bots", "greedy", "--games", "2")


@pytest.mark.slow
def test_feel_on_two_workers_writes_the_same_results_as_in_one_process(tmp_path):
    games = str(feel.CHUNK + 5)  # two tasks, so the second worker has one
    for workers in ("1", "2"):
        ok("feel", "express", "--games", games, "--workers", workers, "--no-progress", "--out", str(tmp_path / workers))
    one, two = ((tmp_path / w / "results.json").read_bytes() for w in ("1", "2"))
    assert one == two and b"--workers" not in one


def test_feel_refuses_no_workers():
    assert "--workers" in refused("feel", "classic", "--workers", "0", "--games", "2")


def _diff(p: float, mean: float = 1.0) -> dict:
    return {"mean": mean, "se": 0.5, "low": mean - 0.98, "high": mean + 0.98, "p_value": p, "significant": p < 0.05,
            "n": 400}


def test_holm_over_every_measure_and_variant_names_only_what_survives():
    # four tests, each below 0.05 alone; Holm: 0.01 x 4 = 0.04 survives, 0.02 x 3 = 0.06 does not, nor the rest
    adjusted = feel.family_adjusted([{"lead_changes": _diff(0.01), "decided_at": _diff(0.04)},
                                     {"lead_changes": _diff(0.02), "close": _diff(0.03)}])
    assert [d["p_value"] for d in adjusted[0].values()] == [0.01, 0.04]  # each test's own p is kept
    assert adjusted[0]["lead_changes"]["p_adjusted"] == pytest.approx(0.04)
    assert adjusted[1]["lead_changes"]["p_adjusted"] == pytest.approx(0.06)
    named = [(k, name) for k, diffs in enumerate(adjusted) for name, d in diffs.items() if d["significant"]]
    assert named == [(0, "lead_changes")]
    assert feel.multiple_testing(adjusted)["correction"] == "holm" and feel.multiple_testing(adjusted)["tests"] == 4


def test_the_verdict_sentence_names_only_the_measures_that_survive_holm():
    from toolkit.reports import workbench as report

    adjusted = feel.family_adjusted([{"lead_changes": _diff(0.029, 0.60), "decided_at": _diff(0.037, 0.04),
                                      "winner_deficit": _diff(0.00005, 2.18), "comeback": _diff(0.29),
                                      "close": _diff(0.59)}])
    doc = {"editions": [{"ref": "classic"}, {"ref": "six-buttons", "differences": adjusted[0]}],
           "multiple_testing": feel.multiple_testing(adjusted)}
    sentence = report.feel_verdict(doc)
    named, rest = sentence.split("; no other difference found")
    assert "worst deficit up" in named and "lead changes" not in named and "permanent" not in named
    assert "Holm over 5 tests" in named and "[+1.20, +3.16]" in named  # the named change with its interval
    # what the run could not have seen is said with its size, never as "does not differ"
    assert "differ" not in rest and "smallest changes these games would find" in rest and "in lead changes" in rest
    nothing = {"editions": doc["editions"][:1] + [{"ref": "same", "differences": feel.family_adjusted(
        [{"lead_changes": _diff(0.5, 0.1), "comeback": _diff(0.7, 0.01)}])[0]}],
        "multiple_testing": doc["multiple_testing"]}
    quiet = report.feel_verdict(nothing)
    assert quiet.startswith("same: no feel difference from classic found") and "pp in comebacks" in quiet
    rows = report.feel_test_rows(doc)
    assert [r[5] for r in rows] == ["no", "no", "yes", "no", "no"]


@pytest.mark.slow
def test_feel_cli_writes_raw_and_adjusted_p_and_the_sampling_unit(tmp_path):
    out = tmp_path / "feel"
    ok("feel", "express", "express", "express", "--games", "6", "--no-progress", "--out", str(out))
    doc = json.loads((out / "results.json").read_text())
    assert doc["multiple_testing"]["correction"] == "holm" and doc["multiple_testing"]["tests"] == 10
    d = doc["editions"][2]["differences"]["lead_changes"]
    assert {"p_value", "p_adjusted", "significant"} <= set(d) and not d["significant"]
    assert "its own deal" in doc["sampling_unit"] and doc["deals"] == doc["games"]
    assert "Holm p" in (out / "report.md").read_text()
