"""Spec files -> fully resolved, validated Edition models.

Owns reference resolution (`patches: classic` -> patches/classic.yaml), the `extends:` chain of
variants with its deep merge and patch edits, the cross-field rules the schema cannot express,
and the per-path cache. Every problem names file, line, column and key path; all problems of
the files involved are reported together in one SpecError.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Sequence

from toolkit.errors import Problem, SpecError, UnknownEdition
from toolkit.fileio import path_kind
from toolkit.geometry.shape import Shape
from toolkit.specs import deck
from toolkit.specs.catalogue import (EDITIONS_DIR, REF_DIRS, VARIANTS_DIR, bundled_specs_dir,
                                     list_editions, list_refs, list_variants)
from toolkit.specs.models import (RULES_OF_FAMILY, Automa, AutomaCard, AutomaLevel, Bonus, DoodleRules, Edition, Family,
                                  Patch, StartCard, TimeTrack, TimeTrackRules, required_keys, scalar_keys, spec_keys)
from toolkit.specs.schema import NAME_PATTERN, RESOLVED_EDITION, check_file, parse_shape
from toolkit.specs.source import (SPEC_SUFFIXES, LDict, LList, Loc, UnreadableSpec, cut, display_name, link_display,
                                  not_a_spec, read_tree)

DOODLE_ONLY = spec_keys(DoodleRules)
TIME_TRACK_ONLY = spec_keys(TimeTrackRules)
"""Each family's own spec keys, from its rules model (toolkit.specs.models)."""
REQUIRED_WHY = {"time_track": "time-track editions race on a time board"}
"""Why a required rule is needed, for the message."""
PATCH_FIELDS_UNUSED = {
    "doodle": {
        "cost": "Doodle patches are drawn, not bought",
        "time": "Doodle has no time track",
        "income": "Doodle has no income",
    },
    "time-track": {
        "copies": "a time-track circle holds each patch once; give a second copy its own id",
    },
}
"""Patch keys a family's engine never reads, refused at load time with why (no silent keys)."""
VARIANT_EDITS = ("kind", "extends", "add_patches", "remove_patches", "patch_changes")


def _is_file(path: Path) -> bool:
    """is_file that says no (instead of raising) for names the OS refuses: too long, NUL bytes."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_path_ref(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _not_a_spec(path: Path, text: str | None = None) -> str | None:
    """Why `path` may not be read as a spec (source.not_a_spec: judged by what it points to)."""
    return not_a_spec(path, text)


@dataclass
class _Session:
    """One load or validation run: each file is read and structurally checked once."""

    problems: list[Problem] = field(default_factory=list)
    trees: dict[Path, tuple[str | None, LDict | None]] = field(default_factory=dict)
    """Each file read: (kind, tree), (None, None) when it is not a spec file of a known kind."""
    real: dict[str, Path] = field(default_factory=dict)
    """Display name of each file read -> its real path (relative references start there)."""
    involved: dict[Path, tuple[int, int] | None] = field(default_factory=dict)
    """Every file read, with its (mtime_ns, size), so a cache entry can tell when it is stale."""
    rank: dict[str, int] = field(default_factory=dict)
    """How late in an extends chain each file speaks: a base edition 0, a variant one more than
    its parent, a referenced file the rank of the file referring to it. A problem between values
    of different files is reported in the later one: that is where the user changed something."""

    def rank_of(self, loc: Loc) -> int:
        return self.rank.get(loc.file, -1)

    def set_rank(self, loc_or_file, rank: int) -> None:
        name = loc_or_file.file if isinstance(loc_or_file, Loc) else loc_or_file
        self.rank[name] = min(self.rank.get(name, rank), rank)

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def read(self, path: Path) -> tuple[str | None, LDict | None]:
        refused = not_a_spec(path) if os.path.islink(path) else None
        if refused is not None:  # judged by what the link points to, before anything is resolved or read
            shown = link_display(path)
            self.problems.append(Loc(shown).problem("(file)", refused))
            self.trees[path] = (None, None)
            return None, None
        try:
            path = path.resolve()
        except (OSError, ValueError):
            pass  # read_tree reports why the file cannot be read
        if path in self.trees:
            return self.trees[path]
        self.involved[path] = _stamp(path)
        self.real[display_name(path)] = path
        try:
            tree, problems = read_tree(path)
        except UnreadableSpec as exc:
            self.problems.append(exc.problem)
            self.trees[path] = (None, None)
            return None, None
        guessed = _guess_kind(tree)
        if guessed is not None and isinstance(tree, LDict):
            guess, keys = guessed
            shown = ", ".join(f"`{k}`" for k in keys)
            problems.append(tree.loc.problem("kind", f"missing `kind:`; its keys ({shown}) say this is a {guess} "
                                                     f"file, so it was checked as one: add `kind: {guess}`"))
            tree = tree.copy()
            tree.put("kind", guess, tree.loc)
        kind, more = check_file(tree, Loc(display_name(path)))
        self.problems.extend(problems + more)
        # check_file finds a kind only in a mapping (an LDict); anything else is no spec to resolve
        read = (kind, tree) if kind is not None and isinstance(tree, LDict) else (None, None)
        self.trees[path] = read
        return read

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def unique_problems(self) -> list[Problem]:
        seen: dict[Problem, None] = {}
        for p in self.problems:
            seen.setdefault(p, None)
        return list(seen)


KIND_SIGNS = (
    ("variant", ("extends", "add_patches", "remove_patches", "patch_changes")),
    ("edition", ("family", "players", "board")),
    ("start-cards", ("cards", "card_size")),
    ("time-track", ("final_space", "income_marks", "leather_patches")),
    ("automa", ("levels", "decks")),
    ("patch-set", ("patches",)),
)
"""Keys that tell a file's kind when `kind:` is missing, most telling first: a variant may set
any key of an edition, and an edition lists patches too, so a later kind counts only when no
earlier one matched."""


def _guess_kind(tree) -> tuple[str, tuple[str, ...]] | None:
    """(kind, the keys that say it) for a mapping without `kind:` whose keys point to one kind."""
    if not isinstance(tree, LDict) or "kind" in tree:
        return None
    found = [(kind, tuple(k for k in keys if k in tree)) for kind, keys in KIND_SIGNS]
    found = [(kind, keys) for kind, keys in found if keys]
    if not found:
        return None
    kind, keys = found[0]
    if kind in ("variant", "edition"):
        others = [k for k, _ in found if k not in ("variant", "edition", "patch-set")]
        return None if others else (kind, keys)
    return (kind, keys) if len(found) == 1 else None


# ----- references and extends ------------------------------------------------------------------

def _resolve_ref(s: _Session, kind: str, ref: str, owner: LDict, key: str) -> Path | None:
    """Path of the file `ref` names (bundled name or path relative to the owner's file)."""
    if _is_path_ref(ref):
        return _relative(s, owner, key, ref, f"{kind} file")
    target = bundled_specs_dir() / REF_DIRS[kind] / f"{ref}.yaml"
    if not _is_file(target):
        known = ", ".join(list_refs(kind)) or "none"
        s.add(owner.problem(key, f"unknown {kind} {cut(ref)!r}; bundled: {known} (or give a path ending in .yaml)"))
        return None
    return target


def _load_ref(s: _Session, kind: str, ref: str, owner: LDict, key: str) -> LDict | None:
    path = _resolve_ref(s, kind, ref, owner, key)
    if path is None:
        return None
    got_kind, tree = s.read(path)
    if tree is None or got_kind is None:
        return None
    if got_kind != kind:
        s.add(owner.problem(key, f"{cut(ref)!r} is a {got_kind} file, expected a {kind} file"))
        return None
    s.set_rank(tree.loc, s.rank_of(owner.loc))
    return tree


def _body(tree: LDict) -> LDict:
    out = tree.copy()
    out.pop("kind", None)
    return out


def _inline(s: _Session, edition: LDict, key: str, value) -> object:
    """The value of a referencing key with any reference replaced by the referenced content."""
    if not isinstance(value, str):
        return value
    if key == "patches":
        tree = _load_ref(s, "patch-set", value, edition, key)
        return tree.get("patches") if tree is not None else None
    if key == "time_track":
        tree = _load_ref(s, "time-track", value, edition, key)
        return _body(tree) if tree is not None else None
    if key == "automa":
        tree = _load_ref(s, "automa", value, edition, key)
        return _body(tree) if tree is not None else None
    if key == "start_cards":
        tree = _load_ref(s, "start-cards", value, edition, key)
        if tree is None:
            return None
        cards = tree.get("cards")
        if isinstance(cards, LList):
            cards = LList(cards.loc, cards.path, cards, cards.locs)
            cards.card_size = tree.get("card_size")  # type: ignore[attr-defined]
            cards.card_size_where = tree  # type: ignore[attr-defined]
        return cards
    return value


def _deep_merge(base: LDict, over: LDict, relocate: bool = True) -> LDict:
    """`over` merged key by key onto `base`; with relocate, the result is placed where `over`
    was written (a variant's `board: {height: 8}` is the board as this file leaves it)."""
    out = base.copy()
    if relocate:
        out.loc, out.path = over.loc, over.path
    for key, value in over.items():
        old = out.get(key)
        if isinstance(old, LDict) and isinstance(value, LDict):
            out.put(key, _deep_merge(old, value), over.loc_of(key), over.path_of(key))
        else:
            out.put(key, value, over.loc_of(key), over.path_of(key))
    return out


def _extends_target(s: _Session, variant: LDict) -> Path | None:
    ref = variant.get("extends")
    if not isinstance(ref, str):
        return None
    if _is_path_ref(ref):
        return _relative(s, variant, "extends", ref, "edition or variant file")
    for folder in (EDITIONS_DIR, VARIANTS_DIR):
        target = bundled_specs_dir() / folder / f"{ref}.yaml"
        if _is_file(target):
            return target
    known = ", ".join(list_editions() + list_variants())
    s.add(variant.problem("extends", f"unknown edition or variant {cut(ref)!r}; bundled: {known} "
                                     "(or give a path ending in .yaml)"))
    return None


def _relative(s: _Session, owner: LDict, key: str, ref: str, what: str) -> Path | None:
    """A path written in a spec file, taken relative to that file's folder."""
    home = s.real.get(owner.loc.file)
    target = (home.parent if home is not None else Path.cwd()) / ref
    refused = _not_a_spec(target, ref)
    if refused:
        s.add(owner.problem(key, f"{what}: {refused}"))
        return None
    if not _is_file(target):
        s.add(owner.problem(key, f"{what} {cut(ref)!r} not found (looked for {cut(target)})"))
        return None
    return target


def _resolve(s: _Session, path: Path, chain: tuple[Path, ...] = ()) -> LDict | None:
    """The edition at `path` with references inlined and the extends chain merged."""
    path = path.resolve()
    if path in chain:
        names = " -> ".join(display_name(p) for p in chain + (path,))
        kind, tree = s.trees.get(chain[-1], (None, None))
        where = tree if isinstance(tree, LDict) else None
        problem = (where.problem("extends", f"`extends` forms a cycle: {names}") if where
                   else Loc(display_name(path)).problem("extends", f"`extends` forms a cycle: {names}"))
        s.add(problem)
        return None
    kind, tree = s.read(path)
    if tree is None or kind is None:
        return None
    if kind not in ("edition", "variant"):
        s.add(tree.problem("kind", f"this is a {kind} file; an edition or variant file is needed here"))
        return None
    if kind == "edition":
        s.set_rank(tree.loc, 0)
        out = LDict(tree.loc, tree.path)
        for key, value in tree.items():
            out.put(key, _inline(s, tree, key, value), tree.loc_of(key), tree.path_of(key))
        out.pop("kind", None)
        return out
    parent_path = _extends_target(s, tree)
    if parent_path is None:
        return None
    parent = _resolve(s, parent_path, chain + (path,))
    if parent is None:
        return None
    s.set_rank(tree.loc, s.rank_of(parent.loc) + 1)
    tree = _with_defaults(s, tree, path, parent)
    merged = _apply_variant(s, parent, tree)
    # the merge can leave a nested mapping incomplete, e.g. `bonus: {points: 3}` over null; checked
    # even when other problems were found, so that all are reported at once (a value already
    # reported where it was written is not reported again)
    again: list[Problem] = []
    RESOLVED_EDITION.check(merged, merged.loc, "", again)
    known = {(p.file, p.line, p.column, p.key_path) for p in s.problems}
    s.problems.extend(p for p in again if (p.file, p.line, p.column, p.key_path) not in known)
    return merged


def _with_defaults(s: _Session, variant: LDict, path: Path, parent: LDict) -> LDict:
    """The variant with `name` (its file stem) and `title` ("<parent title> (variant <name>)")
    filled in when it leaves them out."""
    if "name" in variant and "title" in variant:
        return variant
    out = variant.copy()
    if "name" not in out:
        stem = path.stem
        if re.match(NAME_PATTERN, stem) and len(stem) <= 64:
            out.put("name", stem, variant.loc, "name")
        else:
            s.add(variant.missing("name", f"no `name:` given, and the file name {stem!r} cannot "
                                          "serve as one (lower-case letters, digits and dashes); "
                                          "add `name:`"))
            return out
    name = out.get("name")
    if "title" not in out and isinstance(name, str):
        parent_title = parent.get("title")
        if isinstance(parent_title, str):
            out.put("title", f"{parent_title} (variant {name})", variant.loc, "title")
    return out


def _apply_variant(s: _Session, parent: LDict, variant: LDict) -> LDict:
    out = parent.copy()
    out.loc = variant.loc  # the resolved edition is the variant: what it lacks, it lacks here
    for key, value in variant.items():
        if key in VARIANT_EDITS:
            continue
        value = _inline(s, variant, key, value)
        old = out.get(key)
        if key in ("time_track", "automa") and isinstance(value, LDict) and isinstance(old, LDict) \
                and isinstance(variant.get(key), LDict):
            merged = _deep_merge(old, value)
            edits_layout = set(value) - {"id", "title", "provenance", "confidence"}
            if key == "time_track" and edits_layout and "id" not in value \
                    and isinstance(old.get("id"), str) and isinstance(variant.get("name"), str):
                # an edited board must not pass for the original in simulation reports
                merged.put("id", f"{old['id']}-{variant['name']}", variant.loc_of(key),
                           variant.path_of(key) + ".id")
            out.put(key, merged, variant.loc_of(key), variant.path_of(key))
        elif isinstance(old, LDict) and isinstance(value, LDict) and key not in ("time_track", "automa"):
            out.put(key, _deep_merge(old, value), variant.loc_of(key), variant.path_of(key))
        else:
            out.put(key, value, variant.loc_of(key), variant.path_of(key))
    patches = out.get("patches")
    if not isinstance(patches, LList):
        return out
    edits = [k for k in ("remove_patches", "patch_changes", "add_patches") if k in variant]
    if edits:  # the deck is now this file's: a problem with the deck as a whole belongs here
        patches = LList(variant.loc_of(edits[0]), variant.path_of(edits[0]), patches, patches.locs)
    else:
        patches = LList(patches.loc, patches.path, patches, patches.locs)
    ids = {p["id"]: i for i, p in enumerate(patches) if isinstance(p, LDict) and isinstance(p.get("id"), str)}
    removals = variant.get("remove_patches")
    if isinstance(removals, LList):
        drop = set()
        for i, pid in enumerate(removals):
            if isinstance(pid, str) and pid in ids:
                drop.add(ids[pid])
            elif isinstance(pid, str):
                s.add(removals.problem(i, f"no patch {pid!r} in the edition being extended"))
        kept = [(p, patches.loc_of(i)) for i, p in enumerate(patches) if i not in drop]
        patches = LList(patches.loc, patches.path, [p for p, _ in kept], [l for _, l in kept])
        ids = {p["id"]: i for i, p in enumerate(patches) if isinstance(p, LDict) and isinstance(p.get("id"), str)}
    changes = variant.get("patch_changes")
    if isinstance(changes, LDict):
        for pid, change in changes.items():
            if not isinstance(change, LDict):
                continue
            if pid not in ids:
                s.add(changes.problem(pid, f"no patch {pid!r} in the edition being extended"))
            else:
                i = ids[pid]
                # the patch stays where it was listed; only the changed keys move to this file
                patches[i] = _deep_merge(patches[i], change, relocate=False)
    additions = variant.get("add_patches")
    if isinstance(additions, LList):
        for i, patch in enumerate(additions):
            patches.add(patch, additions.loc_of(i))
    if edits:
        out.put("patches", patches, patches.loc, patches.path)
    else:
        out.put("patches", patches, out.loc_of("patches"), out.path_of("patches"))
    return out


# ----- cross-field rules -------------------------------------------------------------------------
#
# A rule between two values can be broken by either; in a variant it is the variant's change that
# breaks it, so the problem is reported at whichever value was written latest in the extends chain
# (Session.rank), and the message says where the other one comes from.

def _where(loc: Loc) -> str:
    return f"{loc.file}:{loc.line}"


def _latest(s: _Session, *places: tuple[Loc, str] | None) -> tuple[Loc, str]:
    """The place (loc, key path) written latest in the extends chain; ties go to the first."""
    found = [p for p in places if p is not None]
    best = found[0]
    for place in found[1:]:
        if s.rank_of(place[0]) > s.rank_of(best[0]):
            best = place
    return best


def _place(owner: LDict, key: str) -> tuple[Loc, str] | None:
    """Where `key` of `owner` was written, or None when it is not there."""
    return (owner.loc_of(key), owner.path_of(key)) if key in owner else None


def _note(here: Loc, other: Loc, what: str) -> str:
    """' (what set at file:line)' when the other value comes from another file."""
    return "" if here.file == other.file else f" ({what} set at {_where(other)})"


@dataclass(frozen=True)
class _Board:
    """The board size with where it was last set, for problems of things that must fit it."""

    width: int
    height: int
    loc: Loc
    path: str


def _board_of(s: _Session, spec) -> _Board | None:
    if not isinstance(spec, LDict):
        return None
    w, h = spec.get("width"), spec.get("height")
    if not (isinstance(w, int) and isinstance(h, int) and not isinstance(w, bool)
            and not isinstance(h, bool) and w > 0 and h > 0):
        return None
    wl, hl = spec.loc_of("width"), spec.loc_of("height")
    if s.rank_of(wl) == s.rank_of(hl):
        return _Board(w, h, spec.loc, spec.path or "board")
    loc, path = _latest(s, _place(spec, "width"), _place(spec, "height"))
    return _Board(w, h, loc, path)


def _misfit(s: _Session, item: LDict, what: str, shape: Shape, board: _Board) -> Problem:
    """A shape that fits the board in no orientation, reported at the later of the two."""
    size = f"{board.width}x{board.height}"
    here = item.loc_of("shape")
    if s.rank_of(board.loc) > s.rank_of(here):
        return board.loc.problem(board.path, f"{what} (shape {shape.width}x{shape.height}, from "
                                             f"{_where(here)}) does not fit the {size} board set "
                                             "here in any orientation")
    return item.problem("shape", f"shape {shape.width}x{shape.height} does not fit the {size} "
                                 f"board in any orientation{_note(here, board.loc, 'board')}")


def _ints(value) -> list[int]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]


def check_track(s: _Session, track: LDict) -> None:
    """Marks ascending and within the track."""
    final = track.get("final_space")
    final_loc = track.loc_of("final_space")
    for key, label in (("income_marks", "income mark"), ("leather_patches", "leather patch")):
        marks = track.get(key)
        if not isinstance(marks, LList):
            continue
        previous = None
        for i, mark in enumerate(marks):
            if not isinstance(mark, int) or isinstance(mark, bool):
                continue
            if isinstance(final, int) and mark > final:
                here = marks.loc_of(i)
                if s.rank_of(final_loc) > s.rank_of(here):
                    s.add(final_loc.problem(track.path_of("final_space"),
                                            f"{label} {mark} (from {_where(here)}) lies past "
                                            f"final_space {final} set here"))
                else:
                    s.add(marks.problem(i, f"space {mark} lies past the final space {final}"
                                           f"{_note(here, final_loc, 'final_space')}"))
            if previous is not None and mark < previous:  # equal ones are reported as listed twice
                s.add(marks.problem(i, f"spaces must be ascending: {mark} comes after {previous}"))
            previous = mark


def check_automa(s: _Session, automa: LDict, final_space: int | None,
                 final_loc: Loc | None = None) -> None:
    """Unique level and card numbers; markers on the track; setup discards leave a deck."""
    levels = automa.get("levels")
    if isinstance(levels, LList):
        seen: dict[int, int] = {}
        for i, level in enumerate(levels):
            if not isinstance(level, LDict):
                continue
            number = level.get("level")
            if isinstance(number, int) and number in seen:
                s.add(level.problem("level", f"level {number} is defined twice"))
            elif isinstance(number, int):
                seen[number] = i
            back = level.get("spaces_from_end")
            if isinstance(back, int) and isinstance(final_space, int) and back >= final_space:
                here = level.loc_of("spaces_from_end")
                if final_loc is not None and s.rank_of(final_loc) > s.rank_of(here):
                    s.add(final_loc.problem(getattr(final_loc, "key_path", "") or "time_track.final_space",
                                            f"level {number} puts its marker {back} spaces before "
                                            f"the end (from {_where(here)}), which is not on the "
                                            f"track of {final_space} spaces set here"))
                else:
                    note = _note(here, final_loc, "final_space") if final_loc else ""
                    s.add(level.problem("spaces_from_end", f"{back} spaces before the end is not "
                                                           f"on a track of {final_space} spaces{note}"))
    decks = automa.get("decks")
    if isinstance(decks, LDict):
        numbers: dict[int, str] = {}
        discard = automa.get("discard_at_setup", 2)
        for name, cards in decks.items():
            if not isinstance(cards, LList):
                continue
            if isinstance(discard, int) and discard >= len(cards):
                loc, path = _latest(s, _place(decks, name), _place(automa, "discard_at_setup"))
                s.add(loc.problem(path, f"deck {name!r} has {len(cards)} cards; discarding "
                                        f"{discard} at setup would leave none"))
            for card in cards:
                if not isinstance(card, LDict):
                    continue
                number = card.get("number")
                if isinstance(number, int):
                    if number in numbers:
                        s.add(card.problem("number", f"card number {number} is used twice "
                                                     f"(also in deck {numbers[number]!r})"))
                    else:
                        numbers[number] = name


def _shape_of(item: LDict) -> Shape | None:
    value = item.get("shape")
    scratch: list[Problem] = []
    if not isinstance(value, (str, list)):
        return None
    shape = parse_shape(value, item.loc_of("shape"), "", scratch)
    return shape if shape is not None and shape.is_connected else None


def _fits(shape: Shape, width: int, height: int) -> bool:
    return (shape.width <= width and shape.height <= height) or \
        (shape.height <= width and shape.width <= height)


def check_patch_list(s: _Session, patches: LList, board: _Board | None) -> None:
    """Unique ids, shapes that fit the board, declared duplicates, deck statistics."""
    seen: dict[str, LDict] = {}
    items = [p for p in patches if isinstance(p, LDict)]
    for patch in items:
        pid = patch.get("id")
        if isinstance(pid, str):
            if pid in seen:
                first = seen[pid].loc_of("id")
                s.add(patch.problem("id", f"duplicate patch id {pid!r} (first used at "
                                          f"{first.file}:{first.line})"))
            else:
                seen[pid] = patch
        shape = _shape_of(patch)
        if shape is not None and board is not None and not _fits(shape, board.width, board.height):
            s.add(_misfit(s, patch, f"patch {pid}", shape, board))
    s.problems.extend(deck.deck_problems(items, seen, _shape_of))


def check_start_cards(s: _Session, cards: LList, board: _Board | None) -> None:
    size = getattr(cards, "card_size", None)
    owner = getattr(cards, "card_size_where", None)
    seen: set[str] = set()
    sizes = []
    for i, card in enumerate(cards):
        if not isinstance(card, LDict):
            continue
        cid = card.get("id")
        if isinstance(cid, str):
            if cid in seen:
                s.add(card.problem("id", f"duplicate start card id {cid!r}"))
            seen.add(cid)
        shape = _shape_of(card)
        if shape is None:
            continue
        sizes.append(shape.size)
        if isinstance(size, int) and shape.size != size:
            s.add(card.problem("shape", f"start card has {shape.size} cells; every start card "
                                        f"must have card_size = {size}"))
        elif size is None and owner is None and sizes and shape.size != sizes[0]:
            s.add(card.problem("shape", f"start card has {shape.size} cells; the first card has "
                                        f"{sizes[0]} and all start cards must be the same size"))
        if board is not None and not _fits(shape, board.width, board.height):
            s.add(_misfit(s, card, f"start card {cid}", shape, board))


def check_edition(s: _Session, e: LDict) -> None:
    """Rules across keys of a resolved edition (the schema has checked each key already)."""
    family = e.get("family")
    board = _board_of(s, e.get("board"))
    if isinstance(family, str) and family in RULES_OF_FAMILY:
        own = RULES_OF_FAMILY[family]
        for other, rules in RULES_OF_FAMILY.items():
            if rules is own:
                continue
            for key in spec_keys(rules):
                # a built key set to null says "none" and is harmless; a scalar is a real setting
                if key in e and (e.get(key) is not None or key in scalar_keys(rules)):
                    loc, path = _latest(s, _place(e, key), _place(e, "family"))
                    s.add(loc.problem(path, f"`{key}` is not used by the {family} family (it applies "
                                            f"to {other} editions)"))
        for key in required_keys(own):
            if key not in e:
                why = REQUIRED_WHY.get(key, f"{family} editions need it")
                s.add(e.missing(key, f"missing required key '{key}' ({why})"))
    players = e.get("players")
    if isinstance(players, LDict):
        lo, hi = players.get("min"), players.get("max")
        if isinstance(lo, int) and isinstance(hi, int) and hi < lo:
            loc, path = _latest(s, _place(players, "max"), _place(players, "min"))
            s.add(loc.problem(path, f"max {hi} is below min {lo}"))
    bonus = e.get("bonus")
    if isinstance(bonus, LDict) and board is not None:
        k = bonus.get("square_size")
        if isinstance(k, int) and k > min(board.width, board.height):
            size = f"{board.width}x{board.height}"
            here = bonus.loc_of("square_size")
            if s.rank_of(board.loc) > s.rank_of(here):
                s.add(board.loc.problem(board.path, f"the {k}x{k} bonus square (from {_where(here)}) "
                                                    f"does not fit the {size} board set here"))
            else:
                s.add(bonus.problem("square_size", f"a {k}x{k} square does not fit the {size} "
                                                   f"board{_note(here, board.loc, 'board')}"))
    patches = e.get("patches")
    deck_place = _place(e, "patches")
    circle: list[LDict] = []
    if isinstance(patches, LList):
        check_patch_list(s, patches, board)
        circle = [p for p in patches if isinstance(p, LDict)]
    late = e.get("late_patches")
    if isinstance(late, LDict) and isinstance(late.get("tag"), str) and circle:
        tag = late["tag"]
        late_ones = [p for p in circle if p.get("tag") == tag]
        circle = [p for p in circle if p.get("tag") != tag]
        if not late_ones:
            loc, path = _latest(s, _place(late, "tag"), deck_place)
            s.add(loc.problem(path, f"no patch has tag {tag!r}"))
        if not circle:
            loc, path = _latest(s, _place(late, "tag"), deck_place)
            s.add(loc.problem(path, f"every patch has tag {tag!r}; the starting circle would be empty"))
        enter = late.get("enter_at")
        if isinstance(enter, int) and enter > len(circle):
            loc, path = _latest(s, _place(late, "enter_at"), deck_place)
            s.add(loc.problem(path, f"late patches enter_at {enter}: more than the {len(circle)} "
                                    "patches of the starting circle"))
    after = e.get("neutral_token_after")
    if isinstance(after, str) and after != "smallest" and circle:
        if after not in {p.get("id") for p in circle if isinstance(p.get("id"), str)}:
            loc, path = _latest(s, _place(e, "neutral_token_after"), deck_place)
            s.add(loc.problem(path, f"neutral_token_after {after!r} is not a patch of the starting "
                                    "circle; expected 'smallest' or the id of one"))
    track = e.get("time_track")
    final = None
    final_loc = None
    if isinstance(track, LDict):
        check_track(s, track)
        final = track.get("final_space")
        if "final_space" in track:
            final_loc = track.loc_of("final_space")
            final_loc = _KeyedLoc(final_loc.file, final_loc.line, final_loc.column,
                                  track.path_of("final_space"))
    automa = e.get("automa")
    if isinstance(automa, LDict):
        check_automa(s, automa, final if isinstance(final, int) else None, final_loc)
    cards = e.get("start_cards")
    if isinstance(cards, LList):
        check_start_cards(s, cards, board)
    if family == "doodle" and isinstance(patches, LList):
        _check_doodle_counts(s, e, patches)
    if isinstance(family, str) and isinstance(patches, LList):
        _check_unused_patch_keys(s, e, family, patches)


@dataclass(frozen=True)
class _KeyedLoc(Loc):
    """A Loc that also knows the key path written there (to report at it from elsewhere)."""

    key_path: str = ""


def _check_unused_patch_keys(s: _Session, e: LDict, family: str, patches: LList) -> None:
    """Refuse patch keys the family's engine ignores, at the patch that sets them."""
    unused = PATCH_FIELDS_UNUSED.get(family, {})
    for patch in patches:
        if not isinstance(patch, LDict):
            continue
        for key, why in unused.items():
            if key in patch and not (key == "copies" and patch.get(key) == 1):
                loc, path = _latest(s, _place(patch, key), _place(e, "family"))
                s.add(loc.problem(path, f"`{key}` is not used by the {family} family ({why})"))


def doodle_count_problems(circle: int, rounds: int, refill: int, turns: int, cards: int) -> list[tuple[str, str]]:
    """(key, problem) of a Doodle deck too small for its rounds or a circle too small for its turns:
    the one statement of these rules, for spec files and for editions edited by key."""
    problems = []
    needed = circle + refill * (rounds - 1)
    if needed > cards:
        problems.append(("rounds", f"{rounds} rounds need {needed} cards ({circle} + {rounds - 1} "
                                   f"x {refill}) but the deck holds {cards}"))
    if turns > circle:
        problems.append(("turns_per_round", f"{turns} turns per round need at least {turns} cards in the "
                                            f"circle, which holds {circle}"))
    return problems


def _check_doodle_counts(s: _Session, e: LDict, patches: LList) -> None:
    total = sum(p.get("copies", 1) for p in patches
                if isinstance(p, LDict) and isinstance(p.get("copies", 1), int))
    circle = e.get("circle_size", 8)
    rounds = e.get("rounds", 3)
    refill = e.get("refill", 6)
    turns = e.get("turns_per_round", 6)
    if not all(isinstance(v, int) for v in (circle, rounds, refill, turns)):
        return
    for key, problem in doodle_count_problems(circle, rounds, refill, turns, total):
        if key == "rounds":
            places = [_place(e, k) for k in ("rounds", "circle_size", "refill", "patches")]
            if not any(places):
                places = [(e.loc, "")]
            loc, path = _latest(s, *places)
        else:
            loc, path = _latest(s, _place(e, "turns_per_round"), _place(e, "circle_size"),
                                (e.loc, "turns_per_round"))
        s.add(loc.problem(path, problem))


# ----- models ------------------------------------------------------------------------------------

def _shape(value) -> Shape:
    shape = parse_shape(value, Loc(""), "", [])
    assert shape is not None  # only built after validation passed
    return shape


def _patch(p: LDict) -> Patch:
    return Patch(
        id=p["id"], shape=_shape(p["shape"]),
        cost=p.get("cost", 0), time=p.get("time", 0), income=p.get("income", 0),
        name=p.get("name"), colour=p.get("colour"), tag=p.get("tag"), copies=p.get("copies", 1),
        confidence=p.get("confidence"), source=p.get("source"))


def _build(e: LDict, source: str) -> Edition:
    """The Edition model of a resolved (and checked) edition tree."""
    return _with_hash(replace(_build_model(e, source), spec={"kind": "edition", **_plain_tree(e)}))


def _time_track_rules(e: LDict, patches: list[Patch]) -> dict:
    """The built and derived time-track rules (the scalar ones are read as they are), and the
    starting circle without the late patches."""
    late: list[Patch] = []
    enter_at = None
    if isinstance(e.get("late_patches"), dict):
        tag = e["late_patches"]["tag"]
        late = [p for p in patches if p.tag == tag]
        patches = [p for p in patches if p.tag != tag]
        enter_at = e["late_patches"]["enter_at"]
    track = None
    if isinstance(e.get("time_track"), dict):
        t = e["time_track"]
        track = TimeTrack(id=t["id"], final_space=t["final_space"],
                          income_marks=tuple(t["income_marks"]),
                          leather_patches=tuple(t["leather_patches"]),
                          title=t.get("title"), provenance=t.get("provenance"))
    automa = None
    if isinstance(e.get("automa"), dict):
        a = e["automa"]
        automa = Automa(
            decks=tuple((name, tuple(AutomaCard(c["number"], c["virtual_buttons"], c["income"],
                                                tuple(c["filters"])) for c in cards))
                        for name, cards in a["decks"].items()),
            levels=tuple(AutomaLevel(lv["level"], lv["name"], lv["spaces_from_end"], tuple(lv["scoring"]))
                         for lv in a["levels"]),
            discard_at_setup=a.get("discard_at_setup", 2), bonus_points=a.get("bonus_points", 7))
    bonus = e.get("bonus")
    return dict(
        patches=patches, late_patches=tuple(late), late_patches_enter_at=enter_at,
        bonus=Bonus(bonus["square_size"], bonus["points"]) if isinstance(bonus, dict) else None,
        time_track=track, automa=automa, track_layout=track.id if track else None)


def _doodle_rules(e: LDict, patches: list[Patch]) -> dict:
    """The built Doodle rules (the scalar ones are read as they are)."""
    return dict(
        start_cards=tuple(StartCard(c["id"], _shape(c["shape"])) for c in e.get("start_cards") or ()),
        die=tuple(e.get("die", ())), special_actions=tuple(e.get("special_actions", ())))


RULE_BUILDERS = {TimeTrackRules: _time_track_rules, DoodleRules: _doodle_rules}
"""Per rules class, the function that builds its BUILT and DERIVED fields from a checked edition tree
(returning `patches` too when it takes some out of the starting circle)."""


def rules_builder(family: Family | str):
    """The builder of a family's rules; a family without one is a toolkit error that names it, never
    another family's rules."""
    value = family.value if isinstance(family, Family) else family
    cls = RULES_OF_FAMILY.get(value)
    builder = RULE_BUILDERS.get(cls) if cls is not None else None
    if builder is None:
        raise NotImplementedError(
            f"family '{value}' has no rules builder in toolkit.specs.loader.RULE_BUILDERS; "
            f"families with one: {', '.join(f for f, c in RULES_OF_FAMILY.items() if c in RULE_BUILDERS)}")
    return builder


for _family in Family:
    rules_builder(_family)  # every family the models know is built here, checked at import


def _build_model(e: LDict, source: str) -> Edition:
    players = e["players"]
    if isinstance(players, dict):
        players_min, players_max = players["min"], players.get("max")
    else:
        players_min = players_max = players
    patches = [_patch(p) for p in e["patches"]]
    family = Family(e["family"])
    rules_class = RULES_OF_FAMILY[family.value]
    built = rules_builder(family)(e, patches)
    patches = built.pop("patches", patches)
    rules = rules_class(**built, **{key: e[key] for key in scalar_keys(rules_class) if key in e})
    return Edition(
        name=e["name"], title=e["title"], family=family,
        board_width=e["board"]["width"], board_height=e["board"]["height"],
        players_min=players_min, players_max=players_max, patches=tuple(patches), rules=rules,
        provenance=e.get("provenance"), confidence=e.get("confidence"), source=source,
        **{key: e[key] for key in scalar_keys(Edition) if key in e})


def _plain(value):
    """JSON-ready form of a model value; shapes as their `/` text."""
    if isinstance(value, Shape):
        return value.format()
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def canonical_json(edition: Edition, *, whole_spec: bool = True) -> str:
    """The resolved edition as canonical JSON (sorted keys); where it was loaded from is left out.

    With the model goes the self-contained spec it was built from (`edition.spec`, when there is
    one), so the content hash covers every field a record embeds, those the model leaves out
    included (an Automa deck's name, title and provenance, a start card's source): editing any of
    them in a record is seen. `whole_spec=False` gives the model alone, as the hash of records up
    to format version 2 covered it."""
    body = _plain(edition)
    body.update(body.pop("rules"))  # one flat mapping, as the spec writes it
    body.pop("source", None)
    body.pop("content_hash", None)
    body.pop("spec", None)
    if whole_spec and edition.spec is not None:
        body = {"model": body, "spec": edition.spec}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _with_hash(edition: Edition) -> Edition:
    from dataclasses import replace

    digest = hashlib.sha256(canonical_json(edition).encode("ascii")).hexdigest()
    return replace(edition, content_hash=digest)


def model_hash(edition: Edition) -> str:
    """The content hash of the model alone: what records of format versions 1 and 2 hold."""
    return hashlib.sha256(canonical_json(edition, whole_spec=False).encode("ascii")).hexdigest()


# ----- public entry points -----------------------------------------------------------------------

_CACHE: dict[Path, tuple[tuple[tuple[Path, tuple[int, int] | None], ...], Edition]] = {}


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except (OSError, ValueError):
        return None
    return info.st_mtime_ns, info.st_size


def _fresh(stamps: tuple[tuple[Path, tuple[int, int] | None], ...]) -> bool:
    return all(stamp is not None and _stamp(path) == stamp for path, stamp in stamps)


def _find(name_or_path: str | os.PathLike) -> Path:
    text = os.fspath(name_or_path)
    if not text.strip():  # Path("") is `.`, which would be named in the message instead
        raise UnknownEdition(f"an empty name is not an edition; give a bundled edition name "
                             f"({', '.join(list_editions())}), a variant ({', '.join(list_variants())}) or a .yaml/.yml file")
    if isinstance(name_or_path, str) and not _is_path_ref(text):
        for folder in (EDITIONS_DIR, VARIANTS_DIR):
            candidate = bundled_specs_dir() / folder / f"{text}.yaml"
            if _is_file(candidate):
                return candidate
    path = Path(text)
    editions, variants = list_editions(), list_variants()
    refused = _not_a_spec(path) if "\x00" not in text and len(text) < 4096 else None
    if refused and (path_kind(path) is not None or _is_file(path)):
        raise UnknownEdition(f"{refused}; give a bundled edition name ({', '.join(editions)}), "
                             f"a variant ({', '.join(variants)}) or a .yaml/.yml file")
    if _is_file(path):
        return path
    raise UnknownEdition(
        f"unknown edition {text if len(text) <= 80 else text[:77] + '...'!r}: not a bundled name and not a readable file; "
        f"bundled editions: {', '.join(editions)}; variants: {', '.join(variants)}")


def _resolve_and_check(s: _Session, path: Path) -> LDict | None:
    tree = _resolve(s, path)
    if tree is not None:
        check_edition(s, tree)
    return tree


def spec_path(name_or_path: str | os.PathLike) -> Path:
    """The file an edition or variant name (bundled) or path names, judged as `load_edition` judges
    it (UnknownEdition otherwise), without reading it."""
    return _find(name_or_path)


def load_edition(name_or_path: str | os.PathLike) -> Edition:
    """A bundled edition or variant by name, or an edition/variant file by path, fully resolved.

    Raises UnknownEdition for a name that is neither bundled nor a file, SpecError with every
    problem of the files involved otherwise.
    """
    path = _find(name_or_path).resolve()
    hit = _CACHE.get(path)
    if hit is not None and _fresh(hit[0]):
        return hit[1]
    s = _Session()
    tree = _resolve_and_check(s, path)
    if s.errors or tree is None:
        raise SpecError([p for p in s.unique_problems() if p.severity == "error"])
    edition = _build(tree, display_name(path))
    _CACHE[path] = (tuple(s.involved.items()), edition)
    return edition


@dataclass
class ValidationReport:
    """What `patchwork validate` found."""

    problems: list[Problem]
    files: int
    editions: int
    patches: int
    involved: tuple[Path, ...] = ()
    """Every file read, the ones referred to included (what `validate --watch` watches)."""

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


def spec_files(paths: Sequence[Path]) -> list[Path]:
    """The files `validate` checks: files as given, folders searched for *.yaml and *.yml."""
    files: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            files.extend(sorted(list(path.rglob("*.yaml")) + list(path.rglob("*.yml"))))
        else:
            files.append(path)
    return files


def validate_report(paths: Sequence[Path]) -> ValidationReport:
    """Check spec files and folders (recursively, *.yaml): each alone, and editions resolved."""
    s = _Session()
    files = spec_files(paths)
    editions = 0
    patch_ids: set[tuple[str, str]] = set()
    for path in files:
        kind, tree = s.read(path)
        if not isinstance(tree, LDict) or kind is None:
            continue
        if kind == "patch-set" and isinstance(tree.get("patches"), LList):
            check_patch_list(s, tree["patches"], None)
            for p in tree["patches"]:
                if isinstance(p, LDict):
                    patch_ids.add((display_name(path), str(p.get("id"))))
        elif kind == "time-track":
            check_track(s, tree)
        elif kind == "automa":
            check_automa(s, tree, None)
        elif kind == "start-cards" and isinstance(tree.get("cards"), LList):
            cards = tree["cards"]
            cards.card_size = tree.get("card_size")
            cards.card_size_where = tree
            check_start_cards(s, cards, None)
        elif kind in ("edition", "variant"):
            resolved = _resolve_and_check(s, path)
            if resolved is not None:
                editions += 1
                listed = resolved.get("patches")
                for p in listed if isinstance(listed, LList) else ():
                    if isinstance(p, LDict):
                        patch_ids.add((p.loc.file, str(p.get("id"))))
    return ValidationReport(_sorted(s.unique_problems()), len(files), editions, len(patch_ids), tuple(s.involved))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.file, p.line, p.column, p.key_path, p.message))


def validate_paths(paths: Sequence[Path]) -> list[Problem]:
    """Every problem (errors and warnings) in the given spec files and folders."""
    return validate_report(paths).problems


# ----- self-contained specs (records embed the edition they were played with) ---------------------

def _plain_tree(value):
    if isinstance(value, dict):
        return {str(k): _plain_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_tree(v) for v in value]
    return value


def spec_of(edition: Edition) -> dict:
    """The self-contained `kind: edition` spec an Edition was built from (plain data, a copy)."""
    if edition.spec is None:
        raise KeyError(f"edition {edition.name!r} was not built from a spec")
    spec = json.loads(json.dumps(edition.spec))
    if edition_from_spec(spec, edition.name).content_hash != edition.content_hash:
        raise KeyError(f"edition {edition.name!r} was changed in code after loading; its spec no longer describes it")
    return spec


def resolved_spec(name_or_path: str | os.PathLike) -> dict:
    """The edition as one self-contained `kind: edition` spec, as plain data: every reference
    inlined, the extends chain merged. `edition_from_spec` loads it back to the same Edition."""
    path = _find(name_or_path).resolve()
    s = _Session()
    tree = _resolve_and_check(s, path)
    if s.errors or tree is None:
        raise SpecError([p for p in s.unique_problems() if p.severity == "error"])
    return {"kind": "edition", **_plain_tree(tree)}


def _located(value, loc: Loc, path: str):
    """Plain data -> the located tree the checks read, every node at `loc` (data has no lines)."""
    if isinstance(value, dict):
        out = LDict(loc, path)
        for key, item in value.items():
            key_path = f"{path}.{key}" if path else str(key)
            out.put(str(key), _located(item, loc, key_path), loc, key_path)
        return out
    if isinstance(value, list):
        items = LList(loc, path)
        for i, item in enumerate(value):
            items.add(_located(item, loc, f"{path}[{i}]"), loc)
        return items
    return value


def edition_from_spec(data: object, display: str) -> Edition:
    """An Edition from a self-contained `kind: edition` spec held as data (e.g. embedded in a game
    record), checked exactly like a file; problems are reported against `display`."""
    s = _Session()
    top = Loc(display, 1, 1)
    tree = _located(data, top, "")
    kind, problems = check_file(tree, top)
    s.problems.extend(problems)
    if kind != "edition":
        if kind is not None:
            s.add(top.problem("kind", f"expected an edition spec, got kind {kind!r}"))
        raise SpecError([p for p in s.unique_problems() if p.severity == "error"] or
                        [top.problem("(top)", "not an edition spec")])
    if not s.errors:
        for key in ("patches", "time_track", "automa", "start_cards"):
            if isinstance(tree.get(key), str):
                s.add(tree.problem(key, "must be written inline in a self-contained spec, not by reference"))
    body = LDict(tree.loc, tree.path)
    for key, value in tree.items():
        if key != "kind":
            body.put(key, value, tree.loc_of(key), tree.path_of(key))
    if not s.errors:
        check_edition(s, body)
    if s.errors:
        raise SpecError([p for p in s.unique_problems() if p.severity == "error"])
    return _build(body, display)
