"""The one bot registry: one entry per (rules family, bot) that parses the bot's text, names the
kind the compiled turn loops play it as, and builds the Python bot that plays a validated Game.

`play`, `simulate` and the workbench read `--bots` text through `parse_bot` alone, so they accept
the same texts with the same messages: `random`, `greedy`, `mcts`, `mcts:2000`, `mcts:0.5s`,
`mcts:0.5s:2t` (a time budget on two threads; `--threads 2` adds `:2t` through `with_threads`),
`automa`, `automa:3`, `automa:3:tactical`, `expert` (and `human`, a person at the prompt, which
only `play` seats). A name that exists for another family only, a missing or bad argument
(`mcts:`, `mcts:abc`, `greedy:3`) and an unknown name each get one clear error naming the bot.
`check_bot` then holds a parsed bot to an edition (the Automa needs the edition's deck and level),
and `build_bot` imports the module of that one bot (a broken module breaks only its own bot) and
builds it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolkit.errors import ToolkitError, UsageError
from toolkit.specs.models import Edition, Family, TimeTrackRules

if TYPE_CHECKING:  # the protocols only (toolkit.bots.base imports this module)
    from toolkit.bots.base import Bot, Hinter

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
MAX_THREADS = 64
"""Threads one search bot may search on (`mcts:0.5s:2t`, `--threads 2`)."""
AUTOMA_LEVELS = (1, 5)
"""The Automa levels any text may name; an edition's deck says which of them it has."""
AUTOMA_LEVEL, AUTOMA_DECK = 1, "normal"
"""The Automa a simulation seats when neither the text nor --automa-level/--automa-deck say."""
PROMPT_AUTOMA_LEVEL = 3
"""The Automa's level at the prompt (`patchwork play`) and in `make_bot` when nothing says: a
middling opponent for a person (simulations start from level 1)."""

HUMAN = "human"
"""The seat text of a person at the prompt (`patchwork play` only)."""

# What may follow `name:` in a bot's text.
NO_ARGUMENT = ""
BUDGET = "budget"
"""`N` iterations or `Xs` seconds per move; after a time budget `:Nt`, the threads it searches on."""
LEVEL = "level"
"""`LEVEL` or `LEVEL:DECK` of the Automa."""


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


def budget_name(code: int, threads: int = 1) -> str:
    """`mcts:2000`, `mcts:0.5s` or `mcts:0.5s:2t` for an `iterations` code and threads."""
    name = f"mcts:{code}" if code > 0 else f"mcts:{-code / 1_000_000:g}s"
    return name if threads == 1 else f"{name}:{threads}t"


def parse_threads(arg: str, name: str, timed: bool) -> int:
    """`2t` (after a time budget) -> 2; UsageError if bad or after an iteration budget."""
    try:
        threads = int(arg[:-1]) if arg.endswith("t") else None
    except ValueError:
        threads = None
    if threads is None:
        raise UsageError(f"bot '{name}': after the budget comes the number of threads, e.g. mcts:0.5s:2t")
    if not 1 <= threads <= MAX_THREADS:
        raise UsageError(f"bot '{name}': the threads must be 1..{MAX_THREADS}, e.g. mcts:0.5s:2t")
    if threads > 1 and not timed:
        raise UsageError(f"bot '{name}': only a time budget searches on several threads (e.g. mcts:0.5s:{threads}t); "
                         "an iteration budget searches on one, so that a seed gives the same games")
    return threads


def _timed_budget(name: str) -> tuple[bool, bool]:
    """(a bot text with a time budget, one that names its threads)."""
    base, _, arg = name.strip().partition(":")
    budget, colon, _ = arg.partition(":")
    takes = any(e.name == base.lower() and e.argument == BUDGET for e in _ENTRIES.values())
    return takes and budget.lower().endswith("s"), bool(colon)


def with_threads(text: str, threads: int) -> str:
    """A `--bots` list with `:Nt` added to each bot with a time budget that names no threads of its
    own (what `--threads N` means); iteration budgets and other bots are left as they are."""
    if not 1 <= threads <= MAX_THREADS:
        raise UsageError(f"--threads must be 1..{MAX_THREADS}, got {threads}")
    if threads == 1:
        return text
    out = []
    for name in split_bots(text):
        timed, named = _timed_budget(name)
        out.append(f"{name}:{threads}t" if timed and not named else name)
    return ",".join(out)


def has_time_budget(text: str | None) -> bool:
    """Whether a `--bots` list holds a bot with a time budget (the only bots threads are for)."""
    if not text:
        return False
    return any(_timed_budget(name)[0] for name in text.split(","))


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
    threads: int = 1
    """Threads the search bot grows its tree on (time budgets only: `mcts:0.5s:2t`)."""

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

    @property
    def solo_opponent(self) -> bool:
        """Plays the edition's solo opponent deck (the Automa), not a player's seat."""
        return self.kind == AUTOMA


def reproducibility(bots) -> tuple[bool, str]:
    """Whether the same seed gives the same games, and why not."""
    timed = [b.name for b in bots if b.timed]
    if timed:
        return False, (f"{', '.join(timed)} searches for a time per move, so how far it searches depends on the "
                       "machine and its load: the same seed can give different games")
    return True, "every bot's budget is counted in iterations: the same seed gives the same games"


_failed: dict[str, str] = {}
"""Module -> why its import failed, reported whenever one of its bots is asked for."""


@dataclass(frozen=True)
class BotEntry:
    """A bot of one rules family: its text, its compiled kind and its Python player."""

    name: str
    family: Family
    kind: int
    """The kind the compiled turn loops play it as (RANDOM, GREEDY, MCTS, AUTOMA, EXPERT)."""
    player: str
    """`module:Class` of the Python bot; the module is imported when the bot is first built, so
    a command imports the modules of the bots it seats only."""
    argument: str = NO_ARGUMENT
    """What may follow `name:`: NO_ARGUMENT, BUDGET (`mcts:2000`, `mcts:0.5s`, `mcts:0.5s:2t`) or
    LEVEL (`automa:3`, `automa:3:tactical`)."""
    summary: str = ""
    explains: bool = False
    """The bot answers `hint` at the prompt: its class has `explain(game) -> str` (bots.base.Hinter)."""

    @property
    def written(self) -> str:
        """The name as messages show it (`mcts:N` for a bot that takes a budget)."""
        return f"{self.name}:N" if self.argument == BUDGET else self.name

    def parse(self, text: str, arg: str | None, automa_level: int, automa_deck: str) -> BotSpec:
        """The BotSpec of `text` (`arg`: what follows the colon, None without one)."""
        if self.argument == BUDGET:
            budget, colon, threads_text = (arg or "").partition(":")
            iterations = DEFAULT_MCTS_ITERATIONS if arg is None else parse_budget(budget, text)
            threads = parse_threads(threads_text, text, iterations < 0) if colon else 1
            return BotSpec(budget_name(iterations, threads), self.kind, iterations=iterations, threads=threads)
        if self.argument == LEVEL:
            return _parse_automa(text, self.kind, arg, automa_level, automa_deck)
        if arg is not None:
            raise UsageError(f"bot '{text}': {self.name} takes no argument (write just '{self.name}')")
        return BotSpec(self.name, self.kind)

    def check(self, spec: BotSpec, edition: Edition) -> None:
        """UsageError when `edition` cannot seat the bot (the Automa: no deck, or not that level or deck)."""
        if self.argument == LEVEL:
            _check_automa(spec, edition, f"the {self.name} bot")

    def build(self, spec: BotSpec) -> Bot:
        """The Python bot of `spec` (imports its module now)."""
        return self._make(spec)

    def build_hinter(self, spec: BotSpec) -> Hinter:
        """The bot of `spec` as what answers `hint`; UsageError for a bot that does not explain."""
        if not self.explains:
            raise UsageError(f"the {self.name} bot does not explain its moves")
        return self._make(spec)

    def _make(self, spec: BotSpec) -> Any:
        module_name, _, class_name = self.player.partition(":")
        player = getattr(_import(module_name, self.name), class_name)
        if self.argument == BUDGET:
            return player(spec.iterations, threads=spec.threads)
        if self.argument == LEVEL:
            return player(spec.automa_level, spec.automa_deck)
        return player()


_ENTRIES: dict[tuple[Family, str], BotEntry] = {}


def register(entry: BotEntry) -> BotEntry:
    _ENTRIES[(entry.family, entry.name)] = entry
    return entry


for _entry in (
    BotEntry("random", Family.TIME_TRACK, RANDOM, "toolkit.bots.random:RandomBot",
             summary="uniform over the legal actions"),
    BotEntry("greedy", Family.TIME_TRACK, GREEDY, "toolkit.bots.greedy:GreedyBot",
             summary="one ply with a packing evaluation"),
    BotEntry("mcts", Family.TIME_TRACK, MCTS, "toolkit.bots.mcts:MctsBot", BUDGET,
             "UCT search, mcts:N iterations or mcts:Xs seconds per move (mcts:Xs:2t on 2 threads)"),
    BotEntry("automa", Family.TIME_TRACK, AUTOMA, "toolkit.bots.automa:AutomaBot", LEVEL,
             "the official solo opponent (Automa editions), automa:LEVEL or automa:LEVEL:DECK"),
    BotEntry("random", Family.DOODLE, RANDOM, "toolkit.bots.random:RandomBot",
             summary="uniform over the legal actions"),
    BotEntry("greedy", Family.DOODLE, GREEDY, "toolkit.bots.doodle.greedy:DoodleGreedyBot",
             summary="fast: packing pre-filter, one-card look-ahead"),
    BotEntry("expert", Family.DOODLE, EXPERT, "toolkit.bots.doodle.expert:DoodleExpertBot",
             summary="strong: two-turn expectimax over the die", explains=True),
):
    register(_entry)


def bot_names(family: Family) -> list[str]:
    """The bots of a family as users write them (`mcts:N` for a bot that takes a budget)."""
    return [e.written for (f, _), e in _ENTRIES.items() if f == family]


def solo_opponent_entry(family: Family) -> BotEntry | None:
    """The family's bot that plays an edition's solo opponent deck (the Automa), if it has one."""
    return next((e for (f, _), e in _ENTRIES.items() if f == family and e.argument == LEVEL), None)


def entry(name: str, family: Family, text: str | None = None) -> BotEntry:
    """The registry entry of `name` for `family`; UsageError naming what is known otherwise."""
    found = _ENTRIES.get((family, name))
    if found is not None:
        return found
    shown = text or name
    known = ", ".join(bot_names(family))
    if name == HUMAN:
        raise UsageError(f"bot '{shown}': a person plays only at the prompt (patchwork play); here every seat "
                         f"needs a bot ({family.value} bots: {known})")
    others = sorted(f.value for (f, n) in _ENTRIES if n == name)
    if others:
        raise UsageError(f"bot '{shown}' plays the {' and '.join(others)} editions only; "
                         f"{family.value} bots: {known}")
    raise UsageError(f"unknown bot '{shown}' ({family.value} bots: {known})")


def is_human(text: str) -> bool:
    """`human`: a person at the prompt, not a bot."""
    return text.strip().lower() == HUMAN


def parse_bot(text: str, family: Family, automa_level: int = AUTOMA_LEVEL, automa_deck: str = AUTOMA_DECK) -> BotSpec:
    """One bot's text (`greedy`, `mcts:2000`, `automa:3:tactical`) for `family`; raises UsageError.
    `automa_level`/`automa_deck` (--automa-level/--automa-deck) apply when the text names none."""
    shown = text.strip()
    name, colon, arg = shown.lower().partition(":")
    return entry(name, family, shown).parse(shown, arg if colon else None, automa_level, automa_deck)


def entry_of(spec: BotSpec, family: Family) -> BotEntry:
    """The entry a parsed bot came from."""
    return entry(spec.name.partition(":")[0], family)


def check_bot(spec: BotSpec, edition: Edition) -> BotSpec:
    """`spec`, once `edition` can seat it; UsageError otherwise."""
    entry_of(spec, edition.family).check(spec, edition)
    return spec


def bot_for(text: str, edition: Edition, automa_level: int = AUTOMA_LEVEL, automa_deck: str = AUTOMA_DECK) -> BotSpec:
    """One bot's text parsed for `edition`'s family and held to the edition."""
    return check_bot(parse_bot(text, edition.family, automa_level, automa_deck), edition)


def build_bot(spec: BotSpec, edition: Edition) -> Bot:
    """The Python bot (toolkit.bots.base.Bot) of a parsed bot, for games of `edition`."""
    found = entry_of(spec, edition.family)
    found.check(spec, edition)
    return found.build(spec)


def build_hinter(spec: BotSpec, edition: Edition) -> Hinter:
    """The bot of `spec` as what answers `hint` at the prompt (toolkit.bots.base.Hinter); UsageError
    for a bot that does not explain its moves."""
    found = entry_of(spec, edition.family)
    found.check(spec, edition)
    return found.build_hinter(spec)


def split_bots(text: str) -> list[str]:
    """The names of a `--bots A,B` list; an empty name (`a,,b`, `a,`) is an error."""
    names = [p.strip() for p in text.split(",")]
    if not text.strip():
        raise UsageError("--bots needs at least one bot name, e.g. --bots greedy,random")
    if any(not n for n in names):
        raise UsageError(f"--bots '{text}': empty bot name (expected e.g. greedy,random)")
    return names


# ----- the Automa ------------------------------------------------------------------------


def _parse_automa(text: str, kind: int, arg: str | None, level: int, deck: str) -> BotSpec:
    """`automa`, `automa:LEVEL` or `automa:LEVEL:DECK`; the text wins over the options."""
    low, high = AUTOMA_LEVELS
    where = "--automa-level"
    if arg is not None:
        level_text, colon, deck_text = arg.partition(":")
        try:
            level = int(level_text)
        except ValueError:
            raise UsageError(f"bot '{text}': the Automa level must be a whole number {low}..{high}, "
                             "e.g. automa:3 or automa:3:tactical") from None
        if colon and not deck_text:
            raise UsageError(f"bot '{text}': the Automa deck is missing after the level, e.g. automa:3:tactical")
        deck = deck_text or deck
        where = f"bot '{text}': the Automa level"
    if not low <= level <= high:
        raise UsageError(f"{where} must be {low}..{high}, got {level}")
    return BotSpec(f"automa:{level}:{deck}", kind, automa_level=level, automa_deck=deck)


def _check_automa(spec: BotSpec, edition: Edition, what: str) -> None:
    automa = edition.rules.automa if isinstance(edition.rules, TimeTrackRules) else None
    if automa is None:
        raise UsageError(no_solo_opponent(edition, what))
    levels = [lv.level for lv in automa.levels]
    if spec.automa_level not in levels:
        raise UsageError(f"Automa level {spec.automa_level} is not a level of '{edition.name}' "
                         f"(levels: {', '.join(map(str, levels))})")
    decks = [name for name, _ in automa.decks]
    if spec.automa_deck not in decks:
        raise UsageError(f"unknown Automa deck '{spec.automa_deck}' for '{edition.name}' (decks: {', '.join(decks)})")


def no_solo_opponent(edition: Edition, what: str) -> str:
    """`classic has no Automa deck: the automa bot needs an edition with one (anniversary)`."""
    plural = " and " in what
    return (f"{edition.name} has no Automa deck: {what} need{'' if plural else 's'} an edition with one "
            f"({', '.join(solo_opponent_editions()) or 'none bundled'})")


def solo_opponent_editions() -> list[str]:
    """Bundled editions with an Automa deck (for messages only: loads the catalogue)."""
    from toolkit.specs import load_edition
    from toolkit.specs.catalogue import list_editions

    found = []
    for name in list_editions():
        try:
            edition = load_edition(name)
        except ToolkitError:
            continue
        rules = edition.rules
        if solo_opponent_entry(edition.family) is not None and isinstance(rules, TimeTrackRules) and rules.automa is not None:
            found.append(name)
    return found


def _import(module: str, bot: str) -> Any:
    """A bot module, imported once; UsageError naming the module when its import fails."""
    if module not in _failed:
        try:
            return importlib.import_module(module)
        except Exception as error:  # any failure: the bot is unusable, the rest must still work
            _failed[module] = f"{type(error).__name__}: {error}"
    raise UsageError(f"bot '{bot}' cannot be loaded: module {module} failed to import ({_failed[module]})")
