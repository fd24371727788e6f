"""Cut paths of round pieces (button tiles, time tokens, the level marker), measured from the
written files: the PDF's content stream is walked (graphics state, `cm`, paths and curves) to find
each cut line on the CutContour layer and the printed rim it must follow, and the SVG cut file's
arcs are compared with the circles the SVG of the page draws. A cut line that drifts, shrinks or
goes missing fails here.

The figures: `pytest tests/test_cut_round.py -q -s` prints the largest distance between a cut line
and its printed outline, per file."""
from __future__ import annotations

import io
import math
import re
from xml.etree import ElementTree

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.documents import cut_file
from toolkit.render.imposition import Layout
from toolkit.render.tokens import RIM_MM, TOKEN_MM, token_pieces
from toolkit.specs import load_edition

MM_PER_PT = 25.4 / 72
SVG = "{http://www.w3.org/2000/svg}"
SAMPLES = 32
"""Points sampled on each Bezier curve of a path."""


def _tokens(edition: str, **options):
    return render_component("tokens", load_edition(edition), RenderOptions(**options))


def _round_count(edition: str, solo: bool = False) -> int:
    return sum(piece.outline is not None for piece in token_pieces(load_edition(edition), solo=solo))


# ----- the PDF, read as a printer reads it --------------------------------------------------------


def _multiply(m, n):
    """m then n (PDF matrices: [a b c d e f], a point is a row vector)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def _bezier(p0, p1, p2, p3):
    out = []
    for i in range(1, SAMPLES + 1):
        t = i / SAMPLES
        u = 1 - t
        out.append(tuple(u ** 3 * p0[k] + 3 * u * u * t * p1[k] + 3 * u * t * t * p2[k] + t ** 3 * p3[k]
                         for k in (0, 1)))
    return out


def stroked_paths(pdf: bytes, page: int = 0):
    """(on the cut layer, line width in mm, [subpath point lists in mm, y up]) of every stroked
    path on the page, curves sampled, in page coordinates."""
    reader = PdfReader(io.BytesIO(pdf))
    operations = ContentStream(reader.pages[page].get_contents(), reader).operations
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack = []
    width = 1.0
    layer = 0
    subpaths: list[list] = []
    found = []
    for operands, op in operations:
        op = op.decode("latin-1") if isinstance(op, bytes) else op
        v = [float(x) for x in operands] if op in ("cm", "m", "l", "c", "re", "w") else []
        if op == "q":
            stack.append((ctm, width))
        elif op == "Q":
            ctm, width = stack.pop()
        elif op == "cm":
            ctm = _multiply(tuple(v), ctm)
        elif op == "w":
            width = v[0]
        elif op == "BDC":
            layer += 1 if str(operands[0]) == "/OC" and str(operands[1]) == "/OCcut" else 0
        elif op == "EMC" and layer:
            layer -= 1
        elif op == "m":
            subpaths.append([_apply(ctm, v[0], v[1])])
        elif op == "l":
            subpaths[-1].append(_apply(ctm, v[0], v[1]))
        elif op == "c":
            p0 = subpaths[-1][-1]
            subpaths[-1] += _bezier(p0, _apply(ctm, v[0], v[1]), _apply(ctm, v[2], v[3]), _apply(ctm, v[4], v[5]))
        elif op == "re":
            x, y, w, h = v
            subpaths.append([_apply(ctm, *p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y))])
        elif op in ("S", "s", "B", "B*", "b", "b*"):
            scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
            found.append((bool(layer), width * scale * MM_PER_PT,
                          [[(x * MM_PER_PT, y * MM_PER_PT) for x, y in sub] for sub in subpaths]))
            subpaths = []
        elif op in ("n", "f", "f*", "F", "W", "W*") and op != "W" and op != "W*":
            subpaths = []
    return found


def _circle_fit(points):
    """Centre and mean radius of points on a closed curve."""
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    return cx, cy, sum(math.hypot(x - cx, y - cy) for x, y in points) / len(points)


def _distance_to_polyline(p, line) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(line, line[1:] + line[:1]):
        vx, vy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / ((vx * vx + vy * vy) or 1.0)))
        best = min(best, math.hypot(p[0] - ax - t * vx, p[1] - ay - t * vy))
    return best


def round_cut_deviation(pdf: bytes, page: int = 0) -> tuple[int, float]:
    """(round cut lines found, the largest distance in mm from a point of one to the printed rim
    it follows): each cut curve is matched with the drawn rim (a stroke RIM_MM wide) of its size
    around the same centre; a cut line with no rim there counts as infinitely far."""
    paths = stroked_paths(pdf, page)
    cuts = [sub for on_layer, _w, subs in paths if on_layer for sub in subs if len(sub) > 8]
    rims = [sub for on_layer, w, subs in paths if not on_layer and abs(w - RIM_MM) < 1e-3 for sub in subs]
    worst = 0.0
    for cut in cuts:
        cx, cy, r = _circle_fit(cut)
        near = [rim for rim in rims if math.hypot(_circle_fit(rim)[0] - cx, _circle_fit(rim)[1] - cy) < 1.0]
        if not near:
            return len(cuts), math.inf
        worst = max(worst, min(max(_distance_to_polyline(p, rim) for p in cut[::4]) for rim in near))
    return len(cuts), worst


# ----- the SVG cut file against the SVG of the page -------------------------------------------------


def svg_cut_circles(svg: bytes) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every circular cut path (two arcs) in a cut file."""
    circles = []
    for path in ElementTree.fromstring(svg).iter(f"{SVG}path"):
        d = path.get("d")
        if " A " not in d:
            continue
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        x0, y0, r, _rr, _rot, _large, _sweep, x1, y1 = numbers[:9]
        assert y0 == y1 and x1 - x0 == pytest.approx(2 * r), d
        circles.append(((x0 + x1) / 2, y0, r))
    return circles


def svg_rims(svg: bytes) -> list[tuple[float, float, float]]:
    """(cx, cy, r) in page mm of every circle the page draws with a round token's rim."""
    found = []

    def walk(element, dx, dy):
        match = re.match(r"translate\((-?[\d.]+),(-?[\d.]+)\)", element.get("transform", ""))
        if match:
            dx, dy = dx + float(match.group(1)), dy + float(match.group(2))
        if element.tag == f"{SVG}circle" and element.get("stroke-width") == f"{RIM_MM:g}":
            found.append((float(element.get("cx")) + dx, float(element.get("cy")) + dy, float(element.get("r"))))
        for child in element:
            walk(child, dx, dy)

    walk(ElementTree.fromstring(svg), 0.0, 0.0)
    return found


# ----- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition, solo", [("classic", False), ("express", False), ("anniversary", True)])
@pytest.mark.slow
def test_every_round_token_has_a_cut_line_on_its_printed_rim_in_the_pdf(edition, solo):
    document = _tokens(edition, solo=solo)
    pdf = encode(document, "pdf")[0]
    total, worst = 0, 0.0
    for index, page in enumerate(document.pages):
        count, deviation = round_cut_deviation(pdf, index)
        total += count
        worst = max(worst, deviation)
    print(f"\n{edition} tokens PDF: {total} round cut lines, largest distance to the printed rim {worst:.4f} mm")
    assert total == _round_count(edition, solo)
    assert worst < 0.005, f"a round cut line lies {worst:.4f} mm off its printed rim"


@pytest.mark.parametrize("edition, solo", [("classic", False), ("anniversary", True)])
def test_the_svg_cut_file_holds_each_rim_exactly(edition, solo):
    document = _tokens(edition, solo=solo)
    art = encode(document, "svg")
    worst, total = 0.0, 0
    for index, page in enumerate(document.pages):
        if not page.cut:
            continue
        cuts = svg_cut_circles(cut_file(document, index))
        rims = svg_rims(art[index])
        total += len(cuts)
        assert len(cuts) == len(rims)
        for cx, cy, r in cuts:
            # a point of the cut circle is at most |centres apart| + |radii apart| from the rim
            worst = max(worst, min(math.hypot(cx - x, cy - y) + abs(r - rr) for x, y, rr in rims))
    print(f"\n{edition} tokens SVG cut file: {total} circles, largest distance to the printed rim {worst:.4f} mm")
    assert total == _round_count(edition, solo)
    assert worst < 0.001


def test_square_tokens_on_the_same_page_get_their_square_cut_line():
    document = _tokens("classic")
    loops = [loop for page in document.pages for loop in page.cut if isinstance(loop, tuple)]
    assert len(loops) == 1  # the neutral token
    xs = sorted({round(x, 6) for x, _ in loops[0]})
    assert xs[1] - xs[0] == pytest.approx(TOKEN_MM)


@pytest.mark.slow
def test_a_drifted_cut_line_is_caught(monkeypatch):
    """The measurement itself: a cut circle moved 0.2 mm, or left out, fails the checks above."""
    from dataclasses import replace

    from toolkit.render.scene import Circle

    document = _tokens("express")
    page = document.pages[0]
    moved = tuple(Circle(c.cx + 0.2, c.cy, c.r, None) if isinstance(c, Circle) else c for c in page.cut)
    drifted = replace(document, pages=(replace(page, cut=moved),))
    count, worst = round_cut_deviation(encode(drifted, "pdf")[0])
    assert count == _round_count("express") and worst == pytest.approx(0.2, abs=0.01)
    missing = replace(document, pages=(replace(page, cut=page.cut[1:]),))
    assert round_cut_deviation(encode(missing, "pdf")[0])[0] == _round_count("express") - 1


@pytest.mark.parametrize("layout", [Layout(mode="single"), Layout(gutter=0.0)])
@pytest.mark.slow
def test_round_cut_lines_in_every_layout(layout):
    document = _tokens("express", layout=layout)
    pdf = encode(document, "pdf")[0]
    total = sum(round_cut_deviation(pdf, i)[0] for i in range(len(document.pages)))
    assert total == _round_count("express")
    assert max(round_cut_deviation(pdf, i)[1] for i in range(len(document.pages))) < 0.005


@pytest.mark.slow
def test_the_cli_writes_the_tokens_cut_file_and_no_cut_lines_leaves_it_out(tmp_path):
    from tests.cli_helpers import ok

    result = ok("render", "tokens", "classic", "--out", str(tmp_path / "t.pdf"))
    assert "cut lines: " in result.output
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["cut", "t.pdf"]
    assert [p.name for p in (tmp_path / "cut").glob("*.svg")] == ["t-cut.svg"]
    ok("render", "tokens", "classic", "--no-cut-lines", "--out", str(tmp_path / "u.pdf"))
    assert not (tmp_path / "cut" / "u-cut.svg").exists()
    assert b"CutContour" not in (tmp_path / "u.pdf").read_bytes()


def test_proof_guides_of_a_round_token_are_circles_about_its_cut_line():
    from toolkit.render.imposition import _proof_items
    from toolkit.render.scene import Circle, Poly

    piece = token_pieces(load_edition("classic"))[0]
    trim, bleed, safe = None, None, None
    for item in _proof_items(piece, 3.0):
        if isinstance(item, Circle):
            trim = item.r
        elif isinstance(item, Poly):
            radii = {round(math.hypot(x - 9.0, y - 9.0), 6) for x, y in item.points}
            assert len(radii) == 1
            if bleed is None:
                bleed = radii.pop()
            else:
                safe = radii.pop()
    assert (trim, bleed, safe) == (9.0, 12.0, 6.0)
