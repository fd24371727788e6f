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


def test_a_cheaper_twin_is_worth_more_time_and_a_richer_twin_more_buttons():
    classic = load_edition("classic")
    cheap = setpath.apply(classic, "patches.P05.cost", 0)
    dear = setpath.apply(classic, "patches.P05.cost", 6)
    fair_cheap = _fair(cheap, over="time", values="0..10")["fair"]
    fair_dear = _fair(dear, over="time", values="0..10")["fair"]
    assert fair_cheap["estimate"] > fair_dear["estimate"]
    richer = setpath.apply(classic, "patches.P05.income", 2)
    assert _fair(richer)["fair"]["estimate"] > _fair(classic)["fair"]["estimate"]


def test_buy_rate_falls_and_advantage_falls_as_the_price_rises():
    body = _fair(load_edition("classic"), values="0,4,8")
    rates = [v["buy_rate"]["estimate"] for v in body["values"]]
    advantages = [v["advantage"]["estimate"] for v in body["values"]]
    assert rates[0] > rates[2] and advantages[0] > advantages[2]
    fair = body["fair"]
    assert fair["low"] <= fair["estimate"] <= fair["high"] and fair["line"]["slope"] < 0


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
    result = ok("price", "classic", "P05", "--values", "0..8:4", "--bots", "random,random", "--games", "20000",
                "--width", "3", "--seed", "2", "--out", str(out), "--no-progress")
    assert "interval width 3 reached" in result.output
    doc = json.loads((out / "results.json").read_text())
    assert doc["stopping"]["reached"] and doc["games"] == doc["stopping"]["games"] < 20000
    assert doc["fair"]["high"] - doc["fair"]["low"] <= 3
    assert "--width 3" in doc["command"]
    assert "--width" in refused("price", "classic", "P05", "--width", "0")
