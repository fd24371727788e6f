"""What the deck commands work on: the patches of an edition, a variant or a patch-set file.

An edition or variant brings its board, its flip rule and its family (whose record says whether
its patches carry a price). A bare patch-set file, or `polyominoes:N` (every free N-omino once,
the 12 pentominoes for N = 5, for packing puzzles), has no edition: it is read as the patches of
the pricing edition, the default edition of the family whose patches carry a price (its board
and its flip rule), and so it is priced like that edition's patches.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import InputError, SpecError, UsageError
from toolkit.geometry.enumerate import check_size, free_polyominoes
from toolkit.geometry.shape import Shape
from toolkit.specs.models import Edition, Patch

POLYOMINO_PREFIX = "polyominoes:"
MAX_PIECES = 5_000
"""The most patches (copies counted) a deck command works on: more than the largest enumerated
deck (polyominoes:10, 4,655 decominoes) and a hundred times a published deck. Reading, fitting
and packing all grow with the count (a 10,000-patch set takes minutes to pack a few thousand
nodes), so a bigger deck is refused with its count before that work."""
MAX_CV_ROWS = 1_000_000
"""The most rows cross-validation refits the model on, summed over its folds (n patches, k folds:
n x (k - 1)); some 3 CPU-seconds here. Leave-one-out on a published deck is about a thousand; k
folds of a few thousand patches soon reach millions (4,900 folds of 4,900 patches took minutes)."""
_ID_KEY = re.compile(rb"(?:^|[\s{,])-?\s*[\"']?id[\"']?\s*:|^\s*-\s*\*|[\[,]\s*\*", re.MULTILINE)
"""An `id:` key of a YAML mapping, block or flow style (every patch has one), or an item that is
an alias (`- *p`, `[*p, *p]`: a patch written once and listed again)."""


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


_TOP_KEY = re.compile(rb"^(patches|extends)[ \t]*:[ \t]*(.*?)[ \t]*(?:#.*)?$", re.MULTILINE)
"""A top-level `patches:` or `extends:` key of a block-style spec file, with what it says."""
_REFERENCES_FOLLOWED = 8
"""How many `patches:` and `extends:` files `patch_ids` follows (a chain of variants)."""


def patch_ids(text: str) -> int | None:
    """How many patches the spec file named `text` lists, counted as `id:` keys in its bytes before
    anything is parsed (a 10,000-patch file takes seconds to parse and check): the file's own, or,
    when its top-level `patches:` names a patch-set file, that file's, or, when it has no `patches:`
    and `extends:` another file, that one's. None when `text` names no readable .yaml file (the
    loader then says why). A count, not a check: the loader judges the file."""
    from toolkit.fileio import read_capped_bytes
    from toolkit.specs.source import MAX_FILE_BYTES, SPEC_SUFFIXES

    path, seen = Path(text), set[Path]()
    if not text.endswith(SPEC_SUFFIXES):
        return None
    for _ in range(_REFERENCES_FOLLOWED):
        if not path.is_file() or path.resolve() in seen:
            return None if not seen else 0
        seen.add(path.resolve())
        try:
            data = read_capped_bytes(path, MAX_FILE_BYTES, "YAML spec file")
        except InputError:
            return None if len(seen) == 1 else 0
        keys = {m.group(1): m.group(2).strip(b"\"'").decode("utf-8", "replace") for m in _TOP_KEY.finditer(data)}
        named = keys.get(b"patches", keys.get(b"extends")) if b"patches" in keys or b"extends" in keys else None
        if named is None or not named.endswith(SPEC_SUFFIXES):
            return len(_ID_KEY.findall(data))  # a list in this file, or a bundled edition
        path = path.parent / named
    return 0


def check_pieces(deck: Deck, where: str | None = None) -> Deck:
    """`deck`, unless it holds more than MAX_PIECES patches (copies counted): UsageError with the count."""
    count = sum(patch.copies for patch in deck.patches)
    if count > MAX_PIECES:
        raise UsageError(f"{where or deck.name}: {count:,} patches (copies counted); the deck commands work on "
                         f"at most {MAX_PIECES:,}, more than polyominoes:10 holds")
    return deck


def load_deck(ref: str | os.PathLike) -> Deck:
    """The deck named by `ref`: an edition or variant (name or file), a patch-set file, or
    `polyominoes:N`; at most MAX_PIECES patches (a file holding more `id:` keys is refused unparsed)."""
    text = str(ref)
    if text.startswith(POLYOMINO_PREFIX):
        size = text[len(POLYOMINO_PREFIX):]
        if not size.isdigit():
            raise UsageError(f"deck {text[:40]!r}: expected polyominoes:N with N a size such as 5")
        return check_pieces(polyomino_deck(int(size)))
    ids = patch_ids(text)
    if ids is not None and ids > MAX_PIECES:
        raise UsageError(f"{text}: {ids:,} patch ids; the deck commands work on at most {MAX_PIECES:,} patches "
                         f"(refused before parsing: a deck this big takes minutes to fit or pack)")
    tree = _patch_set_tree(text)
    if tree is not None:
        return check_pieces(_patch_set(Path(text), tree), text)
    from toolkit.specs import load_edition

    edition = load_edition(text)
    return check_pieces(Deck(edition.name, edition.all_patches(), edition.board_width, edition.board_height,
                             edition.allow_flip, edition), text)


def pieces_of(deck: Deck) -> list[tuple[str, Shape]]:
    """(id, shape) of every physical patch: a patch with `copies: k` gives k pieces."""
    out = []
    for patch in deck.patches:
        if patch.copies == 1:
            out.append((patch.id, patch.shape))
        else:
            out += [(f"{patch.id}.{k}", patch.shape) for k in range(1, patch.copies + 1)]
    return out
