"""`patchwork show` and `replay --step`: a record drawn at any move, checked as pixels (the latest
placement's cells in a colour of their own, each scored rectangle outlined), as SVG, PDF and a
GIF of the whole game, and walked at a prompt."""
from __future__ import annotations

import io
import json

import pytest
from cli_helpers import fails, ok

from toolkit import records
from toolkit.render import record_view

PIL = pytest.importorskip("PIL.Image")
DPI = 100


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def _pixel(image, x_mm: float, y_mm: float):
    return image.getpixel((int(x_mm * DPI / 25.4), int(y_mm * DPI / 25.4)))[:3]


@pytest.fixture(scope="module")
def classic_record(tmp_path_factory):
    path = tmp_path_factory.mktemp("show") / "classic.json"
    ok("play", "classic", "--seed", "4", "--bots", "greedy,greedy", "--record", str(path))
    return path


@pytest.fixture(scope="module")
def doodle_record(tmp_path_factory):
    path = tmp_path_factory.mktemp("show") / "doodle.json"
    ok("play", "doodle", "--seed", "4", "--players", "2", "--bots", "greedy,greedy", "--record", str(path))
    return path


def _game(path):
    return records.replay(records.read_record(path), base_dir=path.parent)


def _picture(path, move, tmp_path):
    out = tmp_path / f"move{move}.png"
    ok("show", str(path), "--move", str(move), "--out", str(out), "--dpi", str(DPI))
    image = PIL.open(io.BytesIO(out.read_bytes())).convert("RGB")
    _, layouts = record_view.document(_game(path), [move])
    return image, layouts[0]


@pytest.mark.slow
def test_the_latest_placement_differs_in_colour_from_the_other_patches(classic_record, tmp_path):
    from toolkit.families import family_of

    game = _game(classic_record)
    move = 20
    position = list(family_of(game.edition).views(game))[move]
    image, layout = _picture(classic_record, move, tmp_path)
    assert image.size[0] > 600 and layout.boards
    checked = 0
    for place in layout.boards:
        board = next(b for b in position.boards if b.seat == place.seat)
        covered = board.covered()
        for (r, c), piece in covered.items():
            # Sample away from the cell's centre, where the patch id is written.
            x, y = place.x + (c + 0.22) * place.cell, place.y + (r + 0.2) * place.cell
            colour = _pixel(image, x, y)
            if (r, c) in board.last_cells:
                assert _near(colour, _rgb(record_view.LAST_FILL)), (place.seat, r, c, colour)
            elif piece.kind == "patch":
                assert not _near(colour, _rgb(record_view.LAST_FILL), 60), (place.seat, r, c, colour)
            checked += 1
    assert checked > 20


@pytest.mark.slow
def test_each_scored_rectangle_is_outlined(doodle_record, tmp_path):
    from toolkit.families import family_of

    game = _game(doodle_record)
    positions = list(family_of(game.edition).views(game))
    move = next(i for i, p in enumerate(positions) if all(b.scored for b in p.boards))
    image, layout = _picture(doodle_record, move, tmp_path)
    s = record_view.SHEET_SCALE
    for place in layout.boards:
        board = positions[move].boards[place.seat]
        rect = board.scored[0]
        colour = _rgb(record_view.ROUND_COLOURS[0])
        inset = 0.9 * s
        top = place.y + rect.row * place.cell + inset
        left = place.x + rect.col * place.cell + inset
        middle_x = left + rect.width * place.cell / 2
        middle_y = top + rect.height * place.cell / 2
        assert _near(_pixel(image, middle_x, top), colour), "top edge"
        assert _near(_pixel(image, left, middle_y), colour), "left edge"
        right = place.x + (rect.col + rect.width) * place.cell - inset
        assert _near(_pixel(image, right, middle_y), colour), "right edge"
        inside = _pixel(image, left + place.cell * 0.5, top + place.cell * 1.5)
        assert not _near(inside, colour, 30), "inside the rectangle is shading, not outline"
        # The latest drawing of the sheet has its own colour too.
        for r, c in board.last_cells:
            assert _near(_pixel(image, place.x + (c + 0.25) * place.cell, place.y + (r + 0.2) * place.cell),
                         _rgb(record_view.LAST_FILL))


@pytest.mark.slow
def test_svg_pdf_and_a_gif_of_the_whole_game(classic_record, tmp_path):
    svg, pdf, gif = tmp_path / "a.svg", tmp_path / "a.pdf", tmp_path / "a.gif"
    ok("show", str(classic_record), "--move", "3", "--out", str(svg))
    ok("show", str(classic_record), "--out", str(pdf))
    assert svg.read_text().lstrip().startswith("<svg") and "P" in svg.read_text()
    assert pdf.read_bytes().startswith(b"%PDF")
    ok("show", str(classic_record), "--out", str(gif), "--dpi", "20")
    frames = PIL.open(gif)
    assert frames.n_frames == len(json.loads(classic_record.read_text())["actions"]) + 1
    # The same record and move give the same bytes.
    again = tmp_path / "b.svg"
    ok("show", str(classic_record), "--move", "3", "--out", str(again))
    assert again.read_bytes() == svg.read_bytes()


@pytest.mark.slow
def test_show_as_text_and_its_refusals(classic_record, tmp_path):
    out = ok("show", str(classic_record), "--move", "0").stdout
    assert "move 1: player 1 to move" in out and "time track" in out
    last = ok("show", str(classic_record)).stdout
    assert "game over: " in last
    total = len(json.loads(classic_record.read_text())["actions"])
    error = fails("show", str(classic_record), "--move", str(total + 1))
    assert f"the record has {total} action(s)" in str(error)
    error = fails("show", str(classic_record), "--out", str(tmp_path / "x.bmp"))
    assert ".svg" in str(error) and ".gif" in str(error)
    (tmp_path / "there.png").write_bytes(b"")
    error = fails("show", str(classic_record), "--out", str(tmp_path / "there.png"))
    assert "already exists" in str(error)


def test_replay_step_walks_the_record(doodle_record):
    out = ok("replay", str(doodle_record), "--step", input="\nn\nb\n5\nlast\nfrist\nq\n").stdout
    total = len(json.loads(doodle_record.read_text())["actions"])
    for shown in ("move 0/", "move 1/", "move 2/", "move 5/", f"move {total}/"):
        assert shown in out
    assert "did you mean 'first'?" in out and "game over: " in out
