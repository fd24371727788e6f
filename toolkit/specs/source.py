"""Reading spec files safely: YAML text -> a located tree of plain values.

Owns the hostile-input defences (regular files only, size limit, a nesting scan before the parser
runs, UTF-8 only, safe tags only, no duplicate keys, alias expansion limit) and the node marks that let every later problem name file, line and column.
Nothing here constructs arbitrary Python objects: files are only composed (yaml.compose with the
safe loader) and scalars are resolved by their standard tags.
"""
from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from toolkit.errors import InputError, Problem
from toolkit.fileio import path_kind, read_capped_bytes

SPEC_SUFFIXES = (".yaml", ".yml")
"""A spec named by path (on the command line, in `extends:` and references, in a game record)
must be a regular file whose name ends in one of these, and so must the file a link named so
points to: nothing else is ever opened as a spec, so a record, a variant or a link cannot make
the toolkit read, or quote from, any other file."""
MAX_FILE_BYTES = 2 * 1024 * 1024
"""Spec files are small; anything larger is refused before parsing."""
MAX_NODES = 100_000
"""Nodes visited with aliases expanded; a billion-laughs file hits this in milliseconds."""
MAX_DEPTH = 64
"""Nesting depth; real specs nest four or five levels."""
MAX_SCAN_DEPTH = 2 * MAX_DEPTH
"""Nesting the text scan refuses before the YAML parser sees the file (the parser recurses once
per level, and some builds crash instead of failing on very deep input). The scan can only
overestimate, so it stops at twice MAX_DEPTH and leaves exact reporting to the tree builder."""

_STD = "tag:yaml.org,2002:"
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The libyaml parser when present (some 20x faster); both give the same nodes and marks."""


@dataclass(frozen=True)
class Loc:
    """Where a value was written: file as shown to the user, 1-based line and column.

    A problem about the file as a whole (unreadable, binary, not a mapping) sits at 1:1.
    """

    file: str
    line: int = 1
    column: int = 1

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


def cut(text: object, limit: int = 80) -> str:
    """`text` for a message, cut to `limit` characters (a 5000-character name is not repeated)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


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
                _short(path), f"nested deeper than {MAX_DEPTH} levels"))
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
            self.problems.append(self.loc(node).problem(path, f"cannot read value {cut(node.value, 40)!r}"))
            return INVALID
        self._bad_tag(node, path)
        return INVALID


BUNDLED_PREFIX = "<bundled>/"
"""How bundled files are named in messages, the same in a checkout and after a wheel install
(where the real folder sits deep inside site-packages); `<bundled>/tracks/x.yaml` is the file
`patchwork validate` checks by default and `extends: x` / `time_track: x` name."""


def _expanded_sizes(root, display: str, text: str) -> dict[int, int]:
    """Node count of every node with aliases expanded (an alias is the anchored node again).

    Memoised by node identity, so a billion-laughs file costs one visit per distinct node.
    Raises UnreadableSpec for an alias inside the value it refers to (it would expand forever).
    """
    sizes: dict[int, int] = {}
    stack = [(root, False, 0, "")]
    busy: dict[int, str] = {}
    """Nodes being counted (the ancestors of the current one), with their key paths."""
    while stack:
        node, done, depth, path = stack.pop()
        key = id(node)
        if done:
            busy.pop(key, None)
            sizes[key] = 1 + sum(sizes.get(id(c), 1) for c in _children(node))
            continue
        if key in busy:
            where = busy[key]
            anchor = _anchor_at(text, node.start_mark)
            name = f"&{anchor}" if anchor else "here"
            raise UnreadableSpec(_mark_loc(display, node.start_mark).problem(
                _short(where) or "(top)",
                f"the value anchored {name} contains an alias to itself (at {_short(path)}); "
                "a recursive alias would expand forever"))
        if key in sizes or depth > MAX_DEPTH:  # too deep: the builder reports it
            continue
        busy[key] = path
        stack.append((node, True, depth, path))
        stack.extend((c, False, depth + 1, p) for c, p in reversed(_named_children(node, path)))
    return sizes


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [v for _, v in node.value]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _anchor_at(text: str, mark) -> str | None:
    """The anchor written where a node starts (composed nodes do not keep it)."""
    if mark is None:
        return None
    found = re.match(r"&([^\s\[\]{},]+)", text[mark.index:mark.index + 200])
    return found.group(1) if found else None


def _refuse_alias_bombs(root, display: str, text: str) -> None:
    """Refuse a file whose aliases expand past MAX_NODES, naming the value that blows up.

    The culprit is the deepest value that alone expands past the limit (for a billion-laughs
    file, the anchored list whose items each stay under it); when no single value does, the
    top-level key at which the running total crosses it.
    """
    sizes = _expanded_sizes(root, display, text)
    if sizes.get(id(root), 1) <= MAX_NODES:
        return
    node, path = root, ""
    while True:
        child = _oversized_child(node, path, sizes)
        if child is None:
            break
        node, path = child
    if node is root:
        total = 1
        for sub, sub_path in _named_children(root, ""):
            total += sizes.get(id(sub), 1)
            if total > MAX_NODES:
                # an alias is the anchored node itself, so its mark is the anchor's: name the key
                key = _key_node(root, sub_path)
                anchor = _anchor_at(text, sub.start_mark)
                what = f"*{anchor} ({sizes.get(id(sub), 1):,} nodes)" if anchor else \
                    f"{sizes.get(id(sub), 1):,} nodes"
                raise UnreadableSpec(_mark_loc(display, (key or sub).start_mark).problem(
                    _short(sub_path), f"this value, {what}, brings the file to {total:,} YAML nodes "
                    f"with aliases expanded (limit {MAX_NODES:,}); refusing a file that expands "
                    "this far"))
    loc = _mark_loc(display, node.start_mark)
    anchor = _anchor_at(text, node.start_mark)
    what = f"the value anchored &{anchor}" if anchor else "this value"
    if _distinct(node) == sizes.get(id(node), 1):  # no alias inside: the value is written out this big
        raise UnreadableSpec(loc.problem(
            _short(path) or "(top)",
            f"{what} holds {sizes.get(id(node), 1):,} YAML nodes (limit {MAX_NODES:,} for the whole file); "
            "a spec is far smaller"))
    raise UnreadableSpec(loc.problem(
        _short(path) or "(top)",
        f"{what} expands to {sizes.get(id(node), 1):,} YAML nodes through aliases (limit "
        f"{MAX_NODES:,} for the whole file); refusing a file that expands this far"))


def _distinct(root) -> int:
    """Distinct nodes under `root` (an alias counted once; the file's size bounds the count)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(_children(node))
    return len(seen)


def _key_node(mapping, path: str):
    if isinstance(mapping, yaml.MappingNode):
        for key, _ in mapping.value:
            if isinstance(key, yaml.ScalarNode) and str(key.value) == path:
                return key
    return None


def _named_children(node, path: str) -> list:
    if isinstance(node, yaml.MappingNode):
        return [(v, f"{path}.{k.value}" if path else str(k.value)) for k, v in node.value
                if isinstance(k, yaml.ScalarNode)]
    if isinstance(node, yaml.SequenceNode):
        return [(v, f"{path}[{i}]") for i, v in enumerate(node.value)]
    return []


def _oversized_child(node, path: str, sizes: dict[int, int]):
    for child, child_path in _named_children(node, path):
        if sizes.get(id(child), 1) > MAX_NODES:
            return child, child_path
    return None


def display_name(path: Path) -> str:
    """How a file is named in messages: bundled files as `<bundled>/...`, others relative to
    the working folder (or absolute when outside it)."""
    from toolkit.specs.catalogue import bundled_specs_dir

    resolved = path.resolve()
    try:
        return BUNDLED_PREFIX + resolved.relative_to(bundled_specs_dir().resolve()).as_posix()
    except ValueError:
        pass
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:  # outside the working folder: the full path is clearest
        return str(resolved)


_QUOTED = re.compile(r"'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\"")
_COMMENT = re.compile(r"(^|\s)#.*$")
_FLOW = re.compile(r"[\[\]{}]")
_NOT_FLOW = re.compile(r"[^\[\]{}]+")


def nesting_beyond(text: str, limit: int) -> tuple[int, int] | None:
    """(line, column) where YAML `text` first nests deeper than `limit`, found by a scan of the
    text alone (never by the parser): block nesting from indentation and `- ` items, flow nesting
    from brackets outside quotes and comments. It may overestimate, never underestimate."""
    indents: list[int] = []
    flow = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub("", _QUOTED.sub("''", raw))
        body = line.lstrip(" ")
        if not body.strip():
            continue
        if flow == 0:
            indent = len(line) - len(body)
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
            dashes = len(body) - len(body.lstrip("- ")) if body.startswith("- ") else 0
            if len(indents) + dashes // 2 > limit:
                return number, indent + 1
        brackets = _NOT_FLOW.sub("", line)
        if not brackets:
            continue
        depths = list(itertools.accumulate((1 if c in "[{" else -1 for c in brackets), initial=flow))
        if len(indents) + max(depths) > limit:
            first = next(i for i, d in enumerate(depths) if len(indents) + d > limit)
            match = next(itertools.islice(_FLOW.finditer(line), first - 1, None))
            return number, match.start() + 1
        flow = max(depths[-1], 0)
    return None


def not_a_spec(path: str | os.PathLike, shown: str | None = None) -> str | None:
    """Why `path` may not be read as a spec, judged by what it is and, for a link, by what it
    points to: a name without .yaml/.yml, a FIFO, a folder, a device, a link to a missing file, a
    link (or chain of links) to a file whose own name is not a spec's. None when it may be read
    (or is simply missing). Says nothing of the file's content: it is never opened."""
    text = os.fspath(path)
    shown = cut(text if shown is None else shown)
    if not text.lower().endswith(SPEC_SUFFIXES):
        return f"{shown!r} is not a spec file name: spec files end in .yaml or .yml"
    kind = path_kind(path)
    if kind is not None:
        return f"{shown!r} is {kind}, not a spec file"
    try:
        real = os.path.realpath(text)
    except (OSError, ValueError):
        return None
    if os.path.lexists(text) and not real.lower().endswith(SPEC_SUFFIXES):
        return (f"{shown!r} is a link to a file whose name does not end in .yaml or .yml, so it is not read "
                "as a spec; name the spec file itself")
    return None


def link_display(path: str | os.PathLike) -> str:
    """How a path is named in messages without following links (display_name shows where a link
    leads, which is not for a link that may not be followed)."""
    absolute = Path(os.path.abspath(os.fspath(path)))
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(absolute)


def read_tree(path: Path, display: str | None = None) -> tuple[object, list[Problem]]:
    """Read one spec file into a located tree; returns (tree, problems found while reading).

    Raises UnreadableSpec when the file cannot be read at all (missing, too big, not UTF-8 text,
    YAML syntax error, alias bomb) or may not be (a link to a file that is not a spec: not_a_spec).
    """
    if os.path.islink(path):
        refused = not_a_spec(path)
        if refused is not None:
            raise UnreadableSpec(Loc(display or link_display(path)).problem("(file)", refused))
    display = display or display_name(path)
    top = Loc(display)  # the file as a whole
    try:
        data = read_capped_bytes(path, MAX_FILE_BYTES, "YAML spec file")
    except InputError as exc:
        # the message starts with the path, which the problem already names
        message = str(exc).split(": ", 1)[1] if str(exc).startswith(f"{path}: ") else str(exc)
        if "a YAML spec file is at most" in message:
            message += f" (spec files are limited to {MAX_FILE_BYTES} bytes)"
        raise UnreadableSpec(top.problem("(file)", message))
    if b"\x00" in data:
        raise UnreadableSpec(top.problem("(file)", "binary data (NUL bytes); expected UTF-8 YAML text"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UnreadableSpec(Problem(display, line, col, "(file)",
                                     "not valid UTF-8 text; save the file as UTF-8"))
    deep = nesting_beyond(text, MAX_SCAN_DEPTH)
    if deep is not None:
        raise UnreadableSpec(Loc(display, *deep).problem(
            "(yaml)", f"nested deeper than {MAX_SCAN_DEPTH} levels here; spec files nest a few levels "
            f"(at most {MAX_DEPTH})"))
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
    _refuse_alias_bombs(node, display, text)
    builder = _Builder(display)
    tree = builder.build(node, "", 0)
    return tree, builder.problems
