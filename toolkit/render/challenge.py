"""Doodle challenge sheets: a solo game fixed by a seed, playable with a pencil alone.

Each challenge is two pages (one two-sided sheet): the score sheet headed with the seed and the
par, and the whole game of that seed in order: the start card, every rolled turn with its die
roll, the card the token lands on and its two neighbours (for NEIGHBOUR), the scoring after each
round, and the cards left for the final free choice. The sequence is read from the rules engine
itself (it depends on the seed only, never on what the player draws), so
`patchwork play doodle --seed S` replays exactly this game and checks a score.

The par is the score of the family's strongest bot playing that seed solo through the library's
play loop (toolkit.play), as seat 1 of `patchwork play --seed S --bots BOT` does.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.render import doodle as doodle_mod
from toolkit.render.paper import Paper
from toolkit.render.scene import (
    MIN_TEXT_PT,
    MM_PER_PT,
    Document,
    Item,
    Page,
    Rect,
    Symbol,
    Text,
    Use,
    fit_text_size,
    wrap_text,
)
from toolkit.render.theme import GREY, INK, LIGHT_GREY, patch_colour, shape_cells
from toolkit.specs.models import Edition

MAX_COUNT = 366


@dataclass(frozen=True)
class Turn:
    """One rolled turn of the seeded game."""

    round: int
    """1-based."""
    turn: int
    """1-based within the round."""
    roll: int
    card: str
    left: str | None
    """The card before the token card in the circle (NEIGHBOUR left), None when alone."""
    right: str | None


@dataclass(frozen=True)
class Challenge:
    """Everything printed for one seed."""

    seed: int
    start_card: str
    turns: tuple[Turn, ...]
    final_choice: tuple[str, ...]
    """The cards left for the final free choice (empty when the edition has none)."""
    par: int
    par_bot: str


def par_bot(edition: Edition) -> str:
    """The bot that sets the par: the family's strongest (`expert` for Doodle)."""
    from toolkit.families import family_of

    return family_of(edition).info.strong_bot


def par_score(edition: Edition, seed: int) -> tuple[int, str]:
    """(score, bot name) of the strongest bot playing this seed solo."""
    from toolkit.play import play_bots

    name = par_bot(edition)
    game = play_bots(edition, name, seed)
    return int(game.scores()[0]), name


def seeded_game(edition: Edition, seed: int) -> tuple[str, tuple[Turn, ...], tuple[str, ...]]:
    """The start card, rolled turns and final choice of a solo game of this seed, by playing it
    through the rules engine while passing every turn (the cards do not depend on the drawing)."""
    from toolkit.games.doodle.game import DoodleGame
    from toolkit.play import new_game

    game = new_game(edition, seed, 1)
    assert isinstance(game, DoodleGame), edition.name  # challenge sheets are printed for Doodle editions only
    start = game.deal()["start_cards"][0]
    turns: list[Turn] = []
    final: tuple[str, ...] = ()
    steps = 0
    while not game.is_over:
        steps += 1
        if steps > 10_000:  # pragma: no cover - the engine always ends a game
            raise RuntimeError("the seeded game did not end")
        legal = game.legal_actions()
        if game.phase == "turn":
            circle = game.circle()
            at = game.token_card
            assert at is not None
            n = len(circle)
            left = circle[(at - 1) % n] if n > 1 else None
            right = circle[(at + 1) % n] if n > 2 else None
            turns.append(Turn(game.round + 1, game.turn + 1, game.roll, circle[at], left, right))
        elif game.phase == "free-choice":
            final = tuple(game.circle())
        action = next((a for a in legal if a.kind in ("pass", "score")), legal[0])
        game.apply(action)
    return start, tuple(turns), final


def make_challenge(edition: Edition, seed: int) -> Challenge:
    doodle_mod.require_doodle(edition, "challenge sheets")
    start, turns, final = seeded_game(edition, seed)
    par, bot = par_score(edition, seed)
    return Challenge(seed, start, turns, final, par, bot)


# ----- drawing ----------------------------------------------------------------------------------


def _shape_of(edition: Edition, card_id: str):
    for patch in edition.patches:
        if patch.id == card_id:
            return patch.shape, patch_colour(edition.patches.index(patch), patch.colour)
    for card in edition.doodle_rules.start_cards:
        if card.id == card_id:
            return card.shape, doodle_mod.START_FILL
    raise KeyError(card_id)


def _card_box(edition: Edition, card_id: str, x: float, y: float, w: float, h: float, cell_max: float,
              caption: str, strong: bool, lo: float) -> list[Item]:
    shape, fill = _shape_of(edition, card_id)
    items: list[Item] = [Rect(x, y, w, h, INK if strong else LIGHT_GREY, 0.35 if strong else 0.25, "#ffffff",
                              radius=1.0)]
    label = f"{card_id} · {shape.size}"
    items.append(Text(x + w / 2, y + 3.2, label, max(6.5 if strong else 6.0, lo), "middle", strong,
                      INK if strong else GREY))
    room_h = h - 1.5 - max(3.0, lo * MM_PER_PT) - (max(3.0, lo * MM_PER_PT) if caption else 1.0)
    cell = min(cell_max, (w - 2) / shape.width, room_h / shape.height)
    sx = x + (w - shape.width * cell) / 2
    sy = y + 1.5 + max(3.0, lo * MM_PER_PT) + (room_h - shape.height * cell) / 2
    items += shape_cells(shape.cells, sx, sy, cell, fill, INK, 0.3)
    if caption:
        items.append(Text(x + w / 2, y + h - 1.0, caption, max(6.0, lo), "middle", False, GREY))
    return items


def sequence_page(edition: Edition, challenge: Challenge, paper: Paper) -> Page:
    """The card sequence of one seed, laid out on a 210 x 297 mm page scaled to the paper."""
    from toolkit.render.scene import Group, scale

    s = doodle_mod.sheet_scale(paper)
    lo = MIN_TEXT_PT / s  # the smallest size on the 210 x 297 mm page that still prints at MIN_TEXT_PT

    def pt(size: float) -> float:
        return max(size, lo)

    W, H, M = doodle_mod.REF_WIDTH, doodle_mod.REF_HEIGHT, 12.0
    items: list[Item] = []
    title = f"CHALLENGE {challenge.seed}: THE CARDS, IN ORDER"
    items.append(Text(M, M + 6, title, fit_text_size(title, W - 2 * M, 14, True), "start", True, INK))
    note = (f"Par {challenge.par} (the {challenge.par_bot} bot). Play turn by turn; the die is already rolled. "
            f"Check your game: patchwork play doodle --seed {challenge.seed}")
    y = M + 12.0
    for line in wrap_text(note, W - 2 * M, pt(8)):
        items.append(Text(M, y, line, pt(8), "start", False, GREY))
        y += pt(8) * MM_PER_PT * 1.25
    y += 1.5
    items += _card_box(edition, challenge.start_card, M, y, 40, 30, 3.6, "start card: draw it first", True, lo)
    help_lines = wrap_text("Each turn: the card the token lands on (framed) and its neighbours left and right, "
                           "for NEIGHBOUR. Discard only the framed card.", W - 2 * M - 46, pt(7))
    for k, line in enumerate(help_lines):
        items.append(Text(M + 46, y + 10 + k * pt(7) * MM_PER_PT * 1.3, line, pt(7), "start", False, GREY))
    y += 34
    rounds: dict[int, list[Turn]] = {}
    for turn in challenge.turns:
        rounds.setdefault(turn.round, []).append(turn)
    col_w = (W - 2 * M - 4) / 3
    entry_h = 23.0
    for rnd in range(1, edition.doodle_rules.rounds + 1):
        items.append(Text(M, y + 3.5, f"ROUND {rnd}", pt(8), "start", True, INK))
        y += 5.5
        entries = rounds.get(rnd, [])
        blocks = len(entries) + (1 if rnd == edition.doodle_rules.rounds and challenge.final_choice else 0)
        for i in range(blocks):
            col, row = i % 3, i // 3
            x = M + col * (col_w + 2)
            ey = y + row * (entry_h + 2)
            if i < len(entries):
                t = entries[i]
                items.append(Text(x + 1, ey + 3, f"turn {t.turn}: roll {t.roll}", pt(6.5), "start", True, INK))
                side_w, main_w = (col_w - 4) * 0.28, (col_w - 4) * 0.44
                if t.left:
                    items += _card_box(edition, t.left, x, ey + 4.5, side_w, entry_h - 4.5, 2.2, "left", False, lo)
                items += _card_box(edition, t.card, x + side_w + 2, ey + 4.5, main_w, entry_h - 4.5, 3.2, "", True, lo)
                if t.right:
                    items += _card_box(edition, t.right, x + side_w + main_w + 4, ey + 4.5, side_w, entry_h - 4.5,
                                       2.2, "right", False, lo)
            else:
                items.append(Text(x + 1, ey + 3, "final turn: pick any one", pt(6.5), "start", True, INK))
                w3 = (col_w - 4) / 3
                for k, card in enumerate(challenge.final_choice):
                    items += _card_box(edition, card, x + k * (w3 + 2), ey + 4.5, w3, entry_h - 4.5, 2.6, "", True, lo)
        y += ((blocks + 2) // 3) * (entry_h + 2)
        y += pt(6.5) * MM_PER_PT
        items.append(Text(W - M, y, f"then score one rectangle in row {rnd}", pt(6.5), "end", False, GREY))
        y += 2.5
    if y > H - M:
        raise UsageError("the challenge sequence does not fit on one page (too many turns for this edition)")
    offset_x = (paper.width - W * s) / 2
    offset_y = (paper.height - H * s) / 2
    return Page(paper.width, paper.height, (Group(tuple(items), scale(s, offset_x, offset_y)),),
                label=f"challenge {challenge.seed} cards")


def challenge_sheet_page(challenge: Challenge, paper: Paper) -> Page:
    s = doodle_mod.sheet_scale(paper)
    dx = (paper.width - doodle_mod.REF_WIDTH * s) / 2
    dy = (paper.height - doodle_mod.REF_HEIGHT * s) / 2
    x = dx + (doodle_mod.REF_WIDTH - doodle_mod.MARGIN) * s
    head = f"Challenge {challenge.seed} · par {challenge.par}"
    items: list[Item] = [
        Use("doodle-sheet", 0, 0),
        Text(x, dy + (doodle_mod.MARGIN + 10) * s, head, max(11 * s, MIN_TEXT_PT), "end", True, INK),
    ]
    return Page(paper.width, paper.height, tuple(items), label=f"challenge {challenge.seed} sheet")


def challenge_document(edition: Edition, options) -> Document:
    """`count` challenges from seed `seed` on: for each, the score sheet then its card sequence
    (print two-sided, flipping on the long edge, for one sheet per challenge)."""
    doodle_mod.require_doodle(edition, "challenge sheets")
    count = options.count
    if not 1 <= count <= MAX_COUNT:
        raise UsageError(f"--count must be between 1 and {MAX_COUNT}, got {count}")
    symbol: Symbol = doodle_mod.sheet_symbol(edition, options.paper)
    pages: list[Page] = []
    bots: set[str] = set()
    for seed in range(options.seed, options.seed + count):
        challenge = make_challenge(edition, seed)
        bots.add(challenge.par_bot)
        pages.append(challenge_sheet_page(challenge, options.paper))
        pages.append(sequence_page(edition, challenge, options.paper))
    first, last = options.seed, options.seed + count - 1
    seeds = f"seed {first}" if count == 1 else f"seeds {first}-{last}"
    return Document(f"{edition.title} challenge sheets, {seeds}, par by {', '.join(sorted(bots))}",
                    tuple(pages), (symbol,))
