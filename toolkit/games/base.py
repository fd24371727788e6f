"""The contract every rules engine fulfils (the rules families in toolkit.families find their engine).

Two levels:
- `Game`: one validated game, action by action (CLI play, replay, records, tests). Every action is
  checked against the rules; an illegal one raises IllegalAction naming the rule.
- The compiled kernel of each family (games/<family>/kernel.py): state arrays, legal actions,
  apply, scoring, as numba functions. The simulator's turn loop (toolkit.sim) plays many games
  inside it with the bots' compiled choosers and returns per-game arrays (`RESULT_FIELDS_*`).

Both levels run the same kernel functions, so the rules have one source of truth.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from toolkit.specs.models import Edition, Family

# Per-game result arrays of the simulator's turn loop, time-track family (n = games, P = len(edition.all_patches())).
RESULT_FIELDS_TIME_TRACK = {
    "score": "int32[n, 2]: final score per seat",
    "buttons": "int32[n, 2]: buttons held at the end",
    "empty": "int32[n, 2]: empty quilt cells at the end",
    "winner": "int8[n]: winning seat after the tie-break",
    "first_finisher": "int8[n]: seat that reached the final space first",
    "bonus_owner": "int8[n]: seat holding the bonus tile, -1 none",
    "plies": "int32[n]: actions played",
    "leather": "int32[n, 2]: leather patches placed per seat",
    "income": "int32[n, 2]: buttons received from income marks per seat",
    "buy_seat": "int8[n, P]: seat that bought each patch, -1 never bought",
    "buy_ply": "int16[n, P]: ply at which each patch was bought, -1 never",
}

# Doodle (K = players, R = rounds, S = 4 special actions neighbour, single, cut, again).
RESULT_FIELDS_DOODLE = {
    "score": "int32[n, K]: final score",
    "round_scores": "int32[n, K, R]: rectangle score of each intermediate scoring",
    "empty": "int32[n, K]: empty cells at the end",
    "start_card": "int16[n, K]: index into edition.start_cards",
    "specials": "int8[n, K, S]: times each special action was used",
    "drawn": "int32[n, K]: patches drawn",
}


@runtime_checkable
class Action(Protocol):
    """An action value; `str(action)` is its notation and parses back to an equal value."""

    def __str__(self) -> str: ...


@runtime_checkable
class Game(Protocol):
    """One game under the rules, driven action by action (every engine's game declares all of it:
    callers ask the game, never whether it has a method)."""

    edition: Edition
    seed: int
    players: int
    """Seats of this game."""
    history: list[Any]
    options: dict[str, Any]
    """The keyword options the game was made with (Engine.new_game), as a record stores them."""
    last_event: str
    """What followed the last action (an Automa turn, a roll, a score), in words; "" when nothing."""

    @property
    def current_player(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def seat_to_act(self) -> int:
        """`current_player` for code that runs while the game does (a ValueError once it is over);
        the engines' games subclass Game and take this one."""
        seat = self.current_player
        if seat is None:
            raise ValueError("the game is over: no seat is to act")
        return seat
    @property
    def notation_help(self) -> str:
        """The action notation of this game, for the prompt's help."""
        ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any) -> None: ...
    def parse_action(self, text: str) -> Any: ...
    def scores(self) -> list[int]: ...
    def winners(self) -> list[int]: ...
    def seat_name(self, seat: int) -> str:
        """How messages and views name a seat (`player 1`, `Automa`)."""
        ...
    def render_text(self) -> str: ...
    def deal(self) -> dict: ...
    def chance_log(self) -> list[dict[str, Any]]:
        """What chance did after the deal, in order (a record stores it)."""
        ...
    def copy(self) -> Game:
        """An independent game in the same position (for hints and look-ahead)."""
        ...


class Engine(Protocol):
    """One engine per rules family, parameterised by the edition spec."""

    family: Family

    def new_game(self, edition: Edition, seed: int, players: int | None = None, **options: Any) -> Game: ...
