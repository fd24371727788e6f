"""Automa solo cards (both decks): virtual buttons, income and the filters, top to bottom.

Cards print at poker size. The tactical deck shows its virtual buttons on the back too (the
published deck does, so the player can see the next budget); the normal deck's backs are plain.
A theme sets each deck's colour, the face's panel, the buttons, a picture for the backs (under the
deck's name, so the decks stay apart) and its title on the backs; its fonts set the text.
"""
from __future__ import annotations

from toolkit.render.components import require_solo_opponent
from toolkit.render.imposition import BLEED_MM, Piece
from toolkit.render.scene import Circle, Item, Line, Poly, Rect, Text, fit_text_size
from toolkit.render.theme import (
    DEFAULT_THEME,
    GREY,
    HAIRLINE,
    INCOME_FILL,
    INK,
    arrow,
    button,
    cover,
    lighter,
    pt_for_height,
    Theme,
)
from toolkit.specs.models import Edition

CARD_WIDTH = 63.0
CARD_HEIGHT = 88.0
DECKS_WITH_BUDGET_ON_BACK = frozenset({"tactical"})
"""Decks whose card backs show the virtual buttons of the card."""

FILTER_TEXT = {
    "NO_OVERTAKE": "does not overtake you",
    "MOST_BUTTONS": "most buttons on patch",
    "LARGEST": "largest patch",
    "FURTHEST": "furthest from the token",
}


def _filter_icon(name: str, cx: float, cy: float, theme: Theme = DEFAULT_THEME) -> list[Item]:
    if name == "NO_OVERTAKE":
        return [
            Circle(cx - 1.8, cy, 1.6, INK, 0.35, "#d9d9d9"),
            Circle(cx + 1.8, cy, 1.6, INK, 0.35, "#ffffff"),
            Line(cx - 3.5, cy - 2.6, cx + 3.5, cy + 2.6, "#c62828", 0.6),
        ]
    if name == "MOST_BUTTONS":
        return (button(cx - 1.4, cy + 0.6, 1.5, theme.button, theme.button_rim)
                + button(cx + 1.4, cy - 0.9, 1.5, theme.button, theme.button_rim))
    if name == "LARGEST":
        cell = 2.0
        cells = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
        items: list[Item] = []
        for r, c in cells:
            items.append(Rect(cx - 3 + c * cell, cy - 2 + r * cell, cell, cell, INK, 0.3, "#bcd3e8"))
        return items
    if name == "FURTHEST":
        return [Poly(((cx - 3.6, cy - 1.8), (cx - 3.6, cy + 1.8), (cx - 1.8, cy)), True, INK, 0.3, INK)] + arrow(
            cx - 1.2, cy, cx + 3.8, cy, INK, 0.45, 1.4)
    return [Circle(cx, cy, 1.8, INK, 0.35, None)]


def automa_front(card, deck: str, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    colour = theme.automa_colour(deck)
    b = bleed
    w, h = CARD_WIDTH, CARD_HEIGHT
    items: list[Item] = [
        Rect(-b, -b, w + 2 * b, h + 2 * b, None, HAIRLINE, colour),
        Rect(3.5, 14.0, w - 7, h - 17.5, lighter(colour, 0.3), 0.4, theme.automa_face, radius=2.5),
        Text(6.0, 10.0, "AUTOMA", 11, "start", True, "#ffffff"),
        Text(w - 6.0, 10.0, deck, fit_text_size(deck, 22, 8), "end", False, "#ffffff"),
    ]
    # the turn's budget
    items += button(w / 2, 29.0, 10.5, theme.button, theme.button_rim, holes=False)
    items.append(Text(w / 2, 29.0 + pt_for_height(7.0) * 0.3528 * 0.36, str(card.virtual_buttons),
                      pt_for_height(7.0), "middle", True, "#ffffff"))
    items.append(Text(w / 2, 45.0, "virtual buttons", 7, "middle", False, GREY))
    # income per income mark crossed
    items.append(Line(8, 48.5, w - 8, 48.5, lighter(colour, 0.5), 0.3))
    items += button(16.0, 54.5, 3.6, INCOME_FILL, "#7a5a10")
    items.append(Text(22.0, 56.4, f"+{card.income}", 13, "start", True, INK))
    items.append(Text(35.0, 53.8, "per income", 6.2, "start", False, GREY))
    items.append(Text(35.0, 57.0, "mark crossed", 6.2, "start", False, GREY))
    items.append(Line(8, 60.5, w - 8, 60.5, lighter(colour, 0.5), 0.3))
    if card.virtual_buttons <= 0:
        # The barcode card: the Automa never buys on it, not even a free patch (Automa rules,
        # card #12); it passes, so its filters would never be read.
        items.append(Text(w / 2, 68.0, "never buys", 7.5, "middle", True, INK))
        note = "passes: moves just ahead of you"
        items.append(Text(w / 2, 73.0, note, fit_text_size(note, w - 14, 6.2), "middle", False, GREY))
    elif card.filters:
        # filters, top to bottom
        for i, name in enumerate(card.filters):
            y = 65.0 + i * 6.0
            items.append(Text(8.0, y + 1.2, f"{i + 1}.", 7, "start", True, INK))
            items += _filter_icon(name, 16.5, y, theme)
            text = FILTER_TEXT.get(name, name.replace("_", " ").lower())
            items.append(Text(22.0, y + 1.2, text, fit_text_size(text, w - 29, 6.8), "start", False, INK))
    else:
        items.append(Text(w / 2, 68.0, "no filters", 7.5, "middle", True, INK))
        # ties always fall to the furthest patch, as in the engine
        note = "buys the furthest affordable patch"
        items.append(Text(w / 2, 73.0, note, fit_text_size(note, w - 14, 6.2), "middle", False, GREY))
    items.append(Text(w / 2, h - 4.9, f"#{card.number}", 6, "middle", False, GREY))
    return tuple(items)


def automa_back(card, deck: str, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    colour = theme.automa_colour(deck)
    b = bleed
    w, h = CARD_WIDTH, CARD_HEIGHT
    items: list[Item] = [Rect(-b, -b, w + 2 * b, h + 2 * b, None, HAIRLINE, colour)]
    if theme.automa_back_art is not None:
        # the picture covers the back, bleed included; the deck's name stays on a band of its colour
        items += [cover(theme.automa_back_art, -b, -b, w + 2 * b, h + 2 * b),
                  Rect(5, 15, w - 10, 21, None, HAIRLINE, colour, radius=2)]
    items += [
        Rect(5, 5, w - 10, h - 10, lighter(colour, 0.35), 0.6, None, radius=3),
        Text(w / 2, 24, "AUTOMA", 14, "middle", True, "#ffffff"),
        Text(w / 2, 32, deck, 9, "middle", False, "#ffffff"),
    ]
    if theme.title:
        if theme.automa_back_art is not None:
            items.append(Rect(5, h - 16, w - 10, 9, None, HAIRLINE, colour, radius=2))
        items.append(Text(w / 2, h - 10, theme.title, fit_text_size(theme.title, w - 16, 8), "middle", True,
                          "#ffffff"))
    if deck in DECKS_WITH_BUDGET_ON_BACK:
        items += button(w / 2, 55, 10.5, theme.button, theme.button_rim, holes=False)
        items.append(Text(w / 2, 55 + 2.5, str(card.virtual_buttons), pt_for_height(7.0), "middle", True,
                          "#ffffff"))
    return tuple(items)


def automa_pieces(edition: Edition, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> list[Piece]:
    """Every card of every deck of the edition's Automa, its art running `bleed` mm past the cut,
    in the look of `theme`."""
    automa = require_solo_opponent(edition)
    pieces: list[Piece] = []
    for deck, cards in automa.decks:
        for card in cards:
            pieces.append(Piece(CARD_WIDTH, CARD_HEIGHT, automa_front(card, deck, bleed, theme),
                                automa_back(card, deck, bleed, theme), f"{deck}-{card.number}"))
    return pieces
