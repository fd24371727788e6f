"""Frozen, typed models of the spec files.

The loader (toolkit.specs.loader) validates YAML once, at the boundary, and builds these; the rest
of the toolkit trusts them. An Edition is fully resolved: `extends:` chains, named patch sets,
time tracks and Automa decks are already merged in.
"""
from __future__ import annotations

from dataclasses import Field, dataclass, field, fields, replace
from enum import Enum
from typing import get_type_hints

from toolkit.geometry.shape import Shape


class Family(str, Enum):
    """Rules family: which engine plays an edition."""

    TIME_TRACK = "time-track"
    """Classic, Christmas, anniversary (with Automa) and Express: two tokens race on a time board."""
    DOODLE = "doodle"
    """The roll-and-write game: every player draws the same patch on their own sheet."""


@dataclass(frozen=True)
class Patch:
    """One patch (tile or card)."""

    id: str
    """Unique id within its set, e.g. `P17`, `E03`, `D12`."""
    shape: Shape
    """The cloth cells as printed; any rotation/reflection may be placed unless the edition forbids flipping."""
    cost: int = 0
    """Buttons to pay (time-track games)."""
    time: int = 0
    """Spaces the time token advances (time-track games)."""
    income: int = 0
    """Buttons printed on the patch, paid at each income mark."""
    name: str | None = None
    """Optional display name."""
    colour: str | None = None
    """Optional fill colour for printing, `#rrggbb`."""
    tag: str | None = None
    """Optional set tag, e.g. Express `colourful` or `blue`."""
    copies: int = 1
    """How many identical cards of this patch the deck holds (Doodle)."""
    confidence: str | None = None
    """Provenance confidence of reconstructed data: `high`, `medium` or `low`."""
    source: str | None = None
    """Where the data comes from, for reconstructed data."""


@dataclass(frozen=True)
class StartCard:
    """A Doodle start card: its patch is drawn before the first turn."""

    id: str
    shape: Shape


@dataclass(frozen=True)
class TimeTrack:
    """A time board: spaces 0 (start) .. final_space; marks trigger onto-or-past (start < mark <= end)."""

    id: str
    final_space: int
    """Index of the final space; tokens stop there."""
    income_marks: tuple[int, ...]
    """Spaces with a button-income mark, ascending; the final space is usually one."""
    leather_patches: tuple[int, ...]
    """Spaces holding a 1x1 leather patch at the start, ascending."""
    title: str | None = None
    provenance: str | None = None


@dataclass(frozen=True)
class AutomaCard:
    """One Automa card."""

    number: int
    """Printed card number (no game effect)."""
    virtual_buttons: int
    """Budget for this turn only; Automa never spends its own buttons."""
    income: int
    """Buttons Automa gains at each income mark crossed while this card is current."""
    filters: tuple[str, ...]
    """Filters top to bottom: NO_OVERTAKE, MOST_BUTTONS, LARGEST, FURTHEST."""


@dataclass(frozen=True)
class AutomaLevel:
    """A difficulty level."""

    level: int
    name: str
    spaces_from_end: int
    """The 7x7 marker sits this many spaces before the final space."""
    scoring: tuple[str, ...]
    """Terms added to the 7x7 points: collected_buttons, patches_with_buttons, buttons_on_patches."""


@dataclass(frozen=True)
class Automa:
    """The Automa solo opponent: decks, levels and setup constants."""

    decks: tuple[tuple[str, tuple[AutomaCard, ...]], ...]
    """(deck name, cards) pairs, e.g. ("normal", ...), ("tactical", ...)."""
    levels: tuple[AutomaLevel, ...]
    discard_at_setup: int = 2
    """Cards discarded unseen at setup (they return at the reshuffle)."""
    bonus_points: int = 7

    def deck(self, name: str) -> tuple[AutomaCard, ...]:
        for deck_name, cards in self.decks:
            if deck_name == name:
                return cards
        raise KeyError(name)

    def level(self, number: int) -> AutomaLevel:
        for level in self.levels:
            if level.level == number:
                return level
        raise KeyError(number)


@dataclass(frozen=True)
class Bonus:
    """The special tile for the first fully covered k x k square."""

    square_size: int
    points: int


SCALAR = {"spec": "scalar"}
"""A rule read as is from the spec key of the same name."""
BUILT = {"spec": "built"}
"""A rule the loader builds from the spec key of the same name (a reference, a table); the schema
gives the key's shape (toolkit.specs.schema._built_rules)."""
REQUIRED = {"spec": "built", "required": True}
"""A built rule every edition of the family must give."""
DERIVED = {"spec": None}
"""A rule derived from other keys: not a spec key of its own."""


def rule(default, *, help: str = "", range: tuple[int, int] | None = None, choices: tuple[str, ...] | None = None,
         spec: dict = SCALAR, sweep: str | bool = True, max_length: int | None = None):
    """A rules field, described once: its default, and in its metadata how the spec gives it (`spec`:
    SCALAR, BUILT, REQUIRED or DERIVED), the allowed values (`range` low..high for whole numbers,
    `choices` for a word, `max_length` for free text), the `help` the schema, the spec reference and
    `sweep` show, and `sweep`: True when `sweep --set` may change it, or the reason it may not.
    The value type is the field's annotation. The schema entry, the loader's key lists and the
    sweepable keys are derived from this (toolkit.specs.schema, toolkit.specs.loader,
    toolkit.families); a scalar rule needs nothing else but the engine that reads it."""
    meta: dict = {**spec, "help": help, "sweep": sweep}
    if range is not None:
        meta["range"] = range
    if choices is not None:
        meta["choices"] = choices
    if max_length is not None:
        meta["max_length"] = max_length
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class TimeTrackRules:
    """The rules only the time-track family reads (classic, Christmas, anniversary, Express).

    Each field is a `rule(...)`: its metadata says how the spec gives it, its range and its help."""

    starting_buttons: int = rule(5, range=(0, 999), help="Buttons each player starts with.")
    market_window: int = rule(3, range=(1, 99), help="How many patches after the neutral token may be bought.")
    bonus: Bonus | None = rule(None, spec=BUILT,
                               help="The bonus tile for the first fully covered k x k square, or null.")
    time_track: TimeTrack | None = rule(None, spec=REQUIRED,
                                        help="A time track (bundled name or path) or an inline track.")
    late_patches: tuple[Patch, ...] = rule((), spec=BUILT, help="Patches that join the circle later, or null.")
    """Patches that join the circle later (Express blue), shuffled, behind the neutral token."""
    late_patches_enter_at: int | None = rule(None, spec=DERIVED)
    """Late patches join the moment only this many patches remain in the circle (Express: 5)."""
    neutral_token_after: str = rule(
        "smallest", max_length=32, sweep="its values are patch ids, which differ from deck to deck",
        help="Setup: the neutral token sits after this patch: smallest or a patch id.")
    """Setup: the token sits after this patch (`smallest` or a patch id), so it is the last reachable."""
    automa: Automa | None = rule(None, spec=BUILT,
                                 help="The Automa solo opponent (bundled name, path or inline), or null.")
    tie_break: str = rule("first-to-finish", choices=("first-to-finish", "shared"),
                          help="How equal final scores are settled: first-to-finish (the player who reached "
                               "the final space first wins) or shared (no single winner).")
    """`first-to-finish` (ruling 7) or `shared` (equal scores have no single winner)."""
    track_layout: str | None = rule(None, spec=DERIVED)
    """Name of the time track used (reported with every simulation)."""

    @property
    def track(self) -> TimeTrack:
        """`time_track`, which every loaded edition has (the spec requires it); a ValueError for
        rules built by hand without one."""
        if self.time_track is None:
            raise ValueError("these time-track rules name no time track")
        return self.time_track


@dataclass(frozen=True)
class DoodleRules:
    """The rules only the Doodle family reads (fields as in TimeTrackRules)."""

    start_cards: tuple[StartCard, ...] = rule((), spec=REQUIRED,
                                              help="Start cards (bundled name, path or inline list).")
    die: tuple[int, ...] = rule((), spec=REQUIRED, help="The faces of the die.")
    circle_size: int = rule(8, range=(1, 99), help="Cards face up at the start of a round.")
    rounds: int = rule(3, range=(1, 99), help="Rounds in a game.")
    turns_per_round: int = rule(6, range=(1, 99), help="Turns in each round.")
    refill: int = rule(6, range=(0, 99), help="Cards added to the circle between rounds.")
    final_free_choice: bool = rule(True, help="The last turn is a free pick of any card left.")
    """Round 3 ends with an un-rolled turn where each player picks any card left."""
    special_actions: tuple[str, ...] = rule((), spec=BUILT, help="Special actions, each once per game.")
    """Subset of neighbour, single, cut, again."""


RULES_OF_FAMILY = {"time-track": TimeTrackRules, "doodle": DoodleRules}
"""Family value -> its rules class."""


def spec_keys(rules: type) -> tuple[str, ...]:
    """The spec keys of a family's own rules (those the spec gives, not derived ones)."""
    return tuple(f.name for f in fields(rules) if f.metadata.get("spec"))


def scalar_keys(rules: type) -> tuple[str, ...]:
    """The rules read as is from their spec key."""
    return tuple(f.name for f in fields(rules) if f.metadata.get("spec") == "scalar")


def required_keys(rules: type) -> tuple[str, ...]:
    """The spec keys every edition of the family must give."""
    return tuple(f.name for f in fields(rules) if f.metadata.get("required"))


def rule_fields(cls: type) -> tuple[Field, ...]:
    """The `rule(...)` fields of a rules class or of Edition (its shared rules), in order."""
    return tuple(f for f in fields(cls) if "help" in f.metadata)


def value_type(cls: type, name: str) -> type:
    """The value type of a scalar rule (int, bool or str), from the field's annotation."""
    hint = get_type_hints(cls)[name]
    if hint not in (int, bool, str):
        raise TypeError(f"{cls.__name__}.{name}: a scalar rule is an int, bool or str, not {hint}")
    return hint


@dataclass(frozen=True)
class SweepKey:
    """A rules key the family's engine reads, with the values it may be swept over."""

    path: str
    """Dotted path; `*` stands for a patch id."""
    low: int = 0
    high: int = 0
    is_list: bool = False
    """The value is an ascending list of spaces (time-track marks)."""
    help: str = ""
    choices: tuple = ()
    """The values of a key that takes words or yes/no (`tie_break`, `allow_flip`); () for numbers."""


def sweep_keys(*classes: type) -> tuple[SweepKey, ...]:
    """The sweepable keys of the scalar rules of these classes (Edition's shared rules, a family's
    own), from their fields: every scalar rule is swept unless its field says why not."""
    out = []
    for cls in classes:
        for f in rule_fields(cls):
            meta = f.metadata
            if meta["spec"] != "scalar" or meta["sweep"] is not True:
                continue
            kind = value_type(cls, f.name)
            help = meta["help"].split(". ")[0].rstrip(".")
            help = help[:1].lower() + help[1:]
            if "choices" in meta:
                out.append(SweepKey(f.name, choices=meta["choices"], help=help))
            elif kind is bool:
                out.append(SweepKey(f.name, choices=(False, True), help=help))
            elif kind is int:
                low, high = meta["range"]
                out.append(SweepKey(f.name, low, high, help=help))
            else:
                raise TypeError(f"{cls.__name__}.{f.name}: free text cannot be swept; give rule(sweep=...) the reason")
    return tuple(out)


@dataclass(frozen=True)
class Edition:
    """A fully resolved edition or variant: the fields every family shares, plus `rules`, the
    family's own (TimeTrackRules or DoodleRules), so a key a family does not use cannot be
    written for it. Rules are read from `rules` (`edition.rules.rounds`), shared fields from the
    edition itself."""

    name: str
    """Registry name (`classic`, `express`, ...) or the variant's `name:`."""
    title: str
    family: Family
    board_width: int
    board_height: int
    players_min: int
    players_max: int | None
    """None: no cap (Doodle)."""
    patches: tuple[Patch, ...]
    """Time-track: the patches of the starting circle. Doodle: the patch-card deck (with copies)."""
    rules: TimeTrackRules | DoodleRules
    """The family's own rules."""
    allow_flip: bool = rule(True, help="Patches may be reflected as well as rotated.")
    """Patches may be reflected as well as rotated (ruling 23)."""
    empty_penalty: int = rule(2, range=(0, 99), help="Points lost per empty cell at the end.")
    """Points lost per empty cell at the end (both families' engines read it)."""

    # --- provenance -----------------------------------------------------------------
    provenance: str | None = None
    confidence: str | None = None
    source: str = ""
    """File the edition was loaded from."""
    content_hash: str = ""
    """sha256 of the canonical resolved spec; game records carry it."""
    spec: dict | None = field(default=None, compare=False, repr=False)
    """The self-contained `kind: edition` spec this edition was built from (plain data; records
    embed it). Not part of the content hash: the hash is of the resolved model."""

    def __post_init__(self) -> None:
        wanted = RULES_OF_FAMILY[self.family.value]
        if not isinstance(self.rules, wanted):
            raise ValueError(f"Edition {self.name!r}: a {self.family.value} edition takes {wanted.__name__}")

    def changed(self, **values) -> "Edition":
        """A copy with some fields or rules changed (a rule of another family is a ValueError).
        The content hash is not recomputed: toolkit.specs.loader.rehash does that."""
        common = {k: v for k, v in values.items() if k in _EDITION_NAMES}
        ruled = {k: v for k, v in values.items() if k not in _EDITION_NAMES}
        foreign = [k for k in ruled if k not in _RULE_NAMES[type(self.rules)]]
        if foreign:
            raise ValueError(f"Edition {self.name!r}: {', '.join(foreign)} not used by the {self.family.value} family")
        return replace(self, rules=replace(self.rules, **ruled), **common) if ruled else replace(self, **common)

    def setting(self, key: str):
        """The value of a shared field or of one of the family's rules, by spec key (`changed`'s
        counterpart, for code that edits editions by key)."""
        if key in _EDITION_NAMES:
            return getattr(self, key)
        if key in _RULE_NAMES[type(self.rules)]:
            return getattr(self.rules, key)
        raise KeyError(f"{key} is not used by the {self.family.value} family")

    @property
    def board_cells(self) -> int:
        return self.board_width * self.board_height

    @property
    def timetrack_rules(self) -> TimeTrackRules:
        """`rules` of a time-track edition (a ValueError for a Doodle one): the typed read for code
        that only plays the time-track games."""
        if not isinstance(self.rules, TimeTrackRules):
            raise ValueError(f"Edition {self.name!r} is a {self.family.value} edition, not a time-track one")
        return self.rules

    @property
    def doodle_rules(self) -> DoodleRules:
        """`rules` of a Doodle edition (a ValueError for a time-track one): the typed read for code
        that only plays Doodle."""
        if not isinstance(self.rules, DoodleRules):
            raise ValueError(f"Edition {self.name!r} is a {self.family.value} edition, not a Doodle one")
        return self.rules

    def all_patches(self) -> tuple[Patch, ...]:
        """Every patch of the edition: the starting circle followed by the late patches (time-track
        editions only have them)."""
        late = self.rules.late_patches if isinstance(self.rules, TimeTrackRules) else ()
        return self.patches + late

    def patch(self, patch_id: str) -> Patch:
        for p in self.all_patches():
            if p.id == patch_id:
                return p
        raise KeyError(patch_id)


_RULE_NAMES = {cls: frozenset(f.name for f in fields(cls)) for cls in RULES_OF_FAMILY.values()}
_EDITION_NAMES = frozenset(f.name for f in fields(Edition))
TIME_TRACK_RULES = tuple(f.name for f in fields(TimeTrackRules))
"""Rules only the time-track family reads."""
DOODLE_RULES = tuple(f.name for f in fields(DoodleRules))
"""Rules only the Doodle family reads."""
