"""The shape of every spec file kind, written once and used twice.

The same declarations check a located YAML tree (structure, types, ranges, unknown and missing
keys; every problem with file, line, column and key path) and produce the JSON Schema (draft
2020-12) that `patchwork schema` prints for editors. Cross-field rules (marks ascending, shapes
fitting the board, references) live in toolkit.specs.loader.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from dataclasses import dataclass, field

from toolkit.errors import Problem, ShapeError
from toolkit.geometry.shape import Shape
from toolkit.specs.models import RULES_OF_FAMILY, Edition, rule_fields, value_type
from toolkit.specs.source import INVALID, LDict, LList, Loc

MAX_BOARD = 16
"""Largest quilt/sheet side; the geometry's bit masks are built for boards up to 16x16."""

NAME_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"
CONFIDENCE = ("high", "medium", "low")
FAMILIES = tuple(RULES_OF_FAMILY)
AUTOMA_FILTERS = ("NO_OVERTAKE", "MOST_BUTTONS", "LARGEST", "FURTHEST")
AUTOMA_SCORING = ("collected_buttons", "patches_with_buttons", "buttons_on_patches")
SPECIAL_ACTIONS = ("neighbour", "single", "cut", "again")
KINDS = ("patch-set", "start-cards", "time-track", "automa", "edition", "variant")


def _describe(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"number {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"text {text!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


_LIKE_A_KIND = re.compile(r"^[a-z][a-z-]{0,23}$")
"""A `kind:` written like one (a typo of `edition` is quoted back; other text is not)."""


def _what(value) -> str:
    """What kind of value this is, without quoting it (for files that are not specs)."""
    if isinstance(value, str):
        return f"text ({len(value):,} characters)"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return _describe(value)


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    return "array"


class Type:
    """A value type: checks a located value and renders itself as JSON Schema."""

    json_types: tuple[str, ...] = ()
    expected: str = ""
    doc: str = ""

    def check(self, value, loc: Loc, path: str, out: list[Problem]) -> None:
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def with_doc(self, doc: str) -> dict:
        body = self.schema()
        if self.doc or doc:
            body = {"description": doc or self.doc, **body}
        return body

    def accepts(self, value) -> bool:
        return _json_type(value) in self.json_types

    def _type_error(self, value, loc: Loc, path: str, out: list[Problem]) -> bool:
        if value is INVALID:
            return True
        if not self.accepts(value):
            out.append(loc.problem(path, f"expected {self.expected}, got {_describe(value)}"))
            return True
        return False


@dataclass
class Int(Type):
    minimum: int | None = None
    maximum: int | None = None
    json_types = ("integer",)
    expected = "a whole number"

    def check(self, value, loc, path, out):
        if self._type_error(value, loc, path, out):
            return
        if self.minimum is not None and value < self.minimum:
            out.append(loc.problem(path, f"must be at least {self.minimum}, got {value}"))
        elif self.maximum is not None and value > self.maximum:
            out.append(loc.problem(path, f"must be at most {self.maximum}, got {value}"))

    def schema(self):
        body: dict = {"type": "integer"}
        if self.minimum is not None:
            body["minimum"] = self.minimum
        if self.maximum is not None:
            body["maximum"] = self.maximum
        return body


@dataclass
class Str(Type):
    enum: tuple[str, ...] | None = None
    pattern: str | None = None
    max_length: int = 10_000
    json_types = ("string",)
    expected = "text"

    def check(self, value, loc, path, out):
        if self._type_error(value, loc, path, out):
            return
        if self.enum is not None:
            if value not in self.enum:
                out.append(loc.problem(
                    path, f"unknown value {value!r}; expected one of: {', '.join(self.enum)}"))
            return
        if not value.strip():
            out.append(loc.problem(path, "must not be empty"))
        elif len(value) > self.max_length:
            out.append(loc.problem(path, f"text is {len(value)} characters; at most {self.max_length}"))
        elif self.pattern and not re.match(self.pattern, value):
            out.append(loc.problem(path, f"{value!r} does not match the pattern {self.pattern}"))

    def schema(self):
        if self.enum is not None:
            return {"enum": list(self.enum)}
        body: dict = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        if self.pattern:
            body["pattern"] = self.pattern
        return body


@dataclass
class Bool(Type):
    json_types = ("boolean",)
    expected = "true or false"

    def check(self, value, loc, path, out):
        self._type_error(value, loc, path, out)

    def schema(self):
        return {"type": "boolean"}


@dataclass
class Null(Type):
    json_types = ("null",)
    expected = "null"

    def check(self, value, loc, path, out):
        self._type_error(value, loc, path, out)

    def schema(self):
        return {"type": "null"}


@dataclass
class ShapeText(Type):
    """Rows of `#`/`.`: a list of row strings, or one string with rows joined by `/`."""

    json_types = ("string", "array")
    expected = "a shape (rows of '#' and '.', as a list of strings or one string joined by '/')"

    def check(self, value, loc, path, out):
        if self._type_error(value, loc, path, out):
            return
        if isinstance(value, list):
            for i, row in enumerate(value):
                if not isinstance(row, str):
                    where = value.loc_of(i) if isinstance(value, LList) else loc
                    out.append(where.problem(
                        f"{path}[{i}]", f"expected a row of '#' and '.', got {_describe(row)}"))
                    return
        shape = parse_shape(value, loc, path, out)
        if shape is not None and not shape.is_connected:
            out.append(loc.problem(
                path, f"shape '{shape.format()}' is not connected: every cloth cell must touch "
                "another along an edge"))

    def schema(self):
        row = r"^[#.]+$"
        return {"oneOf": [
            {"type": "string", "pattern": r"^\s*[#.]+(\s*/\s*[#.]+)*\s*$"},
            {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": row}},
        ]}


@lru_cache(maxsize=4096)
def _parse_cached(text: str | tuple[str, ...]) -> Shape | str:
    """Parsed shape, or the parse error text; shapes are immutable, so sharing them is safe."""
    try:
        return Shape.parse(list(text) if isinstance(text, tuple) else text)
    except ShapeError as exc:
        return str(exc)


def parse_shape(value, loc: Loc, path: str, out: list[Problem]) -> Shape | None:
    """Shape of a spec value, or None after recording why it is not one."""
    if isinstance(value, list):
        if not all(isinstance(row, str) for row in value):
            out.append(loc.problem(path, "a shape must be text or a list of row strings"))
            return None
        value = tuple(value)
    elif not isinstance(value, str):
        out.append(loc.problem(path, "a shape must be text or a list of row strings"))
        return None
    result = _parse_cached(value)
    if isinstance(result, str):
        out.append(loc.problem(path, result))
        return None
    return result


@dataclass
class List(Type):
    item: Type
    min_items: int = 0
    max_items: int | None = None
    unique: bool = False
    json_types = ("array",)

    @property
    def expected(self):  # type: ignore[override]
        return "a list"

    def check(self, value, loc, path, out):
        if self._type_error(value, loc, path, out):
            return
        if len(value) < self.min_items:
            out.append(loc.problem(path, f"needs at least {self.min_items} item(s), got {len(value)}"))
        if self.max_items is not None and len(value) > self.max_items:
            out.append(loc.problem(path, f"allows at most {self.max_items} item(s), got {len(value)}"))
        seen: dict = {}
        if isinstance(value, LList):
            path = value.path
        for i, item in enumerate(value):
            item_loc = value.loc_of(i) if isinstance(value, LList) else loc
            item_path = getattr(item, "path", None) or f"{path}[{i}]"
            self.item.check(item, item_loc, item_path, out)
            if self.unique and isinstance(item, (str, int)):
                if item in seen:
                    out.append(item_loc.problem(
                        item_path, f"{item!r} is listed twice (also item {seen[item]})"))
                else:
                    seen[item] = i

    def schema(self):
        body: dict = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            body["minItems"] = self.min_items
        if self.max_items is not None:
            body["maxItems"] = self.max_items
        if self.unique:
            body["uniqueItems"] = True
        return body


@dataclass
class F:
    """One key of a mapping."""

    type: Type
    doc: str
    required: bool = False
    cosmetic: str = ""
    """Why the key never changes play (display, provenance, a name others refer to), or "" for a
    key that the rules read. Every key is one or the other, or is refused where a family does not
    use it (toolkit.specs.loader); tests/test_no_silent_keys.py holds the toolkit to that."""
    default: str = ""
    """The value a spec that leaves the key out gets, as written in a spec ("": none to show)."""

    @property
    def described(self) -> str:
        """The doc as shown to users: the default, and that cosmetic keys are cosmetic."""
        text = f"{self.doc} Default: {self.default}." if self.default else self.doc
        return f"{text} Cosmetic: {self.cosmetic}." if self.cosmetic else text


@dataclass
class Obj(Type):
    fields: dict[str, F] = field(default_factory=dict)
    extra: Type | None = None
    """Type of the values of free-named keys (e.g. deck names); None: no other keys allowed."""
    extra_key_pattern: str = ID_PATTERN
    min_keys: int = 0
    json_types = ("object",)
    expected = "a mapping of keys to values"

    def check(self, value, loc, path, out):
        if self._type_error(value, loc, path, out):
            return
        located = isinstance(value, LDict)
        if located:
            path = value.path
        for name, spec in self.fields.items():
            if spec.required and name not in value:
                out.append(value.loc.problem(f"{path}.{name}" if path else name,
                                             f"missing required key '{name}'"))
        if len(value) < self.min_keys:
            out.append(value.loc.problem(path, f"needs at least {self.min_keys} entr(y/ies)"))
        for key, item in value.items():
            child = value.path_of(key) if located else (f"{path}.{key}" if path else key)
            item_loc = value.loc_of(key) if isinstance(value, LDict) else loc
            known = self.fields.get(key)
            if known is not None:
                known.type.check(item, item_loc, child, out)
            elif self.extra is not None:
                if not re.match(self.extra_key_pattern, key):
                    out.append(item_loc.problem(
                        child, f"key {key!r} does not match the pattern {self.extra_key_pattern}"))
                self.extra.check(item, item_loc, child, out)
            else:
                hint = difflib.get_close_matches(key, list(self.fields), n=1)
                near = f" (did you mean '{hint[0]}'?)" if hint else ""
                out.append(item_loc.problem(
                    child, f"unknown key '{key}'{near}; allowed keys: {', '.join(self.fields)}"))

    def schema(self):
        body: dict = {"type": "object",
                      "properties": {k: f.type.with_doc(f.described) for k, f in self.fields.items()}}
        required = [k for k, f in self.fields.items() if f.required]
        if required:
            body["required"] = required
        if self.extra is None:
            body["additionalProperties"] = False
        else:
            body["patternProperties"] = {self.extra_key_pattern: self.extra.schema()}
            body["additionalProperties"] = False
        if self.min_keys:
            body["minProperties"] = self.min_keys
        return body

    def partial(self, drop: tuple[str, ...] = ()) -> "Obj":
        """The same mapping with every key optional, nested mappings too (variant overrides
        merge onto the parent, so any key may be left out; lists replace and stay whole)."""
        return Obj({k: F(_partial(f.type), f.doc, cosmetic=f.cosmetic, default=f.default)
                    for k, f in self.fields.items() if k not in drop},
                   self.extra, self.extra_key_pattern)


def _partial(t: Type) -> Type:
    if isinstance(t, Obj):
        return t.partial()
    if isinstance(t, Union):
        return Union(options=tuple(_partial(o) for o in t.options))
    return t


@dataclass
class Union(Type):
    """One of several types, told apart by the YAML value's type."""

    options: tuple[Type, ...] = ()

    @property
    def json_types(self):  # type: ignore[override]
        return tuple(t for o in self.options for t in o.json_types)

    @property
    def expected(self):  # type: ignore[override]
        return " or ".join(o.expected for o in self.options)

    def check(self, value, loc, path, out):
        if value is INVALID:
            return
        for option in self.options:
            if option.accepts(value):
                option.check(value, loc, path, out)
                return
        out.append(loc.problem(path, f"expected {self.expected}, got {_describe(value)}"))

    def schema(self):
        return {"oneOf": [o.schema() for o in self.options]}


class Ref(Str):
    """The name of a bundled spec of some kind, or a path (relative to this file) to one."""

    def __init__(self, what: str):
        super().__init__(max_length=1000)
        self.what = what
        self.expected = f"the name of a bundled {what} or a path to a {what} file"


# ----- the kinds ---------------------------------------------------------------------------------

_PROVENANCE = {
    "confidence": F(Str(enum=CONFIDENCE), "How sure the data is: high, medium or low.", cosmetic="provenance"),
    "provenance": F(Str(), "Where the data comes from and how it was reconstructed.", cosmetic="provenance"),
}

PATCH = Obj({
    "id": F(Str(pattern=ID_PATTERN, max_length=32), "Unique id within the edition, e.g. P17.", True,
            cosmetic="a name that actions, records and patch_changes refer to"),
    "shape": F(ShapeText(), "Cloth cells: rows of '#' and '.', a list or one string joined by '/'.", True),
    "cost": F(Int(0, 999), "Buttons to pay."),
    "time": F(Int(0, 999), "Spaces the time token advances."),
    "income": F(Int(0, 999), "Buttons printed on the patch (paid at each income mark)."),
    "name": F(Str(max_length=100), "Optional display name.", cosmetic="display only"),
    "colour": F(Str(pattern=COLOUR_PATTERN), "Fill colour for printing, #rrggbb.", cosmetic="printing only"),
    "tag": F(Str(pattern=NAME_PATTERN, max_length=32), "Set tag, e.g. Express colourful or blue.",
             cosmetic="a label for printing; play reads it only where late_patches.tag names it"),
    "copies": F(Int(1, 99), "Identical cards of this patch in the deck (Doodle)."),
    "duplicate_of": F(Str(pattern=ID_PATTERN, max_length=32),
                      "Declares an intended duplicate: the id of a patch with the same shape and stats.",
                      cosmetic="read by the deck check only"),
    "confidence": F(Str(enum=CONFIDENCE), "How sure this patch's data is.", cosmetic="provenance"),
    "source": F(Str(), "Where this patch's data comes from.", cosmetic="provenance"),
})

START_CARD = Obj({
    "id": F(Str(pattern=ID_PATTERN, max_length=32), "Unique id of the start card.", True,
            cosmetic="a name records refer to"),
    "shape": F(ShapeText(), "The patch drawn before the first turn.", True),
    "confidence": F(Str(enum=CONFIDENCE), "How sure this card's data is.", cosmetic="provenance"),
    "source": F(Str(), "Where this card's data comes from.", cosmetic="provenance"),
})

_SPACE = Int(1, 500)
TRACK = Obj({
    "id": F(Str(pattern=NAME_PATTERN, max_length=64), "Track id (reported as the track layout).", True,
            cosmetic="the layout name reports state"),
    "title": F(Str(), "Display title.", cosmetic="display only"),
    "final_space": F(Int(1, 500), "Index of the final space; the start space is 0.", True),
    "income_marks": F(List(_SPACE, unique=True),
                      "Spaces with a button-income mark, ascending, within 1..final_space.", True),
    "leather_patches": F(List(_SPACE, unique=True),
                         "Spaces holding a 1x1 leather patch at the start, ascending.", True),
    **_PROVENANCE,
})

AUTOMA_CARD = Obj({
    "number": F(Int(1, 999), "Printed card number.", True, cosmetic="printed on the card"),
    "virtual_buttons": F(Int(0, 999), "Budget for this turn only.", True),
    "income": F(Int(0, 999), "Buttons Automa gains per income mark crossed on this card.", True),
    "filters": F(List(Str(enum=AUTOMA_FILTERS), max_items=4, unique=True),
                 "Filters, top to bottom.", True),
})

AUTOMA_LEVEL = Obj({
    "level": F(Int(1, 99), "Difficulty number.", True),
    "name": F(Str(max_length=64), "Level name.", True, cosmetic="display only"),
    "spaces_from_end": F(Int(0, 500), "The 7x7 marker sits this many spaces before the final space.", True),
    "scoring": F(List(Str(enum=AUTOMA_SCORING), unique=True), "Terms added to Automa's score.", True),
})

AUTOMA = Obj({
    "name": F(Str(pattern=NAME_PATTERN), "Name of this Automa spec.", cosmetic="a name editions refer to"),
    "title": F(Str(), "Display title.", cosmetic="display only"),
    "discard_at_setup": F(Int(0, 99), "Cards discarded unseen at setup (default 2)."),
    "bonus_points": F(Int(0, 999), "Points of the bonus tile for Automa (default 7)."),
    "levels": F(List(AUTOMA_LEVEL, min_items=1), "Difficulty levels.", True),
    "decks": F(Obj(extra=List(AUTOMA_CARD, min_items=1), extra_key_pattern=NAME_PATTERN, min_keys=1),
               "Decks by name, e.g. normal and tactical.", True),
    **_PROVENANCE,
})

_PLAYERS = Union(options=(
    Int(1, 99),
    Obj({"min": F(Int(1, 99), "Fewest players.", True),
         "max": F(Union(options=(Int(1, 99), Null())), "Most players; absent or null: no cap.")}),
))
_BOARD = Obj({"width": F(Int(1, MAX_BOARD), "Cells across.", True),
              "height": F(Int(1, MAX_BOARD), "Cells down.", True)})
_BONUS = Union(options=(Null(), Obj({
    "square_size": F(Int(1, MAX_BOARD), "Side of the square to cover fully.", True),
    "points": F(Int(0, 999), "Points it is worth.", True)})))
_LATE = Union(options=(Null(), Obj({
    "tag": F(Str(pattern=NAME_PATTERN), "Patches with this tag start outside the circle.", True),
    "enter_at": F(Int(0, 999), "They join when only this many patches remain in the circle.", True)})))


def rule_type(cls: type, f) -> Type:
    """The schema type of a scalar rule, from its field: the annotation gives the kind of value, the
    field's `range`, `choices` or `max_length` the values allowed (toolkit.specs.models.rule)."""
    meta = f.metadata
    kind = value_type(cls, f.name)
    if "choices" in meta:
        return Str(enum=meta["choices"])
    if kind is bool:
        return Bool()
    if kind is int:
        low, high = meta["range"]
        return Int(low, high)
    return Str(max_length=meta.get("max_length", 10_000))


def _default_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_entries(built: dict[str, Type]) -> dict[str, F]:
    """The edition keys of the rules, each derived from its `rule(...)` field: the shared rules of
    Edition, then each family's own. A built rule takes its shape from `built`."""
    out: dict[str, F] = {}
    for cls in (Edition, *RULES_OF_FAMILY.values()):
        for f in rule_fields(cls):
            meta = f.metadata
            if meta["spec"] is None:
                continue
            if meta["spec"] == "scalar":
                out[f.name] = F(rule_type(cls, f), meta["help"], default=_default_text(f.default))
            else:
                out[f.name] = F(built[f.name], meta["help"])
    return out


def _built_rules(track: Type, automa: Type) -> dict[str, Type]:
    """The shape of each rule the loader builds (a reference, a table): the one place a built rule's
    spec shape is written; its help and default are in its field (toolkit.specs.models)."""
    return {
        "bonus": _BONUS,
        "time_track": track,
        "late_patches": _LATE,
        "automa": automa,
        "start_cards": Union(options=(Ref("start-card set"), List(START_CARD, min_items=1))),
        "die": List(Int(1, 99), min_items=1, max_items=64),
        "special_actions": List(Str(enum=SPECIAL_ACTIONS), unique=True),
    }


def _edition_fields(track: Type, automa: Type) -> dict[str, F]:
    return {
        "name": F(Str(pattern=NAME_PATTERN, max_length=64), "Registry name of the edition.", True,
                  cosmetic="the name results and records report"),
        "title": F(Str(max_length=200), "Display title.", True, cosmetic="display only"),
        "family": F(Str(enum=FAMILIES), "Rules family: " + " or ".join(FAMILIES) + ".", True),
        "players": F(_PLAYERS, "Number of players, or {min, max}.", True),
        "board": F(_BOARD, "Quilt board / drawing sheet size (at most 16x16).", True),
        "patches": F(Union(options=(Ref("patch set"), List(PATCH, min_items=1))),
                     "A patch set (bundled name or path) or an inline list of patches.", True),
        **rule_entries(_built_rules(track, automa)),
        **_PROVENANCE,
    }


def _kind(name: str) -> F:
    return F(Str(enum=(name,)), f"Spec file kind: {name}.", True)


PATCH_SET_FILE = Obj({
    "kind": _kind("patch-set"),
    "name": F(Str(pattern=NAME_PATTERN, max_length=64), "Name editions use to refer to this set.", True),
    "title": F(Str(), "Display title.", cosmetic="display only"),
    "patches": F(List(PATCH, min_items=1), "The patches.", True),
    **_PROVENANCE,
})

START_CARDS_FILE = Obj({
    "kind": _kind("start-cards"),
    "name": F(Str(pattern=NAME_PATTERN, max_length=64), "Name editions use to refer to these cards.", True),
    "title": F(Str(), "Display title.", cosmetic="display only"),
    "card_size": F(Int(1, MAX_BOARD * MAX_BOARD), "Cells of every start card.", True),
    "cards": F(List(START_CARD, min_items=1), "The start cards.", True),
    **_PROVENANCE,
})

TIME_TRACK_FILE = Obj({"kind": _kind("time-track"), **TRACK.fields})

AUTOMA_FILE = Obj({"kind": _kind("automa"), **{
    k: (F(f.type, f.doc, True, f.cosmetic) if k == "name" else f) for k, f in AUTOMA.fields.items()}})

_EDITION_FIELDS = _edition_fields(
    Union(options=(Ref("time track"), TRACK)),
    Union(options=(Null(), Ref("Automa spec"), AUTOMA)))
EDITION_FILE = Obj({"kind": _kind("edition"), **_EDITION_FIELDS})

_VARIANT_EDITION = Obj(_EDITION_FIELDS).partial()
RESOLVED_EDITION = Obj({k: f for k, f in _EDITION_FIELDS.items()})
"""A resolved edition (references inlined, variants merged) is checked against this again."""
VARIANT_FILE = Obj({
    "kind": _kind("variant"),
    "name": F(Str(pattern=NAME_PATTERN, max_length=64),
              "Registry name of the variant (default: the file name without .yaml)."),
    "title": F(Str(max_length=200), "Display title (default: '<parent title> (variant <name>)')."),
    "extends": F(Ref("edition or variant"), "The edition or variant this one builds on.", True),
    **{k: f for k, f in _VARIANT_EDITION.fields.items() if k not in ("name", "title")},
    "add_patches": F(List(PATCH, min_items=1), "Patches added to the parent's."),
    "remove_patches": F(List(Str(pattern=ID_PATTERN), min_items=1, unique=True),
                        "Ids of the parent's patches to drop."),
    "patch_changes": F(Obj(extra=PATCH.partial(drop=("id",))),
                       "Per patch id, the fields to change, e.g. {P05: {cost: 3}}."),
})

FILE_KINDS: dict[str, Obj] = {
    "patch-set": PATCH_SET_FILE,
    "start-cards": START_CARDS_FILE,
    "time-track": TIME_TRACK_FILE,
    "automa": AUTOMA_FILE,
    "edition": EDITION_FILE,
    "variant": VARIANT_FILE,
}


def check_file(tree, loc: Loc) -> tuple[str | None, list[Problem]]:
    """Structural check of a whole spec file; returns (kind or None, problems)."""
    out: list[Problem] = []
    if not isinstance(tree, LDict):
        # what is there, never a quote of it: a file that is not a spec is not shown
        out.append(loc.problem("(top)", f"expected a mapping with `kind:` at the top, got {_what(tree)}"))
        return None, out
    kind = tree.get("kind")
    if not isinstance(kind, str) or kind not in FILE_KINDS:
        where = tree.loc_of("kind") if "kind" in tree else tree.loc
        shown = _describe(kind) if isinstance(kind, str) and _LIKE_A_KIND.match(kind) else _what(kind)
        got = "it is missing" if "kind" not in tree else f"got {shown}"
        out.append(where.problem("kind", f"expected one of: {', '.join(KINDS)} ({got})"))
        return None, out
    FILE_KINDS[kind].check(tree, tree.loc, "", out)
    return kind, out


def json_schema() -> dict:
    """JSON Schema (draft 2020-12) accepting every kind of spec file, told apart by `kind`."""
    defs = {kind: spec.schema() for kind, spec in FILE_KINDS.items()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://patchwork-toolkit.invalid/schema/spec.json",
        "title": "patchwork-toolkit spec file",
        "description": "Any spec file of the toolkit: patch-set, start-cards, time-track, automa, "
                       "edition or variant, told apart by its `kind` key.",
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": list(KINDS)}},
        "oneOf": [{"$ref": f"#/$defs/{kind}"} for kind in FILE_KINDS],
        "$defs": defs,
    }
