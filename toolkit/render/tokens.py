"""Cut-out tokens that make a printed kit playable: button tiles, time tokens, the neutral token
(time-track games), the Doodle token and the solo level marker, all two-sided and on one grid of
equal squares.

The button tiles, time tokens and level marker are round, as the published buttons and tokens
are: each is a disc filling its square, its printed rim the cut line (`ROUND_OUTLINE`), and its
colour runs out to the square's bleed, so it can be cut round (by hand, or by a die, laser or
cutting plotter following the cut path) or simply square at the crop marks. The markers that
point between two patches stay square.

The button tiles are those the published box ships; the edition's rules family says which
(RulesFamily.button_tiles: for the time-track games, the box its time board comes in).
"""
from __future__ import annotations

from toolkit.families import family_of
from toolkit.render.imposition import BLEED_MM, Piece
from toolkit.render.scene import Circle, Item, Poly, Rect, Text
from toolkit.render.theme import (
    DEFAULT_THEME,
    HAIRLINE,
    INK,
    darker,
    hourglass,
    lighter,
    pt_for_height,
    Theme,
)
from toolkit.specs.models import Edition

TOKEN_MM = 18.0
"""Side of every square token, and the diameter of every round one: big enough to pick up, small
enough to fit 80 on a sheet."""
ROUND_OUTLINE = (Circle(TOKEN_MM / 2, TOKEN_MM / 2, TOKEN_MM / 2, None),)
"""The cut line of a round token in its own frame: the circle its rim is printed on."""
RIM_MM = 0.6
"""Stroke of a round token's printed rim, centred on the cut line."""

PLAYER_NAMES = ("lime green", "yellow")
"""Time tokens are named by their colour in the published games (lime green / green and yellow);
the colours are the theme's `time_tokens`."""


def _field(colour: str, bleed: float = BLEED_MM) -> list[Item]:
    b = bleed
    return [Rect(-b, -b, TOKEN_MM + 2 * b, TOKEN_MM + 2 * b, None, HAIRLINE, colour)]


def _disc(fill: str, rim: str, bleed: float = BLEED_MM) -> list[Item]:
    """A round token's ground: its colour out to the square's bleed, the rim on the cut line."""
    s = TOKEN_MM
    return _field(fill, bleed) + [Circle(s / 2, s / 2, s / 2, rim, RIM_MM, None)]


def button_token(value: int, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    """A button tile: a round button bearing its value."""
    s = TOKEN_MM
    items = _disc(theme.button, theme.button_rim, bleed)
    items.append(Circle(s / 2, s / 2, s * 0.4, lighter(theme.button, 0.3), 0.25, None))
    size = pt_for_height(s * (0.32 if value < 10 else 0.26))
    items.append(Text(s / 2, s / 2 + s * (0.16 if value < 10 else 0.13), str(value), size, "middle", True, "#ffffff"))
    return tuple(items)


def time_token(colour: str, bleed: float = BLEED_MM) -> tuple[Item, ...]:
    """A player's round time token: an hourglass."""
    s = TOKEN_MM
    items = _disc(colour, darker(colour, 0.55), bleed)
    items += hourglass(s / 2, s / 2, s * 0.5, INK)
    return tuple(items)


def _marker(fill: str, word: str, bleed: float = BLEED_MM) -> tuple[Item, ...]:
    """A dark square with an arrow: it marks a place between two patches (or cards)."""
    s = TOKEN_MM
    items = _field(fill, bleed)
    items.append(Poly(((s * 0.5, s * 0.14), (s * 0.78, s * 0.5), (s * 0.6, s * 0.5), (s * 0.6, s * 0.62),
                       (s * 0.4, s * 0.62), (s * 0.4, s * 0.5), (s * 0.22, s * 0.5)), True, "#ffffff", 0.3, "#ffffff"))
    items.append(Text(s / 2, s * 0.86, word, 6.0, "middle", True, "#ffffff"))
    return tuple(items)


def level_marker(bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    """The round solo level marker: a flag on a pole over the word LEVEL; it sits on the time
    board's space of the Automa level played (marked L1 to L5)."""
    s = TOKEN_MM
    items = _disc(theme.level, darker(theme.level, 0.55), bleed)
    items.append(Poly(((s * 0.38, s * 0.2), (s * 0.38, s * 0.64)), False, "#ffffff", 0.7))
    items.append(Poly(((s * 0.40, s * 0.2), (s * 0.74, s * 0.31), (s * 0.40, s * 0.43)), True, "#ffffff", 0.3,
                      "#ffffff"))
    items.append(Text(s / 2, s * 0.8, "LEVEL", 6.0, "middle", True, "#ffffff"))
    return tuple(items)


NEUTRAL_MARKER = ("neutral_token", "NEUTRAL", "neutral-token", "neutral token")
LONE_MARKER = ("doodle_token", "TOKEN", "doodle-token", "Doodle token")
"""The token that marks a place in the circle of patches (or cards): beside time tokens it is
the dark neutral token, the one token no player owns; alone (Doodle) it is the red token.
(the theme's colour for it, word printed on it, piece name, noun)."""


def _time_tokens(edition: Edition) -> int:
    """One time token per seat on the time track, none without one."""
    if not family_of(edition).info.has_time_track:
        return 0
    return max(1, edition.players_max or edition.players_min)


def _circle_marker(edition: Edition) -> tuple[str, str, str, str]:
    return NEUTRAL_MARKER if _time_tokens(edition) else LONE_MARKER


def token_pieces(edition: Edition, bleed: float = BLEED_MM, solo: bool = False,
                 theme: Theme = DEFAULT_THEME) -> list[Piece]:
    """Every token of the edition, each with its back (the same face: tokens are two-sided): the
    button tiles (when patches are bought), the time tokens (when there is a time track), the
    token that marks a place in the circle and, for `solo` play against the Automa, the level
    marker; in the colours of `theme`."""
    pieces: list[Piece] = []
    for value, count in family_of(edition).button_tiles(edition):
        face = button_token(value, bleed, theme)
        pieces += [Piece(TOKEN_MM, TOKEN_MM, face, face, f"button-{value}", ROUND_OUTLINE) for _ in range(count)]
    for seat in range(_time_tokens(edition)):
        colour = theme.time_tokens[seat % len(theme.time_tokens)]
        name = PLAYER_NAMES[seat % len(PLAYER_NAMES)]
        face = time_token(colour, bleed)
        pieces.append(Piece(TOKEN_MM, TOKEN_MM, face, face, f"time-token-{name.replace(' ', '-')}", ROUND_OUTLINE))
    role, word, name, _noun = _circle_marker(edition)
    face = _marker(getattr(theme, role), word, bleed)
    pieces.append(Piece(TOKEN_MM, TOKEN_MM, face, face, name))
    if solo:
        face = level_marker(bleed, theme)
        pieces.append(Piece(TOKEN_MM, TOKEN_MM, face, face, "level-marker", ROUND_OUTLINE))
    return pieces


def token_counts(edition: Edition, solo: bool = False) -> list[tuple[str, int]]:
    """What the token sheet holds, in words (`3 time tokens`), for the build summary and the rules
    reference: (text, count) pairs."""
    rows = [(f"{value}-button tile", count) for value, count in family_of(edition).button_tiles(edition)]
    if _time_tokens(edition):
        rows.append(("time token", _time_tokens(edition)))
    rows.append((_circle_marker(edition)[3], 1))
    if solo:
        rows.append(("level marker", 1))
    return [(f"{count} {noun}{'' if count == 1 else 's'}", count) for noun, count in rows]
