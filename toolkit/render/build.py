"""`patchwork build`: the whole print-and-play set from the bundled specs, in one folder.

Which files, asked of each family's capability record: a score pad (80 two-sided sheets, like
the published Doodle pad) for each kit edition whose family prints pads; the kit of every family's
`kit_editions` (the classic, Christmas and Express kits: boards, tiles, button tiles, time and
neutral tokens, rules reference; the Doodle kit: cards, token, rules reference); and, for each
bundled edition that brings a solo opponent, its solo kit, the one file a solo player prints (one
quilt board, the time board with the Automa level spaces marked, tiles, both Automa decks, tokens
with the level marker, the solo rules; its note names the pages of the decks, for a player who
owns the game and lacks only them); all with backs. Plus an `svg/` folder with one SVG of every distinct component
(sheet, card faces, boards, tiles, Automa cards), each on a page the size of its bleed box, and a
`cut/` folder with the SVG cut file of every page of tiles and of round tokens. `describe` says, per file, what it
holds, how many sheets it takes and what to cut: the summary `patchwork build` prints.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from toolkit.render import automa as automa_mod
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import reference as reference_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render import tokens as tokens_mod
from toolkit.render.documents import (
    Document,
    RenderOptions,
    Written,
    cut_file,
    cut_paths,
    encode,
    piece_document,
    render_component,
    write_document,
)
from toolkit.render.components import require_solo_opponent, solo_editions
from toolkit.render.imposition import BLEED_MM, Duplex, Layout, Piece
from toolkit.errors import OutputError, UsageError
from toolkit.families import all_families, family_of
from toolkit.fileio import missing_folders, remove_empty, stale_parts
from toolkit.render.output import check_targets, not_own, remember, write_bytes
from toolkit.render.paper import Paper
from toolkit.render.theme import DEFAULT_THEME, Theme
from toolkit.specs import load_edition

PAD_SHEETS = 80
"""The published Doodle pad holds 80 two-sided sheets."""
SOLO_KIT_SUFFIX = "-solo-kit.pdf"
"""`<edition>-solo-kit.pdf`: everything to play an edition solo against its Automa."""


def kit_editions(component: str | None = None) -> list[str]:
    """The bundled editions `build` prints a kit of (each family's `kit_editions`, in family
    order); with `component`, only those whose family prints it."""
    return [name for family in all_families() for name in family.info.kit_editions
            if component is None or component in family.info.components]


def _tile_samples() -> list[tuple[str, str, str | None]]:
    """(file stem, edition, tag) of one tile of every distinct look: each tag (a set of patches,
    e.g. Express's blue ones) is sampled from the first kit edition whose tiles carry it."""
    seen: set[str | None] = set()
    samples = []
    for name in kit_editions("tiles"):
        first = True
        for patch in load_edition(name).all_patches():
            if patch.tag in seen:
                continue
            seen.add(patch.tag)
            samples.append((f"{name}-tile" if first else f"{name}-{patch.tag}-tile", name, patch.tag))
            first = False
    return samples


def _jobs(paper: Paper, layout: Layout = Layout(), bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME,
          ) -> list[tuple[str, Callable[[], tuple[Document, str]]]]:
    """(relative path, make) for every file, in output order; `make` gives (document, format)."""
    backs = RenderOptions(paper=paper, backs=True, duplex=Duplex("long"), layout=layout, bleed=bleed, theme=theme)
    pad = RenderOptions(paper=paper, sheets=PAD_SHEETS, double_sided=True, layout=layout, bleed=bleed, theme=theme)
    jobs: list[tuple[str, Callable[[], tuple[Document, str]]]] = []

    def add(path: str, make: Callable[[], Document], fmt: str) -> None:
        jobs.append((path, lambda: (make(), fmt)))

    def component(kind: str, name: str, options: RenderOptions) -> Document:
        return render_component(kind, load_edition(name), options)

    # PDFs, component by component: score pads, kits, solo kits (the Automa decks are in the solo kit)
    for name in kit_editions("pad"):
        add(f"{name}-pad.pdf", partial(component, "pad", name, pad), "pdf")
    for name in kit_editions("kit"):
        add(f"{name}-kit.pdf", partial(component, "kit", name, backs), "pdf")
    automa = solo_editions()
    solo = RenderOptions(paper=paper, backs=True, duplex=Duplex("long"), layout=layout, bleed=bleed, solo=True,
                         theme=theme)
    for name in automa:
        add(f"{name}{SOLO_KIT_SUFFIX}", partial(component, "kit", name, solo), "pdf")

    # one SVG of every distinct component
    for name in kit_editions("sheet"):
        add(f"svg/{name}-sheet.svg",
            partial(component, "sheet", name, RenderOptions(paper=paper, bleed=bleed, theme=theme)), "svg")

    def sample_card(name: str, start: bool) -> Document:
        edition = load_edition(name)
        if start:
            card = edition.doodle_rules.start_cards[0]
            front = doodle_mod.start_card(card, bleed, theme)
            title, piece = f"{edition.title} start card {card.id}", card.id
        else:
            # a chiral patch shows both faces, so it is the most telling sample
            index, patch = next(((i, p) for i, p in enumerate(edition.patches) if p.shape.is_chiral),
                                (0, edition.patches[0]))
            front = doodle_mod.patch_card(patch, index, bleed, theme)
            title, piece = f"{edition.title} patch card {patch.id}", patch.id
        return piece_document(title, Piece(doodle_mod.CARD_WIDTH, doodle_mod.CARD_HEIGHT, front, None, piece), bleed,
                              theme)

    for name in kit_editions("cards"):
        add(f"svg/{name}-patch-card.svg", partial(sample_card, name, False), "svg")
        add(f"svg/{name}-start-card.svg", partial(sample_card, name, True), "svg")

    def quilt_board(name: str) -> Document:
        return piece_document(f"{name} quilt board", boards_mod.quilt_board(load_edition(name), bleed, theme), bleed,
                              theme)

    def time_board(name: str) -> Document:
        return piece_document(f"{name} time board",
                              boards_mod.time_board(load_edition(name), paper, bleed=bleed, theme=theme), bleed, theme)

    for name in kit_editions("boards"):
        add(f"svg/{name}-quilt-board.svg", partial(quilt_board, name), "svg")
        add(f"svg/{name}-time-board.svg", partial(time_board, name), "svg")

    def sample_tile(name: str, tag: str | None) -> Document:
        edition = load_edition(name)
        pieces = tiles_mod.tile_pieces(edition, extras=False, bleed=bleed, theme=theme)
        patches = edition.all_patches()
        index = next((i for i, p in enumerate(patches) if p.tag == tag), 0)
        # the richest tile of its set (most printed buttons) shows every element of a tile
        same = [i for i, p in enumerate(patches) if p.tag == patches[index].tag]
        index = max(same, key=lambda i: (patches[i].income, -i))
        return piece_document(f"{edition.title} tile {patches[index].id}", pieces[index], bleed, theme)

    for stem, name, tag in _tile_samples():
        add(f"svg/{stem}.svg", partial(sample_tile, name, tag), "svg")

    def automa_card(name: str, deck_name: str) -> Document:
        card = require_solo_opponent(load_edition(name)).deck(deck_name)[0]
        return piece_document(f"Automa card {card.number} ({deck_name})",
                              Piece(automa_mod.CARD_WIDTH, automa_mod.CARD_HEIGHT,
                                    automa_mod.automa_front(card, deck_name, bleed, theme), None,
                                    f"{deck_name}-{card.number}"), bleed, theme)

    for name in automa:
        prefix = "automa-card" if len(automa) == 1 else f"{name}-automa-card"
        for deck, _cards in require_solo_opponent(load_edition(name)).decks:
            add(f"svg/{prefix}-{deck}.svg", partial(automa_card, name, deck), "svg")
    return jobs


from toolkit.render.documents import CUT_FOLDER  # noqa: E402  (build's cut/<kit>-cut-<page>.svg files)


def write_cut_files(document: Document, pdf: Path, folder: Path) -> list[Written]:
    """The SVG cut file of every page of `document` (written as `pdf`) that has die-cut pieces,
    into `folder`, named after the PDF and the page's number in it."""
    written = []
    for index, path in cut_paths(document, "pdf", [pdf]):
        blob = cut_file(document, index)
        target = folder / path.name
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes(target, blob)
        written.append(Written(target, 1, len(blob), holds=f"cut lines of page {index + 1} of {pdf.name}",
                               cut="cut file"))
    return written


STAGING_PREFIX = ".patchwork-build-"
"""The hidden folder a build writes into before its files are moved into place."""


def _staging_prefix(out: Path, fresh: bool) -> str:
    """Inside an existing `out`: `.patchwork-build-`; beside a new one, the same followed by a
    short digest of its name (so builds of different folders never clear each other's)."""
    if not fresh:
        return STAGING_PREFIX
    return f"{STAGING_PREFIX}{hashlib.sha1(out.name.encode()).hexdigest()[:8]}-"


def _staging_folders(out: Path) -> list[Path]:
    """Staging folders an interrupted build left: inside `out`, or beside it for a new `out`."""
    found = []
    for folder, prefix in ((out, _staging_prefix(out, False)), (out.parent, _staging_prefix(out, True))):
        try:
            found += [p for p in folder.iterdir() if p.name.startswith(prefix) and p.is_dir()
                      and not p.is_symlink()]
        except OSError:
            continue
    return sorted(found)


def clear_leftovers(out: Path) -> list[Path]:
    """Remove what an interrupted build (or a write cut short) left in and beside `out`: staging
    folders and hidden `.part` files. Returns what was removed, so the caller can say so."""
    removed = []
    for folder in _staging_folders(out):
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    for folder in (out, out / "svg", out / CUT_FOLDER):
        for part in stale_parts(folder):
            try:
                part.unlink()
            except OSError:
                continue
            removed.append(part)
    return removed


def _tokens_text(edition, solo: bool = False) -> str:
    return ", ".join(text for text, _ in tokens_mod.token_counts(edition, solo))


def _board_parts(edition, solo: bool = False) -> list[str]:
    if solo:
        return ["1 quilt board", "time board with the Automa level spaces"]
    return [f"{edition.players_max or edition.players_min} quilt boards", "time board"]


def _tile_parts(edition, solo: bool = False) -> list[str]:
    rules = edition.rules
    track = rules.time_track if family_of(edition).info.has_time_track else None
    leather = len(track.leather_patches) if track else 0
    return ([f"{len(edition.all_patches())} patch tiles", f"{leather} leather patches"]
            + (["special tile"] if rules.bonus else []))


def _card_parts(edition, solo: bool = False) -> list[str]:
    return [f"{sum(max(1, p.copies) for p in edition.patches)} patch cards",
            f"{len(edition.rules.start_cards)} start cards"]


KIT_HOLDS = (
    ("boards", _board_parts, "boards at the corner marks"),
    ("tiles", _tile_parts, "tiles along their outlines (marks at every corner)"),
    ("cards", _card_parts, None),
)
"""What each playing piece of a kit adds to the summary (in the kit's order), and how it is cut
(None: at the crop marks, with the tokens)."""


def _kit_holds(edition, solo: bool = False) -> tuple[str, str]:
    """(what the kit holds, what to cut), from the pieces the edition's family prints; `solo`:
    the solo kit's, with the Automa cards."""
    prints = family_of(edition).info.components
    holds: list[str] = []
    cuts: list[str] = []
    at_crop_marks: list[str] = []
    for part, parts, cut in KIT_HOLDS:
        if part in prints:
            holds += parts(edition, solo)
            if cut is None:
                at_crop_marks.append(part)
            else:
                cuts.append(cut)
    if solo:
        decks = require_solo_opponent(edition).decks
        holds.append(f"{sum(len(cards) for _, cards in decks)} Automa cards ({len(decks)} decks)")
        at_crop_marks.append("Automa cards")
    holds += [_tokens_text(edition, solo), "solo rules" if solo else reference_mod.reference_name(edition)]
    tokens = tokens_mod.token_pieces(edition, solo=solo)
    if any(piece.outline is not None for piece in tokens):
        cuts.append("round tokens along their rims (or square at the crop marks)")
        at_crop_marks.append("the other tokens")
    else:
        at_crop_marks.append("token" if len(tokens) == 1 else "tokens")
    cuts.append(f"{' and '.join(at_crop_marks)} at the crop marks")
    return ", ".join(holds), ", ".join(cuts)


def _holds(relative: str, edition=None) -> tuple[str, str]:
    """(what the file holds, what to cut) for a printed file of the build (of `edition` when the
    file is named after another edition, e.g. a custom deck's kit)."""
    if relative.endswith("-pad.pdf"):
        return f"Doodle score pad: {PAD_SHEETS} sheets", "nothing (stack, staple or glue the top edge)"
    if relative.endswith(SOLO_KIT_SUFFIX):
        return _kit_holds(edition or load_edition(relative.removesuffix(SOLO_KIT_SUFFIX)), solo=True)
    return _kit_holds(edition or load_edition(relative.removesuffix("-kit.pdf")))


def describe(written: list[Written], out_dir: str | Path, edition=None) -> list[Written]:
    """The build's files with what each holds, the sheets it takes, one- or two-sided, and what to
    cut; SVGs (for editing, not printing) count no sheets."""
    out = Path(out_dir)
    described = []
    for item in written:
        relative = item.path.relative_to(out).as_posix()
        if item.cut == "cut file":
            described.append(item)
            continue
        if not relative.endswith(".pdf"):
            described.append(replace(item, holds="one component, for editing"))
            continue
        holds, cut = _holds(relative, edition)
        # every PDF of the build is printed two-sided (the pad too, like the published one)
        described.append(replace(item, holds=holds, sheets=(item.pages + 1) // 2,
                                 sides="two-sided, flip on the long edge", cut=cut))
    return described


def staged(out_dir: str | Path, write: Callable[[Path], list[Written]],
           notice: Callable[[str], None] | None = None, overwrite: bool = True) -> list[Written]:
    """Run `write(folder)` on a hidden staging folder and move what it wrote into `out_dir` only
    when it has all been written; returns what was written, with its final paths.

    A new `out_dir` appears in one rename; an existing one gets each file renamed over the old
    one, so an interrupted build never leaves an incomplete kit that looks finished. Leftovers of
    an earlier interrupted build are removed first and reported through `notice`. Without
    `overwrite`, a file that already exists in `out_dir` stops the build (UsageError) and nothing
    is moved.
    """
    out = Path(out_dir)
    for leftover in clear_leftovers(out):
        if notice:
            notice(f"removed {leftover}, left by an interrupted build")
    fresh = not out.exists()
    home = out.parent if fresh else out
    made = missing_folders(home)
    try:
        home.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=_staging_prefix(out, fresh), dir=home))
    except OSError as error:
        remove_empty(made)
        raise OutputError(f"cannot write {out}: {error.strerror or error}") from None
    done = False
    try:
        written = [replace(item, path=out / item.path.relative_to(staging)) for item in write(staging)]
        existing = [] if overwrite else not_own(item.path for item in written)
        if existing:
            more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
            raise UsageError(f"{existing[0]}{more} already exists and was not written by this toolkit (or was "
                             f"changed since); remove it or choose another --out")
        os.chmod(staging, 0o755)
        if fresh:
            os.replace(staging, out)
        else:
            for item in written:
                item.path.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / item.path.relative_to(out), item.path)
        done = True
        remember([item.path for item in written])
    except OutputError as error:  # name the file the user asked for, not its staging copy
        raise OutputError(error.render().replace(str(staging), str(out))) from None
    except OSError as error:
        raise OutputError(f"cannot write {out}: {error.strerror or error}") from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
        if not done:
            remove_empty(made)
    return written


def edition_kit(ref: str, out_dir: str | Path, paper: Paper, layout: Layout = Layout(), cut_layer: bool = False,
                pdfx: bytes | None = None, **options) -> list[Written]:
    """The kit of one edition or variant (e.g. a custom deck) in `out_dir`: its score pad when its
    family prints one, then its kit with backs, each one duplex PDF, with the cut files in `cut/`.
    `pdfx`, a CMYK ICC profile's bytes, makes every PDF a PDF/X-1a file for it. `options` are
    further RenderOptions fields every file shares (e.g. `bleed`, `theme`)."""
    edition = load_edition(ref)
    out = Path(out_dir)
    name = re.sub(r"[^a-z0-9]+", "-", edition.name.lower()).strip("-") or "edition"
    jobs = [("kit", RenderOptions(paper=paper, backs=True, duplex=Duplex("long"), layout=layout, **options))]
    if "pad" in family_of(edition).info.components:
        jobs.insert(0, ("pad", RenderOptions(paper=paper, sheets=PAD_SHEETS, double_sided=True, layout=layout, **options)))
    written: list[Written] = []
    for kind, kind_options in jobs:
        document = render_component(kind, edition, kind_options)
        written += write_document(document, "pdf", out / f"{name}-{kind}.pdf", "long", cut_layer=cut_layer,
                                  force=True, pdfx=pdfx)
    return written


def build(out_dir: str | Path, paper: Paper,
          progress: Callable[[str], None] | None = None,
          notice: Callable[[str], None] | None = None,
          layout: Layout = Layout(), bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME,
          cut_layer: bool = False, force: bool = False, pdfx: bytes | None = None) -> list[Written]:
    """Write every file of the print-and-play set into `out_dir`; returns what was written.

    `layout` sets the printer margin and the gutters of every printed sheet, `bleed` how far art
    runs past every cut line, `theme` the look (a designer's theme file; the bundled look).
    The kits print no cut line (their cut lines are the SVG files in `cut/`); `cut_layer` puts
    them in the PDFs too, on a CutContour layer, for a cutter that reads it (in a PDF/X file, as the
    CutContour spot colour alone: PDF/X-1a has no layers). `pdfx`, a CMYK ICC profile's bytes,
    makes every PDF a PDF/X-1a:2003 file for that printing condition (the SVGs stay RGB, for
    editing). The files of an earlier build are replaced; any other file in the way stops the
    build unless `force`.

    Every target is checked before the first file is written (OutputError when one cannot be
    written); the set is written through `staged`, so it appears only when complete.
    """
    out = Path(out_dir)
    if theme.patch_places or theme.deck_places:
        from toolkit.render.theme_file import check_names

        check_names(theme)
    jobs = _jobs(paper, layout, bleed, theme)
    check_targets([*(out / relative for relative, _ in jobs), out / CUT_FOLDER / "probe.svg"])

    def write(folder: Path) -> list[Written]:
        written: list[Written] = []
        for relative, make in jobs:
            if progress:
                progress(relative)
            document, fmt = make()
            blobs = encode(document, fmt, "long" if fmt == "pdf" else None, cut_layer=cut_layer,
                           pdfx=pdfx if fmt == "pdf" else None)
            assert len(blobs) == 1, "build renders one SVG per component"
            write_bytes(folder / relative, blobs[0])
            written.append(Written(folder / relative, len(document.pages), len(blobs[0]), notes=document.notes))
            written += write_cut_files(document, folder / relative, folder / CUT_FOLDER)
        return written

    return staged(out, write, notice, overwrite=force)
