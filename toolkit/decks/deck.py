"""What the deck commands work on: the patches of an edition, a variant or a patch-set file.

An edition or variant brings its board, its flip rule and its family (whose record says whether
its patches carry a price). A bare patch-set file, or `polyominoes:N` (every free N-omino once,
the 12 pentominoes for N = 5, for packing puzzles), has no edition: it is read as the patches of
the pricing edition, the default edition of the family whose patches carry a price (its board
and its flip rule), and so it is priced like that edition's patches.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import SpecError, UsageError
from toolkit.geometry.enumerate import check_size, free_polyominoes
from toolkit.geometry.shape import Shape
from toolkit.specs.models import Edition, Patch

POLYOMINO_PREFIX = "polyominoes:"


@dataclass(frozen=True)
class Deck:
    """A list of patches with the board they are played on."""

    name: str
    patches: tuple[Patch, ...]
    board_width: int
    board_height: int
    allow_flip: bool = True
    edition: Edition | None = None
    """The resolved edition when the deck came from one (None: read as the pricing edition's)."""


def pricing_edition() -> Edition:
    """The edition a deck without one is read in: the default edition of the first family whose
    patches carry a price (the family record names it)."""
    from toolkit.families import all_families
    from toolkit.specs import load_edition

    family = next(f for f in all_families() if f.info.prices_patches)
    return load_edition(family.info.default_edition)


def _bare(name: str, patches: tuple[Patch, ...]) -> Deck:
    """A deck without an edition, on the pricing edition's board and flip rule."""
    edition = pricing_edition()
    return Deck(name, patches, edition.board_width, edition.board_height, edition.allow_flip)


def _patch_set_tree(ref: str):
    """The tree of a patch-set file, or None when `ref` is not one (the edition loader then
    reports what is wrong with it). Read with the spec reader, so its size and depth limits hold."""
    from toolkit.specs.source import UnreadableSpec, read_tree

    path = Path(ref)
    if not ref.endswith((".yaml", ".yml")) or not path.is_file():
        return None
    try:
        tree, _ = read_tree(path)
    except UnreadableSpec:
        return None
    return tree if isinstance(tree, dict) and tree.get("kind") == "patch-set" else None


def _patch_set(path: Path, tree) -> Deck:
    """A patch-set file, checked by the spec validator first so errors carry file:line:col."""
    from toolkit.specs import validate_report

    report = validate_report([path])
    if report.errors:
        raise SpecError(report.errors)
    patches = []
    for p in tree["patches"]:
        patches.append(Patch(
            id=p["id"], shape=Shape.parse(p["shape"]), cost=p.get("cost", 0), time=p.get("time", 0),
            income=p.get("income", 0), name=p.get("name"), colour=p.get("colour"), tag=p.get("tag"),
            copies=p.get("copies", 1)))
    return _bare(str(tree.get("name") or path.stem), tuple(patches))


def polyomino_deck(n: int) -> Deck:
    """Every free n-omino once, named F01, F02, ... in canonical order."""
    check_size(n)
    shapes = free_polyominoes(n)
    patches = tuple(Patch(id=f"F{i:02d}", shape=s) for i, s in enumerate(shapes, start=1))
    return _bare(f"{POLYOMINO_PREFIX}{n}", patches)


def load_deck(ref: str | os.PathLike) -> Deck:
    """The deck named by `ref`: an edition or variant (name or file), a patch-set file, or
    `polyominoes:N`."""
    text = str(ref)
    if text.startswith(POLYOMINO_PREFIX):
        size = text[len(POLYOMINO_PREFIX):]
        if not size.isdigit():
            raise UsageError(f"deck {text!r}: expected polyominoes:N with N a size such as 5")
        return polyomino_deck(int(size))
    tree = _patch_set_tree(text)
    if tree is not None:
        return _patch_set(Path(text), tree)
    from toolkit.specs import load_edition

    edition = load_edition(text)
    return Deck(edition.name, edition.all_patches(), edition.board_width, edition.board_height,
                edition.allow_flip, edition)


def pieces_of(deck: Deck) -> list[tuple[str, Shape]]:
    """(id, shape) of every physical patch: a patch with `copies: k` gives k pieces."""
    out = []
    for patch in deck.patches:
        if patch.copies == 1:
            out.append((patch.id, patch.shape))
        else:
            out += [(f"{patch.id}.{k}", patch.shape) for k in range(1, patch.copies + 1)]
    return out
