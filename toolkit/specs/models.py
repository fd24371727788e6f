"""Frozen, typed models of the spec files.

The loader (toolkit.specs.loader) validates YAML once, at the boundary, and builds these; the rest
of the toolkit trusts them. An Edition is fully resolved: `extends:` chains, named patch sets,
time tracks and Automa decks are already merged in.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum

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
"""A rule the loader builds from the spec key of the same name (a reference, a table)."""
REQUIRED = {"spec": "built", "required": True}
"""A built rule every edition of the family must give."""
DERIVED = {"spec": None}
"""A rule derived from other keys: not a spec key of its own."""


@dataclass(frozen=True)
class TimeTrackRules:
    """The rules only the time-track family reads (classic, Christmas, anniversary, Express).

    Each field's metadata says how the spec gives it (SCALAR, BUILT, REQUIRED, DERIVED): the
    loader's key lists are derived from it, so a new rule is written here, in the schema
    (toolkit.specs.schema) and in the engine that reads it."""

    starting_buttons: int = field(default=5, metadata=SCALAR)
    market_window: int = field(default=3, metadata=SCALAR)
    """Patches after the neutral token that may be bought."""
    bonus: Bonus | None = field(default=None, metadata=BUILT)
    time_track: TimeTrack | None = field(default=None, metadata=REQUIRED)
    late_patches: tuple[Patch, ...] = field(default=(), metadata=BUILT)
    """Patches that join the circle later (Express blue), shuffled, behind the neutral token."""
    late_patches_enter_at: int | None = field(default=None, metadata=DERIVED)
    """Late patches join the moment only this many patches remain in the circle (Express: 5)."""
    neutral_token_after: str = field(default="smallest", metadata=SCALAR)
    """Setup: the token sits after this patch (`smallest` or a patch id), so it is the last reachable."""
    automa: Automa | None = field(default=None, metadata=BUILT)
    tie_break: str = field(default="first-to-finish", metadata=SCALAR)
    """`first-to-finish` (ruling 7) or `shared` (equal scores have no single winner)."""
    track_layout: str | None = field(default=None, metadata=DERIVED)
    """Name of the time track used (reported with every simulation)."""


@dataclass(frozen=True)
class DoodleRules:
    """The rules only the Doodle family reads (field metadata as in TimeTrackRules)."""

    start_cards: tuple[StartCard, ...] = field(default=(), metadata=REQUIRED)
    die: tuple[int, ...] = field(default=(), metadata=REQUIRED)
    circle_size: int = field(default=8, metadata=SCALAR)
    rounds: int = field(default=3, metadata=SCALAR)
    turns_per_round: int = field(default=6, metadata=SCALAR)
    refill: int = field(default=6, metadata=SCALAR)
    """Cards added to the circle between rounds."""
    final_free_choice: bool = field(default=True, metadata=SCALAR)
    """Round 3 ends with an un-rolled turn where each player picks any card left."""
    special_actions: tuple[str, ...] = field(default=(), metadata=BUILT)
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


@dataclass(frozen=True)
class Edition:
    """A fully resolved edition or variant: the fields every family shares, plus `rules`, the
    family's own (TimeTrackRules or DoodleRules), so a key a family does not use cannot be
    written for it. Each rule also reads as an attribute of the edition (`edition.rounds`)."""

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
    allow_flip: bool = True
    """Patches may be reflected as well as rotated (ruling 23)."""
    empty_penalty: int = 2
    """Points lost per empty cell at the end."""

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

    def __getattr__(self, name: str):
        # Only reached when `name` is not a field of the edition itself.
        if name.startswith("__"):
            raise AttributeError(name)
        rules = self.__dict__.get("rules")
        if rules is None:
            raise AttributeError(name)
        if name in _RULE_NAMES[type(rules)]:
            return getattr(rules, name)
        raise AttributeError(f"{name} is not used by the {self.family.value} family")

    def changed(self, **values) -> "Edition":
        """A copy with some fields or rules changed (a rule of another family is a ValueError).
        The content hash is not recomputed: toolkit.specs.loader.rehash does that."""
        common = {k: v for k, v in values.items() if k in _EDITION_NAMES}
        ruled = {k: v for k, v in values.items() if k not in _EDITION_NAMES}
        foreign = [k for k in ruled if k not in _RULE_NAMES[type(self.rules)]]
        if foreign:
            raise ValueError(f"Edition {self.name!r}: {', '.join(foreign)} not used by the {self.family.value} family")
        return replace(self, rules=replace(self.rules, **ruled), **common) if ruled else replace(self, **common)

    @property
    def board_cells(self) -> int:
        return self.board_width * self.board_height

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


_RULE_NAMES = {cls: frozenset(f.name for f in fields(cls)) for cls in (TimeTrackRules, DoodleRules)}
_EDITION_NAMES = frozenset(f.name for f in fields(Edition))
TIME_TRACK_RULES = tuple(f.name for f in fields(TimeTrackRules))
"""Rules only the time-track family reads."""
DOODLE_RULES = tuple(f.name for f in fields(DoodleRules))
"""Rules only the Doodle family reads."""
