"""One registered object per rules family: everything above `games/` asks it, never "which family?".

A `RulesFamily` knows, for the editions of its family: the validated engine, the compiled kernel
tables, the seats and how bots sit in them, the compiled turn loop of the simulator, how a batch
of games becomes tallies, per-deal outcomes, figures and report sections, and the family's
helpers for the play prompt. `sim/`, `cli/` and the records call these methods only; adding a
family means a package `games/<family>/` that registers one more object (and its bots in
`bots/`).

Family objects are light: they import their kernels (and so numba) only when a method needs them,
so commands that never play (help, validate, render) stay fast.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.errors import UnknownEdition
from toolkit.specs.models import Edition, Family


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


@dataclass(frozen=True)
class ReportTable:
    """A table of a report section (markdown and PDF render the same rows)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    intro: str = ""
    small: bool = False


@dataclass(frozen=True)
class ReportChart:
    """A chart: `histogram` series are [[value, count], ...]; `bars` series are one number per label."""

    kind: str
    """`histogram` or `bars`."""
    title: str
    series: tuple[Any, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...] = ()


class RulesFamily:
    """The contract; each family subclasses it in games/<family>/family.py and registers one."""

    family: Family
    kernel_modules: tuple[str, ...] = ()
    """Modules whose compiled functions a game of this family runs (for the compile notice)."""
    loop_modules: tuple[str, ...] = ()
    """Modules of the simulator's compiled turn loop and its choosers (for the compile notice)."""
    action_example: str = ""
    """An action prefix for the prompt's help, e.g. `buy P17`."""

    # ----- games -------------------------------------------------------------------------
    def engine(self):
        """The validated Game engine (toolkit.games.base.Engine)."""
        raise NotImplementedError

    def seats(self, edition: Edition, players: int | None) -> int:
        """Seats of a game of `edition` (players asked for, or the edition's own count)."""
        raise NotImplementedError

    def shapes_in_play(self, game) -> list[tuple[str, str]]:
        """(role, id) of the shapes the player to move chooses among now."""
        raise NotImplementedError

    def board_text(self, game) -> str:
        """The board as the play prompt shows it."""
        return game.render_text()

    # ----- simulation --------------------------------------------------------------------
    def default_bots(self, edition: Edition) -> str:
        raise NotImplementedError

    def seating(self, bots: tuple, edition: Edition, text: str) -> Seating:
        """Validate the bots (their number, who may sit where) and seat them; UsageError otherwise."""
        raise NotImplementedError

    def check_tables(self, edition: Edition) -> None:
        """Build the kernel tables now, so an edition the kernel cannot play fails before any game."""
        raise NotImplementedError

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

    def comparison_chart(self, base: dict, variant: dict) -> ReportChart:
        """The distribution a balance report overlays for the base and a variant."""
        raise NotImplementedError


_FAMILIES: dict[Family, RulesFamily] = {}
_MODULES = {
    Family.TIME_TRACK: "toolkit.games.timetrack.family",
    Family.DOODLE: "toolkit.games.doodle.family",
}
"""Where each built-in family registers itself (imported on first use)."""


def register_family(family: RulesFamily) -> RulesFamily:
    _FAMILIES[family.family] = family
    return family


def family_of(edition_or_family: Edition | Family) -> RulesFamily:
    """The registered rules family of an edition."""
    family = edition_or_family.family if isinstance(edition_or_family, Edition) else edition_or_family
    if family not in _FAMILIES and family in _MODULES:
        importlib.import_module(_MODULES[family])
    try:
        return _FAMILIES[family]
    except KeyError:
        raise UnknownEdition(f"no engine plays the rules family '{family.value}'") from None
