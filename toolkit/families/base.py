"""The contract of a rules family and its capability record: everything above `games/` and
`bots/` asks a family's registered object what it can do, never "which family is this?".

A `RulesFamily` knows, for the editions of its family: the validated engine, the seats and how
bots sit in them, the compiled turn loop of the simulator, how a batch of games becomes tallies,
per-deal outcomes, figures and report sections, and the helpers of the play prompt. Its
`FamilyInfo` is the record of what the family can do (OpenSpiel's game type and info): whether
patches carry a price, whether seats play head to head, which keys sweep, which components it
prints, which bots it seats by default and which one hints.

Family objects are light: they import their kernels (and so numba) only when a method needs them,
so commands that never play (help, validate, render) stay fast.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # numpy appears in annotations only; the simulator loads it
    import numpy as np

    from toolkit.bots.base import Hinter
    from toolkit.games.base import Engine, Game

from toolkit.errors import UnknownEdition, UsageError
from toolkit.sections import ReportChart, ReportTable
from toolkit.specs.models import Edition, Family, SweepKey, sweep_keys  # noqa: F401  (SweepKey: families describe their keys with it)

Capability = Literal["prices_patches", "head_to_head", "has_solo_opponent"]
"""The capabilities a command may `require` of an edition's family."""


@dataclass(frozen=True)
class FamilyInfo:
    """What a rules family can do: the questions code above the rules asks instead of its name."""

    name: str
    """The spec's `family:` value (`time-track`, `doodle`)."""
    title: str
    """How messages name the family's games (`time-track`, `Doodle`)."""
    editions: str
    """The bundled editions of the family, for messages (`classic, Christmas, ...`)."""
    fixed_seats: int | None
    """Seats of every game (2), or None when the edition's players_min..players_max decide."""
    seat_rule: str
    """One sentence: how seats are filled."""
    prices_patches: bool
    """Patches carry a button price a player pays (price, deck check and tune, deck generate)."""
    head_to_head: bool
    """Seats play against each other: seat-swapped pairs, win rates, margins, the ladder."""
    has_solo_opponent: bool
    """Some editions bring a rules-driven opponent deck (Automa)."""
    has_time_track: bool
    """Time tokens race along a time track (time board, time tokens, neutral token, leather patches)."""
    result_fields: tuple[str, ...]
    """Per-deal outcomes a balance experiment pairs between the base and a variant."""
    test_figures: tuple[str, ...]
    """Figures a sequential test (balance --sprt) may compare."""
    sweepable: tuple[SweepKey, ...]
    """Rules keys `sweep --set` may change (only keys the engine reads: others would sweep nothing)."""
    components: tuple[str, ...]
    """What `render` prints for an edition of the family."""
    kit_editions: tuple[str, ...]
    """Bundled editions `build` prints a whole kit of."""
    default_edition: str
    """The bundled edition a command uses when none is named."""
    default_bots: str
    """`simulate`'s bots when none are named (one per seat of the default edition)."""
    balance_bots: str
    """The bots a designer's balance questions use by default (price, sweep, balance)."""
    strong_bot: str
    """The strongest bot, as text (`mcts:200`, `expert`)."""
    hint_bot: str
    """The bot whose `explain(game)` answers `hint` at the prompt."""
    action_example: str
    """An action for the prompt's help, e.g. `buy P17`."""

    def can(self, capability: Capability) -> bool:
        """Whether the family has a capability a command needs (see `require`)."""
        return {"prices_patches": self.prices_patches, "head_to_head": self.head_to_head,
                "has_solo_opponent": self.has_solo_opponent}[capability]

    def sweep_key(self, pattern: str) -> SweepKey | None:
        return next((k for k in self.sweepable if k.path == pattern), None)

    def sweep_names(self) -> list[str]:
        return [k.path.replace("*", "ID") for k in self.sweepable]


CAPABILITY_REFUSALS: dict[Capability, str] = {
    "prices_patches": "patches have a price only in the games where they are bought with buttons",
    "head_to_head": "it compares seats that play head to head, and this game has none",
    "has_solo_opponent": "it needs an edition with a solo opponent deck (Automa)",
}
"""Why a command that needs a capability refuses an edition without it (one sentence each)."""


def require(edition: Edition, capability: Capability, command: str, why: str | None = None) -> "RulesFamily":
    """The edition's family, or one UsageError: `price: 'doodle' is a Doodle edition; patches ...`."""
    family = family_of(edition)
    if not family.info.can(capability):
        reason = why or CAPABILITY_REFUSALS[capability]
        capable = [f"the {f.info.title} games: {f.info.editions}" for f in all_families() if f.info.can(capability)]
        where = f" ({'; '.join(capable)})" if capable else ""
        raise UsageError(f"{command}: '{edition.name}' is a {family.info.title} edition; {reason}{where}")
    return family


@dataclass(frozen=True)
class WarmUp:
    """One group of kernels and the workload that compiles it (toolkit.warmup runs it)."""

    label: str
    """What it compiles, for the progress line."""
    target: str
    """`module:function` of the workload (a top-level function, so a worker process can run it)."""


@dataclass(frozen=True)
class Seating:
    """How the bots of a simulation sit: the order of play and whether deals are seat-swapped."""

    bots: tuple[Any, ...]
    """BotSpec per seat (bots[0] in seat 0 of a deal's first game)."""
    games_per_deal: int
    """2 when each deal is played twice with the seats swapped, else 1."""
    rule: str
    """One sentence for reports: how seats and bots are assigned."""

    @property
    def swaps(self) -> bool:
        return self.games_per_deal == 2


class RulesFamily:
    """The contract; each family subclasses it in toolkit/families/<family>/ and registers one."""

    family: Family
    info: FamilyInfo
    kernel_modules: tuple[str, ...] = ()
    """Modules whose compiled functions a game of this family runs (for the compile notice)."""
    loop_modules: tuple[str, ...] = ()
    """Modules of the simulator's compiled turn loop and its choosers (for the compile notice)."""

    @property
    def action_example(self) -> str:
        return self.info.action_example

    # ----- games -------------------------------------------------------------------------
    def engine(self) -> Engine:
        """The validated Game engine (toolkit.games.base.Engine)."""
        raise NotImplementedError

    def new_game(self, edition: Edition, seed: int, players: int | None = None, **options: Any) -> Game:
        """A validated game of `edition` right after the deal."""
        return self.engine().new_game(edition, seed, players, **options)

    def seats(self, edition: Edition, players: int | None) -> int:
        """Seats of a game of `edition` (players asked for, or the edition's own count)."""
        raise NotImplementedError

    def solo_opponent(self, edition: Edition):
        """The edition's solo opponent deck (Automa), or None."""
        return None

    def track_facts(self, edition: Edition) -> dict | None:
        """The time track a result was played on (layout, final space, marks), or None."""
        return None

    def button_tiles(self, edition: Edition) -> tuple[tuple[int, int], ...]:
        """(value, count) of the button tiles a printed kit of `edition` holds (the box's bank);
        none when the family's games have no buttons to pay with."""
        return ()

    def shapes_in_play(self, game) -> list[tuple[str, str]]:
        """(role, id) of the shapes the player to move chooses among now."""
        raise NotImplementedError

    def shapes(self, edition: Edition) -> tuple[tuple[str, Any], ...]:
        """(id, Shape) of every patch or card a player of `edition` may draw or place."""
        return tuple((p.id, p.shape) for p in edition.all_patches())

    def board_text(self, game) -> str:
        """The board as the play prompt shows it."""
        return game.render_text()

    def quilt_cells(self, game, seat: int) -> dict[tuple[int, int], str]:
        """The covered cells (row, col) of a seat's quilt or sheet, each with a one-letter label
        of what covers it (the studio draws the boards from it)."""
        raise NotImplementedError

    def view(self, game):
        """The position as a view draws it (toolkit.families.view.Position): boards with what lies
        on them and what is marked, the track, the pieces on offer."""
        raise NotImplementedError

    def views(self, game):
        """The Position at the deal and after each action of the game's history."""
        raise NotImplementedError

    def hinter(self, edition: Edition) -> Hinter:
        """What answers `hint` at the prompt (toolkit.bots.base.Hinter: `explain(game) -> str`); by
        default the `hint_bot` itself, built for `edition` (UsageError when that bot does not explain)."""
        from toolkit.bots.registry import bot_for, build_hinter

        return build_hinter(bot_for(self.info.hint_bot, edition), edition)

    # ----- simulation --------------------------------------------------------------------
    def default_bots(self, edition: Edition) -> str:
        raise NotImplementedError

    def seating(self, bots: tuple, edition: Edition, text: str) -> Seating:
        """Validate the bots (their number, who may sit where) and seat them; UsageError otherwise."""
        raise NotImplementedError

    def check_tables(self, edition: Edition) -> None:
        """Build the kernel tables now, so an edition the kernel cannot play fails before any game."""
        raise NotImplementedError

    def check_edited(self, edition: Edition) -> str | None:
        """Why an edition edited by key (sweep, price) cannot be played, or None."""
        return None

    def warm_ups(self) -> list:
        """The jobs that compile every kernel this family's commands call (toolkit.warmup runs them)."""
        return []

    def play(self, edition: Edition, bots: tuple, game_rngs: np.ndarray, bot_rngs: np.ndarray,
             swap: np.ndarray) -> dict[str, np.ndarray]:
        """One game per row of the generator arrays in the compiled turn loop: the result arrays."""
        raise NotImplementedError

    def tally(self, edition: Edition, out: dict[str, np.ndarray], swap: np.ndarray):
        raise NotImplementedError

    def outcomes(self, out: dict[str, np.ndarray], per_deal: int) -> dict[str, np.ndarray]:
        """Per-deal integers that balance experiments pair between the base and a variant."""
        raise NotImplementedError

    def metrics(self, editions: tuple[Edition, ...], bots: tuple, per_deal: int) -> list:
        raise NotImplementedError

    def figures(self, tally, edition: Edition, seating: Seating) -> dict:
        raise NotImplementedError

    def summary_rows(self, figures: dict) -> list[tuple[str, str]]:
        raise NotImplementedError

    def report_sections(self, figures: dict) -> list[ReportTable | ReportChart]:
        raise NotImplementedError

    def headline(self, figures: dict, patches: list[str]) -> list[tuple[str, dict, bool]]:
        """(label, interval, is_rate) of the figures a sweep shows per point (with the rows of the
        patches a sweep touched)."""
        raise NotImplementedError

    def comparison_chart(self, base: dict, variant: dict) -> ReportChart:
        """The distribution a balance report overlays for the base and a variant."""
        raise NotImplementedError


# ----- the registry ----------------------------------------------------------------------
FAMILY_PACKAGES: dict[Family, str] = {
    Family.TIME_TRACK: "toolkit.families.timetrack",
    Family.DOODLE: "toolkit.families.doodle",
}
"""The one list of rules families: where each registers itself (imported on first use)."""

_FAMILIES: dict[Family, RulesFamily] = {}


def register_family(family: RulesFamily) -> RulesFamily:
    _FAMILIES[family.family] = family
    return family


def family_of(edition_or_family: Edition | Family) -> RulesFamily:
    """The registered rules family of an edition."""
    import importlib

    family = edition_or_family.family if isinstance(edition_or_family, Edition) else edition_or_family
    if family not in _FAMILIES and family in FAMILY_PACKAGES:
        importlib.import_module(FAMILY_PACKAGES[family])
    try:
        return _FAMILIES[family]
    except KeyError:
        raise UnknownEdition(f"no engine plays the rules family '{family.value}'") from None


def all_families() -> list[RulesFamily]:
    """Every registered family, in the order of FAMILY_PACKAGES."""
    return [family_of(f) for f in FAMILY_PACKAGES]


def twin_ids(shape, edition: Edition) -> list[str]:
    """Ids of the edition's patches and cards whose free shape equals `shape`'s."""
    key = shape.canonical_key
    return [pid for pid, other in family_of(edition).shapes(edition) if other.canonical_key == key]


def engine_for(edition: Edition):
    """The validated Game engine that plays `edition` (its family's)."""
    return family_of(edition).engine()
