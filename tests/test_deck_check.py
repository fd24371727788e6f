"""`patchwork deck check`: errors over deals, the buy-rate test that finds patches made too dear,
changed patches told apart from the base's own, and a tuner that moves only those and never past
its target. Statistical audits over many seeds are in benchmarks/audit_deckcheck.py."""
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import ok
from toolkit.specs import load_edition
from toolkit.workbench import deckcheck as chk
from toolkit.workbench.deckcheck import BasePlay, Bracket, PatchPlay, step_to, verdicts


def _deck(tmp_path: Path, costs: dict[str, int], rename: dict[str, str] | None = None) -> Path:
    """Classic's patches as a patch set with some costs set (and ids renamed), and a variant using it."""
    from toolkit.decks.generate import patch_set_text

    rename = rename or {}
    patches = [replace(p, id=rename.get(p.id, p.id), cost=costs.get(p.id, p.cost))
               for p in load_edition("classic").patches]
    (tmp_path / "moved.yaml").write_text(patch_set_text("moved", "moved", "classic, costs moved", patches))
    variant = tmp_path / "moved-variant.yaml"
    variant.write_text("kind: variant\nname: moved-variant\ntitle: moved\nextends: classic\npatches: moved.yaml\n")
    return variant


# ----- errors over deals ----------------------------------------------------------------------


def _rows(bought: np.ndarray, won: np.ndarray, per_deal: int, costs=(2, 3)) -> dict:
    """A matchup's patch rows with the deal sums the simulator's tally keeps (games in deal order)."""
    games = bought.shape[0]
    deal = lambda x: x.reshape(-1, per_deal, x.shape[1]).sum(axis=1)  # noqa: E731
    bd, wd = deal(bought), deal(won)
    rows = []
    for i, cost in enumerate(costs):
        k, w = int(bought[:, i].sum()), int(won[:, i].sum())
        rows.append({"id": f"A{i}", "cost": cost, "bought": k, "buyer_win_rate": {"estimate": w / k},
                     "deal_sums": {"deals": games // per_deal, "per_deal": per_deal, "games": games, "bought": k,
                                   "bought_dsq": int((bd[:, i] ** 2).sum()), "won": w,
                                   "won_dsq": int((wd[:, i] ** 2).sum()),
                                   "won_bought": int((wd[:, i] * bd[:, i]).sum())}})
    return {"games": games, "patches": rows}


def test_a_deals_twin_games_are_one_unit_not_two():
    rng = np.random.default_rng(5)
    deals = 400
    bought = (rng.random((deals, 2)) < 0.7).astype(np.int64)
    won = bought * (rng.random((deals, 2)) < 0.5)
    twins = _rows(np.repeat(bought, 2, axis=0), np.repeat(won, 2, axis=0), per_deal=2)
    plays = {p.id: p for p in chk._patch_plays([twins], None)}
    a = plays["A0"]
    k = a.bought
    rate = a.buyer_wins / k
    # each deal's two games are the same game: the error is the one of `deals` games, sqrt(2) wider
    # than counting 2 x deals games one by one, and the design effect is 2
    binomial = math.sqrt(rate * (1 - rate) / k)
    assert a.se == pytest.approx(math.sqrt(2) * binomial, rel=0.03)
    assert a.design_effect == pytest.approx(2.0, rel=0.03)
    assert a.buy_se == pytest.approx(math.sqrt(2 * a.buy_rate * (1 - a.buy_rate) / a.games), rel=0.03)
    # the ratio estimator by hand: sum over deals of (wins - rate x buys)^2, D/(D-1), over buys^2
    bd, wd = 2 * bought[:, 0], 2 * won[:, 0]
    by_hand = math.sqrt(deals / (deals - 1) * ((wd - rate * bd) ** 2).sum()) / k
    assert a.se == pytest.approx(by_hand, rel=1e-9)
    # independent games (one a deal): no wider than binomial, design effect 1
    single = {p.id: p for p in chk._patch_plays([_rows(bought, won, per_deal=1)], None)}["A0"]
    assert single.design_effect == pytest.approx(1.0, abs=0.01)
    r = single.buyer_wins / single.bought
    assert single.se == pytest.approx(math.sqrt(r * (1 - r) / single.bought), rel=0.01)


# ----- verdicts -------------------------------------------------------------------------------


def _fair(pid: str) -> PatchPlay:
    return PatchPlay(pid, 3, 360, 400, 180, 0.0, 0.035, 0.015)


def test_a_patch_made_dear_is_found_by_its_buy_rate_with_a_suggested_cost():
    # P03 7 -> 10 as greedy bots play it: its advantage barely leaves the band, its buy rate collapses
    dear = PatchPlay("P03", 10, 155, 400, 58, -0.09, 0.05, 0.033, base=BasePlay(7, 322, 400, 0.028))
    plays = [dear] + [_fair(f"X{i}") for i in range(20)]
    v = verdicts(plays, 0.05, 20, compared={"P03"})
    assert v["P03"]["verdict"] == "dear" and v["P03"]["basis"] == "buy_rate"
    assert v["P03"]["suggested_cost"] == 7  # only the cost differs: the base's cost
    # without the comparison with the base the advantage alone does not find it
    alone = verdicts(plays, 0.05, 20, compared=set())
    assert alone["P03"]["verdict"] == "leans dear" and alone["P03"]["suggested_cost"] is None
    # bought in under 15% of games: rarely bought at this cost, still with its suggested cost
    rare = replace(dear, bought=40, buyer_wins=15, buy_se=0.02)
    v = verdicts([rare] + plays[1:], 0.05, 20, compared={"P03"})
    assert v["P03"]["verdict"] == "rarely bought at this cost" and v["P03"]["suggested_cost"] == 7
    # a patch whose time changed, not its cost: the cost that brings its buy rate back, at
    # BUY_LOGIT_PER_BUTTON a button
    timed = replace(dear, cost=7)
    v = verdicts([timed] + plays[1:], 0.05, 20, compared={"P03"})
    shift = timed.buy_shift()[0]
    assert v["P03"]["suggested_cost"] == math.floor(7 + shift / chk.BUY_LOGIT_PER_BUTTON + 0.5) == 5


def test_a_patch_made_cheap_is_found_both_ways_and_in_band_only_when_its_intervals_show_it():
    cheap = PatchPlay("P28", 4, 387, 400, 240, 0.16, 0.035, 0.012, base=BasePlay(7, 190, 400, 0.035))
    same = PatchPlay("P05", 2, 380, 400, 190, 0.01, 0.035, 0.012, base=BasePlay(2, 381, 400, 0.012))
    v = verdicts([cheap, same], 0.05, 20, compared={"P28", "P05"})
    assert v["P28"]["verdict"] == "cheap" and v["P28"]["suggested_cost"] == 7
    # its estimate is inside the band, but its interval (+-0.069) is wider than the band: not shown fair
    assert v["P05"]["verdict"] == "undecided" and v["P05"]["suggested_cost"] is None
    assert v["P05"]["in_band"]["p_adjusted"] >= 0.05 and v["P05"]["games_factor"] > 1
    # ten times the games: both of its measures are shown inside the band
    sure = replace(same, se=0.011, buy_se=0.004, base=BasePlay(2, 381, 400, 0.004))
    v = verdicts([cheap, sure], 0.05, 20, compared={"P28", "P05"})
    assert v["P05"]["verdict"] == "in band" and v["P05"]["in_band"]["p_adjusted"] < 0.05
    assert v["P05"]["games_factor"] is None and v["P28"]["in_band"]["p"] > 0.5
    # a patch is in band only when every measure is: an advantage shown inside does not make up for a
    # buy rate that moved from the base's by as much as the band
    moved = replace(sure, bought=330, base=BasePlay(2, 381, 400, 0.004))
    v = verdicts([cheap, moved], 0.05, 20, compared={"P28", "P05"})
    assert v["P05"]["verdict"] != "in band"
    # the advantage's own suggestion: the cost at which it is 0, ADVANTAGE_PER_BUTTON a button
    v = verdicts([replace(cheap, base=None)], 0.05, 20)
    assert v["P28"]["basis"] == "advantage" and v["P28"]["suggested_cost"] == 4 + round(0.16 / 0.05)


def test_the_games_an_undecided_patch_names_would_decide_it():
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    fair = PatchPlay("A", 3, 360, 400, 180, 0.0, 0.04, 0.015)
    factor = verdicts([fair], 0.05, 20)["A"]["games_factor"]
    # one judged patch: a one-sided 5% test, at 80% power, standard errors shrinking as 1/sqrt(games)
    assert factor == pytest.approx(((z(0.95) + z(0.8)) * 0.04 / 0.05) ** 2, abs=0.05)
    more = replace(fair, se=0.04 / math.sqrt(factor))
    assert verdicts([more], 0.05, 20)["A"]["verdict"] == "in band"
    assert verdicts([replace(fair, se=0.04 / math.sqrt(factor / 3))], 0.05, 20)["A"]["verdict"] == "undecided"
    # a leaning patch: the games that would find it outside, two-sided, at its distance from the edge
    leaning = replace(fair, advantage=0.09)
    v = verdicts([leaning], 0.05, 20)["A"]
    assert v["verdict"] == "leans cheap"
    assert v["games_factor"] == pytest.approx(((z(0.975) + z(0.8)) * 0.04 / 0.04) ** 2, abs=0.05)
    assert verdicts([replace(leaning, se=0.04 / math.sqrt(v["games_factor"]))], 0.05, 20)["A"]["verdict"] == "cheap"


def test_holm_counts_every_test_of_the_deck():
    changed = PatchPlay("C", 10, 155, 400, 58, -0.09, 0.05, 0.033, base=BasePlay(7, 322, 400, 0.028))
    plays = [changed, _fair("A"), _fair("B")]
    v = verdicts(plays, 0.05, 20, compared={"C"})
    assert set(v["C"]["tests"]) == {"advantage", "buy_rate"} and set(v["A"]["tests"]) == {"advantage"}
    shift, se = changed.buy_shift()
    edge = chk.buy_band(0.05)
    raw = math.erfc((abs(shift) - edge) / se / math.sqrt(2))
    assert v["C"]["tests"]["buy_rate"]["p_adjusted"] == pytest.approx(4 * raw, abs=1e-6)  # 4 tests, smallest p
    report = chk.CheckReport("v", "classic", 0, 0.05, 20, (), tuple(plays), origins={"C": "changed", "A": "base",
                                                                                      "B": "base"})
    assert report.as_dict()["tests"] == 4


# ----- changed against base --------------------------------------------------------------------


def test_origins_tell_changed_and_new_patches_from_the_base(tmp_path):
    variant = _deck(tmp_path, {"P03": 10}, rename={"P00": "N00"})
    found = chk.origins(load_edition(str(variant)), load_edition("classic"))
    assert found["P03"] == "changed" and found["N00"] == "new" and found["P12"] == "base"
    assert sum(o == "base" for o in found.values()) == 31


def test_the_report_says_which_findings_are_yours_and_which_the_bases():
    from toolkit.reports.deckcheck import verdict_lines

    dear = PatchPlay("P03", 10, 155, 400, 58, -0.09, 0.05, 0.033, base=BasePlay(7, 322, 400, 0.028))
    own = PatchPlay("P16", 0, 400, 400, 260, 0.17, 0.03, 0.0, base=BasePlay(0, 400, 400, 0.0))
    report = chk.CheckReport("v.yaml", "classic", 0, 0.05, 20, (), (dear, own, _fair("P05")),
                             origins={"P03": "changed", "P16": "base", "P05": "base"})
    doc = report.as_dict()
    assert doc["out_of_band_changed"] == ["P03"] and doc["out_of_band_base"] == ["P16"]
    lines = verdict_lines(doc)
    assert lines[1].startswith("Changed from the base (1: P03): P03 dear at cost 10: bought in 38.8% of games")
    assert lines[2].startswith("The base's own pricing (as the base prints it): P16 cheap at cost 0")
    assert "suggested cost 7" in lines[1] and "suggested cost 3" in lines[2]


def test_the_report_claims_in_band_only_where_shown_and_names_the_games_the_rest_need():
    from toolkit.reports.deckcheck import patch_rows, verdict_lines

    plays = (PatchPlay("W", 3, 360, 400, 180, 0.0, 0.04, 0.015), PatchPlay("N", 3, 360, 400, 180, 0.0, 0.005, 0.015),
             PatchPlay("L", 3, 360, 400, 200, 0.08, 0.04, 0.015))
    doc = chk.CheckReport("v.yaml", "classic", 0, 0.05, 20, (), plays).as_dict()
    assert [p["verdict"] for p in doc["patches"]] == ["undecided", "in band", "leans cheap"]
    assert doc["in_band"] == ["N"] and set(doc["verdicts"]) >= {"in band", "undecided", "cheap", "dear"}
    cells = {row[0]: row[-2] for row in patch_rows(doc)}
    assert cells["N"] == "in band" and cells["W"].startswith("undecided: ~") and cells["W"].endswith("x the games")
    assert cells["L"].startswith("leans cheap: ~")
    lines = verdict_lines(doc)
    assert any(x.startswith("1 of 3 judged patches shown inside the band ±0.05 (N)") for x in lines)
    assert any(x.startswith("Undecided or leaning: 2,") for x in lines)


# ----- the tuner --------------------------------------------------------------------------------


def test_a_step_is_damped_and_never_passes_its_target_or_its_bracket():
    assert step_to(10, 7, up=False) == 8                     # 3 buttons away: 2 of them (DAMPING)
    assert step_to(2, 5, up=True) == 4 and step_to(4, 5, up=True) == 5
    assert step_to(4, 9, up=True, bracket=Bracket(below=6)) == 5  # dear at 6: stays under it
    assert step_to(5, 2, up=False, bracket=Bracket(above=4)) == 5  # cheap at 4, dear at 5: nowhere to go
    for cost in range(0, 15):
        for target in range(0, 15):
            if target != cost:
                new = step_to(cost, target, up=target > cost)
                assert min(cost, target) <= new <= max(cost, target) and new != cost


def _world(monkeypatch, played: dict[str, list[int]]):
    """A deck whose patches have known fair costs: advantage ADVANTAGE_PER_BUTTON a button from it,
    buy rate BUY_LOGIT_PER_BUTTON a button on the logit scale."""
    fair = {"P21": 5, "P03": 7, "P16": 3}
    printed = {p.id: p.cost for p in load_edition("classic").patches}

    def buys(pid, cost):
        logit = 1.6 - chk.BUY_LOGIT_PER_BUTTON * (cost - fair.get(pid, printed[pid]))
        return round(1000 / (1 + math.exp(-logit)))

    def fake_check(ref, base, matchups, seed, band, min_buys, with_base=True, only=None, progress=None):
        plays = []
        for p in load_edition(ref).patches:
            played.setdefault(p.id, []).append(p.cost)
            adv = chk.ADVANTAGE_PER_BUTTON * (fair.get(p.id, printed[p.id]) - p.cost)
            if p.id == "P03":  # bought only when it suits the buyer: the advantage hardly moves
                adv = -0.01 * (p.cost - 7)
            plays.append(PatchPlay(p.id, p.cost, buys(p.id, p.cost), 1000, 500, adv, 0.01, 0.01))
        return chk.CheckReport(ref, base, seed, band, min_buys, (), tuple(plays))

    def fake_base(base, matchups, seed, progress):
        return [{"games": 1000, "patches": [{"id": pid, "cost": c, "bought": buys(pid, c),
                                             "buyer_win_rate": {"estimate": 0.5}} for pid, c in printed.items()]}]

    monkeypatch.setattr(chk, "check", fake_check)
    monkeypatch.setattr(chk, "_base_rows", fake_base)


def test_the_tuner_moves_your_changes_back_without_overshoot_and_leaves_the_base_alone(tmp_path, monkeypatch):
    played: dict[str, list[int]] = {}
    _world(monkeypatch, played)
    variant = _deck(tmp_path, {"P21": 1, "P03": 10, "P16": 0})  # P16 is printed at 0: the base's own
    report = chk.tune(variant, "classic", [("greedy,greedy", 10)], 0, rounds=6)
    edition = load_edition(str(variant))
    assert abs(edition.patch("P21").cost - 5) <= 1 and abs(edition.patch("P03").cost - 7) <= 1
    assert max(played["P21"]) <= 5 and min(played["P03"]) >= 7  # never past the fair cost
    assert set(played["P16"]) == {0} and report.tuned == "changed"
    assert {c["id"] for c in report.changes} == {"P21", "P03"}
    assert {c["basis"] for c in report.changes if c["id"] == "P03"} == {"buy_rate"}
    assert "P16" in report.stopped and "--all-patches" in report.stopped
    everything = tmp_path / "all"
    everything.mkdir()
    played.clear()
    variant = _deck(everything, {"P21": 1, "P16": 0})
    report = chk.tune(variant, "classic", [("greedy,greedy", 10)], 0, rounds=6, changed_only=False)
    assert report.tuned == "all" and 2 <= load_edition(str(variant)).patch("P16").cost <= 3
    assert max(played["P16"]) <= 3 and max(played["P21"]) <= 5


# ----- from the command line ---------------------------------------------------------------------


@pytest.mark.slow
def test_check_from_the_command_line_finds_p03_made_dear_and_files_agree_with_the_terminal(tmp_path):
    variant = _deck(tmp_path, {"P03": 10})
    out = tmp_path / "out"
    result = ok("deck", "check", str(variant), "--bots", "greedy,greedy", "--games", "400", "--no-progress",
                "--out", str(out))
    doc = json.loads((out / "results.json").read_text())
    p03 = next(p for p in doc["patches"] if p["id"] == "P03")
    assert p03["verdict"] == "dear" and p03["suggested_cost"] == 7 and p03["origin"] == "changed"
    assert doc["out_of_band_changed"] == ["P03"] and p03["deals"] == 200
    assert p03["buy_rate_interval"][0] < p03["buy_rate"] < p03["buy_rate_interval"][1]
    report = (out / "report.md").read_text()
    terminal = result.stdout
    line = next(x for x in terminal.splitlines() if x.startswith("Changed from the base"))
    assert "P03 dear at cost 10" in line and "suggested cost 7" in line and line in report
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")


def test_an_out_that_is_a_file_is_one_clear_error_before_any_game(tmp_path):
    from cli_helpers import runner
    from toolkit.cli.app import app

    variant = _deck(tmp_path, {"P03": 10})
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(app, ["deck", "check", str(variant), "--out", str(tmp_path / "afile")])
    assert result.exit_code == 2 and "not a folder" in result.output and "Traceback" not in result.output
