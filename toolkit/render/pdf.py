"""PDF backend: draws scene documents with reportlab (the only module that imports it).

Production details live here: the Vera Sans TrueType fonts that ship with reportlab are
registered so they are embedded (subset) in every file; each scene symbol becomes one form
XObject drawn once and placed many times; TrimBox and BleedBox are set on 1-up pages; the
viewer is told not to scale when printing; and the canvas runs in invariant mode with fixed
metadata, so the same scene always gives byte-identical files.

Font subsets get tags derived from the font and the glyphs they hold (not reportlab's fixed
`AAAAAA+`), so two files merged by a print shop never mix up different subsets of one font.

Die-cut pieces (tiles, round tokens) carry their cut lines (`Page.cut`): each is stroked as a 0.25 pt hairline
in the separation colour CUT_SPOT (`CutContour`, the name cutting RIPs and die-cut shops look for;
100 % magenta as its alternate), set to overprint, inside an optional content group (a layer) of
the same name that viewers list and can hide. Files without cut lines have no layer at all.

`cmyk=True` writes every colour as DeviceCMYK: greys and black become black ink only (text and
crop marks darker than 75 % grey print as 100 % K, so they stay sharp with no colour fringes),
other colours by the plain uncalibrated RGB -> CMYK formula. It does not make a PDF/X file: no
output intent or ICC profile is embedded, colours are not managed, and total ink coverage is not
limited; a print shop's preflight still decides.

`pdfx=profile` (PDF/X-1a) converts the colours and pictures through that CMYK ICC profile instead
(sRGB in, relative colorimetric, littleCMS through Pillow's ImageCms), so the inks are the ones
the print shop's printing condition gives those colours; greys stay on the black plate as above.
"""
from __future__ import annotations

import hashlib
import io
import math
import os
from typing import Any

import reportlab
from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, CMYKColorSep, HexColor
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

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
    Symbol,
    Text,
    Use,
    text_width,
)

PT_PER_MM = 72.0 / 25.4
FONT_REGULAR = "PatchworkVera"
FONT_BOLD = "PatchworkVeraBold"
CREATOR = "patchwork-toolkit"

CUT_SPOT = "CutContour"
"""Name of the spot colour and of the layer the cut lines are drawn in."""
CUT_CMYK = (0.0, 1.0, 0.0, 0.0)
"""The cut line's alternate colour (what a viewer shows): 100 % magenta."""
_CUT_PROPERTY = "OCcut"
"""The layer's name in each page's /Properties resources."""

_FONTS_READY = False
BLACK_TEXT_BELOW = 0.25
"""In CMYK output, neutral text and marks darker than this (0 = black) print as 100 % K."""


def subset_tag(font: str, glyphs) -> bytes:
    """Six capital letters naming one subset: the same glyphs of the same font give the same tag."""
    digest = hashlib.sha256(font.encode() + b"\0" + ",".join(str(g) for g in glyphs).encode()).digest()
    return bytes(65 + b % 26 for b in digest[:6])


class _TaggedFont(TTFont):
    """A TrueType font whose subsets are tagged by content (see `subset_tag`)."""

    def addObjects(self, doc):
        state = self.state[doc]
        tags = [subset_tag(self.fontName, subset) for subset in state.subsets]
        saved = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, *_: tags[n]
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = saved


def _register_fonts() -> None:
    """Register Vera and Vera Bold as embeddable TrueType fonts (once per process)."""
    global _FONTS_READY
    if _FONTS_READY:
        return
    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    pdfmetrics.registerFont(_TaggedFont(FONT_REGULAR, os.path.join(folder, "Vera.ttf")))
    pdfmetrics.registerFont(_TaggedFont(FONT_BOLD, os.path.join(folder, "VeraBd.ttf")))
    _FONTS_READY = True


def _theme_font(font) -> str:
    """Register a theme's TrueType font (once per process) under a name made from its bytes, so
    two themes never share a name and the same font always gets the same subset tags."""
    name = "Theme" + hashlib.sha256(font.data).hexdigest()[:16]
    try:
        pdfmetrics.getFont(name)
    except KeyError:
        pdfmetrics.registerFont(_TaggedFont(name, io.BytesIO(font.data)))
    return name


class IccTransform:
    """sRGB -> CMYK through a CMYK output profile (littleCMS, through Pillow's ImageCms), relative
    colorimetric: a colour the press can print keeps its look, one it cannot is clipped to the
    nearest it can. One per profile; the same profile and colour always give the same ink."""

    def __init__(self, profile: bytes):
        from PIL import ImageCms

        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(profile)), "RGB", "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self.colours: dict[str, tuple[float, float, float, float]] = {}

    def picture(self, picture):
        """An RGB Pillow image as a CMYK one."""
        from PIL import ImageCms

        return ImageCms.applyTransform(picture.convert("RGB"), self.transform)

    def colour(self, colour: str) -> tuple[float, float, float, float]:
        """`#rrggbb` as (c, m, y, k) in 0..1, to four decimals like `cmyk_of`."""
        found = self.colours.get(colour)
        if found is None:
            from PIL import Image

            pixel = self.picture(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
            found = self.colours[colour] = tuple(round(v / 255.0, 4) for v in pixel)
        return found


_TRANSFORMS: dict[bytes, IccTransform] = {}


def icc_transform(profile: bytes) -> IccTransform:
    """The sRGB -> CMYK transform of a CMYK ICC profile, built once per process and profile."""
    key = hashlib.sha256(profile).digest()
    if key not in _TRANSFORMS:
        _TRANSFORMS[key] = IccTransform(profile)
    return _TRANSFORMS[key]


def cmyk_jpeg(data: bytes, transform: IccTransform | None = None) -> bytes:
    """A theme's picture (PNG or JPEG) as a CMYK JPEG (transparency flattened onto white), so a
    CMYK file holds no RGB picture: through `transform` (the PDF/X output profile) when given,
    else by the same uncalibrated conversion as `cmyk_of`."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as opened:
        picture: Image.Image = opened
        if picture.mode in ("RGBA", "LA", "P", "PA"):
            picture = picture.convert("RGBA")
            flat = Image.new("RGB", picture.size, "#ffffff")
            flat.paste(picture, mask=picture.getchannel("A"))
            picture = flat
        out = io.BytesIO()
        cmyk = transform.picture(picture) if transform is not None else picture.convert("CMYK")
        cmyk.save(out, "JPEG", quality=95, subsampling=0)
    return out.getvalue()


def cmyk_of(colour: str, black_text: bool = False,
            transform: IccTransform | None = None) -> tuple[float, float, float, float]:
    """`#rrggbb` as (c, m, y, k) in 0..1: greys on the black plate only, dark neutral text and
    marks as pure black, other colours through `transform` (the PDF/X output profile) when given,
    else by the uncalibrated formula."""
    r, g, b = (int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
    if r == g == b:
        if black_text and r <= BLACK_TEXT_BELOW:
            return (0.0, 0.0, 0.0, 1.0)
        return (0.0, 0.0, 0.0, round(1.0 - r, 4))
    if transform is not None:
        return transform.colour(colour.lower())
    k = 1.0 - max(r, g, b)
    return tuple(round((1.0 - v - k) / (1.0 - k), 4) for v in (r, g, b)) + (round(k, 4),)  # type: ignore[return-value]


class _LayeredCatalog(pdfdoc.PDFCatalog):
    """The document catalog with /OCProperties (reportlab's lists no optional content)."""

    __NoDefault__ = pdfdoc.PDFCatalog.__NoDefault__ + ["OCProperties"]


def _with_layer_property(page, layer) -> None:
    """Make `page` list `layer` in its /Properties resources once reportlab builds them."""
    base = page.__class__

    class _LayeredPage(base):  # type: ignore[misc, valid-type]
        def check_format(self, document):
            super().check_format(document)
            self.Resources.Properties = {_CUT_PROPERTY: layer}

    page.__class__ = _LayeredPage


class _Canvas(rl_canvas.Canvas):
    """A canvas that can give the page it finishes a cut layer (see `_with_layer_property`)."""

    cut_layer = None
    page_has_cut = False

    def _setAnnotations(self, page):  # called by showPage with the finished page object
        super()._setAnnotations(page)
        if self.page_has_cut:
            _with_layer_property(page, self.cut_layer)
            self.page_has_cut = False


def _box(box, page_height: float) -> tuple[float, float, float, float]:
    """A scene Box (mm, y down) as a PDF rectangle (pt, y up)."""
    x0 = box.x * PT_PER_MM
    x1 = (box.x + box.width) * PT_PER_MM
    y0 = (page_height - box.y - box.height) * PT_PER_MM
    y1 = (page_height - box.y) * PT_PER_MM
    return (round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3))


class _Painter:
    def __init__(self, document: Document, duplex: str | None, cmyk: bool = False, cut_layer: bool = True,
                 pdfx: bytes | None = None):
        _register_fonts()
        self.document = document
        self.pdfx = pdfx
        self.cmyk = cmyk or pdfx is not None
        self.transform = icc_transform(pdfx) if pdfx is not None else None
        self.cut_layer = cut_layer
        self.buffer = io.BytesIO()
        first = document.pages[0]
        self.c = _Canvas(
            self.buffer,
            pagesize=(first.width * PT_PER_MM, first.height * PT_PER_MM),
            invariant=1,
            pageCompression=1,
            # reportlab opens every page by selecting a font; make it ours so no page refers to
            # a non-embedded base font.
            initialFontName=FONT_REGULAR,
            initialFontSize=10,
        )
        c = self.c
        c.setTitle(document.title)
        c.setAuthor(CREATOR)
        c.setCreator(CREATOR)
        c.setProducer(CREATOR)
        c.setSubject(document.title)
        # Printed at 100 %: cut lines and the quilt scale only work unscaled.
        c.setViewerPreference("PrintScaling", "None")
        if duplex:
            c.setViewerPreference(
                "Duplex", "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge"
            )
        if pdfx is not None:
            _make_pdfx(c, pdfx)
        self.forms: set[str] = set()
        self.pictures: dict[bytes, str] = {}
        """The XObject name of each picture already in the file."""
        self.regular, self.bold = FONT_REGULAR, FONT_BOLD
        if document.fonts is not None:
            self.regular, self.bold = (_theme_font(font) for font in document.fonts)

    # ---- symbols ------------------------------------------------------------------------------

    def define(self, symbol: Symbol) -> None:
        if symbol.name in self.forms:
            return
        for dep in self._uses(symbol.items):
            self.define(self.document.symbol(dep))
        c = self.c
        c.beginForm(symbol.name, 0, 0, symbol.width * PT_PER_MM, symbol.height * PT_PER_MM)
        c.translate(0, symbol.height * PT_PER_MM)
        c.scale(PT_PER_MM, -PT_PER_MM)
        for item in symbol.items:
            self.draw(item)
        c.endForm()
        self.forms.add(symbol.name)

    def _uses(self, items) -> list[str]:
        found: list[str] = []
        for item in items:
            if isinstance(item, Use) and item.symbol not in found:
                found.append(item.symbol)
            elif isinstance(item, Group):
                found += [s for s in self._uses(item.items) if s not in found]
        return found

    # ---- drawing ------------------------------------------------------------------------------

    def colour(self, colour: str, black_text: bool = False):
        if self.cmyk:
            return CMYKColor(*cmyk_of(colour, black_text, self.transform))
        return HexColor(colour)

    def _stroke(self, colour, width, dash) -> None:
        c = self.c
        # strokes include the crop marks: dark neutral ones print on the black plate alone
        c.setStrokeColor(self.colour(colour, True))
        c.setLineWidth(width)
        if dash:
            c.setDash(list(dash))

    def draw(self, item: Item) -> None:
        c = self.c
        if isinstance(item, Rect):
            stroke = item.stroke is not None
            if stroke:
                self._stroke(item.stroke, item.stroke_width, item.dash)
            if item.fill:
                c.setFillColor(self.colour(item.fill))
            if item.radius:
                c.roundRect(item.x, item.y, item.width, item.height, item.radius,
                            stroke=int(stroke), fill=int(bool(item.fill)))
            else:
                c.rect(item.x, item.y, item.width, item.height, stroke=int(stroke), fill=int(bool(item.fill)))
            if item.dash:
                c.setDash([])
        elif isinstance(item, Line):
            self._stroke(item.stroke, item.stroke_width, item.dash)
            c.line(item.x1, item.y1, item.x2, item.y2)
            if item.dash:
                c.setDash([])
        elif isinstance(item, Poly):
            stroke = item.stroke is not None
            if stroke:
                self._stroke(item.stroke, item.stroke_width, item.dash)
            if item.fill:
                c.setFillColor(self.colour(item.fill))
            if item.round_joins:
                c.setLineJoin(1)
                c.setLineCap(1)
            path = c.beginPath()
            path.moveTo(*item.points[0])
            for point in item.points[1:]:
                path.lineTo(*point)
            if item.closed:
                path.close()
            c.drawPath(path, stroke=int(stroke), fill=int(bool(item.fill) and item.closed))
            if item.round_joins:
                c.setLineJoin(0)
                c.setLineCap(0)
            if item.dash:
                c.setDash([])
        elif isinstance(item, Circle):
            stroke = item.stroke is not None
            if stroke:
                self._stroke(item.stroke, item.stroke_width, ())
            if item.fill:
                c.setFillColor(self.colour(item.fill))
            c.circle(item.cx, item.cy, item.r, stroke=int(stroke), fill=int(bool(item.fill)))
        elif isinstance(item, Text):
            c.saveState()
            c.translate(item.x, item.y)
            c.scale(1 / PT_PER_MM, -1 / PT_PER_MM)
            font = self.bold if item.bold else self.regular
            c.setFont(font, item.size)
            c.setFillColor(self.colour(item.fill, True))
            if font in (FONT_REGULAR, FONT_BOLD):
                if item.anchor == "middle":
                    c.drawCentredString(0, 0, item.text)
                elif item.anchor == "end":
                    c.drawRightString(0, 0, item.text)
                else:
                    c.drawString(0, 0, item.text)
            else:
                self.theme_text(item, font)
            c.restoreState()
        elif isinstance(item, Image):
            from reportlab.lib.utils import ImageReader

            c.saveState()
            # the scene's y runs down: draw the picture upright in a flipped frame
            c.translate(item.x, item.y + item.height)
            c.scale(1, -1)
            name = self.pictures.get(item.data)
            if name is None:  # decoded and digested once a file: a theme's picture may be on every card
                found: dict[str, Any] = {"name": None}  # drawImage writes the picture's name in
                data = cmyk_jpeg(item.data, self.transform) if self.cmyk else item.data
                # PDF/X-1a has no transparency: a picture's alpha is flattened onto white there
                c.drawImage(ImageReader(io.BytesIO(data)), 0, 0, item.width, item.height,
                            mask=None if self.pdfx else "auto", extraReturn=found)
                self.pictures[item.data] = found["name"]
            else:  # what drawImage draws once the picture is in the file
                c._currentPageHasImages = 1
                c.saveState()
                c.scale(item.width, item.height)
                c.doForm(name)
                c.restoreState()
            c.restoreState()
        elif isinstance(item, Group):
            c.saveState()
            if item.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                c.transform(*item.transform)
            if item.clip is not None:
                path = c.beginPath()
                path.rect(*item.clip)
                c.clipPath(path, stroke=0, fill=0)
            if item.clip_path is not None:
                path = c.beginPath()
                for loop in item.clip_path:
                    path.moveTo(*loop[0])
                    for point in loop[1:]:
                        path.lineTo(*point)
                    path.close()
                c.clipPath(path, stroke=0, fill=0, fillMode=rl_canvas.FILL_EVEN_ODD)  # an inner loop is a hole
            for child in item.items:
                self.draw(child)
            c.restoreState()
        elif isinstance(item, Use):
            symbol = self.document.symbol(item.symbol)
            c.saveState()
            c.translate(item.x, item.y + symbol.height)
            c.scale(1 / PT_PER_MM, -1 / PT_PER_MM)
            c.doForm(item.symbol)
            c.restoreState()
        else:  # pragma: no cover - the scene types are closed
            raise TypeError(f"unknown scene item {item!r}")

    def theme_text(self, item: Text, font: str) -> None:
        """Text in a theme's font, in the space the layout measured for it: a font wider than the
        layout's estimate is condensed to fit rather than running past its box."""
        c = self.c
        room = text_width(item.text, item.size, item.bold) / MM_PER_PT  # pt
        width = pdfmetrics.stringWidth(item.text, font, item.size)
        squeeze = min(1.0, room / width) if width > 0 else 1.0
        drawn = width * squeeze
        x = {"middle": -drawn / 2, "end": -drawn}.get(item.anchor, 0.0)
        text = c.beginText(x, 0)
        text.setFont(font, item.size)
        if squeeze < 1.0:
            text.setHorizScale(round(squeeze * 100, 2))
        text.textOut(item.text)
        c.drawText(text)

    def page(self, page: Page) -> None:
        c = self.c
        c.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        # rounded down, so the boxes never reach past the MediaBox reportlab writes
        whole = (0.0, 0.0, math.floor(page.width * PT_PER_MM * 1000) / 1000,
                 math.floor(page.height * PT_PER_MM * 1000) / 1000)
        # PDF/X wants a TrimBox on every page: a sheet of n-up pieces is trimmed at its own edge
        default = whole if self.pdfx is not None else None
        c.setTrimBox(_box(page.trim, page.height) if page.trim else default)
        c.setBleedBox(_box(page.bleed, page.height) if page.bleed else default)
        for name in self._uses(page.items):
            self.define(self.document.symbol(name))
        c.saveState()
        c.translate(0, page.height * PT_PER_MM)
        c.scale(PT_PER_MM, -PT_PER_MM)
        for item in page.items:
            self.draw(item)
        if page.cut and self.cut_layer:
            self.cut_lines(page.cut)
        c.restoreState()
        c.showPage()

    def cut_lines(self, loops) -> None:
        """The page's cut lines: CutContour hairlines, overprinting, on the CutContour layer."""
        c = self.c
        if self.pdfx is not None:  # PDF/X-1a has no layers: the spot colour alone marks the cut
            self._stroke_cut(loops)
            return
        if c.cut_layer is None:
            ocg = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("OCG"), "Name": pdfdoc.PDFString(CUT_SPOT)})
            layer = c._doc.Reference(ocg, "OCG." + CUT_SPOT)
            c.cut_layer = layer
            # optional content is PDF 1.5
            c._doc._pdfVersion = max(c._doc._pdfVersion, (1, 5))
            catalog = c._doc.Catalog
            catalog.__class__ = _LayeredCatalog
            catalog.OCProperties = pdfdoc.PDFDictionary({
                "OCGs": pdfdoc.PDFArray([layer]),
                "D": pdfdoc.PDFDictionary({"Order": pdfdoc.PDFArray([layer]), "ON": pdfdoc.PDFArray([layer])}),
            })
        c.page_has_cut = True
        c._code.append(f"/OC /{_CUT_PROPERTY} BDC")
        self._stroke_cut(loops, mitre_joins=True)
        c._code.append("EMC")

    def _stroke_cut(self, loops, mitre_joins: bool = False) -> None:
        """Stroke `loops` as CutContour hairlines, overprinting (a round piece with the very
        curves `c.circle` draws its printed outline with)."""
        c = self.c
        c.saveState()
        c.setStrokeColor(CMYKColorSep(*CUT_CMYK, spotName=CUT_SPOT))
        c._setStrokeOverprint(True)
        c.setLineWidth(MIN_LINE_MM)
        if mitre_joins:
            c.setLineJoin(0)
        path = c.beginPath()
        for loop in loops:
            if isinstance(loop, Circle):
                path.circle(loop.cx, loop.cy, loop.r)
                continue
            path.moveTo(*loop[0])
            for point in loop[1:]:
                path.lineTo(*point)
            path.close()
        c.drawPath(path, stroke=1, fill=0)
        c.restoreState()

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()


PDFX_VERSION = "PDF/X-1a:2003"
"""The PDF/X part `pdfx` output claims: CMYK and spot colours only, fonts embedded, no
transparency, an output intent with its ICC profile, a TrimBox on every page (PDF 1.4)."""
PDFX_CONDITION = "Uncalibrated CMYK (the profile in this file)"


class _PdfxInfo(pdfdoc.PDFInfo):
    """The document information with the PDF/X version key."""

    def format(self, document):
        D = {
            "Title": pdfdoc.PDFString(self.title),
            "Author": pdfdoc.PDFString(self.author),
            "Producer": pdfdoc.PDFString(self.producer),
            "Creator": pdfdoc.PDFString(self.creator),
            "Subject": pdfdoc.PDFString(self.subject),
            "Trapped": pdfdoc.PDFName("False"),
            "GTS_PDFXVersion": pdfdoc.PDFString(PDFX_VERSION),
        }
        D["ModDate"] = D["CreationDate"] = pdfdoc.PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return pdfdoc.PDFDictionary(D).format(document)


class _PdfxCatalog(pdfdoc.PDFCatalog):
    """The document catalog with /OutputIntents."""

    __NoDefault__ = pdfdoc.PDFCatalog.__NoDefault__ + ["OutputIntents"]


def _make_pdfx(c, profile: bytes) -> None:
    """Make the canvas's file PDF/X-1a: the version key, and an output intent carrying the CMYK
    ICC `profile` the colours are meant for."""
    doc = c._doc
    info = doc.info
    info.__class__ = _PdfxInfo
    stream = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"N": 4}), profile, filters=[pdfdoc.PDFStreamFilterZCompress()])
    intent = pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"),
        "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString("Custom"),
        "OutputCondition": pdfdoc.PDFString(PDFX_CONDITION),
        "Info": pdfdoc.PDFString(PDFX_CONDITION),
        "RegistryName": pdfdoc.PDFString("http://www.color.org"),
        "DestOutputProfile": doc.Reference(stream, "ICC.output"),
    })
    catalog = doc.Catalog
    catalog.__class__ = _PdfxCatalog
    catalog.OutputIntents = pdfdoc.PDFArray([intent])


def document_pdf(document: Document, duplex: str | None = None, cmyk: bool = False,
                 cut_layer: bool = True, pdfx: bytes | None = None) -> bytes:
    """The PDF bytes of a document; `duplex` (long/short) records the flip edge for printers;
    `cmyk` writes DeviceCMYK colours, pictures too (see the module docstring for what that does
    not promise); `cut_layer=False` leaves the cut lines out (pictures of the pages); `pdfx`, a
    CMYK ICC profile's bytes, makes a PDF/X-1a file for that output condition (CMYK throughout,
    the cut lines as a spot colour without a layer)."""
    if not document.pages:
        raise ValueError("a document needs at least one page")
    # Plain Flate streams: the ASCII85 wrapper reportlab adds by default only makes files bigger.
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        painter = _Painter(document, duplex, cmyk, cut_layer, pdfx)
        for page in document.pages:
            painter.page(page)
        return painter.finish()
    finally:
        rl_config.useA85 = saved


ICC_FOLDERS = ("/usr/share/color/icc", "/usr/local/share/color/icc", "/Library/ColorSync/Profiles",
               "C:/Windows/System32/spool/drivers/color")
"""Where a machine keeps its colour profiles; `--pdfx` without `--icc` takes the first CMYK
output profile found here (Ghostscript's default_cmyk.icc on Debian)."""
MAX_ICC_BYTES = 8 * 1024 * 1024


def is_cmyk_profile(data: bytes) -> bool:
    """Whether `data` is an ICC profile of a CMYK output device (its header says so)."""
    return len(data) >= 128 and data[36:40] == b"acsp" and data[16:20] == b"CMYK" and data[12:16] == b"prtr"


def find_cmyk_profile() -> str | None:
    """The first CMYK output ICC profile in ICC_FOLDERS (by path, sorted; default_cmyk.icc first)."""
    found = []
    for folder in ICC_FOLDERS:
        for root, _dirs, files in os.walk(folder):
            for name in files:
                if name.lower().endswith((".icc", ".icm")):
                    found.append(os.path.join(root, name))
    found.sort(key=lambda path: (os.path.basename(path) != "default_cmyk.icc", path))
    for path in found:
        try:
            with open(path, "rb") as handle:
                head = handle.read(128)
        except OSError:
            continue
        if is_cmyk_profile(head):
            return path
    return None
