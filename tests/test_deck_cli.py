"""`patchwork deck ...` from the command line: JSON contracts, the count line, errors."""
import json
import sys

import pytest

from cli_helpers import fails, ok
from toolkit.errors import SpecError, UnknownEdition, UsageError


def test_fit_json_contract():
    doc = json.loads(ok("deck", "fit", "classic", "--json").stdout)
    assert {"r2", "cv_error", "cv_interval", "patches", "off_model", "largest_residuals"} <= set(doc)
    assert len(doc["patches"]) == 33
    assert {"id", "cost", "predicted", "residual", "studentised", "p_adjusted", "off_model"} <= set(doc["patches"][0])
    assert len(doc["largest_residuals"]["dearer"]) == 5


@pytest.mark.slow
def test_fit_text_names_the_worst_priced():
    out = ok("deck", "fit", "classic", "--top", "2").stdout
    assert "R2 0.859" in out and "leave-one-out CV error 1.28 buttons [0.98, 1.84]" in out
    assert "priced off the model (studentised residual, Holm over 33 patches at 5%): none" in out
    assert "largest residuals, none told apart from the model's spread:" in out
    assert "P19" in out and "P16" in out and "deck check" in out


@pytest.mark.slow
def test_fit_accepts_a_patch_set_file(tmp_path):
    ok("deck", "generate", "--count", "20", "--seed", "4", "--out", str(tmp_path / "d.yaml"))
    doc = json.loads(ok("deck", "fit", str(tmp_path / "d.yaml"), "--json").stdout)
    assert doc["n"] == 20 and doc["deck"] == "d"


@pytest.mark.slow
def test_pack_count_prints_the_number_on_its_own_line(tmp_path):
    out = ok("deck", "pack", "polyominoes:5", "--board", "20x3", "--count",
             "--out", str(tmp_path / "s.svg")).stdout.splitlines()
    assert out[0] == "8"
    assert any(line.startswith("2 up to the board's 4 symmetries") for line in out)
    assert (tmp_path / "s.svg").read_bytes().startswith(b"<svg")


@pytest.mark.slow
def test_pack_count_json_and_limit():
    doc = json.loads(ok("deck", "pack", "polyominoes:5", "--board", "15x4", "--count", "--json").stdout)
    assert doc["count"]["total"] == 1472 and doc["count"]["up_to_symmetry"] == 368
    out = ok("deck", "pack", "polyominoes:5", "--board", "10x6", "--count", "--limit", "3").stdout
    assert 3 <= int(out.splitlines()[0]) < 9356 and "stopped at --limit" in out


@pytest.mark.slow
def test_pack_facts_of_classic(tmp_path):
    doc = json.loads(ok("deck", "pack", "classic", "--json", "--out", str(tmp_path / "c.pdf")).stdout)
    assert doc["board"] == "9x9" and doc["fill"] is True and doc["largest_area"] == 81
    cells = [tuple(c) for p in doc["solution"] for c in p["cells"]]
    assert len(cells) == 81 == len(set(cells))
    reach = {r["id"]: r["cells"] for r in doc["reach"]}
    assert reach["P00"] == 81 and len(reach) == 33
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")


def test_pack_reports_no_fill():
    out = ok("deck", "pack", "polyominoes:5", "--board", "7x7").stdout
    assert "exact fill by a subset of the patches: no" in out
    assert "largest area covered: 45 of 49 cells" in out


@pytest.mark.parametrize("args,error", [
    (("deck", "pack", "classic", "--board", "9by9"), UsageError),
    (("deck", "pack", "classic", "--board", "0x9"), UsageError),
    (("deck", "pack", "classic", "--limit", "0", "--count"), UsageError),
    (("deck", "pack", "classic", "--out", "x.gif"), UsageError),
    (("deck", "pack", "polyominoes:x"), UsageError),
    (("deck", "pack", "polyominoes:12"), UsageError),
    (("deck", "pack", "nope"), UnknownEdition),
    (("deck", "fit", "doodle"), UsageError),
    (("deck", "fit", "classic", "--folds", "1"), UsageError),
    (("deck", "generate", "--out", "x.txt"), UsageError),
    (("deck", "generate", "--out", "x.yaml", "--sizes", "9..2"), UsageError),
    (("deck", "generate", "--out", "x.yaml", "--count", "0"), UsageError),
    (("deck", "generate", "--out", "x.yaml", "--count", "1000000000", "--allow-twins"), UsageError),
    (("deck", "generate", "--out", "x.yaml", "--mode", "merge"), UsageError),
    (("deck", "generate", "--out", "x.yaml", "--like", "doodle"), UsageError),
])
@pytest.mark.slow
def test_bad_input_is_one_clear_error(args, error):
    assert isinstance(fails(*args), error)


def test_a_broken_patch_set_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: patch-set\nname: bad\npatches:\n  - {id: A, shape: '#.#', cost: 1}\n")
    error = fails("deck", "fit", str(bad))
    assert isinstance(error, SpecError) and "bad.yaml:4" in str(error)


@pytest.mark.slow
def test_pack_a_chosen_subset():
    doc = json.loads(ok("deck", "pack", "classic", "--board", "5x1", "--patches", "P00,P01,P05", "--json").stdout)
    assert doc["patches"] == 3 and doc["fill"] is True
    assert sorted(p["id"] for p in doc["solution"]) in (["P00", "P01"],)
    out = ok("deck", "pack", "classic", "--board", "2x2", "--patches", "P01", "--count").stdout
    assert out.splitlines()[0] == "0"
    assert isinstance(fails("deck", "pack", "classic", "--patches", "P99"), UsageError)


@pytest.mark.slow
def test_png_drawing_needs_pypdfium2(tmp_path, monkeypatch):
    target = tmp_path / "fill.png"
    args = ("deck", "pack", "polyominoes:5", "--board", "20x3", "--out", str(target))
    ok(*args)
    assert target.read_bytes().startswith(b"\x89PNG")
    target.unlink()
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # import pypdfium2 -> ImportError
    error = fails(*args)
    assert isinstance(error, UsageError) and "pypdfium2" in str(error)
    assert not target.exists()
