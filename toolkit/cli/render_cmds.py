"""`patchwork render ...` (one component as PDF, SVG or PNG) and `patchwork build` (the whole print kit)."""
from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Optional

import typer

from toolkit.cli.options import MAX_SEED, MAX_SHEETS, output_file, output_folder, path_text, seed_range
from toolkit.errors import UsageError

render_app = typer.Typer(
    help="Print one component of an edition or variant as PDF, SVG or PNG.",
    no_args_is_help=True,
)

_OFFSET = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[x×]\s*(-?\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)
MAX_BACK_OFFSET_MM = 20.0
BLEED_DEFAULT_MM = 3.0

EDITION_ARG = typer.Argument(None, metavar="EDITION", help="Bundled edition name or a variant/edition YAML file.")
FORMAT_OPT = typer.Option(None, "--format", "-f", metavar="pdf|svg|png",
                          help="pdf (the default), svg or png (svg and png: one file per page).")
PAPER_OPT = typer.Option("a4", "--paper", "-p", metavar="PAPER", help="a4, letter, a5 or a custom WxHmm such as 100x150mm.")
OUT_OPT = typer.Option(None, "--out", "-o", metavar="FILE", parser=path_text, callback=output_file,
                       help="Output file (default: a file in output/ named after the edition, component, options and paper).")
FORCE_OPT = typer.Option(False, "--force", help="Overwrite output files this toolkit did not write, or that were "
                                                 "changed since (its own earlier files are replaced without it).")
MAX_PAGES = 2 * MAX_SHEETS
"""The most pages a document has (a two-sided pad of the most sheets)."""
MAX_CHALLENGES = 366
"""The most challenge sheets one run prints (a year of daily challenges)."""
DPI_OPT = typer.Option(None, "--dpi", min=10, max=1200, help="Resolution of --format png, 10-1200 dots per inch (default 300).")
PAGE_OPT = typer.Option(None, "--page", min=1, max=MAX_PAGES, help="Only this page of the document (1 = first), e.g. for one PNG.")
CMYK_OPT = typer.Option(False, "--cmyk", help="PDF colours and pictures in DeviceCMYK, black text and marks on the "
                                               "black plate only (not PDF/X: no ICC profile, uncalibrated "
                                               "conversion; a PNG stays RGB, showing the CMYK colours).")
PDFX_OPT = typer.Option(False, "--pdfx", help="A PDF/X-1a:2003 file for a print shop: CMYK throughout (pictures "
                                              "too), an output intent with the --icc profile, TrimBox and BleedBox "
                                              "on every page, fonts embedded, no transparency.")
ICC_OPT = typer.Option(None, "--icc", metavar="FILE", parser=path_text,
                       help="The CMYK ICC profile of --pdfx (your print shop's, e.g. FOGRA39 or GRACoL; default: "
                            "the machine's default_cmyk.icc from /usr/share/color/icc).")
MARGIN_OPT = typer.Option("5mm", "--margin", help="Printer's unprintable border: no crop mark or bleed inside it.")
BACKS_OPT = typer.Option(False, "--backs/--no-backs", help="Follow each fronts page with its backs page.")
PROOF_OPT = typer.Option(False, "--proof", help="Overlay trim (red), bleed (blue) and safe-area (green) guides.")
FLIP_OPT = typer.Option("long", "--flip", metavar="long|short", help="Duplex flip edge for backs: long or short.")
OFFSET_OPT = typer.Option("0x0mm", "--back-offset", metavar="XxYmm", help="Shift backs pages by XxYmm to correct printer registration.")
LAYOUT_OPT = typer.Option(None, "--layout", metavar="sheet|single",
                          help="sheet (the default): n-up with crop marks; single: one piece per page at trim + "
                               "bleed, with TrimBox/BleedBox, for print shops.")
GUTTER_OPT = typer.Option(None, "--gutter",
                          help="Space between cards and tokens, each keeping bleed up to half of it, e.g. 6mm, "
                               "3mm or 0 (default: the widest up to 2 x bleed that costs at most one extra sheet; "
                               "the output says when it does).")
BLEED_OPT = typer.Option(None, "--bleed", metavar="LENGTH",
                         help="How far art runs past every cut line: 0 to 5 mm, e.g. 3mm (the default), 0 or "
                              "1/8in (score sheets have nothing to cut).")
THEME_OPT = typer.Option(None, "--theme", metavar="FILE", parser=path_text,
                         help="A theme file (kind: theme): colours, TrueType fonts, card back picture, per-patch "
                              "pictures or patterns, title and credits (default: the bundled look; "
                              "`patchwork render theme` writes one to start from).")
SOLO_OPT = typer.Option(False, "--solo", help="For solo play against the Automa: one quilt board, the time board "
                                               "with the level spaces marked, the level marker, the solo rules "
                                               "(kit: and both Automa decks).")
CUT_LINES_OPT = typer.Option(True, "--cut-lines/--no-cut-lines",
                             help="Cut lines of tiles and round tokens: an SVG cut file of each page of them, "
                                  "in a cut/ folder beside the output, for a cutting plotter or laser "
                                  "(--no-cut-lines: none, and none in the PDF).")
CUT_LAYER_OPT = typer.Option(None, "--cut-layer/--no-cut-layer",
                             help="The cut lines in the PDF too, as a CutContour spot-colour layer for a print "
                                  "shop's cutter (default: on with --template and --layout single, off for "
                                  "printing at home, where a printer would draw it as a magenta line).")
TEMPLATE_OPT = typer.Option(None, "--template", metavar="NAME",
                            help="A print-on-demand template: poker-png, bridge-png, mini-png, tarot-png "
                                 "(one 300 dpi PNG per card face, 1/8 in bleed), poker-pdf; tiles: tiles-diecut, "
                                 "tiles-png (with SVG cut files). Sets format, size, bleed and layout.")
CARD_SIZE_OPT = typer.Option(None, "--card-size", help="poker (63.5x88.9), bridge (57x89), mini (44x63) or "
                                                       "tarot (70x120 mm); default 63x88 mm.")


def register(app: typer.Typer) -> None:
    app.add_typer(render_app, name="render")
    app.command("build")(build)


def parse_back_offset(text: str) -> tuple[float, float]:
    match = _OFFSET.match(text)
    if not match:
        raise UsageError(f"bad --back-offset '{text}': expected XxYmm such as 0.5x-1mm")
    x, y = float(match.group(1)), float(match.group(2))
    if abs(x) > MAX_BACK_OFFSET_MM or abs(y) > MAX_BACK_OFFSET_MM:
        raise UsageError(f"--back-offset '{text}': each shift must be within ±{MAX_BACK_OFFSET_MM:g} mm")
    return x, y


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "edition"


def default_name(edition: str, kind: str, paper: str, fmt: str, options, page: int | None = None,
                 template: str | None = None) -> Path:
    """A default output name that says what the file holds, so no two renderings share one."""
    parts = [_slug(edition), kind]
    if template is not None:
        parts.append(template)
        if options.backs:
            parts.append("backs")
        return Path("output") / f"{'-'.join(parts)}.{fmt}"
    if kind == "pad":
        parts += [f"{options.sheets}-sheets", "duplex" if options.double_sided else "simplex"]
        if options.numbered:
            parts.append("numbered")
    if kind == "challenge":
        seeds = str(options.seed) if options.count == 1 else f"{options.seed}-{options.seed + options.count - 1}"
        parts.append(f"seed-{seeds}")
    if options.solo:
        parts.append("solo")
    if options.theme.source:
        parts.append(f"theme-{_slug(options.theme.name)}")
    if options.card_size:
        parts.append(options.card_size)
    if abs(options.bleed - BLEED_DEFAULT_MM) > 1e-9:
        parts.append(f"bleed-{options.bleed:.3f}".rstrip("0").rstrip(".") + "mm")
    if options.layout.mode == "single":
        parts.append("single")
    if options.backs:
        parts += ["backs", f"{options.duplex.flip}-edge"]
    if options.proof:
        parts.append("proof")
    parts.append(_slug(paper))
    if page is not None:
        parts.append(f"page-{page}")
    return Path("output") / f"{'-'.join(parts)}.{fmt}"


def _template_settings(kind: str, name: str, fmt: Optional[str], dpi: Optional[int], layout: Optional[str],
                       bleed: Optional[str], card_size: Optional[str]):
    """The template's format, dpi, layout, bleed and card trim; an option that contradicts the
    template is refused rather than silently breaking the shop's exact sizes."""
    from toolkit.render.templates import template

    found = template(name, kind)
    clashes = []
    if fmt is not None and fmt.strip().lower() != found.fmt:
        clashes.append(f"--format {fmt}")
    if dpi is not None and dpi != found.dpi:
        clashes.append(f"--dpi {dpi}")
    if layout is not None and layout.strip().lower() != "single":
        clashes.append(f"--layout {layout}")
    if bleed is not None:
        clashes.append(f"--bleed {bleed}")
    if card_size is not None:
        clashes.append(f"--card-size {card_size}")
    if clashes:
        raise UsageError(f"--template {found.name} sets the format, size, bleed and layout itself; drop "
                         f"{', '.join(clashes)}")
    return found


def _run(kind: str, edition_name: Optional[str], fmt: Optional[str], paper: str, out: Optional[Path], *,
         force: bool = False, dpi: Optional[int] = None, cmyk: bool = False, margin: str = "5mm",
         layout: Optional[str] = None, gutter: Optional[str] = None, page: Optional[int] = None,
         bleed: Optional[str] = None, template: Optional[str] = None, cut_lines: bool = True,
         cut_layer: Optional[bool] = None, theme: Optional[Path] = None, pdfx: bool = False,
         icc: Optional[Path] = None, **extra) -> None:
    from toolkit.render.output import FORMATS  # the options first: the drawing loads once they are read
    from toolkit.render.paper import parse_paper

    empty = [option for option, value in (("--format", fmt), ("--layout", layout), ("--template", template),
                                          ("--gutter", gutter), ("--bleed", bleed), ("--paper", paper),
                                          ("--margin", margin), ("--card-size", extra.get("card_size")),
                                          ("--flip", extra.get("flip")), ("--back-offset", extra.get("back_offset")))
             if value is not None and not value.strip()]
    if empty:  # an empty value is a slip (an unset shell variable), not a request for the default
        raise UsageError(f"{empty[0]} '': an empty value; leave the option out for its default")
    chosen = None
    if template is not None:
        chosen = _template_settings(kind, template, fmt, dpi, layout, bleed, extra.get("card_size"))
        fmt, dpi, layout = chosen.fmt, chosen.dpi, "single"
        if chosen.trim_mm is not None:
            extra["card_trim"] = chosen.trim_mm
    fmt = (fmt or "pdf").lower()
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}': expected pdf, svg or png")
    if edition_name is not None and not edition_name.strip():
        raise UsageError("EDITION: an empty name is not an edition; leave it out for the default edition, or give a "
                         "bundled name or a .yaml file")
    if out is not None:
        from toolkit.fileio import check_suffix

        check_suffix(out, fmt)  # PNG bytes in x.pdf open nowhere: refused before anything is drawn
    if cut_layer and not cut_lines:
        raise UsageError("--cut-layer puts the cut lines in the PDF; --no-cut-lines leaves them out: choose one")
    if cut_layer and fmt != "pdf":
        raise UsageError(f"--cut-layer is a layer of a PDF; --format {fmt} draws no cut line (its cut files "
                         "are written with --cut-lines)")
    if icc is not None and not pdfx:
        raise UsageError("--icc is the profile of a --pdfx file; add --pdfx")
    if pdfx and fmt != "pdf":
        raise UsageError(f"--pdfx makes a PDF; --format {fmt} cannot be PDF/X")
    icc, profile = load_icc(icc) if pdfx else (None, None)
    if cmyk and fmt == "svg":
        raise UsageError("--cmyk applies to pdf and png output; SVG colours are RGB by definition")
    paper_value = parse_paper(paper)
    if fmt == "png" and (layout or "sheet").strip().lower() != "single":
        from toolkit.render.png import MAX_PIXELS

        resolution = dpi or 300  # a page is the paper: its pixels are known before anything is laid out
        pixels = (paper_value.width / 25.4 * resolution) * (paper_value.height / 25.4 * resolution)
        if pixels > MAX_PIXELS:
            raise UsageError(f"--dpi {resolution}: a {paper_value.name} page would be {pixels / 1e6:,.0f} megapixels "
                             f"(at most {MAX_PIXELS / 1e6:.0f}); choose a lower --dpi or a smaller --paper")
    from toolkit.render import Duplex, RenderOptions, default_edition, render_component, write_document
    from toolkit.render.imposition import BLEED_MM, Layout, parse_bleed, parse_length
    from toolkit.specs import load_edition

    flip = extra.pop("flip", "long")
    offset = parse_back_offset(extra.pop("back_offset", "0x0mm"))
    sheet_layout = Layout(parse_length(margin, "--margin"),
                          None if gutter is None else parse_length(gutter, "--gutter"),
                          (layout or "sheet").strip().lower())
    bleed_mm = chosen.bleed_mm if chosen else (BLEED_MM if bleed is None else parse_bleed(bleed))
    if theme is not None:
        from toolkit.render.theme_file import load_theme

        extra["theme"] = load_theme(theme)
    options = RenderOptions(paper=paper_value, duplex=Duplex(flip, offset), layout=sheet_layout,
                            bleed=bleed_mm, **extra)
    # no edition named: the default edition of the first family that prints the component
    edition = load_edition(edition_name or default_edition(kind))
    document = render_component(kind, edition, options)
    if not cut_lines:
        document = replace(document, pages=tuple(replace(p, cut=()) for p in document.pages))
    if page is not None:
        if not 1 <= page <= len(document.pages):
            raise UsageError(f"--page {page}: the document has pages 1 to {len(document.pages)}")
        document = replace(document, pages=(document.pages[page - 1],))
    target = out or default_name(edition.name, kind, paper_value.name, fmt, options, page,
                                 chosen.name if chosen else None)
    two_sided = (options.backs or (kind == "pad" and options.double_sided) or kind == "challenge") and page is None
    duplex = flip if two_sided else None
    if cut_layer is None:  # a print shop's file carries its cut lines; a home print shows none
        cut_layer = cut_lines and (chosen is not None or options.layout.mode == "single")
    written = write_document(document, fmt, target, duplex, cmyk=cmyk, dpi=dpi or 300, force=force,
                             labelled=chosen is not None and fmt != "pdf", cut_files=cut_lines,
                             transparent=chosen is not None and chosen.transparent, cut_layer=cut_layer,
                             pdfx=profile)
    cuts = [w for w in written if w.cut == "cut file"]
    printed = [w for w in written if w.cut != "cut file"]
    total = sum(w.size for w in printed)
    where = printed[0].path if len(printed) == 1 else f"{printed[0].path} .. {printed[-1].path.name}"
    typer.echo(f"wrote {where}: {len(document.pages)} page(s), {total} bytes")
    if cuts:
        where = cuts[0].path if len(cuts) == 1 else f"{cuts[0].path} .. {cuts[-1].path.name}"
        if fmt != "pdf":
            inside = ""
        elif cut_layer:
            inside = "; also in the PDF on its CutContour layer"
        else:
            inside = "; the PDF prints none: --cut-layer adds them on a CutContour layer"
        typer.echo(f"cut lines: {where} ({len(cuts)} SVG cut file{'s' if len(cuts) > 1 else ''} for a cutting "
                   f"plotter or laser){inside}")
    if profile is not None:
        typer.echo(f"PDF/X-1a:2003 for the printing condition of {icc} (embedded): CMYK throughout, "
                   f"TrimBox and BleedBox on every page")
    for note in document.notes:
        typer.echo(note if note.startswith("warning: ") else f"note: {note}")
    if chosen is not None:
        typer.echo(template_summary(chosen, document, printed[0].path))
    if kind == "challenge":
        typer.echo(document.title)


def refuse_big_edition(ref: str, where: str) -> None:
    """UsageError, before the file is parsed, when the edition file `ref` lists more patches than a
    printed file holds (its `id:` keys counted in its bytes, or its patch-set file's)."""
    from toolkit.decks.deck import patch_ids
    from toolkit.render.documents import MAX_PRINTED_PATCHES

    ids = patch_ids(ref)
    if ids is not None and ids > MAX_PRINTED_PATCHES:
        raise UsageError(f"{where} {ref}: {ids:,} patch ids; a printed kit holds at most {MAX_PRINTED_PATCHES:,} "
                         f"patches (a bundled edition has 33); refused before parsing")


def _png_size(path: Path) -> tuple[int, int]:
    """(width, height) in pixels from a PNG file's header."""
    with open(path, "rb") as handle:
        head = handle.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def load_icc(path: Optional[Path]) -> tuple[Path, bytes]:
    """(path, bytes) of the CMYK ICC profile of --pdfx: `path`, or the first one on the machine."""
    from toolkit.errors import InputError
    from toolkit.fileio import read_capped_bytes
    from toolkit.render.pdf import MAX_ICC_BYTES, find_cmyk_profile, is_cmyk_profile

    if path is None:
        found = find_cmyk_profile()
        if found is None:
            raise UsageError("--pdfx needs a CMYK ICC profile and none is installed (e.g. `apt-get install "
                             "ghostscript` brings default_cmyk.icc); give your print shop's with --icc FILE")
        path = Path(found)
    try:
        data = read_capped_bytes(path, MAX_ICC_BYTES, "ICC profile")
    except InputError as error:
        raise UsageError(f"--icc {error}") from None
    if not is_cmyk_profile(data):
        raise UsageError(f"--icc {path}: not an ICC profile of a CMYK printing condition")
    return path, data


def template_summary(chosen, document, first_file: Path) -> str:
    """One line saying what the template made: page size, and for PNG the pixels of the first
    file as written (read back, so the line never disagrees with the file)."""
    first = document.pages[0]
    size = f"{first.width:.2f} x {first.height:.2f} mm"
    if chosen.fmt == "png":
        px = _png_size(first_file)
        size += f" = {px[0]} x {px[1]} px at {chosen.dpi} dpi"
    if chosen.trim_mm is None:
        size = f"each the piece's outline box plus the bleed (the first {size})"
    bleed = f"{chosen.bleed_mm:g} mm bleed" if chosen.bleed_mm != 25.4 / 8 else "1/8 in (3.175 mm) bleed"
    return f"template {chosen.name}: {chosen.what}, one face a {'file' if chosen.fmt == 'png' else 'page'}, " \
           f"{size}, {bleed}"


@render_app.command("sheet")
def sheet(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
          force: bool = FORCE_OPT, dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT,
          page: Optional[int] = PAGE_OPT) -> None:
    """One Doodle score sheet (board size and rounds from the spec)."""
    _run("sheet", edition, format, paper, out, force=force, theme=theme, bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc, page=page)


@render_app.command("pad")
def pad(
    edition: Optional[str] = EDITION_ARG,
    format: Optional[str] = FORMAT_OPT,
    paper: str = PAPER_OPT,
    out: Optional[Path] = OUT_OPT,
    sheets: int = typer.Option(80, "--sheets", "-n", min=1, max=MAX_SHEETS, metavar="N",
                                help=f"Number of sheets, 1..{MAX_SHEETS} (the published pad has 80)."),
    duplex: bool = typer.Option(True, "--duplex/--simplex", help="Score sheet on both sides of each sheet."),
    numbered: bool = typer.Option(False, "--numbered", help="Print the sheet number in the corner."),
    bleed: Optional[str] = BLEED_OPT,
    theme: Optional[Path] = THEME_OPT,
    force: bool = FORCE_OPT,
    dpi: Optional[int] = DPI_OPT,
    cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT,
    page: Optional[int] = PAGE_OPT,
) -> None:
    """A Doodle score pad: N sheets, one- or two-sided, one drawn sheet reused on every page."""
    if sheets < 1:
        raise UsageError(f"--sheets must be at least 1, got {sheets}")
    _run("pad", edition, format, paper, out, force=force, theme=theme, bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc, page=page,
         sheets=sheets, double_sided=duplex, numbered=numbered)


@render_app.command("cards")
def cards(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT,
          flip: str = FLIP_OPT, back_offset: str = OFFSET_OPT, layout: Optional[str] = LAYOUT_OPT,
          gutter: Optional[str] = GUTTER_OPT, margin: str = MARGIN_OPT,
          card_size: Optional[str] = CARD_SIZE_OPT, bleed: Optional[str] = BLEED_OPT,
          theme: Optional[Path] = THEME_OPT, template: Optional[str] = TEMPLATE_OPT, force: bool = FORCE_OPT,
          dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT, page: Optional[int] = PAGE_OPT) -> None:
    """Doodle patch cards (with mirror images of chiral shapes) and start cards, n-up."""
    _run("cards", edition, format, paper, out, force=force, theme=theme, template=template, bleed=bleed, dpi=dpi,
         cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, layout=layout, gutter=gutter, backs=backs, proof=proof, flip=flip,
         back_offset=back_offset, card_size=card_size and card_size.strip().lower())


@render_app.command("tiles")
def tiles(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT, flip: str = FLIP_OPT,
          back_offset: str = OFFSET_OPT, layout: Optional[str] = LAYOUT_OPT, margin: str = MARGIN_OPT,
          bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
          template: Optional[str] = TEMPLATE_OPT, cut_lines: bool = CUT_LINES_OPT,
          cut_layer: Optional[bool] = CUT_LAYER_OPT, force: bool = FORCE_OPT,
          dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT, page: Optional[int] = PAGE_OPT) -> None:
    """Patch tiles at true quilt scale (19 mm squares), plus leather patches and the bonus tile."""
    _run("tiles", edition, format, paper, out, force=force, theme=theme, cut_lines=cut_lines, cut_layer=cut_layer,
         template=template,
         bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, layout=layout, backs=backs, proof=proof,
         flip=flip, back_offset=back_offset)


@render_app.command("automa")
def automa(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
           out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT, flip: str = FLIP_OPT,
           back_offset: str = OFFSET_OPT, layout: Optional[str] = LAYOUT_OPT, gutter: Optional[str] = GUTTER_OPT,
           margin: str = MARGIN_OPT, card_size: Optional[str] = CARD_SIZE_OPT, bleed: Optional[str] = BLEED_OPT,
           theme: Optional[Path] = THEME_OPT, template: Optional[str] = TEMPLATE_OPT, force: bool = FORCE_OPT,
           dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT, page: Optional[int] = PAGE_OPT) -> None:
    """Automa solo cards of every deck the edition holds, numbered as in the spec."""
    _run("automa", edition, format, paper, out, force=force, theme=theme, template=template, bleed=bleed, dpi=dpi,
         cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, layout=layout, gutter=gutter, backs=backs, proof=proof, flip=flip,
         back_offset=back_offset, card_size=card_size and card_size.strip().lower())


@render_app.command("tokens")
def tokens(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
           out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT, flip: str = FLIP_OPT,
           back_offset: str = OFFSET_OPT, layout: Optional[str] = LAYOUT_OPT, gutter: Optional[str] = GUTTER_OPT,
           margin: str = MARGIN_OPT, bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
           solo: bool = SOLO_OPT, cut_lines: bool = CUT_LINES_OPT, cut_layer: Optional[bool] = CUT_LAYER_OPT,
           force: bool = FORCE_OPT, dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT,
           page: Optional[int] = PAGE_OPT) -> None:
    """Button tiles, time tokens and the neutral token (or the Doodle token), two-sided; the round
    ones with cut lines for a die, laser or cutting plotter."""
    _run("tokens", edition, format, paper, out, force=force, theme=theme, solo=solo, cut_lines=cut_lines,
         cut_layer=cut_layer,
         bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, layout=layout, gutter=gutter, backs=backs,
         proof=proof, flip=flip, back_offset=back_offset)


@render_app.command("rules")
def rules(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, margin: str = MARGIN_OPT, bleed: Optional[str] = BLEED_OPT,
          theme: Optional[Path] = THEME_OPT, solo: bool = SOLO_OPT, force: bool = FORCE_OPT,
          dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT, page: Optional[int] = PAGE_OPT) -> None:
    """The rules reference of an edition (setup, a turn, scoring; Doodle: the die on a d6): one page, or more
    rather than text below 7 pt."""
    _run("rules", edition, format, paper, out, force=force, theme=theme, solo=solo, bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc,
         page=page, margin=margin)


@render_app.command("boards")
def boards(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
           out: Optional[Path] = OUT_OPT, proof: bool = PROOF_OPT, layout: Optional[str] = LAYOUT_OPT,
           margin: str = MARGIN_OPT, bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
           solo: bool = SOLO_OPT, force: bool = FORCE_OPT, dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT,
           page: Optional[int] = PAGE_OPT) -> None:
    """Quilt boards (one per player; in two halves on paper too small) and the time board."""
    _run("boards", edition, format, paper, out, force=force, theme=theme, solo=solo, bleed=bleed, dpi=dpi,
         cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, layout=layout, proof=proof)


@render_app.command("kit")
def kit(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
        out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT, flip: str = FLIP_OPT,
        back_offset: str = OFFSET_OPT, gutter: Optional[str] = GUTTER_OPT, margin: str = MARGIN_OPT,
        bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT, cut_lines: bool = CUT_LINES_OPT,
        cut_layer: Optional[bool] = CUT_LAYER_OPT, solo: bool = SOLO_OPT, force: bool = FORCE_OPT,
        dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT, page: Optional[int] = PAGE_OPT) -> None:
    """Everything to play an edition: boards, tiles, tokens, rules reference (Doodle: cards, token, rules);
    --solo: the solo kit, with both Automa decks, the level marker and the solo rules."""
    _run("kit", edition, format, paper, out, force=force, theme=theme, solo=solo, cut_lines=cut_lines,
         cut_layer=cut_layer, bleed=bleed,
         dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc, page=page, margin=margin, gutter=gutter, backs=backs, proof=proof, flip=flip,
         back_offset=back_offset)


@render_app.command("challenge")
def challenge(edition: Optional[str] = EDITION_ARG, format: Optional[str] = FORMAT_OPT, paper: str = PAPER_OPT,
              out: Optional[Path] = OUT_OPT,
              seed: int = typer.Option(..., "--seed", **seed_range(), help="Seed of the (first) challenge; "
                                                           "`patchwork play doodle --seed S` replays it."),
              count: int = typer.Option(1, "--count", "-n", min=1, max=MAX_CHALLENGES, help="Number of challenges, seeds S, S+1, ... "
                                                                 "(7 makes a week pad)."),
              flip: str = FLIP_OPT, bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
              force: bool = FORCE_OPT, dpi: Optional[int] = DPI_OPT, cmyk: bool = CMYK_OPT, pdfx: bool = PDFX_OPT, icc: Optional[Path] = ICC_OPT,
              page: Optional[int] = PAGE_OPT) -> None:
    """Solo Doodle challenge sheets: the seed's cards in order, dice rolled, and a par from the best bot."""
    if seed + count - 1 > MAX_SEED:
        raise UsageError(f"--seed {seed} --count {count}: the last challenge's seed would pass {MAX_SEED}")
    _run("challenge", edition, format, paper, out, force=force, theme=theme, bleed=bleed, dpi=dpi, cmyk=cmyk, pdfx=pdfx, icc=icc,
         page=page, seed=seed, count=count, flip=flip)


@render_app.command("theme")
def theme_file(out: Path = typer.Option(Path("my-theme.yaml"), "--out", "-o", metavar="FILE", parser=path_text,
                                        help="Theme file to write."),
               force: bool = FORCE_OPT) -> None:
    """Write the bundled look as a theme file to edit: colours, and the keys for fonts, a card back
    picture, per-patch pictures or patterns, title and credits; use it with --theme."""
    from toolkit.render.output import check_targets, write_bytes
    from toolkit.render.theme_file import theme_yaml

    if out.exists() and not force:
        raise UsageError(f"{out} already exists; use --force to overwrite or --out to choose another name")
    check_targets([out])
    write_bytes(out, theme_yaml().encode("utf-8"))
    typer.echo(f"wrote {out}: the bundled look; edit it and print with --theme {out}")


def build(
    paper: str = typer.Option("a4", "--paper", "-p", metavar="PAPER", help="a4, letter, a5 or a custom WxHmm such as 100x150mm."),
    out: Path = typer.Option(Path("output"), "--out", "-o", metavar="FOLDER", parser=path_text, callback=output_folder,
                             help="Folder to write into."),
    edition: Optional[str] = typer.Option(None, "--edition", help="Only the kit of this edition or variant (name or YAML file), e.g. a custom deck."),
    margin: str = MARGIN_OPT,
    gutter: Optional[str] = GUTTER_OPT,
    bleed: Optional[str] = BLEED_OPT, theme: Optional[Path] = THEME_OPT,
    cut_layer: bool = typer.Option(False, "--cut-layer", help="The cut lines in the kits' PDFs too, as a "
                                   "CutContour spot-colour layer (off: a home printer would draw it; the cut "
                                   "lines are always in cut/ as SVG files)."),
    force: bool = typer.Option(False, "--force", help="Overwrite files in the folder that this toolkit did not "
                               "write (its own files of an earlier build are replaced without it)."),
    pdfx: bool = typer.Option(False, "--pdfx", help="Every PDF of the kit a PDF/X-1a:2003 file for a print shop, as "
                              "`render --pdfx` writes them (CMYK through the --icc profile, output intent, TrimBox "
                              "and BleedBox, no transparency); the SVGs stay RGB, for editing."),
    icc: Optional[Path] = ICC_OPT,
) -> None:
    """Print everything: Doodle pad, classic/Christmas/Express and Doodle kits, the solo kit (with the Automa decks), SVGs.

    Prints what each file holds, on which paper, how many sheets, one- or two-sided, and what to cut.
    """
    from rich.console import Console

    from toolkit.render.build import build as run_build
    from toolkit.render.build import describe, staged
    from toolkit.render.imposition import Layout, parse_bleed, parse_length
    from toolkit.render.paper import parse_paper

    empty = [option for option, value in (("--paper", paper), ("--margin", margin), ("--gutter", gutter),
                                          ("--bleed", bleed), ("--edition", edition)) if value is not None and not value.strip()]
    if empty:
        raise UsageError(f"{empty[0]} '': an empty value; leave the option out for its default")
    if edition is not None:
        refuse_big_edition(edition, "--edition")
    if icc is not None and not pdfx:
        raise UsageError("--icc is the profile of a --pdfx build; add --pdfx")
    icc, profile = load_icc(icc) if pdfx else (None, None)
    paper_value = parse_paper(paper)
    bleed_mm = parse_bleed(bleed or "3mm")
    look = {}
    if theme is not None:
        from toolkit.render.theme_file import load_theme

        look["theme"] = load_theme(theme)
    sheet_layout = Layout(parse_length(margin, "--margin"), None if gutter is None else parse_length(gutter, "--gutter"))
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a folder")
    console = Console(stderr=True)
    started = time.perf_counter()

    def note(text: str) -> None:
        console.print(f"patchwork: note: {text}", markup=False, highlight=False, soft_wrap=True)

    with console.status("building") as status:
        if edition is not None:
            from toolkit.render.build import edition_kit
            from toolkit.specs import load_edition

            built = staged(out, lambda folder: edition_kit(edition, folder, paper_value, sheet_layout, cut_layer,
                                                           profile, bleed=bleed_mm, **look), note, overwrite=force)
            written = describe(built, out, load_edition(edition))
        else:
            written = describe(run_build(out, paper_value, lambda name: status.update(f"building {name}"), note,
                                         sheet_layout, bleed_mm, cut_layer=cut_layer, force=force, pdfx=profile,
                                         **look), out)
    typer.echo(f"Print at 100 % (no 'fit to page') on {paper_value.name} paper "
               f"({paper_value.width:g} x {paper_value.height:g} mm), from {out}:")
    printed = [item for item in written if item.sheets]
    for item in printed:
        typer.echo(f"  {item.path.relative_to(out)}: {item.sheets} sheets, {item.sides} ({item.pages} pages)")
        typer.echo(f"      holds: {item.holds}")
        typer.echo(f"      cut:   {item.cut}")
        for note in item.notes:
            typer.echo(f"      {note}" if note.startswith("warning: ") else f"      note:  {note}")
    typer.echo(f"  total: {sum(item.sheets for item in printed)} sheets of {paper_value.name}")
    cuts = [item for item in written if item.cut == "cut file"]
    if cuts:
        folders = sorted({item.path.parent.relative_to(out).as_posix() for item in cuts})
        where = ", ".join("the output folder" if f == "." else f"{f}/" for f in folders)
        typer.echo(f"  cut lines of every page of tiles and round tokens: {len(cuts)} SVG cut files in {where} "
                   f"(for a cutting plotter or laser; "
                   f"{'the PDFs also hold them on a CutContour layer' if cut_layer else 'the PDFs print none'})")
    if profile is not None:
        typer.echo(f"  every PDF is PDF/X-1a:2003 for the printing condition of {icc} (embedded): CMYK "
                   f"throughout, TrimBox and BleedBox on every page")
    svgs = [item for item in written if not item.sheets and item.cut != "cut file"]
    typer.echo(f"{len(written)} files ({len(svgs)} SVGs of single components for editing, not for printing) "
               f"in {time.perf_counter() - started:.1f} s")
