"""`--bots` text -> the seated BotSpec values of a simulation: toolkit.bots.registry parses each
name for the edition (the same texts and messages as `patchwork play`), the family seats them."""
from __future__ import annotations

from toolkit.bots.registry import AUTOMA_DECK, AUTOMA_LEVEL, BotSpec, bot_for, split_bots
from toolkit.families import Seating, family_of
from toolkit.specs.models import Edition


def seat_bots(text: str, edition: Edition, automa_level: int = AUTOMA_LEVEL,
              automa_deck: str = AUTOMA_DECK) -> Seating:
    """The `--bots A,B` list for `edition`, parsed and held to it by the registry, seated by its family."""
    bots = tuple(bot_for(n, edition, automa_level, automa_deck) for n in split_bots(text))
    return family_of(edition).seating(bots, edition, text)


def parse_bots(text: str, edition: Edition, automa_level: int = AUTOMA_LEVEL,
               automa_deck: str = AUTOMA_DECK) -> tuple[BotSpec, ...]:
    """The seated bots only (see seat_bots)."""
    return seat_bots(text, edition, automa_level, automa_deck).bots


def games_per_deal(bots: tuple[BotSpec, ...], edition: Edition) -> int:
    """Games per deal of already parsed bots: 2 when the family swaps seats, else 1."""
    return family_of(edition).seating(tuple(bots), edition, "").games_per_deal


def seat_rule(bots: tuple[BotSpec, ...], edition: Edition) -> str:
    """How the family seats these bots, in one sentence for reports."""
    return family_of(edition).seating(tuple(bots), edition, "").rule
