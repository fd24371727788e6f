"""Hostile input, class 7: unbounded work, bounded or refused early with its figure.

A refusal is one `patchwork: error:` line, exit 2, nothing written, and cheap (REFUSAL_CPU
CPU-seconds in a process that has the CLI loaded): a deck or edition too big for the command is
refused from its `id:` keys counted in its bytes, the patch-set file a variant names included,
before anything is parsed; a cross-validation too big for the deck is refused from the counts.

A bounded run finishes, says what was cut short and how to raise it, and is deterministic: the
packer's searches (the exact fill, the largest area, the count) stop after a budget of steps
(a node or a placement tried), never after a time, so the same input gives the same output.

The cases run through tests/test_hostile_cli.py's `run_case` (no traceback, one line, exit code,
nothing written, CPU time).
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from test_hostile_cli import Case, run_case, text

from tests.cli_helpers import ok

REFUSAL_CPU = 1.0
"""CPU-seconds a refusal may cost in-process here (its own thread's, `run_case`): the aim is 0.3 (tests/test_hostile_cli.py's
REFUSAL_CPU; these refusals measure 0.05 to 0.3), held with room so that a busy machine's
collector or a first import never fails the test; the work they refuse costs 3 to 70 CPU-s."""
BOUNDED_CPU = 10.0
"""CPU-seconds a bounded run with a small --max-nodes may cost (the steps run some millions a second)."""
SHAPES = ["##", "###", "####", "##/##", "#./##", "###/#..", "##./.##", "#####", ".#./###", "#..../#####"]


def _patch_set(count: int, prefix: str = "H") -> str:
    """`count` distinct patches, one flow mapping a line (few YAML nodes each)."""
    rows = [f"- {{id: {prefix}{i}, shape: '{SHAPES[i % len(SHAPES)]}', cost: {i // len(SHAPES) % 30}, "
            f"time: {i // 300 % 40}}}\n" for i in range(count)]
    return "kind: patch-set\nname: many\npatches:\n" + "".join(rows)


def _variant(patches: str, extends: str = "classic") -> str:
    return f"kind: variant\nname: many\ntitle: Many patches\nextends: {extends}\npatches: {patches}\n"


def _copies() -> str:
    """The 47 pentominoes and hexominoes, 99 copies each (the most a patch may have): 4,653 pieces
    in a small file."""
    from toolkit.geometry.enumerate import free_polyominoes

    shapes = free_polyominoes(5) + free_polyominoes(6)
    return "kind: patch-set\nname: copies\npatches:\n" + "".join(
        f"- {{id: C{i}, shape: '{shape.format()}', cost: {i % 9 + 1}, time: {i // 9 + 1}, copies: 99}}\n"
        for i, shape in enumerate(shapes))


BIG_SET = (text("big-patches.yaml", lambda: _patch_set(10_000)), text("many.yaml", lambda: _variant("big-patches.yaml")))
"""A variant whose patch set, another file, holds 10,000 patches."""
CHAIN = BIG_SET + (text("sub/more.yaml", lambda: "kind: variant\nname: more\ntitle: More\nextends: ../many.yaml\n"
                                                 "starting_buttons: 6\n"),)
"""A variant of that variant, in another folder (its patches come through `extends:`)."""

REFUSED = [
    Case("deck-fit-variant-of-10000", ("deck", "fit", "many.yaml"), BIG_SET, code=2, expect=("10,000",)),
    Case("deck-pack-variant-of-10000", ("deck", "pack", "many.yaml"), BIG_SET, code=2, expect=("10,000",)),
    Case("deck-fit-chain-of-variants", ("deck", "fit", "sub/more.yaml"), CHAIN, code=2, expect=("10,000",)),
    Case("deck-pack-chain-count", ("deck", "pack", "sub/more.yaml", "--count"), CHAIN, code=2, expect=("10,000",)),
    Case("build-edition-variant-of-10000", ("build", "--edition", "many.yaml", "--out", "kit"), BIG_SET, code=2,
         expect=("--edition", "10,000")),
    Case("build-edition-variant-of-600", ("build", "--edition", "many.yaml", "--out", "kit"),
         (text("six-patches.yaml", lambda: _patch_set(600)), text("many.yaml", lambda: _variant("six-patches.yaml"))),
         code=2, expect=("--edition", "600", "500")),
    Case("build-edition-chain", ("build", "--edition", "sub/more.yaml"), CHAIN, code=2, expect=("10,000",)),
    Case("deck-fit-10000-aliases", ("deck", "fit", "alias.yaml"),
         (text("alias.yaml", "kind: patch-set\nname: a\npatches:\n- &p {id: A, shape: '##', cost: 1, time: 1}\n"
                             + "- *p\n" * 9999),), code=2, expect=("10,000",)),
    Case("deck-pack-10000-flow-aliases", ("deck", "pack", "alias.yaml", "--count"),
         (text("alias.yaml", "kind: patch-set\nname: a\npatches: [&p {id: A, shape: '##', cost: 1, time: 1}"
                             + ", *p" * 9999 + "]\n"),), code=2, expect=("10,000",)),
    Case("deck-fit-folds-of-4900", ("deck", "fit", "big.yaml", "--folds", "4900"),
         (text("big.yaml", lambda: _patch_set(4900)),), code=2, expect=("--folds", "4,900", "1,000,000")),
    Case("deck-fit-folds-of-a-variant", ("deck", "fit", "many.yaml", "--folds", "400"),
         (text("p.yaml", lambda: _patch_set(3000)), text("many.yaml", lambda: _variant("p.yaml"))), code=2,
         expect=("--folds", "3,000")),
]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """The commands' modules loaded, as in a process that has the CLI loaded (a refusal's cost is
    its own work, not the first import of the deck and print code)."""
    for case in (REFUSED[0], REFUSED[4]):
        run_case(case, tmp_path_factory.mktemp("warm"))


@pytest.mark.parametrize("case", REFUSED, ids=[c.name for c in REFUSED])
@pytest.mark.slow
def test_unbounded_work_is_refused_early_with_its_figure(case, tmp_path, loaded):
    outcome = run_case(case, tmp_path, slow_cpu=REFUSAL_CPU)
    assert not outcome.failures, (outcome.failures, outcome.message[:300], f"{outcome.cpu:.2f} CPU-s")
    assert len(outcome.message) < 300


def _pack(tmp_path, *args: str) -> tuple[dict, float]:
    """`deck pack ... --json` as its facts (the timing dropped) and its CPU-seconds."""
    started = time.thread_time()
    facts = json.loads(ok("deck", "pack", *args, "--json").output)
    facts.get("count", {}).pop("seconds", None)
    return facts, time.thread_time() - started


@pytest.mark.parametrize("args, key", [
    (("polyominoes:8", "--max-nodes", "2000000"), "largest_area_proven"),      # 369 octominoes, no fill
    (("classic", "--count", "--max-nodes", "1000000"), "count"),             # astronomically many fills
    (("polyominoes:6", "--board", "10x10", "--count", "--max-nodes", "1000000"), "count"),
    # 4,653 pieces of 47 shapes: a run lays out every piece's placements (some 4 CPU-s, bounded by
    # the deck's size, not by --max-nodes) and the fill's search then costs about 1 CPU-s a million
    # steps for each of the fill and the largest area; 200,000 steps still stop both mid-way
    (("copies.yaml", "--max-nodes", "200000"), "fill"),
    (("copies.yaml", "--board", "8x10", "--count", "--max-nodes", "1000000"), "count"),
])
@pytest.mark.slow
def test_a_search_stops_at_its_step_budget_and_says_so(tmp_path, monkeypatch, args, key):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "copies.yaml").write_text(_copies())
    facts, cpu = _pack(tmp_path, *args)
    assert cpu < BOUNDED_CPU, f"{cpu:.1f} CPU-s"
    slack = min(100_000, int(args[-1]) // 10)  # the last step's work past the budget, never a second budget
    if key == "count":
        assert facts["count"]["stopped_at_budget"] and not facts["count"]["stopped_at_limit"]
        assert facts["count"]["nodes"] <= int(args[-1]) + slack
    else:
        assert facts["largest_area_proven"] is False and facts["largest_area"] > 0
        assert facts["nodes"] <= int(args[-1]) + slack
        assert key != "fill" or facts["fill"] is None
    again, _ = _pack(tmp_path, *args)
    assert again == facts  # a budget of steps, not of seconds: the same answer every time
    text_out = ok("deck", "pack", *args).output
    assert "search budget of" in text_out and "raise --max-nodes" in text_out


def test_the_largest_area_stops_once_proven():
    """A packing that covers the most any subset could ends the search, however big the deck."""
    from toolkit.decks.deck import polyomino_deck, pieces_of
    from toolkit.geometry.cover import Packer, Piece

    deck = polyomino_deck(7)
    packer = Packer([Piece(i, s) for i, s in pieces_of(deck)], 9, 9)
    best = packer.largest_area(2_000_000)
    assert best.complete and best.area == 77  # 11 heptominoes: 77 of 81 cells, the most 7s can cover


def test_a_count_within_its_budget_is_exact():
    from toolkit.decks.deck import polyomino_deck, pieces_of
    from toolkit.geometry.cover import Packer, Piece

    packer = Packer([Piece(i, s) for i, s in pieces_of(polyomino_deck(5))], 20, 3)
    result = packer.count(max_nodes=10_000_000)
    assert (result.total, result.up_to_symmetry, result.limited, result.out_of_budget) == (8, 2, False, False)
    cut = packer.count(max_nodes=1_000)
    assert cut.out_of_budget and cut.limited and cut.up_to_symmetry is None and cut.total <= 8


@pytest.mark.slow
def test_the_default_budget_ends_the_largest_area_of_the_octominoes():
    """`deck pack polyominoes:8` with the default budget (it searched for some 700 s before steps
    were counted): it ends, in well under a minute of CPU, and says the search was cut short."""
    started = time.thread_time()
    out = ok("deck", "pack", "polyominoes:8").output
    assert time.thread_time() - started < 60
    assert "largest area covered: " in out and "raise --max-nodes" in out


def _pictures(folder, count: int, side: int = 6000) -> list[str]:
    """`count` distinct flat pictures of side x side px (36 megapixels each at 6000), small as files."""
    from PIL import Image

    names = []
    for i in range(count):
        Image.new("L", (side, side), 40 * i + 20).save(folder / f"p{i}.png")
        names.append(f"p{i}.png")
    return names


@pytest.mark.slow
def test_a_theme_of_many_huge_pictures_is_refused_with_its_figure(tmp_path, loaded):
    """Every picture under the per-picture limit, but four distinct ones of 36 megapixels on the
    patches: each printed file would decode and re-encode all of them (a theme of 33 such
    pictures ran minutes for one page of tiles). Refused when the theme is read, naming the
    picture that passes the total; the same picture on every component counts once."""
    names = _pictures(tmp_path, 4)
    (tmp_path / "t.yaml").write_text("kind: theme\ncard_back: p0.png\nautoma_back: p0.png\npatches:\n"
                                     "  default: {art: p0.png}\n"
                                     + "".join(f"  P{i:02d}: {{art: {name}}}\n" for i, name in enumerate(names)))
    outcome = run_case(Case("theme-144-megapixels", ("render", "tiles", "classic", "--theme", "t.yaml",
                                                     "--out", "t.pdf"), code=1,
                            expect=("t.yaml:9", "p3.png", "144 megapixels", "at most 120")), tmp_path,
                       slow_cpu=REFUSAL_CPU * 2)  # the theme's files are read (headers and checksums)
    assert not outcome.failures, (outcome.failures, outcome.message)


def test_one_huge_picture_on_every_component_counts_once(tmp_path):
    from toolkit.render.theme_file import load_theme

    _pictures(tmp_path, 1)
    (tmp_path / "t.yaml").write_text("kind: theme\ncard_back: p0.png\nautoma_back: p0.png\npatches:\n"
                                     "  default: {art: p0.png}\n" + "".join(f"  P{i:02d}: {{art: p0.png}}\n"
                                                                            for i in range(1, 34)))
    theme = load_theme(tmp_path / "t.yaml")
    assert theme.card_back_art.width == 6000 and len(theme.patches) == 33


GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name, dpi", [("doodle", "300"), ("classic", "300"), ("express", "600"),
                                       ("anniversary", "1200")])
def test_a_gif_too_big_for_its_record_is_refused_before_the_replay(tmp_path, loaded, name, dpi):
    """`show --out x.gif --dpi 300` replayed the whole game (10 CPU-s for the Doodle record, and
    the compiled rules loaded) before the frames were measured; the record's length and the
    smallest frame its edition draws are enough to refuse it."""
    from toolkit.render import record_view

    record_view.check_gif_record(GOLDEN / f"{name}.json", 120)  # warm: the record reader and the edition
    case = Case(f"show-gif-{name}-{dpi}", ("show", str(GOLDEN / f"{name}.json"), "--out", "g.gif", "--dpi", dpi),
                code=2, expect=("--dpi", "megapixels in all", "choose a lower --dpi"))
    outcome = run_case(case, tmp_path, slow_cpu=REFUSAL_CPU)
    assert not outcome.failures, (outcome.failures, outcome.message)


def test_a_gif_that_fits_its_lower_bound_is_still_judged_exactly():
    from toolkit import records
    from toolkit.errors import UsageError
    from toolkit.render import record_view

    record_view.check_gif_record(GOLDEN / "classic.json", 200)  # 43 frames of at least 1.6 MP: passes here
    game = records.replay(records.read_record(GOLDEN / "classic.json"), base_dir=GOLDEN)
    with pytest.raises(UsageError, match=r"choose --dpi 185 or less"):
        record_view.encode(game, "gif", dpi=200)
