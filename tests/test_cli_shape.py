"""`patchwork shape`: text and JSON reports, board and deck options, errors with exit code 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from toolkit.cli.app import app
from toolkit.geometry import Shape
from reference import reference_file


runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["shape", *args])


def run_json(*args: str, exit_code: int = 0) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == exit_code, result.output
    return json.loads(result.stdout)


def test_json_has_the_promised_keys():
    facts = run_json("##./.##")
    for key in ("size", "orientations", "chiral", "connected", "holes", "canonical", "cuts",
                "placements", "same_shape"):
        assert key in facts
    assert facts["size"] == 4
    assert facts["orientations"] == 4 and facts["rotations"] == 2
    assert facts["chiral"] is True and facts["connected"] is True and facts["holes"] == 0
    assert facts["canonical"] == "##./.##"
    assert facts["cuts"] == [["##", "##"], ["#", "#./##"], ["##/.#", "#"]]
    assert facts["placements"] == 4 * 7 * 8 and facts["board"] == "9x9"
    assert facts["same_shape"] == [] and facts["deck"] is None


@pytest.mark.slow
def test_json_cuts_refuse_the_three_piece_line():
    facts = run_json("#.#/###")
    assert facts["cuts"] == [["#/#", ".#/##"], ["#./##", "#/#"]]
    assert [line["axis"] for line in facts["cut_lines"]] == ["v", "v"]
    assert facts["chiral"] is False and facts["orientations"] == 4


@pytest.mark.slow
def test_json_holes_and_disconnected():
    ring = run_json("###/#.#/###")
    assert ring["holes"] == 1 and ring["hole_cells"] == [[1, 1]] and ring["orientations"] == 1
    apart = run_json("#./.#", exit_code=1)  # a deck cannot use it: exit 1 after the whole report
    assert apart["connected"] is False and apart["cuts"] == []
    assert apart["usable"] is False and "not connected" in apart["problems"][0]
    assert ring["usable"] is True and ring["problems"] == []


@pytest.mark.slow
def test_board_option_and_no_flip():
    assert run_json("#./#./##", "--board", "7x7")["placements"] == 8 * 5 * 6
    assert run_json("#./#./##", "--board", "16X16")["placements"] == 8 * 14 * 15
    assert run_json("#./#./##", "--board", "3x2")["placements"] == 4  # lying down only
    facts = run_json("#./#./##", "--no-flip")
    assert facts["placements"] == 4 * 7 * 8 and facts["allow_flip"] is False
    too_big = run_json("#####/#####", "--board", "4x4", exit_code=1)
    assert too_big["placements"] == 0 and too_big["problems"] == ["it fits nowhere on an empty 4x4 board"]


def test_text_report_draws_cuts():
    result = run("#.#/###")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "size          5 cells, 3x2 bounding box" in out
    assert "orientations  4 with reflections, 4 by rotation only" in out
    assert "chiral        no" in out
    assert "placements    224 on an empty 9x9 board" in out
    assert "between columns 1 and 2: A = #/#, B = .#/##" in out
    assert "    A|.B\n    A|BB" in out
    assert "between rows" not in out


def test_text_report_horizontal_cut_drawing():
    out = run("###/#.#/###").stdout
    assert "holes         1" in out
    assert "    AAA\n    ---\n    B.B\n    BBB" in out


@pytest.mark.slow
def test_text_report_no_cuts():
    assert "cuts          none (no straight line" in run("#").stdout
    broken = run("#.#")
    assert "cuts          none (the shape is not one connected patch)" in broken.stdout
    assert broken.stdout.rstrip().endswith("verdict       a deck cannot use this shape: it is not connected "
                                           "(every cloth cell must touch another along a side)")
    assert broken.exit_code == 1
    assert run("#").stdout.rstrip().endswith("verdict       a deck can use this shape")


@pytest.mark.parametrize(
    "shape, message",
    [
        ("x#", "unexpected character 'x' at row 1, column 1"),
        ("##/#", "rows have different lengths"),
        ("../..", "no cloth cell"),
        ("", "empty shape"),
    ],
)
@pytest.mark.slow
def test_bad_shape_exit_code_2(shape, message):
    result = run(shape)
    assert result.exit_code == 2
    assert result.stderr.startswith("patchwork: error: ")
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    assert result.stdout == ""


@pytest.mark.parametrize(
    "board, message",
    [
        ("0x3", "board width 0 is out of range"),
        ("3x0", "board height 0 is out of range"),
        ("40x40", "up to 32x32"),
        ("abc", "expected WIDTHxHEIGHT"),
        ("9", "expected WIDTHxHEIGHT"),
        ("-1x3", "expected WIDTHxHEIGHT"),
    ],
)
def test_bad_board_exit_code_2(board, message):
    result = run("##", "--board", board)
    assert result.exit_code == 2
    assert message in result.stderr and "--board" in result.stderr
    assert result.stdout == ""


def reference_twins(shape: Shape) -> list[str]:
    data = yaml.safe_load(reference_file("patchwork-classic.yaml").read_text())
    return [
        p["id"] for p in data["patches"] if Shape.parse(p["shape"]).canonical_key == shape.canonical_key
    ]


@pytest.mark.parametrize("shape", ["#/#", "##/##", ".#./###/.#.", "#../##./.##", "#"])
@pytest.mark.slow
def test_deck_same_shape_matches_reference(shape):
    facts = run_json(shape, "--deck", "classic")
    assert facts["deck"] == "classic"
    assert facts["same_shape"] == reference_twins(Shape.parse(shape))


@pytest.mark.slow
def test_deck_reports_repeated_shapes_and_uses_deck_board():
    data = yaml.safe_load(reference_file("patchwork-classic.yaml").read_text())
    p17 = next(p for p in data["patches"] if p["id"] == "P17")
    rotated = Shape.parse(p17["shape"]).rotate().mirror()
    facts = run_json(rotated.format(), "--deck", "classic")
    assert facts["same_shape"] == ["P17", "P18"]
    assert facts["board"] == "9x9"
    text = run(rotated.format(), "--deck", "classic").stdout
    assert "same shape    P17, P18 (in classic)" in text


def test_unknown_deck_is_one_clear_error():
    result = run("##", "--deck", "no-such-edition")
    assert result.exit_code != 0
    assert result.stderr.startswith("patchwork: error: ")
    assert "Traceback" not in result.output
