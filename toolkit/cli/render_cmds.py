"""`patchwork render ...` (one component as PDF or SVG) and `patchwork build` (the whole print kit)."""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Optional

import typer

from toolkit.cli.options import MAX_SHEETS, output_file, output_folder, path_text
from toolkit.errors import UsageError

render_app = typer.Typer(
    help="Print one component of an edition or variant as PDF or SVG.",
    no_args_is_help=True,
)

DEFAULT_EDITION = {
    "sheet": "doodle",
    "pad": "doodle",
    "cards": "doodle",
    "tiles": "classic",
    "boards": "classic",
    "kit": "classic",
    "automa": "anniversary",
}
"""What each component prints when no edition is named."""

_OFFSET = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[x×]\s*(-?\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)
MAX_BACK_OFFSET_MM = 20.0

EDITION_ARG = typer.Argument(None, metavar="EDITION", help="Bundled edition name or a variant/edition YAML file.")
FORMAT_OPT = typer.Option("pdf", "--format", "-f", metavar="pdf|svg", help="pdf or svg (svg: one file per page).")
PAPER_OPT = typer.Option("a4", "--paper", "-p", metavar="PAPER", help="a4, letter, a5 or a custom WxHmm such as 100x150mm.")
OUT_OPT = typer.Option(None, "--out", "-o", metavar="FILE", parser=path_text, callback=output_file,
                       help="Output file (default: output/<edition>-<component>.<format>).")
BACKS_OPT = typer.Option(False, "--backs/--no-backs", help="Follow each fronts page with its backs page.")
PROOF_OPT = typer.Option(False, "--proof", help="Overlay trim (red), bleed (blue) and safe-area (green) guides.")
FLIP_OPT = typer.Option("long", "--flip", metavar="long|short", help="Duplex flip edge for backs: long or short.")
OFFSET_OPT = typer.Option("0x0mm", "--back-offset", metavar="XxYmm", help="Shift backs pages by XxYmm to correct printer registration.")


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


def _run(kind: str, edition_name: Optional[str], fmt: str, paper: str, out: Optional[Path], **extra) -> None:
    from toolkit.render import FORMATS, Duplex, RenderOptions, parse_paper, render_component, write_document
    from toolkit.specs import load_edition

    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}': expected pdf or svg")
    paper_value = parse_paper(paper)
    flip = extra.pop("flip", "long")
    offset = parse_back_offset(extra.pop("back_offset", "0x0mm"))
    options = RenderOptions(paper=paper_value, duplex=Duplex(flip, offset), **extra)
    edition = load_edition(edition_name or DEFAULT_EDITION[kind])
    document = render_component(kind, edition, options)
    target = out or Path("output") / f"{_slug(edition.name)}-{kind}.{fmt}"
    duplex = flip if (options.backs or (kind == "pad" and options.double_sided)) else None
    written = write_document(document, fmt, target, duplex)
    total = sum(w.size for w in written)
    where = written[0].path if len(written) == 1 else f"{written[0].path} .. {written[-1].path.name}"
    typer.echo(f"wrote {where}: {len(document.pages)} page(s), {total} bytes")


@render_app.command("sheet")
def sheet(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT) -> None:
    """One Doodle score sheet (board size and rounds from the spec)."""
    _run("sheet", edition, format, paper, out)


@render_app.command("pad")
def pad(
    edition: Optional[str] = EDITION_ARG,
    format: str = FORMAT_OPT,
    paper: str = PAPER_OPT,
    out: Optional[Path] = OUT_OPT,
    sheets: int = typer.Option(80, "--sheets", "-n", min=1, max=MAX_SHEETS, metavar="N",
                                help=f"Number of sheets, 1..{MAX_SHEETS} (the published pad has 80)."),
    duplex: bool = typer.Option(True, "--duplex/--simplex", help="Score sheet on both sides of each sheet."),
    numbered: bool = typer.Option(False, "--numbered", help="Print the sheet number in the corner."),
) -> None:
    """A Doodle score pad: N sheets, one- or two-sided, one drawn sheet reused on every page."""
    if sheets < 1:
        raise UsageError(f"--sheets must be at least 1, got {sheets}")
    _run("pad", edition, format, paper, out, sheets=sheets, double_sided=duplex, numbered=numbered)


@render_app.command("cards")
def cards(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT,
          flip: str = FLIP_OPT, back_offset: str = OFFSET_OPT) -> None:
    """Doodle patch cards (with mirror images of chiral shapes) and start cards, 9-up."""
    _run("cards", edition, format, paper, out, backs=backs, proof=proof, flip=flip, back_offset=back_offset)


@render_app.command("tiles")
def tiles(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
          out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT,
          flip: str = FLIP_OPT, back_offset: str = OFFSET_OPT) -> None:
    """Patch tiles at true quilt scale (19 mm squares), plus leather patches and the bonus tile."""
    _run("tiles", edition, format, paper, out, backs=backs, proof=proof, flip=flip, back_offset=back_offset)


@render_app.command("automa")
def automa(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
           out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT,
           flip: str = FLIP_OPT, back_offset: str = OFFSET_OPT) -> None:
    """Automa solo cards of every deck the edition holds."""
    _run("automa", edition, format, paper, out, backs=backs, proof=proof, flip=flip, back_offset=back_offset)


@render_app.command("boards")
def boards(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
           out: Optional[Path] = OUT_OPT, proof: bool = PROOF_OPT) -> None:
    """Quilt boards (one per player) and the time board from the edition's time track."""
    _run("boards", edition, format, paper, out, proof=proof)


@render_app.command("kit")
def kit(edition: Optional[str] = EDITION_ARG, format: str = FORMAT_OPT, paper: str = PAPER_OPT,
        out: Optional[Path] = OUT_OPT, backs: bool = BACKS_OPT, proof: bool = PROOF_OPT,
        flip: str = FLIP_OPT, back_offset: str = OFFSET_OPT) -> None:
    """A time-track print-and-play kit: boards followed by the tiles."""
    _run("kit", edition, format, paper, out, backs=backs, proof=proof, flip=flip, back_offset=back_offset)


def build(
    paper: str = typer.Option("a4", "--paper", "-p", metavar="a4|letter", help="a4 or letter."),
    out: Path = typer.Option(Path("output"), "--out", "-o", metavar="FOLDER", parser=path_text, callback=output_folder,
                             help="Folder to write into."),
) -> None:
    """Print everything: Doodle pad and cards, classic/Christmas/Express kits, Automa cards, SVGs."""
    from rich.console import Console
    from rich.table import Table

    from toolkit.render.build import build as run_build
    from toolkit.render.paper import parse_paper

    if paper.strip().lower() not in ("a4", "letter"):
        raise UsageError(f"build prints on a4 or letter, not '{paper}' (use 'patchwork render' for other sizes)")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a folder")
    console = Console(stderr=True)
    started = time.perf_counter()
    with console.status("building") as status:
        written = run_build(out, parse_paper(paper), lambda name: status.update(f"building {name}"),
                            lambda text: console.print(f"patchwork: note: {text}", markup=False, highlight=False, soft_wrap=True))
    table = Table(title=f"patchwork build ({paper.lower()}) -> {out}")
    table.add_column("file")
    table.add_column("pages", justify="right")
    table.add_column("bytes", justify="right")
    for item in written:
        table.add_row(str(item.path.relative_to(out)), str(item.pages), f"{item.size:,}")
    table.add_row("total", str(sum(w.pages for w in written)), f"{sum(w.size for w in written):,}")
    Console().print(table)
    typer.echo(f"{len(written)} files in {time.perf_counter() - started:.1f} s")
