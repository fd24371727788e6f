"""`patchwork build`: the whole print-and-play set from the bundled specs, in one folder.

PDFs: the Doodle pad (80 two-sided sheets, like the published pad), the Doodle kit (cards, token,
rules reference), the classic, Christmas and Express kits (boards, tiles, button tiles, time and
neutral tokens, rules reference) and the Automa cards, all with backs; plus an `svg/` folder with
one SVG of every distinct component (sheet, card faces, tiles, boards), each on a page the size
of its bleed box. `describe` says, per file, what it holds, how many sheets it takes and what to
cut: the summary `patchwork build` prints.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from toolkit.render import automa as automa_mod
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render import tokens as tokens_mod
from toolkit.render.documents import (
    Document,
    RenderOptions,
    Written,
    encode,
    piece_document,
    render_component,
)
from toolkit.render.imposition import Duplex, Layout, Piece
from toolkit.errors import OutputError, UsageError
from toolkit.fileio import missing_folders, remove_empty, stale_parts
from toolkit.render.output import check_targets, write_bytes
from toolkit.render.paper import Paper
from toolkit.specs import load_edition
from toolkit.specs.models import Family

PAD_SHEETS = 80
"""The published Doodle pad holds 80 two-sided sheets."""
DOODLE = "doodle"
KIT_EDITIONS = ("classic", "christmas", "express")
AUTOMA_EDITION = "anniversary"
"""The bundled edition that includes the Automa solo decks."""


def _jobs(paper: Paper, layout: Layout = Layout()) -> list[tuple[str, Callable[[], tuple[Document, str]]]]:
    """(relative path, make) for every file, in output order; `make` gives (document, format)."""
    backs = RenderOptions(paper=paper, backs=True, duplex=Duplex("long"), layout=layout)
    pad = RenderOptions(paper=paper, sheets=PAD_SHEETS, double_sided=True, layout=layout)
    jobs: list[tuple[str, Callable[[], tuple[Document, str]]]] = []

    def add(path: str, make: Callable[[], Document], fmt: str) -> None:
        jobs.append((path, lambda: (make(), fmt)))

    add("doodle-pad.pdf", lambda: render_component("pad", load_edition(DOODLE), pad), "pdf")
    add("doodle-kit.pdf", lambda: render_component("kit", load_edition(DOODLE), backs), "pdf")
    for name in KIT_EDITIONS:
        add(f"{name}-kit.pdf", lambda name=name: render_component("kit", load_edition(name), backs), "pdf")
    add("automa-cards.pdf", lambda: render_component("automa", load_edition(AUTOMA_EDITION), backs), "pdf")

    # one SVG of every distinct component
    add("svg/doodle-sheet.svg",
        lambda: render_component("sheet", load_edition(DOODLE), RenderOptions(paper=paper)), "svg")

    def doodle_card(start: bool) -> Document:
        edition = load_edition(DOODLE)
        if start:
            card = edition.start_cards[0]
            front = doodle_mod.start_card(card)
            title, name = f"{edition.title} start card {card.id}", card.id
        else:
            # a chiral patch shows both faces, so it is the most telling sample
            index, patch = next(((i, p) for i, p in enumerate(edition.patches) if p.shape.is_chiral),
                                (0, edition.patches[0]))
            front = doodle_mod.patch_card(patch, index)
            title, name = f"{edition.title} patch card {patch.id}", patch.id
        return piece_document(title, Piece(doodle_mod.CARD_WIDTH, doodle_mod.CARD_HEIGHT, front, None, name))

    add("svg/doodle-patch-card.svg", lambda: doodle_card(False), "svg")
    add("svg/doodle-start-card.svg", lambda: doodle_card(True), "svg")
    for name in KIT_EDITIONS:
        add(f"svg/{name}-quilt-board.svg",
            lambda name=name: piece_document(f"{name} quilt board",
                                             boards_mod.quilt_board(load_edition(name))), "svg")
        add(f"svg/{name}-time-board.svg",
            lambda name=name: piece_document(f"{name} time board",
                                             boards_mod.time_board(load_edition(name), paper)), "svg")

    def sample_tile(name: str, tag: str | None) -> Document:
        edition = load_edition(name)
        pieces = tiles_mod.tile_pieces(edition, extras=False)
        patches = edition.all_patches()
        index = next((i for i, p in enumerate(patches) if p.tag == tag), 0)
        # the richest tile of its set (most printed buttons) shows every element of a tile
        same = [i for i, p in enumerate(patches) if p.tag == patches[index].tag]
        index = max(same, key=lambda i: (patches[i].income, -i))
        return piece_document(f"{edition.title} tile {patches[index].id}", pieces[index])

    add("svg/classic-tile.svg", lambda: sample_tile("classic", None), "svg")
    add("svg/express-tile.svg", lambda: sample_tile("express", "colourful"), "svg")
    add("svg/express-blue-tile.svg", lambda: sample_tile("express", tiles_mod.BLUE_TAG), "svg")

    def automa_card(deck_name: str) -> Document:
        edition = load_edition(AUTOMA_EDITION)
        assert edition.automa is not None
        card = edition.automa.deck(deck_name)[0]
        return piece_document(f"Automa card {card.number} ({deck_name})",
                              Piece(automa_mod.CARD_WIDTH, automa_mod.CARD_HEIGHT,
                                    automa_mod.automa_front(card, deck_name), None, f"{deck_name}-{card.number}"))

    def automa_decks() -> list[str]:
        edition = load_edition(AUTOMA_EDITION)
        return [name for name, _ in edition.automa.decks] if edition.automa else []

    for deck in automa_decks():
        add(f"svg/automa-card-{deck}.svg", lambda deck=deck: automa_card(deck), "svg")
    return jobs


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
    for folder in (out, out / "svg"):
        for part in stale_parts(folder):
            try:
                part.unlink()
            except OSError:
                continue
            removed.append(part)
    return removed


def _tokens_text(edition) -> str:
    return ", ".join(text for text, _ in tokens_mod.token_counts(edition))


def _holds(relative: str, edition=None) -> tuple[str, str]:
    """(what the file holds, what to cut) for a printed file of the build (of `edition` when the
    file is named after another edition, e.g. a custom deck's kit)."""
    if relative.endswith("-pad.pdf"):
        return f"Doodle score pad: {PAD_SHEETS} sheets", "nothing (stack, staple or glue the top edge)"
    name = relative.removesuffix("-kit.pdf")
    if relative.endswith("-kit.pdf"):
        edition = edition or load_edition(name)
    if edition is not None and edition.family is Family.DOODLE:
        cards = sum(max(1, p.copies) for p in edition.patches)
        return (f"{cards} patch cards, {len(edition.start_cards)} start cards, {_tokens_text(edition)}, "
                f"rules reference (die on a d6)", "cards and token at the crop marks")
    if relative == "automa-cards.pdf":
        edition = load_edition(AUTOMA_EDITION)
        decks = edition.automa.decks if edition.automa else ()
        return (f"{sum(len(cards) for _, cards in decks)} Automa cards ({len(decks)} decks)",
                "cards at the crop marks")
    players = edition.players_max or edition.players_min
    leather = len(edition.time_track.leather_patches) if edition.time_track else 0
    tiles = len(edition.all_patches())
    return (f"{players} quilt boards, time board, {tiles} patch tiles, {leather} leather patches, "
            f"{'special tile, ' if edition.bonus else ''}{_tokens_text(edition)}, rules reference",
            "boards at the corner marks, tiles along their outlines (marks at every corner), tokens at the "
            "crop marks")


def describe(written: list[Written], out_dir: str | Path, edition=None) -> list[Written]:
    """The build's files with what each holds, the sheets it takes, one- or two-sided, and what to
    cut; SVGs (for editing, not printing) count no sheets."""
    out = Path(out_dir)
    described = []
    for item in written:
        relative = item.path.relative_to(out).as_posix()
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
        existing = [item.path for item in written if not overwrite and os.path.lexists(item.path)]
        if existing:
            more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
            raise UsageError(f"{existing[0]}{more} already exists; remove it or choose another --out")
        os.chmod(staging, 0o755)
        if fresh:
            os.replace(staging, out)
        else:
            for item in written:
                item.path.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / item.path.relative_to(out), item.path)
        done = True
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


def build(out_dir: str | Path, paper: Paper,
          progress: Callable[[str], None] | None = None,
          notice: Callable[[str], None] | None = None,
          layout: Layout = Layout()) -> list[Written]:
    """Write every file of the print-and-play set into `out_dir`; returns what was written.

    `layout` sets the printer margin and the gutters of every printed sheet.

    Every target is checked before the first file is written (OutputError when one cannot be
    written); the set is written through `staged`, so it appears only when complete.
    """
    out = Path(out_dir)
    jobs = _jobs(paper, layout)
    check_targets(out / relative for relative, _ in jobs)

    def write(folder: Path) -> list[Written]:
        written: list[Written] = []
        for relative, make in jobs:
            if progress:
                progress(relative)
            document, fmt = make()
            blobs = encode(document, fmt, "long" if fmt == "pdf" else None)
            assert len(blobs) == 1, "build renders one SVG per component"
            write_bytes(folder / relative, blobs[0])
            written.append(Written(folder / relative, len(document.pages), len(blobs[0])))
        return written

    return staged(out, write, notice)
