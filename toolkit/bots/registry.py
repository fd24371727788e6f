"""The one bot registry: (rules family, bot name) -> how the bot is parsed, compiled and built.

`--bots` text is parsed here once, at the boundary, into `BotSpec` values: the compiled turn loops
dispatch on `BotSpec.kind`, and `toolkit.bots.base.make_bot` builds the Python bot that plays a
validated Game. A name that exists for another family only, a missing or bad argument
(`mcts:`, `mcts:abc`, `greedy:3`) and an unknown name each get one clear error naming the bot.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.specs.models import Family

# Bot kinds of the compiled turn loops (one number per bot, shared where a bot exists in both families).
RANDOM = 0
GREEDY = 1
MCTS = 2
AUTOMA = 3
EXPERT = 4

KIND_NAMES = {RANDOM: "random", GREEDY: "greedy", MCTS: "mcts", AUTOMA: "automa", EXPERT: "expert"}
DEFAULT_MCTS_ITERATIONS = 1000
MAX_MCTS_ITERATIONS = 200_000
"""The search tree keeps about 3 KB per iteration (toolkit.bots.mcts)."""
MIN_SECONDS, MAX_SECONDS = 0.001, 60.0
"""Time budgets per move that `mcts:Xs` accepts."""


def time_budget(seconds: float) -> int:
    """The `iterations` code of a time budget per move (negative microseconds)."""
    return -max(1, round(seconds * 1_000_000))


def parse_budget(arg: str, name: str) -> int:
    """`2000` (iterations) or `0.5s` (seconds per move) -> the `iterations` code; UsageError if bad."""
    seconds = None
    if arg.endswith("s"):
        try:
            seconds = float(arg[:-1])
        except ValueError:
            seconds = None
    if seconds is not None:
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise UsageError(f"bot '{name}': a time budget must be {MIN_SECONDS:g}..{MAX_SECONDS:g} seconds "
                             "per move, e.g. mcts:0.5s")
        return time_budget(seconds)
    try:
        iterations = int(arg)
    except ValueError:
        raise UsageError(f"bot '{name}': the MCTS budget must be an integer (a whole number of iterations) or "
                         "seconds per move, e.g. mcts:2000 or mcts:0.5s") from None
    if not 1 <= iterations <= MAX_MCTS_ITERATIONS:
        raise UsageError(f"bot '{name}': the MCTS budget must be 1..{MAX_MCTS_ITERATIONS} iterations")
    return iterations


def budget_name(code: int) -> str:
    """`mcts:2000` or `mcts:0.5s` for an `iterations` code."""
    return f"mcts:{code}" if code > 0 else f"mcts:{-code / 1_000_000:g}s"


@dataclass(frozen=True)
class BotSpec:
    """One bot of a simulation or a game."""

    name: str
    """Canonical name, e.g. `random`, `mcts:2000`, `automa:3:normal`."""
    kind: int
    """RANDOM, GREEDY, MCTS, AUTOMA or EXPERT."""
    iterations: int = 0
    """MCTS budget per move: iterations, or when negative a time budget of -iterations microseconds
    (`mcts:0.5s`; the compiled loops pass it to the search as is)."""
    automa_level: int = 0
    """Automa difficulty 1..5 (0: not Automa)."""
    automa_deck: str = ""
    """Automa deck name (`normal`, `tactical`)."""

    @property
    def label(self) -> str:
        """Short name for tables and charts."""
        if self.kind == AUTOMA:
            return f"automa L{self.automa_level} {self.automa_deck}"
        if self.timed:
            return f"{self.name} (time budget: not reproducible)"
        return self.name

    @property
    def timed(self) -> bool:
        """Searches for a time per move, so its games depend on the machine's speed and load."""
        return self.kind == MCTS and self.iterations < 0


def reproducibility(bots) -> tuple[bool, str]:
    """Whether the same seed gives the same games, and why not."""
    timed = [b.name for b in bots if b.timed]
    if timed:
        return False, (f"{', '.join(timed)} searches for a time per move, so how far it searches depends on the "
                       "machine and its load: the same seed can give different games")
    return True, "every bot's budget is counted in iterations: the same seed gives the same games"


@dataclass(frozen=True)
class BotEntry:
    """A bot of one rules family."""

    name: str
    family: Family
    kind: int
    argument: str = ""
    """What may follow `name:`: "" (nothing) or "iterations"."""
    summary: str = ""


_ENTRIES: dict[tuple[Family, str], BotEntry] = {}


def register(entry: BotEntry) -> BotEntry:
    _ENTRIES[(entry.family, entry.name)] = entry
    return entry


for _entry in (
    BotEntry("random", Family.TIME_TRACK, RANDOM, summary="uniform over the legal actions"),
    BotEntry("greedy", Family.TIME_TRACK, GREEDY, summary="one ply with a packing evaluation"),
    BotEntry("mcts", Family.TIME_TRACK, MCTS, "iterations",
             "UCT search, mcts:N iterations or mcts:Xs seconds per move"),
    BotEntry("automa", Family.TIME_TRACK, AUTOMA, summary="the official solo opponent (Automa editions)"),
    BotEntry("random", Family.DOODLE, RANDOM, summary="uniform over the legal actions"),
    BotEntry("greedy", Family.DOODLE, GREEDY, summary="fast: packing pre-filter, one-card look-ahead"),
    BotEntry("expert", Family.DOODLE, EXPERT, summary="strong: two-turn expectimax over the die"),
):
    register(_entry)


def bot_names(family: Family) -> list[str]:
    """The bots of a family as users write them (`mcts:N` for a bot that takes a budget)."""
    return [f"{e.name}:N" if e.argument == "iterations" else e.name
            for (f, _), e in _ENTRIES.items() if f == family]


def entry(name: str, family: Family, text: str | None = None) -> BotEntry:
    """The registry entry of `name` for `family`; UsageError naming what is known otherwise."""
    found = _ENTRIES.get((family, name))
    if found is not None:
        return found
    shown = text or name
    others = sorted(f.value for (f, n) in _ENTRIES if n == name)
    known = ", ".join(bot_names(family))
    if others:
        raise UsageError(f"bot '{shown}' plays the {' and '.join(others)} editions only; "
                         f"{family.value} bots: {known}")
    raise UsageError(f"unknown bot '{shown}' ({family.value} bots: {known})")


def parse_bot(text: str, family: Family, automa_level: int = 1, automa_deck: str = "normal") -> BotSpec:
    """One bot name (`greedy`, `mcts:2000`, `automa`) for `family`; raises UsageError."""
    raw = text.strip().lower()
    name, colon, arg = raw.partition(":")
    found = entry(name, family, text.strip())
    if found.argument == "iterations":
        iterations = parse_budget(arg, text.strip()) if colon else DEFAULT_MCTS_ITERATIONS
        return BotSpec(budget_name(iterations), found.kind, iterations=iterations)
    if colon:
        raise UsageError(f"bot '{text.strip()}': {name} takes no argument (write just '{name}')")
    if found.kind == AUTOMA:
        if not 1 <= automa_level <= 5:
            raise UsageError(f"--automa-level must be 1..5, got {automa_level}")
        return BotSpec(f"automa:{automa_level}:{automa_deck}", AUTOMA, automa_level=automa_level,
                       automa_deck=automa_deck)
    return BotSpec(name, found.kind)


def split_bots(text: str) -> list[str]:
    """The names of a `--bots A,B` list; an empty name (`a,,b`, `a,`) is an error."""
    names = [p.strip() for p in text.split(",")]
    if not text.strip():
        raise UsageError("--bots needs at least one bot name, e.g. --bots greedy,random")
    if any(not n for n in names):
        raise UsageError(f"--bots '{text}': empty bot name (expected e.g. greedy,random)")
    return names
