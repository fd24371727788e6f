"""What a view of a time-track position shows (toolkit.families.view): both quilts with each patch
by id and each seat's latest placement, the time track with both tokens, the next income mark and
leather patch of each seat, the bonus tile open or taken, and the market circle.

Which piece covers which cell is found by replaying the game's actions from the deal and reading
the quilt each action changed, so the view never guesses from the game's drawing letters.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.families.view import (LEATHER, PATCH, Board, Offer, Placed, Position, Token, Track, largest_square,
                                   new_cells)
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.game import Buy, PlaceLeather, TimeTrackGame


def covered_cells(game: TimeTrackGame, seat: int) -> frozenset[tuple[int, int]]:
    """The (row, col) cells of `seat`'s quilt that a patch covers."""
    width = game.edition.board_width
    mask = game.quilt_mask(seat)
    cells = set()
    while mask:
        low = mask & -mask
        cells.add(divmod(low.bit_length() - 1, width))
        mask ^= low
    return frozenset(cells)


def _fresh(game: TimeTrackGame) -> TimeTrackGame:
    return TimeTrackGame(game.edition, game.seed, **game.options)


class _Replay:
    """The game replayed from the deal, keeping what each action placed on which quilt."""

    def __init__(self, game: TimeTrackGame):
        self.game = _fresh(game)
        self.placed: list[list[Placed]] = [[], []]
        self.last_action = ""
        index = {p.id: i for i, p in enumerate(game.edition.all_patches())}
        self.patch_index = index

    def step(self, action: Any) -> None:
        game = self.game
        seat = game.current_player
        before = covered_cells(game, seat) if seat is not None else frozenset()
        ply = len(game.history)
        game.apply(action)
        if seat is None:
            return
        self.last_action = f"{game.seat_name(seat)}: {action}"
        cells = new_cells(before, covered_cells(game, seat))
        if isinstance(action, Buy) and cells:
            patch = game.edition.patch(action.patch)
            self.placed[seat].append(Placed(cells, action.patch, PATCH, ply, patch.colour,
                                            self.patch_index.get(action.patch, -1)))
        elif isinstance(action, PlaceLeather) and cells:
            self.placed[seat].append(Placed(cells, "leather", LEATHER, ply))

    def position(self) -> Position:
        return _position(self.game, self.placed, self.last_action)


def view(game: TimeTrackGame) -> Position:
    """The position of `game` now."""
    replay = _Replay(game)
    for action in game.history:
        replay.step(action)
    return replay.position()


def views(game: TimeTrackGame) -> Iterator[Position]:
    """The position at the deal and after each action of `game`'s history."""
    replay = _Replay(game)
    yield replay.position()
    for action in game.history:
        replay.step(action)
        yield replay.position()


def _ahead(marks, position: int) -> int | None:
    return next((m for m in sorted(marks) if m > position), None)


def _position(game: TimeTrackGame, placed: list[list[Placed]], last_action: str) -> Position:
    edition = game.edition
    rules = edition.timetrack_rules
    track = rules.track
    final = track.final_space
    automa = bool(game.automa_level)
    to_move = game.current_player
    bonus = rules.bonus
    boards = []
    for seat in (0, 1):
        name = game.seat_name(seat)
        pieces = tuple(placed[seat])
        if automa and seat == k.AUTOMA_SEAT:
            s = game.state
            facts: tuple[str, ...] = (f"level {game.automa_level}: {int(s[k.S_AUTOMA_WITH_BUTTONS])} patches with buttons"
                     f" ({int(s[k.S_AUTOMA_BUTTONS_ON_PATCHES])} buttons on them),"
                     f" {int(s[k.S_AUTOMA_WITHOUT_BUTTONS])} without",
                     f"{game.buttons[seat]} buttons, score {game.scores()[seat]}")
            ahead = game.next_card_buttons
            if ahead is not None:
                facts += (f"next card (tactical deck, back shown): {ahead} virtual buttons",)
            boards.append(Board(seat, name, edition.board_width, edition.board_height, has_board=False, facts=facts,
                                to_move=to_move == seat))
            continue
        said = [f"{game.buttons[seat]} buttons, income {game.income[seat]}, {game.empty_cells[seat]} empty, "
                 f"score {game.scores()[seat]}"]
        if bonus is not None:
            if game.bonus_owner == seat:
                said.append(f"holds the {bonus.square_size}x{bonus.square_size} bonus tile (+{bonus.points})")
            elif game.bonus_owner is None:
                cells = frozenset(c for piece in pieces for c in piece.cells)
                side = largest_square(cells, edition.board_width, edition.board_height)
                said.append(f"largest filled square {side}x{side} of the {bonus.square_size}x{bonus.square_size}"
                             " the bonus needs")
        boards.append(Board(seat, name, edition.board_width, edition.board_height, pieces,
                            len(pieces) - 1 if pieces else None, facts=tuple(said), to_move=to_move == seat))
    positions = game.positions
    top = int(game.state[k.S_TOP])
    order = (1 - top, top) if positions[0] == positions[1] and top in (0, 1) else (0, 1)
    tokens = tuple(Token(seat, game.seat_name(seat), positions[seat]) for seat in order)
    leather = tuple(game.leather_left)
    notes = []
    for seat in (0, 1):
        pos = positions[seat]
        parts = [f"{game.seat_name(seat)} on space {pos}/{final}"]
        if pos >= final:
            parts.append("at the end")
        else:
            income = _ahead(track.income_marks, pos)
            leather_at = _ahead(leather, pos)
            parts.append(f"next income mark {income} ({income - pos} ahead)" if income is not None
                         else "no income mark left")
            if not (automa and seat == k.AUTOMA_SEAT):
                parts.append(f"next leather patch {leather_at} ({leather_at - pos} ahead)" if leather_at is not None
                             else "no leather patch left")
        notes.append(", ".join(parts))
    game_notes = []
    if bonus is not None:
        owner = game.bonus_owner
        state = "open" if owner is None else f"taken by {game.seat_name(owner)}"
        game_notes.append(f"{bonus.square_size}x{bonus.square_size} bonus tile (+{bonus.points}): {state}")
    offers = []
    window = set(game.window)
    mover = to_move if to_move is not None else 0
    index = {p.id: i for i, p in enumerate(edition.all_patches())}
    for pid in game.circle:
        patch = edition.patch(pid)
        in_window = pid in window
        affordable = in_window and patch.cost <= game.buttons[mover] and not game.is_over
        offers.append(Offer(pid, patch.shape, "window" if in_window else "circle",
                            f"cost {patch.cost}, time {patch.time}, +{patch.income}", affordable, patch.colour,
                            index.get(pid, -1)))
    if game.is_over:
        scores = game.scores()
        winners = game.winners()
        names = [game.seat_name(0), game.seat_name(1)]
        verdict = ("a shared victory" if len(winners) == 2 else f"{names[winners[0]]} wins"
                   + (" (tie broken: first to the final space)" if scores[0] == scores[1] else ""))
        status = f"game over: {names[0]} {scores[0]}, {names[1]} {scores[1]}; {verdict}"
    else:
        todo = " (place the leather patch)" if game.pending_leather else ""
        status = f"move {len(game.history) + 1}: {game.seat_name(game.seat_to_act)} to move{todo}"
    return Position(
        title=f"{edition.title} ({edition.name}), seed {game.seed}",
        ply=len(game.history),
        status=status,
        boards=tuple(boards),
        last_action=last_action,
        track=Track(final, tuple(track.income_marks), leather, tokens, tuple(notes)),
        offers=tuple(offers),
        offers_title="market (the neutral token stands before the first patch; the window may be bought)",
        notes=tuple(game_notes),
        over=game.is_over,
        extra={"buttons": list(game.buttons)},
    )
