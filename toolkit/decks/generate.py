"""New patch decks drawn like a reference deck, priced by the fitted model, written as specs.

New patches are shared among the reference deck's tags (Express: colourful and blue) in
proportion, each tag at least one. By default each tag's sizes follow its size histogram in the
reference deck scaled to its share (largest remainders), so the deck keeps the base's size mix
and total cells; a size with no new free shape left (classic's dominoes, trominoes and most
tetrominoes are all base patches) reuses a base patch's shape of that size, which the provenance
names. With `sizes`, each new patch's size is drawn from that mix restricted to the range with
every size in it given one more share. For each new patch a shape is drawn uniformly among the free polyominoes of that size that
fit the board (no holes unless allowed; never twice, and never a base patch's shape, unless
twins are allowed); time and income are copied together from a reference patch of that tag and
size drawn uniformly (the nearest smaller, then larger, size when there is none); the cost is
the fitted model's prediction rounded to the nearest button, at least 0. All chance comes from
one `random.Random(seed)`, so the same options give the same bytes.

The output is a `patch-set` file and a `variant` that extends the reference edition with it,
either replacing its patches or extending them (the set then lists the base patches first).
"""
from __future__ import annotations

import json
import math
import os
import random
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import toolkit
from toolkit.decks.deck import Deck, load_deck
from toolkit.decks.model import Fit, fit_deck
from toolkit.errors import UsageError
from toolkit.families import require
from toolkit.geometry.enumerate import MAX_ENUMERATED_SIZE, free_polyominoes
from toolkit.geometry.shape import Shape
from toolkit.specs.models import Patch

MODES = ("replace", "extend")
ID_PREFIX = "G"
MAX_COUNT = 5000
"""A deck beyond this is surely a typo (classic has 33 patches)."""
_SIZES = re.compile(r"^\s*(\d{1,9})\s*(?:\.\.\s*(\d{1,9}))?\s*$")
_NAME_BAD = re.compile(r"[^a-z0-9-]+")


def parse_sizes(text: str | None) -> tuple[int, int] | None:
    """`3..8` -> (3, 8); `5` -> (5, 5)."""
    if text is None:
        return None
    match = _SIZES.match(text)
    if not match:
        raise UsageError(f"--sizes {text[:40]!r}: expected a range such as 3..8 or one size such as 5")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if not 1 <= lo <= hi <= MAX_ENUMERATED_SIZE:
        raise UsageError(f"--sizes {text[:40]!r}: expected 1 <= low <= high <= {MAX_ENUMERATED_SIZE}")
    return lo, hi


@dataclass(frozen=True)
class Request:
    """What to generate."""

    like: str
    """Reference edition or variant (name or file)."""
    count: int
    seed: int
    sizes: tuple[int, int] | None = None
    allow_holes: bool = False
    allow_twins: bool = False
    mode: str = "replace"

    def command(self) -> str:
        """The generating command as recorded in provenance (output paths left out)."""
        parts = ["patchwork", "deck", "generate", "--like", self.like, "--count", str(self.count),
                 "--seed", str(self.seed)]
        if self.sizes:
            parts += ["--sizes", f"{self.sizes[0]}..{self.sizes[1]}"]
        if self.allow_holes:
            parts.append("--allow-holes")
        if self.allow_twins:
            parts.append("--allow-twins")
        parts += ["--mode", self.mode]
        return shlex.join(parts)


@dataclass(frozen=True)
class Generated:
    """A generated deck and the model that priced it."""

    request: Request
    base: Deck
    fit: Fit
    patches: tuple[Patch, ...]
    """The new patches only."""
    predicted: tuple[float, ...]
    """Unrounded model price of each new patch."""
    duplicates: dict[str, str]
    """New patch id -> the earlier patch it repeats in shape and stats (twins allowed only)."""
    exhausted: tuple[int, ...] = ()
    """Sizes of the mix with no shape left to draw (all base shapes, or all with holes)."""
    reused: dict[str, str] = None  # type: ignore[assignment]
    """New patch id -> the base patch whose shape it reuses (sizes with no new free shape left)."""


def _fits(shape: Shape, width: int, height: int) -> bool:
    return min(shape.width, shape.height) <= min(width, height) and \
        max(shape.width, shape.height) <= max(width, height)


def _size_weights(patches: tuple[Patch, ...] | list[Patch], sizes: tuple[int, int] | None) -> dict[int, int]:
    counts: dict[int, int] = {}
    for patch in patches:
        counts[patch.shape.size] = counts.get(patch.shape.size, 0) + 1
    if sizes is None:
        return {n: k for n, k in sorted(counts.items()) if n <= MAX_ENUMERATED_SIZE}
    lo, hi = sizes
    return {n: counts.get(n, 0) + 1 for n in range(lo, hi + 1)}


def _nearest(group: list[Patch], n: int) -> list[Patch]:
    """The group's patches of size n, else of the nearest size (smaller first)."""
    for d in range(0, 64):
        for size in (n - d, n + d):
            found = [p for p in group if p.shape.size == size]
            if found:
                return found
    raise UsageError("the reference deck has no patches")


def _tag_quotas(groups: dict[str | None, list[Patch]], count: int) -> dict[str | None, int]:
    """New patches per tag, in proportion to the reference deck (largest remainder), each tag
    at least one when there are enough: Express needs its blue patches."""
    total = sum(len(g) for g in groups.values())
    exact = {tag: count * len(g) / total for tag, g in groups.items()}
    quotas = {tag: int(x) for tag, x in exact.items()}
    if count >= len(groups):
        for tag in quotas:
            quotas[tag] = max(quotas[tag], 1)
    order = sorted(groups, key=lambda tag: (-(exact[tag] - int(exact[tag])), list(groups).index(tag)))
    i = 0
    while sum(quotas.values()) < count:
        quotas[order[i % len(order)]] += 1
        i += 1
    while sum(quotas.values()) > count:  # minimum shares took more than the count allows
        tag = max(quotas, key=lambda t: (quotas[t], -list(groups).index(t)))
        quotas[tag] -= 1
    return quotas


def _scaled(counts: dict[int, int], total: int) -> dict[int, int]:
    """A histogram scaled to `total` items by largest remainders (ties to the smaller size)."""
    whole = sum(counts.values())
    exact = {n: total * k / whole for n, k in counts.items()}
    out = {n: int(x) for n, x in exact.items()}
    for n in sorted(counts, key=lambda n: (-(exact[n] - int(exact[n])), n))[:total - sum(out.values())]:
        out[n] += 1
    return out


def generate(request: Request) -> Generated:
    """Draw and price the new patches (raises UsageError when the request cannot be met)."""
    if not 1 <= request.count <= MAX_COUNT:
        raise UsageError(f"--count must be between 1 and {MAX_COUNT}, got {request.count}")
    if request.seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {request.seed}")
    if request.mode not in MODES:
        raise UsageError(f"--mode {request.mode!r}: expected one of {', '.join(MODES)}")
    base = load_deck(request.like)
    if base.edition is None:
        raise UsageError(f"--like {request.like!r}: expected an edition or variant for the new "
                         "variant to extend (a patch-set file or polyominoes:N has no rules)")
    require(base.edition, "prices_patches", "deck generate --like")
    fit = fit_deck(base)
    weights = _size_weights(base.patches, request.sizes)
    base_keys = {p.shape.canonical_key for p in base.patches}
    pools: dict[int, list[Shape]] = {}
    for n in weights:
        pools[n] = [s for s in free_polyominoes(n)
                    if _fits(s, base.board_width, base.board_height)
                    and (request.allow_holes or s.holes == 0)
                    and (request.allow_twins or s.canonical_key not in base_keys)]
    exhausted = tuple(n for n in weights if weights[n] > 0 and not pools[n])
    available = sum(len(pool) for n, pool in pools.items() if weights[n] > 0)
    like_base = request.sizes is None and not request.allow_twins
    base_by_size: dict[int, list[Patch]] = {}
    for patch in base.patches:
        base_by_size.setdefault(patch.shape.size, []).append(patch)
    if not like_base and not request.allow_twins and request.count > available:
        raise UsageError(
            f"--count {request.count}: only {available} distinct shapes of the allowed sizes "
            f"({', '.join(str(n) for n in weights)}) fit the board without holes or base shapes; "
            "allow more sizes, holes (--allow-holes) or twins (--allow-twins)")
    if available == 0 and not like_base:
        raise UsageError("no shape of the allowed sizes fits the board")
    rng = random.Random(request.seed)
    groups: dict[str | None, list[Patch]] = {}
    for patch in base.patches:
        groups.setdefault(patch.tag, []).append(patch)
    quotas = _tag_quotas(groups, request.count)
    taken_ids = {p.id for p in base.patches} if request.mode == "extend" else set()
    next_number = 1
    patches: list[Patch] = []
    predicted: list[float] = []
    reused: dict[str, str] = {}
    for tag, group in groups.items():
        group_weights = _size_weights(group, request.sizes)
        planned: list[int] = []
        if like_base:
            scaled = _scaled(group_weights, quotas[tag])
            planned = [n for n in sorted(scaled) for _ in range(scaled[n])]
            rng.shuffle(planned)
        for k in range(quotas[tag]):
            reuse = None
            if like_base:
                n = planned[k]
                if not pools.get(n):
                    left = [p for p in base_by_size.get(n, []) if p.id not in reused.values()]
                    reuse = rng.choice(left or base_by_size[n])
            else:
                sizes = [n for n in group_weights if group_weights[n] > 0 and pools.get(n)]
                if not sizes:  # this tag's sizes ran dry: fall back on the whole deck's mix
                    sizes = [n for n in weights if weights[n] > 0 and pools[n]]
                    n = rng.choices(sizes, weights=[weights[k] for k in sizes])[0]
                else:
                    n = rng.choices(sizes, weights=[group_weights[k] for k in sizes])[0]
            if reuse is not None:
                shape = reuse.shape
            else:
                pool = pools[n]
                index = rng.randrange(len(pool))
                shape = pool[index] if request.allow_twins else pool.pop(index)
            template = rng.choice(_nearest(group, n))
            price = fit.model.predict(shape, template.time, template.income)
            while f"{ID_PREFIX}{next_number:02d}" in taken_ids:
                next_number += 1
            pid = f"{ID_PREFIX}{next_number:02d}"
            next_number += 1
            if reuse is not None:
                reused[pid] = reuse.id
            patches.append(Patch(id=pid, shape=shape, cost=max(0, math.floor(price + 0.5)),
                                 time=template.time, income=template.income, tag=template.tag))
            predicted.append(price)
    return Generated(request, base, fit, tuple(patches), tuple(predicted),
                     _duplicates(patches, base, request, bool(reused)), exhausted, reused)


def _duplicates(patches: list[Patch], base: Deck, request: Request, reused: bool = False) -> dict[str, str]:
    """With twins allowed (or base shapes reused), a patch equal in shape and stats to an earlier
    one is declared a duplicate of it (the spec checker would otherwise call it a copy-paste slip)."""
    if not request.allow_twins and not reused:
        return {}
    seen: dict[tuple, str] = {}
    if request.mode == "extend":
        for p in base.patches:
            seen.setdefault((p.shape.canonical_key, p.cost, p.time, p.income, p.tag), p.id)
    out: dict[str, str] = {}
    for p in patches:
        key = (p.shape.canonical_key, p.cost, p.time, p.income, p.tag)
        if key in seen:
            out[p.id] = seen[key]
        else:
            seen[key] = p.id
    return out


# ----- writing -----------------------------------------------------------------------------------


def spec_name(path: Path) -> str:
    """A spec name from a file name: lower-case letters, digits and dashes."""
    name = _NAME_BAD.sub("-", path.stem.lower()).strip("-")
    return name or "custom-deck"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def patch_lines(patch: Patch, duplicate_of: str | None = None) -> list[str]:
    lines = [f"  - id: {_q(patch.id)}"]
    if patch.name:
        lines.append(f"    name: {_q(patch.name)}")
    lines += [f"    cost: {patch.cost}", f"    time: {patch.time}", f"    income: {patch.income}"]
    if patch.colour:
        lines.append(f"    colour: {_q(patch.colour)}")
    if patch.tag:
        lines.append(f"    tag: {_q(patch.tag)}")
    if duplicate_of:
        lines.append(f"    duplicate_of: {_q(duplicate_of)}")
    lines.append(f"    shape: {_q(patch.shape.format())}")
    return lines


def patch_set_text(name: str, title: str, provenance: str, patches: list[Patch],
                   duplicates: dict[str, str] | None = None) -> str:
    """A `patch-set` spec file, byte for byte the same for the same input."""
    duplicates = duplicates or {}
    lines = ["# Generated by patchwork-toolkit; see provenance.", "kind: patch-set",
             f"name: {_q(name)}", f"title: {_q(title)}", f"provenance: {_q(provenance)}", "patches:"]
    for patch in patches:
        lines += patch_lines(patch, duplicates.get(patch.id))
    return "\n".join(lines) + "\n"


def _ref_from(folder: Path, ref: str) -> str:
    """How a file in `folder` names the reference edition: a bundled name as is, a file relative."""
    if Path(ref).is_file():
        return Path(os.path.relpath(Path(ref).resolve(), folder.resolve())).as_posix()
    return ref


def provenance_text(generated: Generated) -> str:
    r = generated.request
    fit = generated.fit
    sizes = f"sizes {r.sizes[0]}..{r.sizes[1]} (reference mix plus one share each)" if r.sizes \
        else "sizes mixed like the reference deck"
    if not r.sizes and not r.allow_twins:
        sizes = "each tag's size histogram of the reference deck scaled to its share"
    reused = generated.reused or {}
    reuse = ""
    if reused:
        reuse = ("; sizes with no new free shape left reuse a base patch's shape: " +
                 ", ".join(f"{pid} ({base})" for pid, base in reused.items()))
    return (
        f"Generated by `{r.command()}` (patchwork-toolkit {toolkit.__version__}), seed {r.seed}: "
        f"{r.count} shapes drawn uniformly among the free polyominoes of each size ({sizes}; "
        f"holes {'allowed' if r.allow_holes else 'excluded'}; twins and base shapes "
        f"{'allowed' if r.allow_twins else 'excluded'}{reuse}); tags shared out like the reference "
        f"deck; time, income and tag copied from a reference patch of that tag and size; cost "
        f"from the linear model fitted on {generated.base.name} "
        f"(R2 {fit.r2:.3f}, {fit.cv.text()}), rounded.")


@dataclass(frozen=True)
class Written:
    deck_path: Path
    variant_path: Path
    deck_text: str
    variant_text: str


def render_files(generated: Generated, out: Path, variant_out: Path) -> Written:
    """The text of the patch-set and the variant (nothing written yet)."""
    r = generated.request
    name = spec_name(out)
    variant_name = spec_name(variant_out)
    if variant_name == name:
        variant_name = f"{name}-variant"
    provenance = provenance_text(generated)
    base_patches = list(generated.base.patches) if r.mode == "extend" else []
    edition = generated.base.edition
    assert edition is not None, "generate_deck refuses a base deck without an edition"
    deck_title = f"{edition.title} custom patches ({name})"
    deck_text = patch_set_text(name, deck_title, provenance, base_patches + list(generated.patches),
                               generated.duplicates)
    folder = variant_out.parent
    deck_ref = Path(os.path.relpath(out.resolve(), folder.resolve())).as_posix()
    how = "replaces" if r.mode == "replace" else "extends"
    variant_lines = [
        "# Generated by patchwork-toolkit; see provenance.",
        "kind: variant",
        f"name: {_q(variant_name)}",
        f"title: {_q(f'{edition.title} with custom patches ({variant_name})')}",
        f"extends: {_q(_ref_from(folder, r.like))}",
        f"patches: {_q(deck_ref)}",
        f"provenance: {_q(f'The patch set {deck_ref} {how} the patches of {r.like}. ' + provenance)}",
    ]
    return Written(out, variant_out, deck_text, "\n".join(variant_lines) + "\n")


def default_variant_path(out: Path) -> Path:
    return out.with_name(f"{out.stem}-variant{out.suffix or '.yaml'}")
