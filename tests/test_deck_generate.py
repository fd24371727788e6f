"""Generated decks: same seed same bytes, the drawing rules, valid specs that play and print."""
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from toolkit.decks.deck import load_deck
from toolkit.decks.generate import Request, generate, parse_sizes, render_files
from toolkit.errors import UsageError
from toolkit.geometry.enumerate import free_polyominoes
from toolkit.specs import load_edition, validate_report

from cli_helpers import fails, ok


def _write(tmp_path: Path, request: Request, name="my-deck"):
    generated = generate(request)
    files = render_files(generated, tmp_path / f"{name}.yaml", tmp_path / f"{name}-variant.yaml")
    files.deck_path.write_text(files.deck_text, encoding="utf-8")
    files.variant_path.write_text(files.variant_text, encoding="utf-8")
    return generated, files


def test_same_seed_same_bytes_and_another_seed_another_deck(tmp_path):
    a = render_files(generate(Request("classic", 33, 7)), tmp_path / "d.yaml", tmp_path / "v.yaml")
    b = render_files(generate(Request("classic", 33, 7)), tmp_path / "d.yaml", tmp_path / "v.yaml")
    c = render_files(generate(Request("classic", 33, 8)), tmp_path / "d.yaml", tmp_path / "v.yaml")
    assert a.deck_text == b.deck_text and a.variant_text == b.variant_text
    assert a.deck_text != c.deck_text


def test_cli_writes_the_same_bytes_twice(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        ok("deck", "generate", "--like", "classic", "--count", "12", "--seed", "3",
           "--out", str(tmp_path / folder / "deck.yaml"))
    for name in ("deck.yaml", "deck-variant.yaml"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_replace_deck_validates_and_follows_the_rules(tmp_path):
    generated, files = _write(tmp_path, Request("classic", 33, 7))
    report = validate_report([files.deck_path, files.variant_path])
    assert not report.errors
    edition = load_edition(files.variant_path)
    assert [p.id for p in edition.patches] == [f"G{i:02d}" for i in range(1, 34)]
    base = load_deck("classic")
    base_keys = {p.shape.canonical_key for p in base.patches}
    keys = [p.shape.canonical_key for p in edition.patches]
    assert len(set(keys)) == 33 and not set(keys) & base_keys
    stats = {(p.shape.size, p.time, p.income) for p in base.patches}
    for patch, price in zip(edition.patches, generated.predicted):
        assert patch.shape.holes == 0
        assert (patch.shape.size, patch.time, patch.income) in stats
        assert patch.cost == max(0, math.floor(price + 0.5))
        assert price == pytest.approx(generated.fit.model.predict(patch.shape, patch.time, patch.income))
    text = files.deck_path.read_text()
    assert "--seed 7" in text and "provenance" in text
    assert "provenance" in files.variant_path.read_text()


def test_extend_keeps_the_base_patches_first(tmp_path):
    _, files = _write(tmp_path, Request("classic", 5, 1, mode="extend"))
    edition = load_edition(files.variant_path)
    assert [p.id for p in edition.patches[:33]] == [p.id for p in load_deck("classic").patches]
    assert len(edition.patches) == 38
    assert not validate_report([files.variant_path]).errors


def test_sizes_holes_and_twins(tmp_path):
    generated = generate(Request("classic", 40, 2, sizes=(7, 8), allow_holes=True))
    assert {p.shape.size for p in generated.patches} <= {7, 8}
    twins = generate(Request("classic", 30, 2, sizes=(3, 4), allow_twins=True, mode="extend"))
    assert len(twins.patches) == 30 and twins.duplicates
    _, files = _write(tmp_path, Request("classic", 30, 2, sizes=(3, 4), allow_twins=True, mode="extend"))
    assert not validate_report([files.variant_path]).errors


def test_shapes_are_drawn_uniformly_within_a_size():
    generated = generate(Request("classic", 1200, 11, sizes=(5, 5), allow_twins=True))
    counts = Counter(p.shape.canonical_key for p in generated.patches)
    assert set(counts) == {s.canonical_key for s in free_polyominoes(5)}
    expected = 1200 / 12
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < 24.7                       # 99th percentile of chi-square with 11 df


def test_size_mix_follows_the_reference_deck():
    generated = generate(Request("classic", 2000, 5, allow_twins=True))
    base = Counter(p.shape.size for p in load_deck("classic").patches)
    drawn = Counter(p.shape.size for p in generated.patches)
    for size, k in base.items():
        assert drawn[size] / 2000 == pytest.approx(k / 33, abs=0.035)


@pytest.mark.parametrize("request_", [
    Request("classic", 0, 1), Request("classic", 5, -1), Request("classic", 5, 1, mode="merge"),
    Request("doodle", 5, 1), Request("classic", 50, 1, sizes=(3, 4)),
])
def test_requests_that_cannot_be_met(request_):
    with pytest.raises(UsageError):
        generate(request_)


@pytest.mark.parametrize("text,expected", [("3..8", (3, 8)), ("5", (5, 5)), (" 2 .. 4 ", (2, 4))])
def test_parse_sizes(text, expected):
    assert parse_sizes(text) == expected


@pytest.mark.parametrize("text", ["8..3", "0..4", "3..11", "x", "3-8"])
def test_parse_sizes_refuses(text):
    with pytest.raises(UsageError):
        parse_sizes(text)


def test_generated_deck_plays_tunes_and_prints(tmp_path):
    _, files = _write(tmp_path, Request("classic", 33, 7))
    variant = str(files.variant_path)
    ok("simulate", variant, "--bots", "greedy,mcts:50", "--games", "4", "--seed", "1", "--no-progress")
    result = ok("deck", "check", variant, "--bots", "greedy,greedy", "--games", "20", "--seed", "1", "--json")
    again = ok("deck", "check", variant, "--bots", "greedy,greedy", "--games", "20", "--seed", "1", "--json")
    assert result.stdout == again.stdout
    doc = json.loads(result.stdout)
    assert doc["base"] == "classic"
    assert len(doc["patches"]) == 33 and sum(p["bought"] for p in doc["patches"]) > 0
    assert all(0 <= p["buy_rate"] <= 1 for p in doc["patches"])
    assert doc["matchups"][0]["games"] == 20 and doc["matchups"][0]["differences"]
    before = files.deck_path.read_text()
    result = ok("deck", "check", variant, "--bots", "greedy,greedy", "--games", "20", "--seed", "1",
                "--tune", "--rounds", "1", "--per-round", "2", "--band", "0.05", "--min-buys", "2", "--json")
    doc = json.loads(result.stdout)
    changes = doc["tune"]["changes"]
    assert 1 <= len(changes) <= 2
    after = files.deck_path.read_text()
    assert after != before and "Re-priced by" in after
    edition = load_edition(files.variant_path)
    for change in changes:
        assert edition.patch(change["id"]).cost == change["to"] == change["from"] + (1 if change["verdict"] == "cheap" else -1)
    assert not validate_report([files.variant_path]).errors
    tiles = tmp_path / "tiles.pdf"
    ok("render", "tiles", variant, "--out", str(tiles))
    ok("build", "--edition", variant, "--out", str(tmp_path / "kit"))
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(str(tiles)).pages)
    assert "G01" in text and "G33" in text
    kit = PdfReader(str(tmp_path / "kit" / "my-deck-variant-kit.pdf"))
    assert len(kit.pages) > 4
    assert "G17" in "".join(page.extract_text() for page in kit.pages)


def test_check_and_tune_errors(tmp_path):
    fails("deck", "check", str(tmp_path / "missing.yaml"))
    _, files = _write(tmp_path, Request("classic", 10, 7))
    fails("deck", "check", str(files.variant_path), "--band", "0.7")
    fails("deck", "check", str(files.variant_path), "--games", "1")
    fails("deck", "check", str(files.variant_path), "--patches", "G01,X99")
    fails("deck", "check", "--tune", str(tmp_path / "missing.yaml"))
    bare = tmp_path / "bare.yaml"
    bare.write_text("kind: variant\nextends: classic\nstarting_buttons: 6\n")
    fails("deck", "check", str(bare), "--tune", "--bots", "greedy,greedy", "--games", "2")


def test_express_deck_keeps_its_tags_and_validates(tmp_path):
    generated, files = _write(tmp_path, Request("express", 18, 3, sizes=(3, 6)), name="ex")
    tags = Counter(p.tag for p in generated.patches)
    assert tags["blue"] == 6 and tags["colourful"] == 12          # 8 of 23 blue in the reference
    assert not validate_report([files.variant_path]).errors
    edition = load_edition(files.variant_path)
    assert len(edition.late_patches) == 6 and all(p.tag == "blue" for p in edition.late_patches)


def test_check_refuses_a_doodle_variant():
    fails("deck", "check", str(Path(__file__).parent.parent / "specs" / "variants" / "doodle-8x8.yaml"))


def test_tuning_never_returns_to_a_price_it_left(tmp_path):
    _, files = _write(tmp_path, Request("classic", 33, 7))
    doc = json.loads(ok("deck", "check", str(files.variant_path), "--bots", "greedy,greedy",
                        "--games", "20", "--seed", "2", "--tune", "--rounds", "4", "--per-round", "6",
                        "--band", "0.05", "--min-buys", "2", "--json").stdout)
    tune = doc["tune"]
    assert 1 <= tune["rounds"] <= 4 and tune["changes"]
    history: dict[str, list[int]] = {}
    for change in tune["changes"]:
        prices = history.setdefault(change["id"], [change["from"]])
        assert prices[-1] == change["from"] and abs(change["to"] - change["from"]) == 1
        assert change["to"] not in prices
        prices.append(change["to"])
    for pid, (low, high) in tune["bracketed"].items():
        assert high == low + 1
    edition = load_edition(files.variant_path)
    for pid, prices in history.items():
        assert edition.patch(pid).cost == prices[-1]


def test_buyer_advantage_is_the_buyers_win_rate_minus_the_baseline():
    """Deck check pools each patch over the matchups with the workbench's one buyer advantage."""
    from toolkit.workbench.deckcheck import _patch_plays

    def row(pid, bought, rate):
        return {"id": pid, "cost": 2, "bought": bought, "buyer_win_rate": {"estimate": rate}}

    figures = [{"games": 10, "patches": [row("A", 4, 0.75), row("B", 6, 0.5), row("C", 0, 0.0)]},
               {"games": 10, "patches": [row("A", 2, 0.5), row("B", 2, 1.0), row("C", 0, 0.0)]}]
    plays = {p.id: p for p in _patch_plays(figures, None)}
    # baselines: 6 wins of 10 buys, then 3 of 4
    assert plays["A"].advantage == pytest.approx((4 * (0.75 - 0.6) + 2 * (0.5 - 0.75)) / 6)
    assert plays["B"].advantage == pytest.approx((6 * (0.5 - 0.6) + 2 * (1.0 - 0.75)) / 8)
    assert plays["C"].advantage is None and plays["A"].games == 20 and plays["A"].buyer_wins == 4
