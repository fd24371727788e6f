"""Reading spec files safely: YAML text -> a located tree of plain values.

Owns the hostile-input defences (size limit, UTF-8 only, safe tags only, no duplicate keys, alias
expansion limit) and the node marks that let every later problem name file, line and column.
Nothing here constructs arbitrary Python objects: files are only composed (yaml.compose with the
safe loader) and scalars are resolved by their standard tags.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from toolkit.errors import Problem

MAX_FILE_BYTES = 2 * 1024 * 1024
"""Spec files are small; anything larger is refused before parsing."""
MAX_NODES = 100_000
"""Nodes visited with aliases expanded; a billion-laughs file hits this in milliseconds."""
MAX_DEPTH = 64
"""Nesting depth; real specs nest four or five levels."""

_STD = "tag:yaml.org,2002:"
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The libyaml parser when present (some 20x faster); both give the same nodes and marks."""


@dataclass(frozen=True)
class Loc:
    """Where a value was written: file as shown to the user, 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0

    def problem(self, key_path: str, message: str, severity: str = "error") -> Problem:
        return Problem(self.file, self.line, self.column, key_path or "(top)", message, severity)


class _Invalid:
    """Stands for a value that was already reported (e.g. a refused tag), so it is not reported twice."""

    def __repr__(self) -> str:
        return "<invalid>"


INVALID = _Invalid()


class LDict(dict):
    """A mapping that remembers where it and each of its values were written."""

    def __init__(self, loc: Loc, path: str = "", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loc = loc
        self.path = path
        """Key path of this mapping inside the file it was written in."""
        self.locs: dict[str, Loc] = {}
        self.keypaths: dict[str, str] = {}

    def loc_of(self, key: str) -> Loc:
        return self.locs.get(key, self.loc)

    def path_of(self, key: str) -> str:
        return self.keypaths.get(key) or (f"{self.path}.{key}" if self.path else key)

    def put(self, key: str, value, loc: Loc, keypath: str | None = None) -> None:
        self[key] = value
        self.locs[key] = loc
        if keypath is not None:
            self.keypaths[key] = keypath
        else:
            self.keypaths.pop(key, None)

    def problem(self, key: str | None, message: str, severity: str = "error") -> Problem:
        """A problem about `key` of this mapping (or the mapping itself when key is None)."""
        if key is None or key not in self:
            return self.loc.problem(self.path, message, severity)
        return self.loc_of(key).problem(self.path_of(key), message, severity)

    def missing(self, key: str, message: str) -> Problem:
        """A problem about a key this mapping lacks: reported at the mapping, named by the key."""
        return self.loc.problem(f"{self.path}.{key}" if self.path else key, message)

    def copy(self) -> "LDict":
        out = LDict(self.loc, self.path, self)
        out.locs = dict(self.locs)
        out.keypaths = dict(self.keypaths)
        return out


class LList(list):
    """A sequence that remembers where it and each of its items were written."""

    def __init__(self, loc: Loc, path: str = "", items=(), locs=()):
        super().__init__(items)
        self.loc = loc
        self.path = path
        self.locs: list[Loc] = list(locs)

    def problem(self, index: int | None, message: str, severity: str = "error") -> Problem:
        if index is None:
            return self.loc.problem(self.path, message, severity)
        item = self[index]
        path = getattr(item, "path", None) or f"{self.path}[{index}]"
        return self.loc_of(index).problem(path, message, severity)

    def loc_of(self, index: int) -> Loc:
        return self.locs[index] if 0 <= index < len(self.locs) else self.loc

    def add(self, value, loc: Loc) -> None:
        self.append(value)
        self.locs.append(loc)


class UnreadableSpec(Exception):
    """A file that cannot be turned into a tree at all; carries the one problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def _mark_loc(display: str, mark) -> Loc:
    if mark is None:
        return Loc(display)
    return Loc(display, mark.line + 1, mark.column + 1)


def _short(path: str) -> str:
    return path if len(path) <= 60 else path[:57] + "..."


class _Builder:
    """Walks a composed node graph into LDict/LList/scalars, enforcing the limits."""

    def __init__(self, display: str):
        self.display = display
        self.nodes = 0
        self.constructor = yaml.SafeLoader("")  # only its scalar constructors are used
        self.problems: list[Problem] = []

    def loc(self, node) -> Loc:
        return _mark_loc(self.display, node.start_mark)

    def build(self, node, path: str, depth: int):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise UnreadableSpec(self.loc(node).problem(
                _short(path), f"too many YAML nodes (more than {MAX_NODES} with aliases expanded); "
                "refusing a file that expands this far"))
        if depth > MAX_DEPTH:
            raise UnreadableSpec(self.loc(node).problem(
                _short(path), f"nested deeper than {MAX_DEPTH} levels (recursive alias?)"))
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _STD + "seq":
                self._bad_tag(node, path)
            out = LList(self.loc(node), path)
            for i, item in enumerate(node.value):
                out.add(self.build(item, f"{path}[{i}]", depth + 1), self.loc(item))
            return out
        return self._scalar(node, path)

    def _bad_tag(self, node, path: str) -> None:
        self.problems.append(self.loc(node).problem(
            path, f"tag {node.tag!r} is not allowed; spec files hold only plain YAML "
            "mappings, lists, strings, numbers, booleans and null"))

    def _mapping(self, node, path: str, depth: int) -> LDict:
        if node.tag != _STD + "map":
            self._bad_tag(node, path)
        out = LDict(self.loc(node), path)
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _STD + "merge":
                what = "merge keys (<<)" if key_node.tag == _STD + "merge" else "non-text keys"
                self.problems.append(self.loc(key_node).problem(
                    path, f"{what} are not supported; write keys as plain names "
                    "(use `extends:` to build on another spec)"))
                continue
            key = str(key_node.value)
            child_path = f"{path}.{key}" if path else key
            if key in out:
                first = out.loc_of(key)
                self.problems.append(self.loc(key_node).problem(
                    child_path, f"duplicate key {key!r} (first given on line {first.line})"))
                continue
            out.put(key, self.build(value_node, child_path, depth + 1), self.loc(value_node))
        return out

    def _scalar(self, node, path: str):
        tag = node.tag
        c = self.constructor
        try:
            if tag == _STD + "str":
                return str(node.value)
            if tag == _STD + "int":
                return c.construct_yaml_int(node)
            if tag == _STD + "float":
                return c.construct_yaml_float(node)
            if tag == _STD + "bool":
                return c.construct_yaml_bool(node)
            if tag == _STD + "null":
                return None
            if tag == _STD + "timestamp":
                # a date-like value is only ever meant as text in a spec
                return str(node.value)
        except (ValueError, yaml.YAMLError):
            self.problems.append(self.loc(node).problem(path, f"cannot read value {node.value!r}"))
            return INVALID
        self._bad_tag(node, path)
        return INVALID


def display_name(path: Path) -> str:
    """How a file is named in messages: bundled files as `specs/...`, others relative to cwd."""
    from toolkit.specs.catalogue import bundled_specs_dir

    resolved = path.resolve()
    try:
        return "specs/" + resolved.relative_to(bundled_specs_dir().resolve()).as_posix()
    except ValueError:
        pass
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:  # outside the working folder: the full path is clearest
        return str(resolved)


def read_tree(path: Path, display: str | None = None) -> tuple[object, list[Problem]]:
    """Read one spec file into a located tree; returns (tree, problems found while reading).

    Raises UnreadableSpec when the file cannot be read at all (missing, too big, not UTF-8 text,
    YAML syntax error, alias bomb).
    """
    display = display or display_name(path)
    top = Loc(display, 0, 0)
    try:
        size = path.stat().st_size
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UnreadableSpec(top.problem("(file)", f"cannot read file: {reason}"))
    if path.is_dir():
        raise UnreadableSpec(top.problem("(file)", "is a folder, expected a YAML file"))
    if size > MAX_FILE_BYTES:
        raise UnreadableSpec(top.problem(
            "(file)", f"file is {size} bytes; spec files are limited to {MAX_FILE_BYTES} bytes"))
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UnreadableSpec(top.problem("(file)", f"cannot read file: {exc.strerror or exc}"))
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableSpec(top.problem(
            "(file)", f"file is larger than the limit of {MAX_FILE_BYTES} bytes"))
    if b"\x00" in data:
        raise UnreadableSpec(top.problem("(file)", "binary data (NUL bytes); expected UTF-8 YAML text"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UnreadableSpec(Problem(display, line, col, "(file)",
                                     "not valid UTF-8 text; save the file as UTF-8"))
    try:
        node = yaml.compose(text, Loader=_COMPOSER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _mark_loc(display, mark)
        what = exc.problem or exc.context or "invalid YAML"
        raise UnreadableSpec(loc.problem("(yaml)", f"YAML syntax error: {what}"))
    except yaml.YAMLError as exc:
        raise UnreadableSpec(top.problem("(yaml)", f"YAML error: {exc}"))
    except RecursionError:
        raise UnreadableSpec(top.problem("(yaml)", f"nested deeper than the parser allows"))
    if node is None:
        raise UnreadableSpec(Loc(display, 1, 1).problem("(top)", "file is empty; expected a spec mapping with `kind:`"))
    builder = _Builder(display)
    tree = builder.build(node, "", 0)
    return tree, builder.problems
