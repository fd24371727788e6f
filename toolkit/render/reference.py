"""The rules reference that goes with every kit: setup, a turn, scoring and what is in the kit,
written from the edition's own numbers (buttons, market, penalties, rounds, the die) and checked
line by line against the rulebooks (shared/rules) and the rulings that read them.

Text is set as large as fits one page, from 12 pt down to 7 pt (headings 2 pt larger); a reference
that does not fit one page at 7 pt flows onto a second (and further) page at the largest size that
fits, so no rules text is ever printed below 7 pt; a heading never ends a page.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.render.components import level_spaces, solo_opponent
from toolkit.render.imposition import (
    BLEED_MM,
    MARK_GAP_MM,
    MARK_MIN_MM,
    PRINTABLE_MARGIN_MM,
    Layout,
    Piece,
    impose_grid,
)
from toolkit.render.paper import Paper
from toolkit.render.scene import MM_PER_PT, Group, Item, Line, Page, Text, translate, wrap_text
from toolkit.render.theme import DEFAULT_THEME, GREY, INK, Theme
from toolkit.render.tokens import token_counts
from toolkit.specs.models import Edition

RULES_MIN_PT = 7.0
"""Smallest rules text: below it a reference takes another page rather than shrink."""
BODY_SIZES = (12.0, 11.0, 10.0, 9.0, 8.0, RULES_MIN_PT)
"""Body sizes tried, largest first."""
MAX_PAGES = 4
"""A reference that needs more pages than this at 7 pt is refused (choose a larger paper)."""
TITLE_PT = 16.0
LEADING = 1.3
SIDE_MM = 8.0
"""Space kept free beyond the printer margin on each side."""


def die_on_d6(faces: tuple[int, ...]) -> str:
    """How to read an ordinary six-sided die as the edition's die, e.g. `1-2 -> 1, 3-4 -> 2`."""
    faces = tuple(sorted(faces))
    if len(faces) != 6:
        return f"the die has {len(faces)} faces ({', '.join(map(str, faces))}): roll a d{len(faces)} and read face i as the i-th of these"
    groups: list[tuple[int, int, int]] = []
    for i, value in enumerate(faces, start=1):
        if groups and groups[-1][2] == value:
            groups[-1] = (groups[-1][0], i, value)
        else:
            groups.append((i, i, value))
    parts = [f"{a}-{b} = {v}" if a != b else f"{a} = {v}" for a, b, v in groups]
    return "roll an ordinary d6 and read " + ", ".join(parts)


def _smallest(rules) -> str:
    return "the smallest patch" if rules.neutral_token_after == "smallest" else f"patch {rules.neutral_token_after}"


def _time_track_sections(edition: Edition, solo: bool = False) -> list[tuple[str, list[str]]]:
    rules = edition.timetrack_rules
    track = rules.time_track
    players = 1 if solo else (edition.players_max or edition.players_min)
    late = rules.late_patches
    late_name = f"{len(late)} {late[0].tag + ' ' if late and late[0].tag else 'late '}patches"
    circle = len(edition.patches)
    setup = [
        f"Each player takes a quilt board, a time token and {rules.starting_buttons} buttons; the other "
        "buttons are the bank. Put the time board in the middle and both time tokens on its starting space (0). "
        + ("You play first (see Solo)." if solo else
           "Who goes first: the player who last used a needle, or choose at random."),
    ]
    if late:
        setup.append(f"Set the {late_name} aside. Lay out the other {circle} patches in a circle in random order.")
    else:
        setup.append(f"Lay out the {circle} patches in a circle in random order.")
    setup.append(f"Put the neutral token between {_smallest(rules)} and the next patch clockwise.")
    if rules.bonus is not None:
        setup.append("Set the special tile aside.")
    if track is not None and track.leather_patches:
        setup.append(f"Put the {len(track.leather_patches)} leather patches on the marked spaces of the time board.")
    turn = [
        "The player whose time token is furthest behind takes a turn (on the same space: the token on top), so "
        "you may take several turns in a row. Do A or B:",
        "A) Advance: move your time token to the space just ahead of the other token and take 1 button per space "
        "moved.",
        f"B) Buy: choose one of the {rules.market_window} patches clockwise after the neutral token that you can "
        "pay for and place, move the neutral token to its place, pay its cost in buttons, place it on your quilt "
        "board (turned or flipped, never overlapping) and move your time token ahead by its time.",
        "Landing on the other token: put yours on top.",
    ]
    if late:
        turn.append(f"As soon as only {rules.late_patches_enter_at} patches are left in the circle, add the "
                    f"{late_name} in random order just behind the neutral token.")
    passing = [
        "Whichever action you take, each marked space your token moves onto or past counts at once:",
        "Button income: take 1 button for each button on the patches of your quilt.",
        "Leather patch: the first player to move onto or past it must place it on their quilt at once or remove "
        "it from play. Leather patches are the only 1x1 patches.",
    ]
    end = [
        "The game ends when both time tokens reach the last space (a token never moves past it; action A "
        "pays only for the spaces really moved).",
        f"Score: your buttons{' + the special tile' if rules.bonus else ''} - {edition.empty_penalty} per "
        "empty space of your quilt. Most points wins; on a tie, whoever reached the last space first.",
    ]
    opponent = solo_opponent(edition)
    if solo and opponent is not None:
        cards = sum(len(cards) for _, cards in opponent.decks)
        kit = [", ".join(text for text, _ in token_counts(edition, solo)) + "; 1 quilt board, the time board "
               f"(Automa level spaces marked), every patch tile and the {cards} Automa cards."]
    else:
        kit = [", ".join(text for text, _ in token_counts(edition)) + f"; {players} quilt boards, the time board "
               "and every patch tile."]
    sections = [("Setup", setup), ("Your turn", turn), ("Moving onto or past a mark", passing)]
    if rules.bonus is not None:
        k = rules.bonus.square_size
        sections.append(("The special tile", [
            f"The first player to completely fill a {k}x{k} square of their quilt board takes the special tile "
            f"({rules.bonus.points} points)."]))
    sections.append(("End and scoring", end))
    if opponent is not None:
        sections.append(("Solo against the Automa", _automa_lines(opponent, edition)))
    return sections + [("Tokens in this kit", kit)]


SCORING_TERMS = {
    "collected_buttons": "the buttons it collected",
    "patches_with_buttons": "1 per patch it took that shows buttons",
    "buttons_on_patches": "the buttons printed on its patches",
}


def _automa_lines(automa, edition: Edition) -> list[str]:
    rules = edition.timetrack_rules
    decks = " or ".join(name for name, _ in automa.decks)
    levels = ", ".join(f"{level} {name} {space}" for level, name, space in level_spaces(edition))
    scoring = "; ".join(
        f"{lv.level}: " + (" + ".join(SCORING_TERMS.get(t, t.replace("_", " ")) for t in lv.scoring) or "nothing more")
        for lv in automa.levels
    )
    square = rules.bonus.square_size if rules.bonus is not None else 7
    return [
        f"Setup: the Automa takes the other time token; it has no quilt board and no buttons. Take the {decks} "
        f"deck, shuffle it and put {automa.discard_at_setup} cards aside unseen. Put the level marker on your "
        f"level's space, marked on the time board: {levels}. You play first.",
        f"Its turn: reveal the top card. Of the {rules.market_window} patches after the neutral token it can buy "
        "those costing no more than the card's virtual buttons (it never spends its own). One: it takes it; "
        "several: the card's filters choose, top to bottom, skipping a filter that would leave none. It moves the "
        "neutral token to the patch's place and its time token by the patch's time, and keeps the patch in one of "
        "two piles: with buttons, without. None (or a card that never buys): it moves just ahead of you and takes "
        "no buttons for that.",
        "Income mark it moves onto or past: it takes the current card's income. Leather patch it moves onto or "
        "past first: the patch leaves play (it places none). It takes the special tile when it reaches or passes "
        f"the level marker, unless you filled a {square}x{square} square first ({automa.bonus_points} points).",
        "When the deck runs out, shuffle the discards and the cards put aside into a new deck.",
        f"Its score: the special tile if it has it, plus, by level, {scoring}.",
    ]


def _roll_and_write_sections(edition: Edition) -> list[tuple[str, list[str]]]:
    rules = edition.doodle_rules
    circle, tpr, rounds = rules.circle_size, rules.turns_per_round, rules.rounds
    leftover = circle - tpr
    setup = [
        f"Shuffle the patch cards face down. Lay {circle} face up in a circle and put the token between two "
        "neighbouring cards chosen at random.",
        "Each player takes a score sheet, a pencil and a random start card, and draws its patch anywhere "
        "on the drawing board. Then put the start cards away.",
    ]
    turn = [
        "Everyone plays each turn at the same time, so nobody goes first. Roll the die once and move the token "
        "clockwise that many cards (only cards still in the circle count): every player may draw that patch, "
        "turned or flipped, on empty spaces, or pass.",
        "Die: " + die_on_d6(rules.die) + ".",
        "Discard only that card; the token stays where it is. Do not refill the circle.",
    ]
    rnd = [
        f"After {tpr} turns score exactly one fully shaded rectangle: its biggest square scores 1 per space, "
        "every further row or column 1 more (4x5 scores 17). Write it in the next score row.",
        f"Next round: the {leftover} leftover cards become the next in line after the token, then "
        f"{rules.refill} new cards follow them.",
    ]
    if rules.final_free_choice:
        rnd.append(f"Final turn (turn {tpr} of round {rounds}): no roll; each player draws any one of the cards "
                   "left.")
    specials = ["Each once per game, at any time (even after passing or during scoring); cross it off when used: "
                "NEIGHBOUR draw the card left or right of the token instead; SINGLE shade one empty space; CUT one "
                "straight cut along the lines of the patch leaving exactly two pieces, draw one of them; AGAIN use "
                "another action a second time."]
    end = [f"Final score: the {rounds} round scores minus 1 per empty space. Highest score wins; ties are "
           "shared."]
    return [("Setup", setup), ("A turn", turn), ("Scoring rounds", rnd), ("Special actions", specials),
            ("End", end)]


def reference_sections(edition: Edition, solo: bool = False) -> list[tuple[str, list[str]]]:
    """The reference's sections: a game with a time track is the race for buttons along it (with
    the Automa when the edition brings one; `solo`: as the solo kit holds it); one without
    (Doodle) is a roll-and-write with a die."""
    if family_of(edition).info.has_time_track:
        return _time_track_sections(edition, solo)
    return _roll_and_write_sections(edition)


def reference_name(edition: Edition) -> str:
    """How the build summary names the reference (a roll-and-write's says how to read its die)."""
    return "rules reference" if family_of(edition).info.has_time_track else "rules reference (die on a d6)"


@dataclass(frozen=True)
class _Row:
    """One line of the flowed reference: text at `size`, `before` mm above its baseline."""

    text: str
    size: float
    bold: bool
    before: float
    """Advance from the previous baseline (or the top) to this one."""
    after: float
    """Further space below before the next row (paragraph end)."""
    heading: bool = False


def _blocks(sections, width: float, body: float) -> list[list[_Row]]:
    """The reference as blocks a page never splits: a heading with its first paragraph, then
    each further paragraph (rules lines read badly cut in two)."""
    head = body + 2
    blocks: list[list[_Row]] = []
    for heading, paragraphs in sections:
        block = [_Row(heading.upper(), head, True, head * MM_PER_PT * 0.6, 0.8, True)]
        for paragraph in paragraphs:
            lines = wrap_text(paragraph, width, body)
            block += [_Row(line, body, False, 0.0, body * MM_PER_PT * 0.4 if k == len(lines) - 1 else 0.0)
                      for k, line in enumerate(lines)]
            blocks.append(block)
            block = []
    return blocks


def _advance(row: _Row) -> float:
    """From a row's baseline to the next row's lead-in."""
    return row.size * MM_PER_PT * LEADING + (0.8 if row.heading else 0.0)


def _flow(blocks: list[list[_Row]], title_lines: list[str], continued: str, top: float, bottom: float,
          left: float, width: float, pages: int, foot: float) -> tuple[list[list[Item]], float] | None:
    """The blocks set on at most `pages` pages between `top` and `bottom`, leaving `foot` mm free
    under the last one: (items of each page, where the text of the last page ends); None when they
    do not fit. Later pages open with the title marked `continued`, in the heading size."""
    laid: list[list[Item]] = []
    items: list[Item] = []
    y = top
    for line in title_lines:
        items.append(Text(left, y, line, TITLE_PT, "start", True, INK))
        y += TITLE_PT * MM_PER_PT * LEADING
    y += 2.0
    fresh = True  # nothing set on this page yet
    pending = 0.0  # the advance owed before the next row
    i = 0
    while i < len(blocks):
        block = blocks[i]
        need = pending + sum(r.before + _advance(r) for r in block)
        if y + need > bottom and not fresh:
            laid.append(items)
            if len(laid) == pages:
                return None
            size = block[0].size if block[0].heading else block[0].size + 2
            y = top - TITLE_PT * MM_PER_PT + size * MM_PER_PT
            items = []
            for line in wrap_text(continued, width, size, True):
                items.append(Text(left, y, line, size, "start", True, GREY))
                y += size * MM_PER_PT * LEADING
            y += 2.0
            fresh, pending = True, 0.0
            continue
        for row in block:
            y += pending + row.before
            items.append(Text(left, y, row.text, row.size, "start", row.bold, INK))
            if row.heading:
                items.append(Line(left, y + 1.2, left + width, y + 1.2, GREY, 0.25))
            y += _advance(row)
            pending = row.after
        fresh = False
        i += 1
    y += pending
    if y > bottom - foot:
        return None
    laid.append(items)
    return laid, y


def reference_layout(edition: Edition, paper: Paper, margin: float = PRINTABLE_MARGIN_MM,
                     pieces: Sequence[Piece] = (), bleed: float = BLEED_MM, solo: bool = False,
                     theme: Theme = DEFAULT_THEME) -> list[Page]:
    """The rules reference on as few pages of `paper` as hold it at 7 pt or more, each set as large
    as fits; `pieces` (a few one-sided cut-outs, such as the Doodle token) go with their crop marks
    into a band under the text of the last page; a theme's title heads it and its credits close it."""
    sections = reference_sections(edition, solo)
    if theme.credits:
        sections = [*sections, ("Credits", [theme.credits])]
    left = margin + SIDE_MM
    width = paper.width - 2 * left
    top = margin + SIDE_MM + TITLE_PT * MM_PER_PT
    bottom = paper.height - margin - SIDE_MM
    title = f"{theme.title or edition.title}: {'solo rules' if solo else 'rules reference'}"
    title_lines = wrap_text(title, width, TITLE_PT, True)
    band = (min(p.height for p in pieces) + 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM) + 6.0) if pieces else 0.0
    for pages in range(1, MAX_PAGES + 1):
        for body in BODY_SIZES:
            flowed = _flow(_blocks(sections, width, body), title_lines, f"{title} (continued)", top, bottom,
                           left, width, pages, band)
            if flowed is None:
                continue
            laid, end_y = flowed
            if pieces:
                region = Paper("foot", paper.width, bottom + margin + SIDE_MM - end_y)
                placed = impose_grid(list(pieces), region, bleed=bleed, layout=Layout(margin=margin))
                if len(placed) != 1:
                    continue
                laid[-1].append(Group(placed[0].items, translate(0.0, end_y)))
            label = "rules reference" if len(laid) == 1 else "rules reference {} of {}"
            return [Page(paper.width, paper.height, tuple(items), label=label.format(n, len(laid)))
                    for n, items in enumerate(laid, start=1)]
    raise UsageError(
        f"the rules reference of {edition.name} does not fit on {MAX_PAGES} pages of {paper.name} paper at "
        f"{RULES_MIN_PT:g} pt or larger; choose a larger paper"
    )


def reference_page(edition: Edition, paper: Paper, margin: float = PRINTABLE_MARGIN_MM,
                   pieces: Sequence[Piece] = (), bleed: float = BLEED_MM) -> Page:
    """The first page of the rules reference (the whole reference where it fits one page)."""
    return reference_layout(edition, paper, margin, pieces, bleed)[0]


def reference_pages(edition: Edition, options, pieces: Sequence[Piece] = (), solo: bool = False) -> list[Page]:
    """The reference's pages; printed with backs, two pages share a sheet and an odd last page gets
    a blank back, so every later fronts/backs pair stays aligned."""
    pages = reference_layout(edition, options.paper, options.layout.margin, pieces, options.bleed, solo,
                             options.theme)
    if options.backs and len(pages) % 2:
        pages.append(Page(pages[-1].width, pages[-1].height, (), label="blank back"))
    return pages
