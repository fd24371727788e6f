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
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Sequence

from toolkit.errors import Problem, SpecError, UnknownEdition
from toolkit.geometry.shape import Shape
from toolkit.specs import deck
from toolkit.specs.catalogue import (EDITIONS_DIR, REF_DIRS, VARIANTS_DIR, bundled_specs_dir,
                                     list_editions, list_refs, list_variants)
from toolkit.specs.models import (Automa, AutomaCard, AutomaLevel, Bonus, Edition, Family, Patch,
                                  StartCard, TimeTrack)
from toolkit.specs.schema import RESOLVED_EDITION, check_file, parse_shape
from toolkit.specs.source import LDict, LList, Loc, UnreadableSpec, display_name, read_tree

DOODLE_ONLY = ("start_cards", "die", "circle_size", "rounds", "turns_per_round", "refill",
               "final_free_choice", "special_actions")
TIME_TRACK_ONLY = ("time_track", "late_patches", "automa", "starting_buttons", "market_window",
                   "neutral_token_after")
VARIANT_EDITS = ("kind", "extends", "add_patches", "remove_patches", "patch_changes")


def _is_file(path: Path) -> bool:
    """is_file that says no (instead of raising) for names the OS refuses: too long, NUL bytes."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_path_ref(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


@dataclass
class _Session:
    """One load or validation run: each file is read and structurally checked once."""

    problems: list[Problem] = field(default_factory=list)
    trees: dict[Path, tuple[str | None, object]] = field(default_factory=dict)
    real: dict[str, Path] = field(default_factory=dict)
    """Display name of each file read -> its real path (relative references start there)."""
    involved: dict[Path, tuple[int, int] | None] = field(default_factory=dict)
    """Every file read, with its (mtime_ns, size), so a cache entry can tell when it is stale."""

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def read(self, path: Path) -> tuple[str | None, object]:
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
        kind, more = check_file(tree, Loc(display_name(path)))
        self.problems.extend(problems + more)
        self.trees[path] = (kind, tree)
        return kind, tree

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def unique_problems(self) -> list[Problem]:
        seen: dict[Problem, None] = {}
        for p in self.problems:
            seen.setdefault(p, None)
        return list(seen)


# ----- references and extends ------------------------------------------------------------------

def _resolve_ref(s: _Session, kind: str, ref: str, owner: LDict, key: str) -> Path | None:
    """Path of the file `ref` names (bundled name or path relative to the owner's file)."""
    if _is_path_ref(ref):
        return _relative(s, owner, key, ref, f"{kind} file")
    target = bundled_specs_dir() / REF_DIRS[kind] / f"{ref}.yaml"
    if not _is_file(target):
        known = ", ".join(list_refs(kind)) or "none"
        s.add(owner.problem(key, f"unknown {kind} {ref!r}; bundled: {known} (or give a path ending in .yaml)"))
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
        s.add(owner.problem(key, f"{ref!r} is a {got_kind} file, expected a {kind} file"))
        return None
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


def _deep_merge(base: LDict, over: LDict) -> LDict:
    out = base.copy()
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
    s.add(variant.problem("extends", f"unknown edition or variant {ref!r}; bundled: {known} "
                                     "(or give a path ending in .yaml)"))
    return None


def _relative(s: _Session, owner: LDict, key: str, ref: str, what: str) -> Path | None:
    """A path written in a spec file, taken relative to that file's folder."""
    home = s.real.get(owner.loc.file)
    target = (home.parent if home is not None else Path.cwd()) / ref
    if not _is_file(target):
        s.add(owner.problem(key, f"{what} {ref!r} not found (looked for {target})"))
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
    merged = _apply_variant(s, parent, tree)
    if not s.errors:
        # the merge can leave a nested mapping incomplete, e.g. `bonus: {points: 3}` over null
        RESOLVED_EDITION.check(merged, merged.loc, "", s.problems)
    return merged


def _apply_variant(s: _Session, parent: LDict, variant: LDict) -> LDict:
    out = parent.copy()
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
                patches[i] = _deep_merge(patches[i], change)
    additions = variant.get("add_patches")
    if isinstance(additions, LList):
        for i, patch in enumerate(additions):
            patches.add(patch, additions.loc_of(i))
    out.put("patches", patches, out.loc_of("patches"), out.path_of("patches"))
    return out


# ----- cross-field rules -------------------------------------------------------------------------

def _ints(value) -> list[int]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]


def check_track(s: _Session, track: LDict) -> None:
    """Marks ascending and within the track."""
    final = track.get("final_space")
    for key in ("income_marks", "leather_patches"):
        marks = track.get(key)
        if not isinstance(marks, LList):
            continue
        previous = None
        for i, mark in enumerate(marks):
            if not isinstance(mark, int) or isinstance(mark, bool):
                continue
            if isinstance(final, int) and mark > final:
                s.add(marks.problem(i, f"space {mark} lies past the final space {final}"))
            if previous is not None and mark < previous:  # equal ones are reported as listed twice
                s.add(marks.problem(i, f"spaces must be ascending: {mark} comes after {previous}"))
            previous = mark


def check_automa(s: _Session, automa: LDict, final_space: int | None) -> None:
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
                s.add(level.problem("spaces_from_end",
                                    f"{back} spaces before the end is not on a track of {final_space} spaces"))
    decks = automa.get("decks")
    if isinstance(decks, LDict):
        numbers: dict[int, str] = {}
        discard = automa.get("discard_at_setup", 2)
        for name, cards in decks.items():
            if not isinstance(cards, LList):
                continue
            if isinstance(discard, int) and discard >= len(cards):
                s.add(decks.problem(name, f"deck {name!r} has {len(cards)} cards; discarding "
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


def check_patch_list(s: _Session, patches: LList, board: tuple[int, int] | None) -> None:
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
        if shape is not None and board is not None and not _fits(shape, *board):
            s.add(patch.problem("shape", f"shape {shape.width}x{shape.height} does not fit the "
                                         f"{board[0]}x{board[1]} board in any orientation"))
    s.problems.extend(deck.deck_problems(items, seen, _shape_of))


def check_start_cards(s: _Session, cards: LList, board: tuple[int, int] | None) -> None:
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
        if board is not None and not _fits(shape, *board):
            s.add(card.problem("shape", f"shape {shape.width}x{shape.height} does not fit the "
                                        f"{board[0]}x{board[1]} board in any orientation"))


def check_edition(s: _Session, e: LDict) -> None:
    """Rules across keys of a resolved edition (the schema has checked each key already)."""
    family = e.get("family")
    board_spec = e.get("board")
    board = None
    if isinstance(board_spec, LDict):
        w, h = board_spec.get("width"), board_spec.get("height")
        if isinstance(w, int) and isinstance(h, int) and not isinstance(w, bool) and w > 0 and h > 0:
            board = (w, h)
    if family == "time-track":
        for key in DOODLE_ONLY:
            if key in e:
                s.add(e.problem(key, f"`{key}` applies only to doodle editions"))
        if e.get("time_track") is None and "time_track" not in e:
            s.add(e.missing("time_track", "missing required key 'time_track' (time-track editions race on a time board)"))
    elif family == "doodle":
        for key in TIME_TRACK_ONLY:
            if key in e and e.get(key) is not None:
                s.add(e.problem(key, f"`{key}` applies only to time-track editions"))
        for key in ("start_cards", "die"):
            if key not in e:
                s.add(e.missing(key, f"missing required key '{key}' (doodle editions need it)"))
    players = e.get("players")
    if isinstance(players, LDict):
        lo, hi = players.get("min"), players.get("max")
        if isinstance(lo, int) and isinstance(hi, int) and hi < lo:
            s.add(players.problem("max", f"max {hi} is below min {lo}"))
    bonus = e.get("bonus")
    if isinstance(bonus, LDict) and board is not None:
        k = bonus.get("square_size")
        if isinstance(k, int) and k > min(board):
            s.add(bonus.problem("square_size", f"a {k}x{k} square does not fit the {board[0]}x{board[1]} board"))
    patches = e.get("patches")
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
            s.add(late.problem("tag", f"no patch has tag {tag!r}"))
        if not circle:
            s.add(late.problem("tag", f"every patch has tag {tag!r}; the starting circle would be empty"))
        enter = late.get("enter_at")
        if isinstance(enter, int) and enter > len(circle):
            s.add(late.problem("enter_at", f"{enter} is more than the {len(circle)} patches of the starting circle"))
    after = e.get("neutral_token_after")
    if isinstance(after, str) and after != "smallest" and circle:
        if after not in {p.get("id") for p in circle if isinstance(p.get("id"), str)}:
            s.add(e.problem("neutral_token_after",
                            f"expected 'smallest' or the id of a patch of the starting circle, got {after!r}"))
    track = e.get("time_track")
    final = None
    if isinstance(track, LDict):
        check_track(s, track)
        final = track.get("final_space")
    automa = e.get("automa")
    if isinstance(automa, LDict):
        check_automa(s, automa, final if isinstance(final, int) else None)
    cards = e.get("start_cards")
    if isinstance(cards, LList):
        check_start_cards(s, cards, board)
    if family == "doodle" and isinstance(patches, LList):
        _check_doodle_counts(s, e, patches)


def _check_doodle_counts(s: _Session, e: LDict, patches: LList) -> None:
    total = sum(p.get("copies", 1) for p in patches
                if isinstance(p, LDict) and isinstance(p.get("copies", 1), int))
    circle = e.get("circle_size", 8)
    rounds = e.get("rounds", 3)
    refill = e.get("refill", 6)
    turns = e.get("turns_per_round", 6)
    if not all(isinstance(v, int) for v in (circle, rounds, refill, turns)):
        return
    needed = circle + refill * (rounds - 1)
    if needed > total:
        s.add(e.problem("rounds" if "rounds" in e else None,
                        f"{rounds} rounds need {needed} cards ({circle} + {rounds - 1} x {refill}) "
                        f"but the deck holds {total}"))
    if turns > circle:
        s.add(e.problem("turns_per_round", f"{turns} turns per round need at least {turns} cards "
                                           f"in the circle, which holds {circle}"))


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
    players = e["players"]
    if isinstance(players, dict):
        players_min, players_max = players["min"], players.get("max")
    else:
        players_min = players_max = players
    patches = [_patch(p) for p in e["patches"]]
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
    cards = e.get("start_cards") or ()
    kwargs = dict(
        name=e["name"], title=e["title"], family=Family(e["family"]),
        board_width=e["board"]["width"], board_height=e["board"]["height"],
        players_min=players_min, players_max=players_max,
        patches=tuple(patches), late_patches=tuple(late), late_patches_enter_at=enter_at,
        bonus=Bonus(bonus["square_size"], bonus["points"]) if isinstance(bonus, dict) else None,
        time_track=track, automa=automa, track_layout=track.id if track else None,
        start_cards=tuple(StartCard(c["id"], _shape(c["shape"])) for c in cards),
        die=tuple(e.get("die", ())), special_actions=tuple(e.get("special_actions", ())),
        provenance=e.get("provenance"), confidence=e.get("confidence"), source=source,
    )
    for key in ("allow_flip", "starting_buttons", "market_window", "empty_penalty",
                "neutral_token_after", "tie_break", "circle_size", "rounds", "turns_per_round",
                "refill", "final_free_choice"):
        if key in e:
            kwargs[key] = e[key]
    edition = Edition(**kwargs)
    return _with_hash(edition)


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


def canonical_json(edition: Edition) -> str:
    """The resolved edition as canonical JSON (sorted keys); where it was loaded from is left out."""
    body = _plain(edition)
    body.pop("source", None)
    body.pop("content_hash", None)
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _with_hash(edition: Edition) -> Edition:
    from dataclasses import replace

    digest = hashlib.sha256(canonical_json(edition).encode("ascii")).hexdigest()
    return replace(edition, content_hash=digest)


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
    if isinstance(name_or_path, str) and not _is_path_ref(text):
        for folder in (EDITIONS_DIR, VARIANTS_DIR):
            candidate = bundled_specs_dir() / folder / f"{text}.yaml"
            if _is_file(candidate):
                return candidate
    path = Path(text)
    if _is_file(path):
        return path
    editions, variants = list_editions(), list_variants()
    raise UnknownEdition(
        f"unknown edition {text!r}: not a bundled name and not a readable file; "
        f"bundled editions: {', '.join(editions)}; variants: {', '.join(variants)}")


def _resolve_and_check(s: _Session, path: Path) -> LDict | None:
    tree = _resolve(s, path)
    if tree is not None:
        check_edition(s, tree)
    return tree


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

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


def _spec_files(paths: Sequence[Path]) -> list[Path]:
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
    files = _spec_files(paths)
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
            cards.card_size = tree.get("card_size")  # type: ignore[attr-defined]
            cards.card_size_where = tree  # type: ignore[attr-defined]
            check_start_cards(s, cards, None)
        elif kind in ("edition", "variant"):
            resolved = _resolve_and_check(s, path)
            if resolved is not None:
                editions += 1
                listed = resolved.get("patches")
                for p in listed if isinstance(listed, LList) else ():
                    if isinstance(p, LDict):
                        patch_ids.add((p.loc.file, str(p.get("id"))))
    return ValidationReport(_sorted(s.unique_problems()), len(files), editions, len(patch_ids))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.file, p.line, p.column, p.key_path, p.message))


def validate_paths(paths: Sequence[Path]) -> list[Problem]:
    """Every problem (errors and warnings) in the given spec files and folders."""
    return validate_report(paths).problems
