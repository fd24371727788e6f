"""The one-page rules reference that goes with every kit: setup, a turn, scoring and what to cut,
written from the edition's own numbers (buttons, market, penalties, rounds, the die).

Text is set as large as fits the page, from 12 pt down to 6 pt (headings 2 pt larger); lines wrap
to the page, and a page too small for the reference at 6 pt is refused rather than shrunk.
"""
from __future__ import annotations

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.render.components import solo_opponent
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
from toolkit.render.scene import MIN_TEXT_PT, MM_PER_PT, Group, Item, Line, Page, Text, translate, wrap_text
from toolkit.render.theme import GREY, INK
from toolkit.render.tokens import token_counts
from toolkit.specs.models import Edition

BODY_SIZES = (12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0)
"""Body sizes tried, largest first."""
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


def _time_track_sections(edition: Edition) -> list[tuple[str, list[str]]]:
    rules = edition.rules
    track = rules.time_track
    players = edition.players_max or edition.players_min
    setup = [
        f"Each player takes a quilt board, a time token and {rules.starting_buttons} buttons; the other "
        f"buttons are the bank. Both time tokens start on space 0 of the time board.",
        "Lay out the patch tiles in a circle in random order. Put the neutral token just after the "
        + ("smallest patch" if rules.neutral_token_after == "smallest" else f"patch {rules.neutral_token_after}")
        + " (clockwise).",
    ]
    if rules.late_patches:
        setup.append(
            f"Keep the {len(rules.late_patches)} blue patches aside: when only "
            f"{rules.late_patches_enter_at} patches are left in the circle, add them in random order "
            f"just behind the neutral token."
        )
    if track is not None and track.leather_patches:
        setup.append(f"Put the {len(track.leather_patches)} leather patches on the marked spaces of the time board.")
    turn = [
        "The player whose time token is furthest behind plays (on the same space: the token on top). "
        "You may take several turns in a row.",
        "A) Advance: move your time token to the space just ahead of the other token and take 1 button "
        "per space moved.",
        f"B) Buy: choose one of the {rules.market_window} patches clockwise after the neutral token, pay "
        "its cost in buttons, move the neutral token to its place, put the patch on your quilt board "
        "(turned or flipped, never overlapping) and advance your time token by its time.",
        "Landing on the other token: put yours on top.",
    ]
    passing = [
        "Button income (round button mark): take 1 button per button printed on the patches of your quilt.",
        "Leather patch: the first player to reach or pass it puts it on the quilt at once (the only "
        "1x1 patches).",
    ]
    if rules.bonus is not None:
        k = rules.bonus.square_size
        passing.append(f"The first player with a completely filled {k}x{k} square takes the special tile "
                       f"({rules.bonus.points} points).")
    end = [
        "The game ends when both time tokens reach the last space (a token never moves past it; action A "
        "pays only for the spaces really moved).",
        f"Score: your buttons{' + the special tile' if rules.bonus else ''} - {edition.empty_penalty} per "
        "empty space of your quilt. Most points wins; on a tie, whoever reached the last space first.",
    ]
    kit = [", ".join(text for text, _ in token_counts(edition)) + f"; {players} quilt boards, "
           "the time board and every patch tile."]
    sections = [("Setup", setup), ("Your turn", turn), ("Moving past a mark", passing), ("End and scoring", end)]
    opponent = solo_opponent(edition)
    if opponent is not None:
        sections.append(("Solo against the Automa", _automa_lines(opponent)))
    return sections + [("Tokens in this kit", kit)]


SCORING_TERMS = {
    "collected_buttons": "the buttons it collected",
    "patches_with_buttons": "1 per patch it took that shows buttons",
    "buttons_on_patches": "the buttons printed on its patches",
}


def _automa_lines(automa) -> list[str]:
    decks = " or ".join(name for name, _ in automa.decks)
    levels = ", ".join(f"{lv.level} {lv.name} {lv.spaces_from_end}" for lv in automa.levels)
    scoring = "; ".join(
        f"{lv.level}: " + (" + ".join(SCORING_TERMS.get(t, t.replace("_", " ")) for t in lv.scoring) or "nothing more")
        for lv in automa.levels
    )
    return [
        f"Setup: take the {decks} deck, shuffle it and put {automa.discard_at_setup} cards aside unseen (they "
        "return when the deck is reshuffled). The Automa has no quilt board and no buttons. Mark the space this "
        f"many spaces before the last one for your level: {levels}. You play first.",
        "Its turn: reveal a card. It buys one of the 3 patches after the neutral token that costs no more than "
        "the card's virtual buttons (it never spends its own); if several qualify, the card's filters choose, "
        "top to bottom, skipping a filter that would leave none. It moves its time token by the patch's time. "
        "If none is affordable it moves just ahead of you and takes no buttons for that.",
        "At each income mark it crosses it takes the current card's income. It takes the special tile when it "
        f"reaches your level's mark, unless you filled a 7x7 square first ({automa.bonus_points} points).",
        f"Its score: the special tile if it has it, plus, by level, {scoring}.",
    ]


def _roll_and_write_sections(edition: Edition) -> list[tuple[str, list[str]]]:
    rules = edition.rules
    circle, tpr, rounds = rules.circle_size, rules.turns_per_round, rules.rounds
    setup = [
        f"Shuffle the patch cards face down. Lay {circle} face up in a circle and put the token between two "
        "neighbouring cards chosen at random.",
        "Each player takes a score sheet, a pencil and a random start card, and draws its patch anywhere "
        "on the drawing board. Then put the start cards away.",
    ]
    turn = [
        "Roll the die and move the token clockwise that many cards (only cards still in the circle count): "
        "every player may draw that patch, turned or flipped, on empty spaces, or pass.",
        "Die: " + die_on_d6(rules.die) + ".",
        "Discard only that card; the token stays where it is. Do not refill the circle.",
    ]
    rnd = [
        f"After {tpr} turns score exactly one fully shaded rectangle: its biggest square scores 1 per space, "
        "every further row or column 1 more (4x5 scores 17). Write it in the next score row.",
        f"Next round: the leftover cards become the next in line after the token, then {rules.refill} new "
        f"cards follow them.",
    ]
    if rules.final_free_choice:
        rnd.append(f"Final turn (turn {tpr} of round {rounds}): no roll; each player draws any one of the cards "
                   "left.")
    specials = ["Each once per game, at any time: NEIGHBOUR draw the card left or right of the token instead; "
                "SINGLE shade one empty space; CUT one straight cut through the patch, draw one piece; "
                "AGAIN use another action a second time."]
    end = [f"Final score: the {rounds} round scores minus 1 per empty space. Highest score wins; ties are "
           "shared."]
    return [("Setup", setup), ("A turn", turn), ("Scoring rounds", rnd), ("Special actions", specials),
            ("End", end)]


def reference_sections(edition: Edition) -> list[tuple[str, list[str]]]:
    """The reference's sections: a game with a time track is the race for buttons along it (with
    the Automa when the edition brings one); one without (Doodle) is a roll-and-write with a die."""
    if family_of(edition).info.has_time_track:
        return _time_track_sections(edition)
    return _roll_and_write_sections(edition)


def reference_name(edition: Edition) -> str:
    """How the build summary names the reference (a roll-and-write's says how to read its die)."""
    return "rules reference" if family_of(edition).info.has_time_track else "rules reference (die on a d6)"


def reference_page(edition: Edition, paper: Paper, margin: float = PRINTABLE_MARGIN_MM,
                   pieces: list[Piece] = (), bleed: float = BLEED_MM) -> Page:
    """The rules reference on one page of `paper`; `pieces` (a few one-sided cut-outs, such as
    the Doodle token) go with their crop marks into the space the text leaves free."""
    sections = reference_sections(edition)
    left = margin + SIDE_MM
    width = paper.width - 2 * left
    bottom = paper.height - margin - SIDE_MM
    title = f"{edition.title}: rules reference"
    for body in BODY_SIZES:
        head = max(MIN_TEXT_PT, body + 2)
        items: list[Item] = []
        y = margin + SIDE_MM + TITLE_PT * MM_PER_PT
        for line in wrap_text(title, width, TITLE_PT, True):
            items.append(Text(left, y, line, TITLE_PT, "start", True, INK))
            y += TITLE_PT * MM_PER_PT * LEADING
        y += 2.0
        for heading, paragraphs in sections:
            y += head * MM_PER_PT * 0.6
            items.append(Text(left, y, heading.upper(), head, "start", True, INK))
            items.append(Line(left, y + 1.2, left + width, y + 1.2, GREY, 0.25))
            y += head * MM_PER_PT * LEADING + 0.8
            for paragraph in paragraphs:
                for line in wrap_text(paragraph, width, body):
                    items.append(Text(left, y, line, body, "start", False, INK))
                    y += body * MM_PER_PT * LEADING
                y += body * MM_PER_PT * 0.4
        if pieces:
            # the cut-outs take a band at the foot of the page, under the text
            band = min(p.height for p in pieces) + 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM) + 6.0
            if y + band <= bottom:
                region = Paper("foot", paper.width, bottom + margin + SIDE_MM - y)
                placed = impose_grid(list(pieces), region, bleed=bleed, layout=Layout(margin=margin))
                if len(placed) == 1:
                    items.append(Group(placed[0].items, translate(0.0, y)))
                    return Page(paper.width, paper.height, tuple(items), label="rules reference")
            continue
        if y <= bottom:
            return Page(paper.width, paper.height, tuple(items), label="rules reference")
    raise UsageError(
        f"the rules reference of {edition.name} does not fit on {paper.name} paper at {MIN_TEXT_PT:g} pt or "
        f"larger; choose a larger paper"
    )


def reference_pages(edition: Edition, options, pieces: list[Piece] = ()) -> list[Page]:
    """The reference page, followed by a blank back when the document is printed with backs."""
    page = reference_page(edition, options.paper, options.layout.margin, pieces, options.bleed)
    if options.backs:
        return [page, Page(page.width, page.height, (), label="blank back")]
    return [page]
