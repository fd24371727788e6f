"""`patchwork price`: the fair-value estimator where the truth is known."""
from __future__ import annotations

import json

import pytest

from cli_helpers import ok
from workbench_helpers import refused
from toolkit.sim.botspec import parse_bots
from toolkit.specs import load_edition
from toolkit.workbench import price, setpath


def _fair(edition, patch="P05", over="cost", values="0..8", games=600, seed=3, bots="random,random"):
    vals = price.check(edition, patch, over, values)
    request = price.PriceRequest(edition, patch, over, vals, parse_bots(bots, edition), games // 2, seed)
    body, _ = price.run(request, 1, None)
    return body


def test_the_suggestion_does_not_depend_on_the_printed_cost():
    classic = load_edition("classic")
    dear = load_edition("dear-p05")  # P05 printed at 3 instead of 2
    assert dear.patch("P05").cost != classic.patch("P05").cost
    assert _fair(classic) == _fair(dear)


def _higher(better: dict, worse: dict) -> bool:
    """The better patch's fair value lies above the worse one's: both estimated and ordered, or the
    worse one not bracketed below (it loses at every value) or the better one above."""
    if better["status"] == "above" or worse["status"] == "below":
        return True
    return better["estimate"] is not None and worse["estimate"] is not None and better["estimate"] > worse["estimate"]


def test_a_strictly_better_twin_gets_a_higher_fair_value():
    classic = load_edition("classic")
    richer = setpath.apply(classic, "patches.P05.income", 1)
    assert _higher(_fair(richer, values="0..12:2", bots="greedy,greedy")["fair"],
                   _fair(classic, values="0..12:2", bots="greedy,greedy")["fair"])
    cheap = setpath.apply(classic, "patches.P05.cost", 0)
    dear = setpath.apply(classic, "patches.P05.cost", 6)
    assert _higher(_fair(cheap, over="time", values="0..10")["fair"], _fair(dear, over="time", values="0..10")["fair"])


def test_buy_rate_falls_and_the_monotone_fit_crosses_zero_inside_its_interval():
    body = _fair(load_edition("classic"), values="0,4,8", bots="greedy,greedy")
    rates = [v["buy_rate"]["estimate"] for v in body["values"]]
    advantages = [v["advantage"]["estimate"] for v in body["values"]]
    assert rates[0] > rates[2] and advantages[0] > advantages[2]
    fair = body["fair"]
    fitted = [f["advantage"] for f in fair["fitted"]]
    assert fitted == sorted(fitted, reverse=True)
    assert fair["status"] in ("bracketed", "open") and fair["low"] is not None and fair["low"] <= fair["estimate"]
    assert fair["high"] is None or fair["estimate"] <= fair["high"]


@pytest.mark.slow
def test_two_sweeps_that_bracket_the_crossing_give_overlapping_intervals():
    """P05's advantage flattens near 0 at high costs under greedy bots: a straight line through
    it moved with the range swept; the monotone model's intervals do not."""
    classic = load_edition("classic")
    fairs = [_fair(classic, values=grid, bots="greedy,greedy", games=600, seed=0)["fair"]
             for grid in ("0..12:3", "0..8", "1..6", "0..4")]
    bracketed = [f for f in fairs if f["status"] in ("bracketed", "open")]
    assert len(bracketed) >= 3
    for a in bracketed:
        for b in bracketed:
            low = max(a["low"] or -1e9, b["low"] or -1e9)
            high = min(a["high"] if a["high"] is not None else 1e9, b["high"] if b["high"] is not None else 1e9)
            assert low <= high, (a, b)
            assert (a["low"] or 0) <= a["estimate"] <= (a["high"] if a["high"] is not None else 1e9)


def test_price_cli_writes_the_contract_and_the_same_bytes_for_any_worker_count(tmp_path):
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        result = ok("price", "classic", "P05", "--values", "0..4:2", "--bots", "random,random", "--games", "40",
                    "--seed", "5", "--workers", workers, "--out", str(out), "--no-progress")
        assert "fair cost" in result.output
        outs.append(out)
    for name in ("results.json", "report.md", "report.pdf"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()
    doc = json.loads((outs[0] / "results.json").read_text())
    assert doc["kind"] == "price" and doc["reproducible"] is True
    assert [v["value"] for v in doc["values"]] == [0, 2, 4]
    for v in doc["values"]:
        assert set(v["buy_rate"]) >= {"estimate", "low", "high"} and set(v["advantage"]) >= {"estimate", "low", "high"}
    assert set(doc["fair"]) >= {"estimate", "low", "high"}
    assert doc["edition"]["time_track"]["layout"] and doc["bots"] and doc["seed"] == 5 and doc["games"] == 40


def test_a_patch_added_by_a_variant_file_can_be_priced(tmp_path):
    variant = tmp_path / "new-patch.yaml"
    variant.write_text(
        "kind: variant\nname: new-patch\ntitle: Patchwork with a new patch\nextends: classic\n"
        "add_patches:\n  - {id: N01, shape: '###/.#./.#.', cost: 3, time: 2, income: 0}\n")
    edition = load_edition(str(variant))
    assert "N01" in [p.id for p in edition.all_patches()]
    body = _fair(edition, patch="N01", values="0..6:3", games=200)
    assert len(body["values"]) == 3


@pytest.mark.parametrize("args, message", [
    (("doodle", "D01"), "time-track"),
    (("classic", "P99"), "PATCH 'P99' is not a patch of 'classic' (patches: P00..P32)"),
    (("classic", "P05", "--over", "colour"), "--over"),
    (("classic", "P05", "--values", "3"), "at least 2 values"),
    (("classic", "P05", "--values", "0..999:999"), "reference"),
    (("classic", "P05", "--games", "7"), "even"),
    (("classic", "P05", "--bots", "greedy"), "2 seats"),
    (("classic", "P05", "--scheduler", "nowhere"), "tcp://"),
])
def test_price_refuses_bad_input_with_one_line(args, message):
    assert message in refused("price", *args)


def test_an_unknown_patch_is_refused_in_price_s_own_words(tmp_path):
    line = refused("price", "classic", "P99")
    assert "--set" not in line  # an option of sweep, not of price
    variant = tmp_path / "new-patch.yaml"
    variant.write_text(
        "kind: variant\nname: new-patch\ntitle: Patchwork with a new patch\nextends: classic\n"
        "add_patches:\n  - {id: N01, shape: '###/.#./.#.', cost: 3, time: 2, income: 0}\n")
    assert "(patches: P00..P32, N01)" in refused("price", str(variant), "N02")


def test_width_stops_at_the_first_look_with_a_narrow_enough_interval(tmp_path):
    out = tmp_path / "width"
    # the interval spans at least the gap between neighbouring values, so the grid is as fine as the width
    result = ok("price", "classic", "P05", "--over", "time", "--values", "0..4", "--bots", "random,random",
                "--games", "20000", "--width", "2", "--seed", "2", "--out", str(out), "--no-progress")
    assert "interval width 2 reached" in result.output
    doc = json.loads((out / "results.json").read_text())
    assert doc["stopping"]["reached"] and doc["games"] == doc["stopping"]["games"] < 20000
    assert doc["fair"]["high"] - doc["fair"]["low"] <= 2
    assert "--width 2" in doc["command"]
    assert "--width" in refused("price", "classic", "P05", "--width", "0")
