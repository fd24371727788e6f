"""Bot names as the simulator reads them: `random`, `greedy`, `mcts:N`, `automa` -> (kind, params).

The compiled turn loops (toolkit.sim.loops) dispatch on the integer `kind`; this module turns the
user's `--bots` text into validated `BotSpec` values, once, at the boundary, and says clearly
when a bot does not apply to the edition's rules family or is not available.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.bots.mcts import MAX_ITERATIONS as MAX_MCTS_ITERATIONS
from toolkit.errors import UsageError
from toolkit.specs.models import Edition, Family

# Bot kinds of the turn loops (shared by both families where a bot exists in both).
RANDOM = 0
GREEDY = 1
MCTS = 2
AUTOMA = 3
EXPERT = 4

KIND_NAMES = {RANDOM: "random", GREEDY: "greedy", MCTS: "mcts", AUTOMA: "automa", EXPERT: "expert"}
KNOWN = ("random", "greedy", "mcts:N", "automa", "expert")
DEFAULT_MCTS_ITERATIONS = 1000
AUTOMA_LEVELS = range(1, 6)


@dataclass(frozen=True)
class BotSpec:
    """One bot of a simulation."""

    name: str
    """Canonical name, e.g. `random`, `mcts:2000`, `automa(level 3, normal)`."""
    kind: int
    """RANDOM, GREEDY, MCTS, AUTOMA or EXPERT."""
    iterations: int = 0
    """MCTS iteration budget per move."""
    automa_level: int = 0
    """Automa difficulty 1..5 (0: not Automa)."""
    automa_deck: str = ""
    """Automa deck name (`normal`, `tactical`)."""

    @property
    def label(self) -> str:
        """Short name for tables and charts."""
        if self.kind == AUTOMA:
            return f"automa L{self.automa_level} {self.automa_deck}"
        return self.name


def parse_bot(text: str, family: Family, automa_level: int = 1, automa_deck: str = "normal") -> BotSpec:
    """One bot name; raises UsageError naming the bot and what is expected."""
    raw = text.strip().lower()
    name, _, arg = raw.partition(":")
    if name == "random" and not arg:
        return BotSpec("random", RANDOM)
    if name == "greedy" and not arg:
        return BotSpec("greedy", GREEDY)
    if name == "expert" and not arg:
        if family != Family.DOODLE:
            raise UsageError("bot 'expert' plays the Doodle editions only; time-track bots: random, greedy, mcts:N, automa")
        return BotSpec("expert", EXPERT)
    if name == "mcts":
        if family == Family.DOODLE:
            raise UsageError("bot 'mcts' plays the time-track editions only; Doodle bots: random, greedy, expert")
        if not arg:
            iterations = DEFAULT_MCTS_ITERATIONS
        else:
            try:
                iterations = int(arg)
            except ValueError:
                raise UsageError(f"bot '{text}': the MCTS budget must be an integer, e.g. mcts:2000") from None
            if not 1 <= iterations <= MAX_MCTS_ITERATIONS:
                raise UsageError(f"bot '{text}': the MCTS budget must be 1..{MAX_MCTS_ITERATIONS}")
        return BotSpec(f"mcts:{iterations}", MCTS, iterations=iterations)
    if name == "automa" and not arg:
        if family == Family.DOODLE:
            raise UsageError("bot 'automa' is the solo opponent of the classic editions; it does not play Doodle")
        if automa_level not in AUTOMA_LEVELS:
            raise UsageError(f"--automa-level must be 1..5, got {automa_level}")
        return BotSpec(f"automa:{automa_level}:{automa_deck}", AUTOMA, automa_level=automa_level, automa_deck=automa_deck)
    raise UsageError(f"unknown bot '{text}' (expected one of: {', '.join(KNOWN)})")


def parse_bots(
    text: str,
    edition: Edition,
    automa_level: int = 1,
    automa_deck: str = "normal",
) -> tuple[BotSpec, ...]:
    """The `--bots A,B` list for `edition`, validated against its rules family.

    Time-track games take exactly two bots; with `automa`, the other bot takes seat 0 and moves
    first (the Automa rules), whichever order the names were given in. Doodle takes one bot per
    player (one bot = the solo game).
    """
    names = [part for part in (p.strip() for p in text.split(",")) if part]
    if not names:
        raise UsageError("--bots needs at least one bot name, e.g. --bots greedy,random")
    bots = [parse_bot(n, edition.family, automa_level, automa_deck) for n in names]
    if edition.family == Family.TIME_TRACK:
        if len(bots) != 2:
            raise UsageError(f"--bots: a time-track game has 2 seats, got {len(bots)} bot(s) ('{text}')")
        automas = [b for b in bots if b.kind == AUTOMA]
        if len(automas) == 2:
            raise UsageError("--bots: automa plays against one player bot, not against itself")
        if automas:
            if edition.automa is None:
                raise UsageError(f"--bots: edition '{edition.name}' has no Automa deck, so 'automa' cannot play it")
            decks = [name for name, _ in edition.automa.decks]
            if automa_deck not in decks:
                raise UsageError(f"--automa-deck '{automa_deck}' is not a deck of '{edition.name}' (decks: {', '.join(decks)})")
            levels = [lv.level for lv in edition.automa.levels]
            if automa_level not in levels:
                raise UsageError(f"--automa-level {automa_level} is not a level of '{edition.name}' (levels: {', '.join(map(str, levels))})")
            human = bots[0] if bots[1].kind == AUTOMA else bots[1]
            bots = [human, automas[0]]
        return tuple(bots)
    players_max = edition.players_max
    if len(bots) < edition.players_min or (players_max is not None and len(bots) > players_max):
        upper = "any number" if players_max is None else str(players_max)
        raise UsageError(f"--bots: '{edition.name}' takes {edition.players_min}..{upper} players, got {len(bots)}")
    return tuple(bots)


def swaps_seats(bots: tuple[BotSpec, ...], edition: Edition) -> bool:
    """Whether each deal is played twice with seats swapped (two-seat games without Automa)."""
    return edition.family == Family.TIME_TRACK and all(b.kind != AUTOMA for b in bots)


def games_per_deal(bots: tuple[BotSpec, ...], edition: Edition) -> int:
    return 2 if swaps_seats(bots, edition) else 1
