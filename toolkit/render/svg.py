"""SVG backend: draws scene pages with svgwrite (the only module that imports it).

One SVG file per page, sized in mm with a viewBox in mm, so 1 user unit = 1 mm. A page with die-cut
pieces also gets a cut file (`cut_svg`): the same page size holding only the cut lines, one closed
path per piece outline on a layer named CutContour, for a cutting plotter or laser cutter. Symbols go into
`<defs>` once and are placed with `<use>`; clip paths get ids numbered in drawing order, so the
same scene always gives the same bytes.
"""
from __future__ import annotations

import svgwrite

from toolkit.render.scene import (
    MIN_LINE_MM,
    MM_PER_PT,
    Circle,
    Document,
    Group,
    Image,
    Item,
    Line,
    Page,
    Poly,
    Rect,
    Text,
    Use,
)

FONT_FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"
"""The PDF embeds Vera Sans; SVG viewers fall back to its metric-compatible relatives."""


def _n(value: float) -> float:
    """Round coordinates to a micrometre: stable text, no float noise."""
    rounded = round(value, 3)
    return 0.0 if rounded == 0 else rounded


def _num(value: float) -> str:
    text = f"{_n(value):.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _stroke_attrs(stroke, width, fill, dash) -> dict:
    attrs = {"fill": fill if fill else "none"}
    if stroke:
        attrs["stroke"] = stroke
        attrs["stroke_width"] = _num(width)
        if dash:
            attrs["stroke_dasharray"] = ",".join(_num(d) for d in dash)
    else:
        attrs["stroke"] = "none"
    return attrs


class _Writer:
    def __init__(self, document: Document, page: Page, title: str):
        self.document = document
        self.page = page
        self.dwg = svgwrite.Drawing(
            size=(f"{_num(page.width)}mm", f"{_num(page.height)}mm"),
            viewBox=f"0 0 {_num(page.width)} {_num(page.height)}",
            profile="full",
            debug=False,
        )
        self.dwg.set_desc(title=title)
        self.clips = 0
        self.defined: set[str] = set()
        self.font_family = FONT_FAMILY
        if document.fonts is not None:
            families = []
            for font in document.fonts:
                if font.family not in families:
                    families.append(font.family)
            self.font_family = ", ".join(f"'{f}'" for f in families) + ", " + FONT_FAMILY

    def symbol_ids(self, items) -> list[str]:
        seen: list[str] = []

        def walk(items):
            for item in items:
                if isinstance(item, Use) and item.symbol not in seen:
                    seen.append(item.symbol)
                    walk(self.document.symbol(item.symbol).items)
                elif isinstance(item, Group):
                    walk(item.items)

        walk(items)
        return seen

    def write(self) -> bytes:
        for name in self.symbol_ids(self.page.items):
            sym = self.document.symbol(name)
            g = self.dwg.g(id=f"sym-{name}")
            for item in sym.items:
                self.draw(item, g)
            self.dwg.defs.add(g)
        root = self.dwg.g(id="page")
        for item in self.page.items:
            self.draw(item, root)
        self.dwg.add(root)
        return self.dwg.tostring().encode("utf-8") + b"\n"

    def draw(self, item: Item, parent) -> None:
        dwg = self.dwg
        if isinstance(item, Rect):
            attrs = _stroke_attrs(item.stroke, item.stroke_width, item.fill, item.dash)
            if item.radius:
                attrs["rx"] = attrs["ry"] = _num(item.radius)
            parent.add(dwg.rect((_num(item.x), _num(item.y)), (_num(item.width), _num(item.height)), **attrs))
        elif isinstance(item, Line):
            attrs = _stroke_attrs(item.stroke, item.stroke_width, None, item.dash)
            del attrs["fill"]
            parent.add(dwg.line((_num(item.x1), _num(item.y1)), (_num(item.x2), _num(item.y2)), **attrs))
        elif isinstance(item, Poly):
            attrs = _stroke_attrs(item.stroke, item.stroke_width, item.fill, item.dash)
            if item.round_joins:
                attrs["stroke_linejoin"] = "round"
                attrs["stroke_linecap"] = "round"
            points = [(_num(x), _num(y)) for x, y in item.points]
            shape = dwg.polygon(points, **attrs) if item.closed else dwg.polyline(points, **attrs)
            parent.add(shape)
        elif isinstance(item, Circle):
            attrs = _stroke_attrs(item.stroke, item.stroke_width, item.fill, ())
            parent.add(dwg.circle((_num(item.cx), _num(item.cy)), _num(item.r), **attrs))
        elif isinstance(item, Text):
            attrs = {
                "font_family": self.font_family,
                "font_size": _num(item.size * MM_PER_PT),
                "fill": item.fill,
            }
            if item.anchor != "start":
                attrs["text_anchor"] = item.anchor
            if item.bold:
                attrs["font_weight"] = "bold"
            parent.add(dwg.text(item.text, insert=(_num(item.x), _num(item.y)), **attrs))
        elif isinstance(item, Image):
            import base64

            href = f"data:{item.mime};base64," + base64.b64encode(item.data).decode("ascii")
            parent.add(dwg.image(href, insert=(_num(item.x), _num(item.y)), size=(_num(item.width), _num(item.height)),
                                 preserveAspectRatio="none"))
        elif isinstance(item, Group):
            outer = dwg.g()
            a, b, c, d, e, f = item.transform
            if (a, b, c, d, e, f) != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                if (a, b, c, d) == (1.0, 0.0, 0.0, 1.0):
                    outer["transform"] = f"translate({_num(e)},{_num(f)})"
                else:
                    outer["transform"] = "matrix(" + ",".join(_num(v) for v in (a, b, c, d, e, f)) + ")"
            target = outer
            if item.clip is not None:
                self.clips += 1
                clip_id = f"clip-{self.clips}"
                clip = dwg.clipPath(id=clip_id)
                x, y, w, h = item.clip
                clip.add(dwg.rect((_num(x), _num(y)), (_num(w), _num(h))))
                self.dwg.defs.add(clip)
                target = dwg.g(clip_path=f"url(#{clip_id})")
                outer.add(target)
            if item.clip_path is not None:
                self.clips += 1
                clip_id = f"clip-{self.clips}"
                clip = dwg.clipPath(id=clip_id)
                outline = " ".join("M " + " L ".join(f"{_num(x)} {_num(y)}" for x, y in loop) + " Z"
                                   for loop in item.clip_path)
                clip.add(dwg.path(d=outline, clip_rule="evenodd"))
                self.dwg.defs.add(clip)
                inner = dwg.g(clip_path=f"url(#{clip_id})")
                target.add(inner)
                target = inner
            for child in item.items:
                self.draw(child, target)
            parent.add(outer)
        elif isinstance(item, Use):
            parent.add(dwg.use(f"#sym-{item.symbol}", insert=(_num(item.x), _num(item.y))))
        else:  # pragma: no cover - the scene types are closed
            raise TypeError(f"unknown scene item {item!r}")


def page_svg(document: Document, index: int = 0) -> bytes:
    """SVG bytes of one page of the document."""
    page = document.pages[index]
    title = document.title if len(document.pages) == 1 else f"{document.title} - {page.label or index + 1}"
    return _Writer(document, page, title).write()


def document_svgs(document: Document) -> list[bytes]:
    """SVG bytes of every page, in order."""
    return [page_svg(document, i) for i in range(len(document.pages))]


CUT_STROKE = "#ff00ff"
"""Cut lines show in magenta, like the PDF's CutContour spot colour."""
INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"


def cut_svg(page: Page, title: str) -> bytes:
    """The cut file of a page: the page's size in mm, its cut lines only (no fill, a 0.25 pt
    magenta hairline), each outline one closed path at exactly the position it has on the page (a
    round piece's as two arcs, an exact circle)."""
    dwg = svgwrite.Drawing(
        size=(f"{_num(page.width)}mm", f"{_num(page.height)}mm"),
        viewBox=f"0 0 {_num(page.width)} {_num(page.height)}",
        profile="full",
        debug=False,
    )
    dwg.attribs["xmlns:inkscape"] = INKSCAPE
    dwg.set_desc(title=title)
    layer = dwg.g(id="CutContour")
    layer["inkscape:groupmode"] = "layer"
    layer["inkscape:label"] = "CutContour"
    for loop in page.cut:
        if isinstance(loop, Circle):
            # two half-circle arcs: the exact circle, as one closed path like every other cut line
            x0, x1, y, r = _num(loop.cx - loop.r), _num(loop.cx + loop.r), _num(loop.cy), _num(loop.r)
            d = f"M {x0} {y} A {r} {r} 0 1 0 {x1} {y} A {r} {r} 0 1 0 {x0} {y} Z"
        else:
            d = "M " + " L ".join(f"{_num(x)} {_num(y)}" for x, y in loop) + " Z"
        layer.add(dwg.path(d=d, fill="none", stroke=CUT_STROKE, stroke_width=_num(MIN_LINE_MM)))
    dwg.add(layer)
    return dwg.tostring().encode("utf-8") + b"\n"
