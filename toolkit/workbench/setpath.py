"""Edit a resolved edition by key path: `starting_buttons=3..8`, `patches.P05.cost=0..6`.

Only keys the engine really reads are accepted (the family record's `sweepable` keys: every scalar
rule, derived from its field in toolkit.specs.models, and parts of tables); a key the engine ignores
would give a sweep of identical games, so it is refused with the list of keys that work. Values are
checked against the same ranges and choices as the spec schema (both come from the rule's field), and an edited edition gets a fresh
content hash, so its kernel tables and its game records never mix with the original's.
"""
from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, replace
from typing import Any

from toolkit.errors import UsageError
from toolkit.specs.loader import canonical_json
from toolkit.families import SweepKey, family_of
from toolkit.specs.models import Edition, rule_fields

MAX_VALUES = 200
"""Most values one `--set` may expand to (a grid multiplies them)."""
MAX_POINTS = 400
"""Most editions one grid may hold."""


Key = SweepKey
"""A key the engine reads (its family's record lists them: FamilyInfo.sweepable)."""


_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?::(\d+))?$")


def key_names(edition: Edition) -> list[str]:
    return family_of(edition).info.sweep_names()


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def patch_ids_text(edition: Edition) -> str:
    """The edition's patch ids for a message, consecutive ones as a run: `P00..P32`, `P00..P32, N01`.

    A variant file may add patches with ids of its own, so `first..last` alone could name ids
    that do not exist; every run here holds only ids that do.
    """
    runs: list[list[str]] = []
    previous = None
    for pid in (p.id for p in edition.all_patches()):
        match = _NUMBERED.match(pid)
        key = (match[1], len(match[2]), int(match[2])) if match else None
        if runs and key and previous and key[:2] == previous[:2] and key[2] == previous[2] + 1:
            runs[-1].append(pid)
        else:
            runs.append([pid])
        previous = key
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}..{run[-1]}" for run in runs)


def find_key(path: str, edition: Edition) -> tuple[Key, str | None]:
    """The sweepable key for `path` and the patch id it names (None for edition keys)."""
    parts = path.split(".")
    patch_id = None
    pattern = path
    if len(parts) == 3 and parts[0] == "patches":
        patch_id = parts[1]
        pattern = f"patches.*.{parts[2]}"
    key = family_of(edition).info.sweep_key(pattern)
    if key is not None:
        if patch_id is not None and patch_id not in [p.id for p in edition.all_patches()]:
            raise UsageError(f"--set {path}: '{edition.name}' has no patch {patch_id} (patches: {patch_ids_text(edition)})")
        return key, patch_id
    why = next((f.metadata["sweep"] for cls in (Edition, type(edition.rules)) for f in rule_fields(cls)
                if f.name == path and isinstance(f.metadata["sweep"], str)), None)
    what = f"not swept ({why})" if why else f"not a key the {family_of(edition).info.title} engine reads"
    raise UsageError(f"--set {path}: {what}; sweepable keys: {', '.join(key_names(edition))}")


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets: `[5,11],[7,11]` -> ['[5,11]', '[7,11]']."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts]


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{where}: '{text}' is not a whole number") from None


def parse_values(text: str, key: Key, where: str) -> list:
    """`A..B[:STEP]`, `a,b,c`, for list keys `[a,b],[c,d]`, for word keys `shared,first-to-finish`
    or `true,false`; checked against the key's range or choices."""
    text = text.strip()
    if not text:
        raise UsageError(f"{where}: no values; expected e.g. "
                         + (",".join(value_text(c) for c in key.choices) if key.choices else "3..8, 0..6:2 or 0,5,7"))
    if key.choices:
        named = {value_text(c): c for c in key.choices}
        values = []
        for part in _split_top(text):
            if part not in named:
                raise UsageError(f"{where}: '{part}' is not one of: {', '.join(named)}")
            values.append(named[part])
    elif key.is_list:
        values = []
        for part in _split_top(text):
            if not (part.startswith("[") and part.endswith("]")):
                raise UsageError(f"{where}: '{part}' should be a bracketed list of spaces, e.g. [20,26,32]")
            inner = part[1:-1].strip()
            spaces = [_int(x.strip(), where) for x in inner.split(",")] if inner else []
            for s in spaces:
                if not key.low <= s <= key.high:
                    raise UsageError(f"{where}: space {s} is outside {key.low}..{key.high}")
            if len(set(spaces)) != len(spaces):
                raise UsageError(f"{where}: {part} lists a space twice")
            values.append(tuple(sorted(spaces)))
    else:
        match = _RANGE.match(text)
        if match:
            a, b, step = _int(match[1], where), _int(match[2], where), _int(match[3] or "1", where)
            if step < 1:
                raise UsageError(f"{where}: the step of {text} must be at least 1")
            if b < a:
                raise UsageError(f"{where}: the range {text} is empty (end below start)")
            # judged from its numbers, before any list is built: 0..1000000000 is refused at once
            count = (b - a) // step + 1
            for v in (a, a + (count - 1) * step):
                if not key.low <= v <= key.high:
                    raise UsageError(f"{where}: value {v} is outside {key.low}..{key.high}")
            if count > MAX_VALUES:
                raise UsageError(f"{where}: {count:,} values; at most {MAX_VALUES}")
            values = list(range(a, b + 1, step))
        else:
            values = [_int(part, where) for part in _split_top(text)]
        for v in values:
            if not key.low <= v <= key.high:
                raise UsageError(f"{where}: value {v} is outside {key.low}..{key.high}")
    if len(values) > MAX_VALUES:
        raise UsageError(f"{where}: {len(values)} values; at most {MAX_VALUES}")
    if len(set(values)) != len(values):
        raise UsageError(f"{where}: a value is listed twice")
    return values


@dataclass(frozen=True)
class Setting:
    """One `--set KEY=VALUES` after parsing."""

    path: str
    key: Key
    patch_id: str | None
    values: tuple


def parse_setting(text: str, edition: Edition) -> Setting:
    if "=" not in text:
        raise UsageError(f"--set '{text}': expected KEY=VALUES, e.g. starting_buttons=3..8")
    path, _, values = text.partition("=")
    path = path.strip()
    key, patch_id = find_key(path, edition)
    return Setting(path, key, patch_id, tuple(parse_values(values, key, f"--set {path}")))


def get_value(edition: Edition, path: str):
    """The current value at `path` (a sweepable path with a concrete patch id)."""
    parts = path.split(".")
    if parts[0] == "patches":
        return getattr(edition.patch(parts[1]), parts[2])
    if parts[0] == "bonus":
        return None if edition.timetrack_rules.bonus is None else getattr(edition.timetrack_rules.bonus, parts[1])
    if parts[0] == "time_track":
        return tuple(getattr(edition.timetrack_rules.time_track, parts[1]))
    return edition.setting(parts[0])


def _rehash(edition: Edition) -> Edition:
    digest = hashlib.sha256(canonical_json(edition).encode("ascii")).hexdigest()
    return replace(edition, content_hash=digest)


def apply(edition: Edition, path: str, value) -> Edition:
    """A copy of `edition` with `path` set to `value` (validated against the edition as a whole)."""
    parts = path.split(".")
    if parts[0] == "patches":
        patch_id, field = parts[1], parts[2]

        def edit(patches):
            return tuple(replace(p, **{field: value}) if p.id == patch_id else p for p in patches)

        edited = edition.changed(patches=edit(edition.patches))
        if edition.timetrack_rules.late_patches:
            edited = edited.changed(late_patches=edit(edition.timetrack_rules.late_patches))
    elif parts[0] == "bonus":
        if edition.timetrack_rules.bonus is None:
            raise UsageError(f"--set {path}: '{edition.name}' has no bonus tile to change")
        bonus = replace(edition.timetrack_rules.bonus, **{parts[1]: value})
        if bonus.square_size > min(edition.board_width, edition.board_height):
            raise UsageError(f"--set {path}={value}: a {bonus.square_size}x{bonus.square_size} square does not fit the "
                             f"{edition.board_width}x{edition.board_height} board")
        edited = edition.changed(bonus=bonus)
    elif parts[0] == "time_track":
        track = edition.timetrack_rules.track
        if value and max(value) > track.final_space:
            raise UsageError(f"--set {path}: space {max(value)} lies past the final space {track.final_space}")
        spaces: dict[str, Any] = {parts[1]: tuple(value)}
        edited = edition.changed(time_track=replace(track, **spaces),
                                 track_layout=f"{edition.timetrack_rules.track_layout or track.id} ({parts[1]} {list(value)})")
    else:
        edited = edition.changed(**{parts[0]: value})
    problem = family_of(edited).check_edited(edited)
    if problem:
        raise UsageError(f"--set {path}={value_text(value)}: {problem}")
    return _rehash(edited)


def apply_all(edition: Edition, assignment: dict):
    for path, value in assignment.items():
        edition = apply(edition, path, value)
    return edition


def grid(settings: list[Setting]) -> list[dict]:
    """Every combination of the settings' values, the first setting varying slowest."""
    paths = [s.path for s in settings]
    twice = sorted({path for path in paths if paths.count(path) > 1})
    if twice:
        raise UsageError(f"--set {', '.join(twice)}: the same key is set twice; give all its values in one --set")
    points = [dict(zip([s.path for s in settings], combo)) for combo in itertools.product(*[s.values for s in settings])]
    if len(points) > MAX_POINTS:
        raise UsageError(f"--set: the grid has {len(points)} points; at most {MAX_POINTS}")
    return points


def json_value(value):
    """A setting value as JSON (marks as lists)."""
    return list(value) if isinstance(value, tuple) else value


def value_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "[" + ",".join(map(str, value)) + "]" if isinstance(value, tuple) else str(value)
