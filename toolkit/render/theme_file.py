"""Theme files: a designer's own look (colours, TrueType fonts, a card back picture, an Automa back
picture, per-patch pictures or patterns, a title and credits), read and checked once, at the
boundary.

A theme file is YAML with `kind: theme`; every key is optional and falls back to the bundled
look (`toolkit.render.theme.DEFAULT_THEME`), which `theme_yaml` writes out as a file to start
from. Paths are relative to the theme file. Every problem is found in one pass and reported at
once, one line each, with file, line, column and key (`SpecError`): an unknown key, a colour that
is not `#rrggbb`, a file that is missing, too large, not a PNG/JPEG picture or not a TrueType
font; patch ids are checked against the edition when it is printed (`check_patches`).
"""
from __future__ import annotations

import io
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from toolkit.errors import InputError, Problem, SpecError
from toolkit.fileio import path_kind, read_capped_bytes
from toolkit.render.theme import DEFAULT_THEME, PATTERNS, Art, FontFile, PatchLook, Theme
from toolkit.specs.source import INVALID, LDict, LList, Loc, UnreadableSpec, display_name, not_a_spec, read_tree

KIND = "theme"
MAX_IMAGE_BYTES = 20 * 1024 * 1024
"""A card back or patch picture: more than enough for 300 dpi print (a poker card is 825 x 1125 px)."""
MAX_IMAGE_PIXELS = 40_000_000
"""Pixels of one picture: a bigger one is surely not meant for a card (and would bloat every PDF)."""
MAX_THEME_PIXELS = 120_000_000
"""Pixels of all a theme's distinct pictures together. Every printed file decodes and re-encodes
each picture it shows (some 0.1 CPU-second a megapixel), so a theme of 40-megapixel pictures on
every patch would take many minutes a file; 33 tile pictures at 300 dpi are about 50."""
MAX_FONT_BYTES = 20 * 1024 * 1024
MAX_TITLE = 60
MAX_CREDITS = 200
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
COLOUR_ROLES = ("card_face", "card_back", "start_card_back", "tile_back", "quilt", "quilt_frame", "time_board",
                "button", "button_rim", "neutral_token", "doodle_token", "level", "automa_face")
"""Single colours a theme may set (besides the lists and the Automa decks' mapping)."""
COLOUR_PAIRS = ("track", "time_tokens")
"""Colours given as two: the time board's light and dark spaces, the two players' time tokens."""
KEYS = ("kind", "name", "title", "credits", "colours", "fonts", "card_back", "automa_back", "patches")
FONT_KEYS = ("regular", "bold")
PICTURE_KEYS = ("card_back", "automa_back")
"""Top-level keys naming a picture: the back of every patch card, of every Automa card."""
PICTURE_FIELDS = {"card_back": "card_back_art", "automa_back": "automa_back_art"}
LOOK_KEYS = ("colour", "pattern", "art")
IMAGE_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg"}
MAX_SHOWN_NAME = 80


def cut_name(value: str) -> str:
    """A path as written in the theme, shortened for a message and with control characters
    shown escaped (a name is the user's text, never a file's content)."""
    text = value if len(value) <= MAX_SHOWN_NAME else value[:MAX_SHOWN_NAME - 3] + "..."
    return text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text


def load_theme(path: str | os.PathLike) -> Theme:
    """The theme a file describes; SpecError listing every problem, one line each."""
    path = Path(path)
    refused = not_a_spec(path)
    shown = display_name(path)
    if refused is not None:
        raise SpecError([Loc(shown).problem("(file)", refused.replace("spec file", "theme file"))])
    if not path.exists():
        raise SpecError([Loc(shown).problem("(file)", "no such theme file")])
    try:
        tree, problems = read_tree(path, shown)
    except UnreadableSpec as unreadable:
        raise SpecError([unreadable.args[0]]) from None
    reader = _Reader(path.parent, problems)
    theme = reader.theme(tree, shown)
    if reader.problems:
        raise SpecError(sorted(reader.problems, key=lambda p: (p.line, p.column)))
    return theme


def theme_files(path: str | os.PathLike) -> list[Path]:
    """The theme file and every file it names (fonts, pictures), absolute, whether or not they
    exist or read cleanly: what `--watch` looks at, so a saved font or picture prints again. A
    theme that cannot be read at all still counts itself."""
    path = Path(path)
    found = [path.absolute()]
    try:
        tree, _problems = read_tree(path, display_name(path))
    except (UnreadableSpec, OSError, ValueError):
        return found
    if not isinstance(tree, LDict):
        return found
    named: list[object] = []
    fonts = tree.get("fonts")
    if isinstance(fonts, LDict):
        named += [fonts.get(key) for key in FONT_KEYS]
    named += [tree.get(key) for key in PICTURE_KEYS]
    patches = tree.get("patches")
    if isinstance(patches, LDict):
        named += [look.get("art") for look in patches.values() if isinstance(look, LDict)]
    for value in named:
        if isinstance(value, str) and value.strip():
            target = (path.parent / value).absolute()
            if target not in found:
                found.append(target)
    return found


def check_decks(theme: Theme, deck_names, where: str) -> None:
    """SpecError for each Automa deck a theme colours that is not among `deck_names` (those of
    `where`), one line each."""
    known = set(deck_names)
    problems = [Problem(theme.source, line, column, f"colours.automa.{name}",
                        f"no Automa deck {name} in {where} (it has {', '.join(sorted(known))})")
                for name, line, column in theme.deck_places if name not in known]
    if problems:
        raise SpecError(problems)


def check_patches(theme: Theme, patch_ids, where: str) -> None:
    """SpecError for each patch a theme names that is not among `patch_ids` (those of `where`,
    e.g. `edition 'doodle'`), one line each."""
    known = set(patch_ids)
    problems = [Problem(theme.source, line, column, f"patches.{name}", f"no patch {name} in {where}")
                for name, line, column in theme.patch_places if name not in known]
    if problems:
        raise SpecError(problems)


@lru_cache(maxsize=1)
def bundled_names() -> tuple[frozenset[str], frozenset[str]]:
    """(patch ids, Automa deck names) of every bundled edition and variant: what one theme may
    name to dress them all."""
    from toolkit.render.components import solo_opponent
    from toolkit.specs import load_edition
    from toolkit.specs.catalogue import list_editions, list_variants

    patches: set[str] = set()
    decks: set[str] = set()
    for name in (*list_editions(), *list_variants()):
        edition = load_edition(name)
        patches.update(patch.id for patch in edition.all_patches())
        opponent = solo_opponent(edition)
        if opponent is not None:
            decks.update(deck for deck, _cards in opponent.decks)
    return frozenset(patches), frozenset(decks)


def check_names(theme: Theme, edition=None) -> None:
    """SpecError for each patch id or Automa deck the theme names that is in neither `edition`
    (e.g. a custom deck being printed) nor any bundled edition or variant, one line each: one
    theme file dresses every edition, a name another edition prints is not an error, a misspelt
    one is."""
    if not theme.patch_places and not theme.deck_places:
        return
    patches, decks = bundled_names()
    where = "the bundled editions"
    if edition is not None:
        from toolkit.render.components import solo_opponent

        patches = patches | {patch.id for patch in edition.all_patches()}
        opponent = solo_opponent(edition)
        if opponent is not None:
            decks = decks | {deck for deck, _cards in opponent.decks}
        where = f"edition '{edition.name}' or {where}"
    problems = []
    for check, names in ((check_patches, patches), (check_decks, decks)):
        try:
            check(theme, names, where)
        except SpecError as error:
            problems += error.problems
    if problems:
        raise SpecError(sorted(problems, key=lambda p: (p.line, p.column)))


class _Reader:
    def __init__(self, folder: Path, problems: list[Problem]):
        self.folder = folder
        self.problems = list(problems)
        self.pixels: dict[bytes, int] = {}
        """Pixels of each distinct picture read so far, by its bytes' digest."""

    def add(self, owner, key, message: str) -> None:
        self.problems.append(owner.problem(key, message))

    # ----- the file ----------------------------------------------------------------------------

    def theme(self, tree, shown: str) -> Theme:
        if not isinstance(tree, LDict):
            self.problems.append(Loc(shown).problem("(top)", "a theme file is a mapping with `kind: theme`"))
            return DEFAULT_THEME
        if tree.get("kind") != KIND:
            if "kind" in tree:
                self.add(tree, "kind", f"expected `kind: {KIND}`, got {tree['kind']!r}")
            else:
                self.problems.append(tree.missing("kind", f"a theme file starts with `kind: {KIND}`"))
        for key in tree:
            if key not in KEYS:
                self.add(tree, key, f"unknown key; a theme takes {', '.join(KEYS)}")
        values: dict = {"source": shown}
        for key, limit in (("name", MAX_TITLE), ("title", MAX_TITLE), ("credits", MAX_CREDITS)):
            text = self.text(tree, key, limit)
            if text is not None:
                values[key] = text
        if "colours" in tree:
            values.update(self.colours(tree))
        if "fonts" in tree:
            values.update(self.fonts(tree))
        for key in PICTURE_KEYS:
            if key in tree:
                art = self.picture(tree, key)
                if art is not None:
                    values[PICTURE_FIELDS[key]] = art
        looks: list[tuple[str, PatchLook]] = []
        places: list[tuple[str, int, int]] = []
        if "patches" in tree:
            patches = tree["patches"]
            if not isinstance(patches, LDict):
                self.add(tree, "patches", "expected a mapping of patch id (or `default`) to its look")
            else:
                for name, spec in patches.items():
                    look = self.look(patches, str(name), spec)
                    if look is None:
                        continue
                    if name == "default":
                        values["default_look"] = look
                    else:
                        looks.append((str(name), look))
                        loc = patches.loc_of(name)
                        places.append((str(name), loc.line, loc.column))
        values["patches"] = tuple(looks)
        values["patch_places"] = tuple(places)
        return replace(DEFAULT_THEME, **values)

    def text(self, owner: LDict, key: str, limit: int) -> str | None:
        if key not in owner:
            return None
        value = owner[key]
        if value is INVALID:
            return None
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            self.add(owner, key, "expected text")
            return None
        text = str(value).strip()
        if not text or len(text) > limit or "\n" in text:
            self.add(owner, key, f"expected one line of 1 to {limit} characters")
            return None
        return text

    def colour(self, owner, key, value) -> str | None:
        if isinstance(value, str) and COLOUR.match(value):
            return value.lower()
        self.add(owner, key, f"expected a colour written #rrggbb, got {value!r}")
        return None

    def colours(self, tree: LDict) -> dict:
        colours = tree["colours"]
        if not isinstance(colours, LDict):
            self.add(tree, "colours", "expected a mapping of colour names to #rrggbb")
            return {}
        out: dict = {}
        for key, value in colours.items():
            if key in COLOUR_ROLES:
                colour = self.colour(colours, key, value)
                if colour is not None:
                    out[key] = colour
            elif key in ("palette", *COLOUR_PAIRS):
                wanted = 2 if key in COLOUR_PAIRS else None
                if not isinstance(value, LList) or not value or (wanted and len(value) != wanted):
                    pair = "light and dark spaces" if key == "track" else "first and second player"
                    count = f"two colours ({pair})" if wanted else "a list of one or more colours"
                    self.add(colours, key, f"expected {count}")
                    continue
                found = [self.colour(value, i, v) for i, v in enumerate(value)]
                if all(found):
                    out[key] = tuple(found)
            elif key == "automa":
                decks = self.decks(colours, value)
                if decks is not None:
                    out[key] = decks
                    out["deck_places"] = tuple((str(name), value.loc_of(name).line, value.loc_of(name).column)
                                               for name in value)
            else:
                known = COLOUR_ROLES + ("palette", *COLOUR_PAIRS, "automa")
                self.add(colours, key, f"unknown colour; a theme sets {', '.join(known)}")
        return out

    def decks(self, colours: LDict, value) -> tuple[tuple[str, str], ...] | None:
        """The Automa decks' colours: the bundled ones with those the theme names (by deck name)."""
        if not isinstance(value, LDict) or not value:
            self.add(colours, "automa", "expected a mapping of Automa deck name to colour, e.g. {normal: \"#4f6473\"}")
            return None
        decks = dict(DEFAULT_THEME.automa)
        ok = True
        for name, colour in value.items():
            found = self.colour(value, name, colour)
            ok = ok and found is not None
            if found is not None:
                decks[str(name)] = found
        return tuple(decks.items()) if ok else None

    def fonts(self, tree: LDict) -> dict:
        fonts = tree["fonts"]
        if not isinstance(fonts, LDict):
            self.add(tree, "fonts", "expected `regular:` and/or `bold:` TrueType font files")
            return {}
        out: dict = {}
        for key in fonts:
            if key not in FONT_KEYS:
                self.add(fonts, key, "unknown font; a theme sets regular and bold")
                continue
            font = self.font(fonts, key)
            if font is not None:
                out[f"{key}_font"] = font
        return out

    def look(self, patches: LDict, name: str, spec) -> PatchLook | None:
        if not isinstance(spec, LDict):
            self.add(patches, name, "expected a mapping with colour, pattern and/or art")
            return None
        for key in spec:
            if key not in LOOK_KEYS:
                self.add(spec, key, f"unknown key; a patch's look takes {', '.join(LOOK_KEYS)}")
        values: dict = {}
        if "colour" in spec:
            colour = self.colour(spec, "colour", spec["colour"])
            if colour is not None:
                values["colour"] = colour
        if "pattern" in spec:
            if spec["pattern"] in PATTERNS:
                values["pattern"] = spec["pattern"]
            else:
                self.add(spec, "pattern", f"unknown pattern {spec['pattern']!r}; expected {', '.join(PATTERNS)}")
        if "art" in spec:
            art = self.picture(spec, "art")
            if art is not None:
                values["art"] = art
        return PatchLook(**values)

    # ----- files -------------------------------------------------------------------------------

    def read(self, owner: LDict, key: str, what: str, limit: int) -> tuple[str, bytes] | None:
        """(path as written, bytes) of the file `owner[key]` names, or None with its problem.

        Confined to the theme's folder: a relative path to a regular file inside it (or below
        it); an absolute path, a `..` that leaves the folder, or a link that leads out of it (to
        /proc, a device, another folder) is refused before anything is opened, and no message
        ever quotes the file's content."""
        value = owner[key]
        if not isinstance(value, str) or not value.strip():
            self.add(owner, key, f"expected the path of {what}, relative to the theme file")
            return None
        shown = cut_name(value)
        if "\0" in value or os.path.isabs(value) or value.startswith("~"):
            self.add(owner, key, f"{shown}: expected a path relative to the theme file, inside its folder")
            return None
        if os.path.normpath(value).split(os.sep)[0] == "..":  # refused before asking whether it exists
            self.add(owner, key, f"{shown} leads outside the theme's folder; keep fonts and pictures in the "
                                 "theme's folder or below it")
            return None
        target = self.folder / value
        if not os.path.lexists(target):
            self.add(owner, key, f"{shown} does not exist (paths are relative to the theme file)")
            return None
        try:
            home = os.path.realpath(self.folder)
            real = os.path.realpath(target)
        except (OSError, ValueError):
            self.add(owner, key, f"{shown} cannot be read")
            return None
        if os.path.commonpath([home, real]) != home:
            self.add(owner, key, f"{shown} leads outside the theme's folder; keep fonts and pictures in the "
                                 "theme's folder or below it")
            return None
        kind = path_kind(real)
        if kind is not None:
            self.add(owner, key, f"{shown} is {kind}, not {what}")
            return None
        try:
            size = os.stat(real).st_size
        except OSError:
            self.add(owner, key, f"{shown} cannot be read")
            return None
        if size > limit:
            self.add(owner, key, f"{shown} is {size / 1048576:.1f} MB; {what} may be at most "
                                 f"{limit // 1048576} MB")
            return None
        try:
            return value, read_capped_bytes(real, limit, what)
        except InputError as error:
            self.add(owner, key, f"{shown}: {str(error).split(': ', 1)[-1]}")
            return None

    def picture(self, owner: LDict, key: str) -> Art | None:
        read = self.read(owner, key, "a PNG or JPEG picture", MAX_IMAGE_BYTES)
        if read is None:
            return None
        value, data = read
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(data)) as image:
                kind, (width, height) = image.format, image.size
                if width * height > MAX_IMAGE_PIXELS:
                    self.add(owner, key, f"{value} is {width} x {height} px; a picture may have at most "
                                         f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels")
                    return None
                if not self.within_total(owner, key, value, data, width * height):
                    return None
                image.verify()
        except (UnidentifiedImageError, Image.DecompressionBombError):
            self.add(owner, key, f"{value} is not a picture (expected PNG or JPEG)")
            return None
        except Exception as error:  # a truncated or damaged file: Pillow raises many kinds
            self.add(owner, key, f"{value} is a damaged picture ({error.__class__.__name__}); expected PNG or JPEG")
            return None
        if kind not in IMAGE_FORMATS:
            self.add(owner, key, f"{value} is a {kind} picture; expected PNG or JPEG")
            return None
        return Art(value, data, width, height, IMAGE_FORMATS[kind])

    def within_total(self, owner: LDict, key: str, value: str, data: bytes, pixels: int) -> bool:
        """Whether the theme's distinct pictures, this one too, stay within MAX_THEME_PIXELS; the
        first one past it is the problem (with the figure), the rest are not read."""
        import hashlib

        digest = hashlib.sha256(data).digest()
        before = sum(self.pixels.values())
        if digest in self.pixels:
            return True
        if before + pixels > MAX_THEME_PIXELS:
            if before <= MAX_THEME_PIXELS:
                self.add(owner, key, f"{value} brings the theme's distinct pictures to "
                                     f"{(before + pixels) / 1e6:,.0f} megapixels (at most "
                                     f"{MAX_THEME_PIXELS // 1_000_000} in all: each printed file redraws "
                                     f"them); scale the pictures to their printed size, 300 dpi is enough")
                self.pixels[b"over"] = MAX_THEME_PIXELS + 1
            return False
        self.pixels[digest] = pixels
        return True

    def font(self, owner: LDict, key: str) -> FontFile | None:
        read = self.read(owner, key, "a TrueType font (.ttf)", MAX_FONT_BYTES)
        if read is None:
            return None
        value, data = read
        from reportlab.pdfbase.ttfonts import TTFontFile

        if data[:4] == b"OTTO":
            self.add(owner, key, f"{value} is an OpenType font with PostScript (CFF) outlines; expected a "
                                 "TrueType font (.ttf with glyf outlines)")
            return None
        try:
            face = TTFontFile(io.BytesIO(data), validate=0)
        except Exception:  # reportlab raises TTFError and struct errors on junk (quoting its bytes: not shown)
            self.add(owner, key, f"{cut_name(value)} is not a TrueType font that can be embedded (its font "
                                 "tables cannot be read)")
            return None
        family = face.familyName.decode("latin-1") if isinstance(face.familyName, bytes) else str(face.familyName)
        return FontFile(value, data, family or Path(value).stem)


def theme_yaml(theme: Theme = DEFAULT_THEME) -> str:
    """A theme file holding `theme`'s colours (the bundled look by default), with the keys a
    designer may add commented: the file `patchwork render theme` writes to start from."""
    palette = ", ".join(f'"{c}"' for c in theme.palette)
    lines = [
        "# A look for patchwork render and build: --theme THIS-FILE. Every key is optional; what is left",
        "# out stays as the bundled look. Paths are relative to this file.",
        "kind: theme",
        f"name: {theme.name}",
        "# title: My Quilt Game          # printed in place of the game's title (card backs, sheet, rules)",
        "# credits: \"Art: A. Designer\"  # a line at the foot of the rules reference",
        "colours:",
        *(f'  {role}: "{getattr(theme, role)}"' for role in COLOUR_ROLES),
        f'  track: ["{theme.track[0]}", "{theme.track[1]}"]   # light and dark time-board spaces',
        f'  time_tokens: ["{theme.time_tokens[0]}", "{theme.time_tokens[1]}"]   # first and second player',
        "  automa: {" + ", ".join(f'{deck}: "{colour}"' for deck, colour in theme.automa) + "}   # by deck name",
        f"  palette: [{palette}]",
        "# fonts:                        # TrueType (.ttf) files, embedded (subset) in every PDF",
        "#   regular: fonts/MyFont-Regular.ttf",
        "#   bold: fonts/MyFont-Bold.ttf",
        "# card_back: art/back.png       # PNG or JPEG covering every patch card's back",
        "# automa_back: art/automa.png   # PNG or JPEG under the deck name on every Automa card's back",
        "# patches:                      # per patch id (or `default`): colour, pattern or art",
        f"#   default: {{pattern: plain}}  # {', '.join(PATTERNS)}",
        "#   P01: {art: art/p01.png}",
        '#   P02: {colour: "#aa3344", pattern: stripes}',
    ]
    return "\n".join(lines) + "\n"
