"""The designer's side of the studio: spec files of FOLDER, shape facts, the deck view and saving
a drawn patch into a variant file.

Everything here is the library the CLI calls: `load_edition` and `validate_report` (what
`patchwork validate` runs), `describe_shape` and `twin_ids` (what `patchwork shape`
prints), the render scene's patch pieces drawn by the SVG backend (what `patchwork render`
writes) and `fit_deck` (what `patchwork deck fit` fits). Results are JSON-ready dicts; errors are
ToolkitErrors, which the HTTP layer turns into one line on the page.
"""
from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

from toolkit.errors import ShapeError, SpecError, ToolkitError, UsageError
from toolkit.studio import files
from toolkit.studio.security import relative_parts, shown

SPEC_SUFFIXES = (".yaml", ".yml")
MAX_LISTED = 400
"""Files a listing of FOLDER shows at most (a folder with more is searched no further)."""
SKIPPED_FOLDERS = ("studio-runs", "node_modules", "__pycache__")
MAX_CELLS = 64
MAX_SIDE = 16
PATCH_FIELDS = ("cost", "time", "income", "copies")
"""Numbers a patch may carry; each family reads some of them (the loader refuses the others)."""
FIELD_RANGE = (0, 99)
PATCH_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
MAX_SPEC_BYTES = 2 * 1024 * 1024
REFERRING_KEYS = ("extends", "patches", "time_track", "automa", "start_cards")
"""Keys whose value may name another spec file: the ones the loader follows (`extends` and the
references it inlines); a key the loader learns to follow must be listed here too, or a spec of
FOLDER could refer through it to a file the mirror does not hold."""


# ----- files of FOLDER --------------------------------------------------------------------------

def walk(root: Path, suffixes: tuple[str, ...]) -> list[str]:
    """Files under `root` with one of the suffixes, relative, sorted; hidden folders, run
    outputs and symlinked folders skipped; at most MAX_LISTED."""
    return files.walk(root, suffixes, SKIPPED_FOLDERS, MAX_LISTED)


def _kind_in(head: bytes) -> str | None:
    """A spec file's `kind:` as a cheap text scan (the page lists files; loading says the rest)."""
    match = re.search(r"^kind:\s*([A-Za-z-]+)", head.decode("utf-8", "replace").lstrip("\ufeff"), re.MULTILINE)
    return match.group(1) if match else None


def spec_listing(root: Path) -> dict[str, Any]:
    """The editions a page may open: bundled ones by name, and FOLDER's spec files by path."""
    from toolkit.specs import list_editions, list_variants

    found = []
    for rel in walk(root, SPEC_SUFFIXES):
        found.append({"path": rel, "kind": _kind_in(files.read_head(root, rel, 4096))})
    return {"bundled": [*list_editions(), *list_variants()], "files": found}


def _bundled(ref: Any) -> bool:
    from toolkit.specs import list_editions, list_variants

    return isinstance(ref, str) and ref in (*list_editions(), *list_variants())


def _spec_rel(ref: Any) -> str:
    """A page's reference to a spec file of FOLDER, as a normalised path from FOLDER."""
    from toolkit.specs import list_editions, list_variants

    if not isinstance(ref, str) or not ref:
        raise UsageError("no edition named: pick a bundled edition or a spec file of the folder")
    if not ref.lower().endswith(SPEC_SUFFIXES):
        bundled = [*list_editions(), *list_variants()]
        raise UsageError(f"{ref[:60]!r} is neither a bundled edition or variant ({', '.join(bundled)}) "
                         "nor a .yaml file of the folder")
    return "/".join(relative_parts(ref))


def _referred(rel: str, key: str, value: str) -> str:
    """The path from FOLDER of a file a spec refers to (relative to the spec's folder), or
    UsageError when it leads outside FOLDER."""
    where = PurePosixPath(value)
    parts = [*PurePosixPath(rel).parent.parts]
    for part in where.parts if not where.is_absolute() else ("/",):
        if part == "..":
            if not parts:
                break
            parts.pop()
        elif part == "/":
            break
        elif part != ".":
            parts.append(part)
    else:
        if parts:
            return "/".join(parts)
    named = "an absolute path" if where.is_absolute() else repr(value[:80])
    raise UsageError(f"{rel}: {key}: {named} leads out of the studio's folder; a spec of the "
                     "folder may extend or use only bundled specs and files inside the folder")


def mirrored(root: Path, ref: str, first: bytes | None = None) -> Path:
    """The mirror's copy of FOLDER's spec `ref` (with `first` as its content when given) and of
    every file of FOLDER it refers to, followed as the loader follows them; UsageError when a
    reference leads out of FOLDER or names something that is not a regular file.
    Call with the mirror's lock held."""
    from toolkit.specs.loader import _is_path_ref
    from toolkit.specs.source import UnreadableSpec, read_tree

    mirror = files.mirror_of(root)
    top = _spec_rel(ref)
    queue: list[tuple[str, bytes | None]] = [(top, first)]
    seen: set[str] = set()
    while queue:
        rel, data = queue.pop()
        if rel in seen:
            continue
        seen.add(rel)
        if data is None:
            try:
                data, _ = files.read_bytes(root, rel, MAX_SPEC_BYTES)
            except files.Missing:
                if rel == top:
                    raise
                continue  # the loader reports it where the spec names it
        copy = mirror.put(rel, data)
        try:
            tree, _ = read_tree(copy)
        except UnreadableSpec:
            continue  # the loader reports it
        if not isinstance(tree, dict):
            continue
        for key in REFERRING_KEYS:
            value = tree.get(key)
            if isinstance(value, str) and _is_path_ref(value):
                queue.append((_referred(rel, key, value), None))
    return mirror.path.joinpath(*PurePosixPath(top).parts)


def _from_mirror(root: Path, error: SpecError) -> SpecError:
    """A SpecError of the mirror's files as the page shows it: files named from FOLDER."""
    import dataclasses

    mirror = files.mirror_of(root)
    problems = []
    for p in error.problems:
        name = mirror.shown(p.file)
        if name != p.file:  # a copy: the file of FOLDER it copies
            name = str(root.resolve().joinpath(*PurePosixPath(name).parts))
        problems.append(dataclasses.replace(p, file=name, message=mirror.shown(p.message)))
    return SpecError(problems)


def edition_path(root: Path, ref: str) -> str:
    """What a run is given for a page's reference: a bundled name as it is, a spec file of FOLDER
    as its path (after checking that it and every file it refers to lie inside FOLDER)."""
    if _bundled(ref):
        return ref
    with files.mirror_of(root).lock:
        mirrored(root, ref)
    return str(root.resolve().joinpath(*PurePosixPath(_spec_rel(ref)).parts))


def load(root: Path, ref: str):
    from toolkit.specs import load_edition

    if _bundled(ref):
        return load_edition(ref)
    with files.mirror_of(root).lock:
        copy = mirrored(root, ref)
        try:
            return load_edition(copy)
        except SpecError as error:
            raise _from_mirror(root, error) from None


def problem_json(root: Path, problem) -> dict[str, Any]:
    mirror = files.mirror_of(root)
    name = mirror.shown(problem.file)
    if name == problem.file:
        if not name.startswith("<") and not os.path.isabs(name):
            name = os.path.abspath(name)
        name = shown(root, name)
    message = mirror.shown(problem.message)
    return {"file": name, "line": problem.line, "column": problem.column,
            "key": problem.key_path, "message": message, "severity": problem.severity,
            "text": f"{name}:{problem.line}:{problem.column}: {problem.key_path}: "
                    f"{'warning: ' if problem.severity == 'warning' else ''}{message}"}


# ----- shapes -----------------------------------------------------------------------------------

def shape_text(cells: Any) -> str:
    """Shape text (`##./.##`) of clicked cells [[row, col], ...], moved to the top left."""
    if not isinstance(cells, list) or not cells:
        raise ShapeError("no cells: click cells of the grid to draw a patch")
    if len(cells) > MAX_CELLS:
        raise ShapeError(f"a patch has at most {MAX_CELLS} cells, got {len(cells)}")
    points = set()
    for cell in cells:
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_SIDE for v in cell)):
            raise ShapeError(f"a cell is [row, column] with each 0..{MAX_SIDE - 1}, got {json.dumps(cell)[:40]}")
        points.add((cell[0], cell[1]))
    top = min(r for r, _ in points)
    left = min(c for _, c in points)
    height = max(r for r, _ in points) - top + 1
    width = max(c for _, c in points) - left + 1
    return "/".join("".join("#" if (top + r, left + c) in points else "." for c in range(width))
                    for r in range(height))


def shape_facts(root: Path, body: dict[str, Any]) -> dict[str, Any]:
    """`patchwork shape` for drawn cells (or shape text), against a deck when one is named."""
    from toolkit.families import twin_ids
    from toolkit.geometry.facts import describe_shape, parse_board
    from toolkit.geometry import Board, Shape

    text = body.get("shape")
    if text is None:
        text = shape_text(body.get("cells"))
    if not isinstance(text, str) or len(text) > 400:
        raise ShapeError("shape text: rows of '#' and '.' joined by '/', e.g. '##./.##'")
    shape = Shape.parse(text)
    edition = None
    if body.get("deck"):
        edition = load(root, body["deck"])
    if body.get("board"):
        board = parse_board(str(body["board"]))
    elif edition is not None:
        board = Board(edition.board_width, edition.board_height)
    else:
        board = parse_board("9x9")
    allow_flip = edition is None or edition.allow_flip
    facts = describe_shape(shape, board, allow_flip)
    facts["rows"] = shape.rows()
    facts["deck"] = edition.name if edition is not None else None
    facts["same_shape"] = twin_ids(shape, edition) if edition is not None else []
    # Doodle's CUT splits a card along a straight line into two connected pieces: the shape can be
    # cut exactly when it has a straight cut
    facts["cuttable"] = bool(facts["cuts"])
    if edition is not None:
        facts["fields"] = patch_fields(edition)
    return facts


# ----- the printed pieces -----------------------------------------------------------------------

_PIECE_CACHE: dict[tuple[str, str], dict[str, str]] = {}
_PIECE_CACHE_SIZE = 16


def patch_fields(edition) -> list[str]:
    """The numbers a patch of this edition's family carries (the others the loader refuses)."""
    from toolkit.families import family_of
    from toolkit.specs.loader import PATCH_FIELDS_UNUSED

    unused = PATCH_FIELDS_UNUSED.get(family_of(edition).info.name, {})
    return [name for name in PATCH_FIELDS if name not in unused]


def _patch_pieces(edition) -> list:
    """The printed piece of every patch: the component the family prints patches as (tiles or
    cards, from its capability record), drawn by the same scene functions as `render`."""
    from toolkit.families import family_of

    components = family_of(edition).info.components
    if "tiles" in components:
        from toolkit.render.tiles import tile_pieces

        return tile_pieces(edition, extras=False)
    if "cards" in components:
        from toolkit.render.doodle import card_pieces

        return card_pieces(edition)
    return []


def piece_images(edition) -> dict[str, str]:
    """Patch id -> its printed piece as an SVG data URL (cached by the edition's content hash)."""
    from toolkit.render.documents import piece_document
    from toolkit.render.svg import page_svg

    key = (edition.name, edition.content_hash)
    hit = _PIECE_CACHE.get(key)
    if hit is not None:
        return hit
    ids = {p.id for p in edition.all_patches()}
    images: dict[str, str] = {}
    for piece in _patch_pieces(edition):
        if piece.name in ids and piece.name not in images:
            svg = page_svg(piece_document(piece.name, piece), 0)
            images[piece.name] = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    if len(_PIECE_CACHE) >= _PIECE_CACHE_SIZE:
        _PIECE_CACHE.pop(next(iter(_PIECE_CACHE)))
    _PIECE_CACHE[key] = images
    return images


_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_SVG_LENGTH = re.compile(rb'\b(width|height)="([0-9.]+)mm"')


def image_mm(data_url: str) -> list[float] | None:
    """[width, height] in mm of a piece image as printed: the page draws every piece of a deck at
    one scale, so a 2-cell patch looks a third the size of a 6-cell one, as on the table."""
    tag = _SVG_TAG.search(base64.b64decode(data_url.split(",", 1)[1])[:2048])
    sizes = {name: float(value) for name, value in _SVG_LENGTH.findall(tag.group(0))} if tag else {}
    return [sizes[b"width"], sizes[b"height"]] if len(sizes) == 2 else None


# ----- the deck view ----------------------------------------------------------------------------

def _residuals(edition) -> dict[str, float]:
    """`deck fit` residual per patch (cost minus the fitted price), when the family prices patches."""
    from toolkit.families import family_of

    if not family_of(edition).info.prices_patches:
        return {}
    from toolkit.decks.deck import Deck
    from toolkit.decks.model import fit_deck

    deck = Deck(edition.name, edition.all_patches(), edition.board_width, edition.board_height,
                edition.allow_flip, edition)
    try:
        fit = fit_deck(deck)
    except (ToolkitError, ValueError, ArithmeticError):  # too few patches to fit a model
        return {}
    return {p.id: round(p.residual, 2) for p in fit.patches}


def deck_view(root: Path, ref: str) -> dict[str, Any]:
    """Every patch of an edition or variant as its printed piece, with its numbers, and the
    problems `patchwork validate` finds in the file (errors and warnings, file:line)."""
    from toolkit.families import family_of
    from toolkit.specs import validate_report

    problems = []
    if not _bundled(ref):
        with files.mirror_of(root).lock:
            problems = [problem_json(root, p) for p in validate_report([mirrored(root, ref)]).problems]
    try:
        edition = load(root, ref)
    except SpecError as error:
        seen = {p["text"] for p in problems}
        problems += [q for q in (problem_json(root, p) for p in error.problems) if q["text"] not in seen]
        return {"ref": ref, "edition": None, "patches": [], "problems": problems}
    fields = patch_fields(edition)
    images = piece_images(edition)
    residuals = _residuals(edition)
    patches = []
    for patch in edition.all_patches():
        image = images.get(patch.id)
        row = {"id": patch.id, "shape": patch.shape.format(), "rows": patch.shape.rows(),
               "size": patch.shape.size, "image": image, "image_mm": image_mm(image) if image else None}
        for name in fields:
            row[name] = getattr(patch, name)
        if patch.id in residuals:
            row["residual"] = residuals[patch.id]
        patches.append(row)
    info = family_of(edition).info
    return {"ref": ref, "problems": problems, "patches": patches, "fields": fields,
            "sort_keys": [*fields, "size", *(["residual"] if residuals else [])],
            "edition": {"name": edition.name, "title": edition.title, "family": info.title,
                        "board": f"{edition.board_width}x{edition.board_height}",
                        "allow_flip": edition.allow_flip}}


# ----- a drawn patch: preview and save -----------------------------------------------------------

def _patch_entry(body: Any, fields: list[str]) -> dict[str, Any]:
    """The spec entry of a posted patch, checked: an id, the shape and the family's numbers."""
    if not isinstance(body, dict):
        raise UsageError("patch: expected {id, cells or shape, and its numbers}")
    pid = body.get("id")
    if not isinstance(pid, str) or not PATCH_ID.match(pid):
        raise UsageError("patch id: a letter then up to 15 letters, digits, '-' or '_', e.g. N01")
    text = body.get("shape")
    if text is None:
        text = shape_text(body.get("cells"))
    if not isinstance(text, str) or not re.fullmatch(r"[#./]{1,400}", text):
        raise ShapeError("shape text: rows of '#' and '.' joined by '/', e.g. '##./.##'")
    entry: dict[str, Any] = {"id": pid, "shape": text}
    for name in fields:
        value = body.get(name)
        if value is None or value == "":
            continue
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not FIELD_RANGE[0] <= value <= FIELD_RANGE[1]:
            raise UsageError(f"patch {name}: a whole number {FIELD_RANGE[0]}..{FIELD_RANGE[1]}, got {value!r}")
        entry[name] = value
    return entry


def preview_patch(root: Path, body: dict[str, Any]) -> dict[str, Any]:
    """The printed piece of a drawn patch, from the edition with the patch added (or replacing
    the patch of the same id), loaded and checked as a spec would be."""
    from toolkit.specs.loader import edition_from_spec, resolved_spec

    ref = body.get("deck")
    base = load(root, ref)
    fields = patch_fields(base)
    entry = _patch_entry(body.get("patch"), fields)
    if _bundled(ref):
        spec = resolved_spec(ref)
    else:
        with files.mirror_of(root).lock:
            try:
                spec = resolved_spec(mirrored(root, ref))
            except SpecError as error:
                raise _from_mirror(root, error) from None
    patches = [p for p in spec.get("patches", []) if p.get("id") != entry["id"]]
    spec["patches"] = [*patches, entry]
    try:
        edition = edition_from_spec(spec, f"{base.name} + {entry['id']}")
    except SpecError as error:
        return {"image": None, "problems": [problem_json(root, p) for p in error.problems], "fields": fields}
    return {"image": piece_images(edition).get(entry["id"]), "problems": [], "fields": fields,
            "entry": entry}


def _flow(entry: dict[str, Any]) -> str:
    """One patch as a YAML flow mapping on one line: `{id: N01, shape: "##/#.", cost: 4}`."""
    parts = [f"id: {entry['id']}", f"shape: {json.dumps(entry['shape'])}"]
    parts += [f"{k}: {v}" for k, v in entry.items() if k not in ("id", "shape")]
    return "{" + ", ".join(parts) + "}"


_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:(.*)$")


def with_patch(text: str, entry: dict[str, Any]) -> str:
    """The variant file's text with the patch added under `add_patches:` (or its one-line entry
    of the same id replaced); every other line, comment and key order kept."""
    lines = text.splitlines()
    item = f"  - {_flow(entry)}"
    start = next((i for i, line in enumerate(lines) if _TOP_KEY.match(line) and line.startswith("add_patches")), None)
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join([*lines, "add_patches:", item]) + "\n"
    rest = _TOP_KEY.match(lines[start]).group(2).split("#", 1)[0].strip()
    if rest:
        raise UsageError("add_patches is written on one line (flow style) in this file; "
                         "write it as a block list (one '- {...}' line per patch) to save into it")
    end = start + 1
    last_item = start
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        if lines[end].strip() and not lines[end].lstrip().startswith("#"):
            last_item = end
        end += 1
    same = re.compile(r"^\s*-\s*\{\s*id:\s*[\"']?" + re.escape(entry["id"]) + r"[\"']?\s*,")
    for i in range(start + 1, end):
        if same.match(lines[i]):
            lines[i] = item
            return "\n".join(lines) + "\n"
    mention = re.compile(r"\bid:\s*[\"']?" + re.escape(entry["id"]) + r"[\"']?\s*$")
    if any(mention.search(lines[i]) for i in range(start + 1, end)):
        raise UsageError(f"patch {entry['id']} is already in add_patches over several lines; "
                         "give the new patch another id, or edit that one in your editor")
    lines.insert(last_item + 1, item)
    return "\n".join(lines) + "\n"


def new_variant_text(extends: str, name: str) -> str:
    return (f"# Written by patchwork studio: a variant of {extends} with drawn patches.\n"
            f"kind: variant\nname: {name}\nextends: {extends}\n")


def save_patch(root: Path, body: dict[str, Any]) -> dict[str, Any]:
    """Write a drawn patch into a variant file of FOLDER (a new one extends `extends`), only
    when `patchwork validate` accepts the result; the file's other lines, its line endings and
    its permissions stay as they were. The result is checked in the mirror, never beside the
    file, so no file of FOLDER but this one is written."""
    from toolkit.specs import validate_report

    rel = _spec_rel(body.get("file"))
    try:
        data, _ = files.read_bytes(root, rel, MAX_SPEC_BYTES)
    except files.Missing:
        data = None
    if data is not None:
        bom = data.startswith(b"\xef\xbb\xbf")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UsageError(f"{rel}: not UTF-8 text; the studio saves only into UTF-8 spec files") from None
        if _kind_in(data[:4096]) != "variant":
            raise UsageError(f"{rel}: patches are saved into a variant file (kind: variant); this file is not one")
        newline = "\r\n" if "\r\n" in text else "\n"
        base_ref = body.get("deck")
    else:
        bom, newline = False, "\n"
        base_ref = body.get("extends") or body.get("deck")
        extends = base_ref if _bundled(base_ref) else _spec_rel(base_ref)
        if not _bundled(base_ref):
            edition_path(root, base_ref)  # it and what it refers to lie inside FOLDER
            extends = os.path.relpath(extends, PurePosixPath(rel).parent.as_posix() or ".")
        name = re.sub(r"[^a-z0-9-]+", "-", PurePosixPath(rel).stem.lower()).strip("-") or "studio-variant"
        text = new_variant_text(extends, name)
    fields = patch_fields(load(root, base_ref)) if base_ref else list(PATCH_FIELDS)
    entry = _patch_entry(body.get("patch"), fields)
    new_text = with_patch(text.replace("\r\n", "\n"), entry)
    with files.mirror_of(root).lock:
        report = validate_report([mirrored(root, rel, new_text.encode("utf-8"))])
        errors = [problem_json(root, p) for p in report.errors]
        if errors:
            raise ProblemsError(f"{rel} was not saved: `patchwork validate` would refuse it", errors)
        out = (b"\xef\xbb\xbf" if bom else b"") + new_text.replace("\n", newline).encode("utf-8")
        saved = files.write_bytes(root, rel, out)
    return {"saved": saved, "entry": entry, "text": new_text}


class ProblemsError(ToolkitError):
    """A spec the studio would write or read has problems, listed as the page shows them."""

    def __init__(self, message: str, problems: list[dict[str, Any]]):
        super().__init__(message)
        self.problems_json = problems
