"""Seating and the one Python play loop: who plays each seat of a game (people and bots, from the
`--bots` texts and the family's seat rules), the loop that lets the bots move, one callback per
action, and the hint. The play prompt (`patchwork play`), the Doodle challenge's par, the
seeded bot goldens and the tests all play through here, so the same seed gives the same game
whichever of them plays it.

    seats = seat(edition, "greedy,automa:3")
    game = new_game(edition, seed=1, seats=seats)
    play(game, seats, seed=1, on_action=lambda seat, bot, action: print(seat, action))

A prompt drives a `Session` instead: `run_bots()` plays until a person is to move, `move(text)`
plays that person's action.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.bots.base import Bot
from toolkit.bots.registry import (AUTOMA_DECK, PROMPT_AUTOMA_LEVEL, HUMAN, BotSpec, build_bot, bot_for, is_human,
                                   no_solo_opponent, parse_bot, solo_opponent_entry, split_bots)
from toolkit.errors import ToolkitError, UsageError
from toolkit.families import family_of
from toolkit.games.base import Game
from toolkit.specs.models import Edition

BOT_RNG_SALT = 1
"""Bot of seat i draws from seed_state(seed, BOT_RNG_SALT, i): independent of the game's chance."""

OnAction = Callable[[int, "Bot | None", Any], None]
"""on_action(seat, bot, action), called after each action is applied (bot None: a person's)."""


@dataclass(frozen=True)
class Seats:
    """Who plays each seat of one game, and how the game is set up for them."""

    bots: tuple[Bot | None, ...]
    """The bot of each seat; None: a person at the prompt."""
    options: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of new_game the bots need (the Automa's level and deck)."""

    @property
    def names(self) -> list[str]:
        """Each seat's player as a game record names it (`human`, `greedy`, `automa:3`)."""
        return [HUMAN if bot is None else bot.name for bot in self.bots]

    @property
    def people(self) -> bool:
        """Some seat is a person's: the game waits for input."""
        return any(bot is None for bot in self.bots)


def seat(
    edition: Edition,
    bots: str | None,
    players: int | None = None,
    automa_level: int | None = None,
    automa_deck: str | None = None,
) -> Seats:
    """The seats of a game of `edition` from `--bots` text (None: people in every seat).

    Fewer bot names than seats: people take the first seats (a person moves first).
    --automa-level/--automa-deck imply the solo opponent when no name is given for it; it takes
    the seat its bot plays (the second: the person moves first)."""
    family = family_of(edition)
    names = split_bots(bots) if bots else []
    options_given = [o for o, v in (("--automa-level", automa_level), ("--automa-deck", automa_deck)) if v is not None]
    if options_given and family.solo_opponent(edition) is None:
        raise UsageError(no_solo_opponent(edition, " and ".join(options_given)))
    level = PROMPT_AUTOMA_LEVEL if automa_level is None else automa_level
    deck = automa_deck or AUTOMA_DECK
    specs = [None if is_human(name) else bot_for(name, edition, level, deck) for name in names]
    if options_given and not any(spec is not None and spec.solo_opponent for spec in specs):
        opponent = solo_opponent_entry(edition.family)
        assert opponent is not None  # the family has a solo opponent deck, so it has its bot
        names.append(opponent.name)
        specs.append(parse_bot(opponent.name, edition.family, level, deck))
    seats = family.seats(edition, players)
    if len(specs) > seats:
        hint = ""
        if players is None:
            try:
                family.seats(edition, len(specs))
                hint = f" (say --players {len(specs)} for more)"
            except ToolkitError:
                pass
        raise UsageError(f"--bots names {len(specs)} players but {edition.name} is played by {seats} here{hint}")
    names = [HUMAN] * (seats - len(specs)) + names
    people: list[BotSpec | None] = [None] * (seats - len(specs))
    specs = people + specs
    options: dict[str, Any] = {}
    seated: list[Bot | None] = []
    for at, (name, spec) in enumerate(zip(names, specs)):
        if spec is None:
            seated.append(None)
            continue
        bot = build_bot(spec, edition)
        wanted = bot.seat
        if wanted is not None and wanted != at:
            raise UsageError(
                f"bot '{name}' can only play seat {wanted + 1}"
                + (" (the human moves first; Automa takes the second seat)" if wanted == 1 else "")
            )
        options.update(bot.game_options)
        seated.append(bot)
    return Seats(tuple(seated), options)


def new_game(edition: Edition, seed: int, players: int | None = None, seats: Seats | None = None) -> Game:
    """A validated game of `edition` right after the deal, set up for its seats' bots."""
    return family_of(edition).new_game(edition, seed, players, **(seats.options if seats else {}))


def bot_rngs(seed: int, seats: int) -> list[Any]:
    """Each seat's own generator: seed_state(seed, BOT_RNG_SALT, seat)."""
    from toolkit.games.rng import seed_state  # compiled: imported only once a game is played

    return [seed_state(seed, BOT_RNG_SALT, at) for at in range(seats)]


@dataclass(frozen=True)
class Checkpoint:
    """A game as it was before a person's action, to go back to (`Session.undo`)."""

    game: Game
    rngs: tuple[Any, ...]
    chance: int
    """Entries of the game's chance log at that moment."""
    action: str


def _chance_words(entry: dict[str, Any]) -> str:
    """What one chance log entry showed, in words."""
    if entry.get("roll") is not None:
        card = f" (the current card {entry['card']})" if entry.get("card") else ""
        return f"the die rolled {entry['roll']}{card}"
    if "virtual_buttons" in entry:
        return "the Automa drew a card"
    if "late_patches" in entry:
        return "the late patches joined the circle in a shuffled order"
    return "chance decided what comes next"


class Session:
    """One game being played: bots move by themselves, people through `move`; a person's action
    (with the bots' replies after it) can be taken back with `undo`, unless chance has shown
    something since that a second try would know in advance."""

    def __init__(self, game: Game, seats: Seats | Sequence[Bot | None], seed: int, on_action: OnAction | None = None):
        self.game = game
        self.bots: tuple[Bot | None, ...] = tuple(seats.bots if isinstance(seats, Seats) else seats)
        self.rngs = bot_rngs(seed, len(self.bots))
        self.on_action = on_action
        self.checkpoints: list[Checkpoint] = []

    def run_bots(self) -> None:
        """Let the bots move until the game ends or a person is to move."""
        while self.bot_to_move() is not None:
            self.bot_move()

    def bot_to_move(self) -> Bot | None:
        """The bot whose turn it is (None: the game is over or a person is to move)."""
        at = self.game.current_player
        return None if at is None or self.game.is_over else self.bots[at]

    def bot_move(self) -> Any:
        """Let the bot to move play one action; the action."""
        at = self.game.current_player
        assert at is not None, "the game is over"
        bot = self.bots[at]
        assert bot is not None, "a person is to move"
        action = bot.choose(self.game, self.rngs[at])
        self.game.apply(action)
        if self.on_action is not None:
            self.on_action(at, bot, action)
        return action

    def move(self, text: str) -> Any:
        """A person's action in the edition's notation (ToolkitError when it cannot be played)."""
        at = self.game.current_player
        action = self.game.parse_action(text)
        before = Checkpoint(self.game.copy(), tuple(rng.copy() for rng in self.rngs), len(self.game.chance_log()),
                            str(action))
        self.game.apply(action)
        self.checkpoints.append(before)
        if self.on_action is not None and at is not None:  # at is None only when the game was over, and apply refused
            self.on_action(at, None, action)
        return action

    def undo_refusal(self) -> str | None:
        """Why the last person's action cannot be taken back now, or None when it can."""
        if not self.checkpoints:
            return "nothing to undo: no action of a person yet"
        last = self.checkpoints[-1]
        shown = self.game.chance_log()[last.chance:]
        if shown:
            what = "; ".join(dict.fromkeys(_chance_words(entry) for entry in shown))
            return (f"cannot undo '{last.action}': since then {what}, and taking it back would let the move be "
                    "made again knowing that")
        return None

    def undo(self) -> Checkpoint:
        """Take back the last person's action and the bots' replies after it (UsageError naming
        the reason when it cannot be)."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise UsageError(refusal)
        last = self.checkpoints.pop()
        self.game = last.game
        self.rngs = [rng.copy() for rng in last.rngs]
        return last


def play(game: Game, seats: Seats | Sequence[Bot | None], seed: int, on_action: OnAction | None = None) -> Game:
    """Play `game` to the end with a bot in every seat; the game (its history and scores)."""
    session = Session(game, seats, seed, on_action)
    if any(bot is None for bot in session.bots):
        raise UsageError("play: every seat needs a bot (a person plays through a Session)")
    session.run_bots()
    return game


def play_bots(edition: Edition, bots: str, seed: int, on_action: OnAction | None = None) -> Game:
    """A seeded game of `edition` played to the end by the bots named, one per seat (`greedy,mcts:200`;
    a family whose editions take a range of players seats as many as are named)."""
    players = len(split_bots(bots)) if family_of(edition).info.fixed_seats is None else None
    seats = seat(edition, bots, players)
    if seats.people:
        raise UsageError(f"--bots '{bots}': name a bot for every seat")
    return play(new_game(edition, seed, players, seats), seats, seed, on_action)


def hint(game: Game) -> str:
    """What the family's hint bot would do now and why (one line when it cannot say). The hinter
    looks at a copy of the game and draws from a generator of its own, so a hint never changes
    the game or the bots' choices."""
    edition = game.edition
    family = family_of(edition)
    try:
        hinter = family.hinter(edition)
    except ToolkitError as error:
        return f"no hint for {edition.name}: {error}"
    return hinter.explain(game.copy())
