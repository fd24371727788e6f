"""`--bots` text -> the seated BotSpec values of a simulation: toolkit.bots.registry parses each
name for the edition (the same texts and messages as `patchwork play`), the family seats them.

The Seating made here is the one a run carries: shards, the workbench's requests and the reports
read its games per deal and its rule sentence from it, never from a seating made again."""
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

