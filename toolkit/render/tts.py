"""A game on a virtual table: an edition as a Tabletop Simulator saved object.

`export_tts` writes a folder holding `<edition>.json`, a saved object (what TTS keeps under
Saved Objects: `{"SaveName", "ObjectStates": [...]}`) set up to start a game, and `images/`
with every picture it names, drawn from the same pieces as the print kit:

- each patch as a `Custom_Token` whose PNG is clear outside the patch, so TTS cuts the token to
  the patch's shape; leather patches and the special tile likewise;
- the quilt boards (one per player) and the time board as `Custom_Tile` boxes;
- button tiles, time tokens and the other round tokens as `Custom_Tile` circles, the rest as boxes;
- cards (Doodle's patch and start cards, every Automa deck) as `DeckCustom` objects over card
  sheets of at most 10 x 7 faces (a TTS deck sheet), with one back or a sheet of backs;
- a Doodle score sheet per player as a tile.

Pieces are placed as at the start of a game: the patches in a ring around the time board in the
spec's order (the neutral token after the smallest patch, where the rules put it), the quilt
boards either side, the time tokens at the start space's corner, the buttons in a bank, the decks
face down beside the boards. Positions are TTS units (1 unit = 1 inch); each object's scale is
its printed width in inches divided by SCALE_UNIT_INCHES.

ImageURL is a `file:///` URL of the image's absolute path (TTS loads local files so), or the
path relative to the JSON with `relative=True`, for a folder meant to be moved and re-linked.
"""
from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.render import automa as automa_mod
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render import tokens as tokens_mod
from toolkit.render.components import solo_opponent
from toolkit.render.documents import piece_document
from toolkit.render.imposition import Piece
from toolkit.render.output import check_targets, not_own, remember, write_all
from toolkit.render.paper import parse_paper
from toolkit.render.scene import Document
from toolkit.render.theme import DEFAULT_THEME, Theme

DPI = 150
"""Resolution of every exported picture: sharp on a virtual table, small enough to load fast."""
MM_PER_UNIT = 25.4
"""A TTS unit is an inch."""
SCALE_UNIT_INCHES = 1.0
"""Inches spanned by a custom tile or token at scale 1 (what this export assumes)."""
THICKNESS = 0.2
SHEET_COLS, SHEET_ROWS = 10, 7
"""A TTS deck sheet holds at most 10 x 7 faces (the 70th the hidden card)."""
MAX_SHEET_CARDS = SHEET_COLS * SHEET_ROWS - 1
CIRCLE, BOX = 2, 0
"""CustomTile types: 0 box, 1 hex, 2 circle, 3 rounded."""


@dataclass
class Picture:
    """One image of the export: file name in images/, its pixels."""

    name: str
    width: int
    height: int


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "piece"


def _png(items, width_mm: float, height_mm: float, transparent: bool) -> bytes:
    from toolkit.render.png import document_pngs

    document = piece_document("piece", Piece(width_mm, height_mm, items, None, "piece"), 0.0)
    return document_pngs(document, DPI, transparent=transparent)[0]


def _size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def _transform(x: float, z: float, width_mm: float, y: float = 1.0, turned: bool = False) -> dict:
    scale = width_mm / MM_PER_UNIT / SCALE_UNIT_INCHES
    return {"posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4), "rotX": 0.0,
            "rotY": 180.0 if turned else 0.0, "rotZ": 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


class _Export:
    def __init__(self, folder: Path, relative: bool, prefix: str):
        self.folder = folder
        self.relative = relative
        self.prefix = prefix
        """Starts every image name, so exports of several editions share one folder safely."""
        self.files: dict[Path, bytes] = {}
        self.pictures: dict[str, Picture] = {}
        self.objects: list[dict] = []
        self.guid = 0

    def url(self, name: str) -> str:
        if self.relative:
            return f"images/{name}"
        return (self.folder / "images" / name).absolute().as_uri()

    def picture(self, name: str, png: bytes) -> Picture:
        name = f"{self.prefix}-{name}"
        if name not in self.pictures:
            width, height = _size(png)
            self.files[self.folder / "images" / name] = png
            self.pictures[name] = Picture(name, width, height)
        return self.pictures[name]

    def _base(self, kind: str, nickname: str, transform: dict) -> dict:
        self.guid += 1
        return {"Name": kind, "GUID": f"{self.guid:06x}", "Nickname": nickname, "Description": "",
                "Transform": transform, "Locked": False, "Grid": False, "Snap": False}

    def token(self, nickname: str, piece: Piece, x: float, z: float) -> None:
        """A piece cut to the shape of its picture (clear outside it)."""
        picture = self.picture(f"{_slug(piece.name)}.png", _png(piece.front, piece.width, piece.height, True))
        obj = self._base("Custom_Token", nickname, _transform(x, z, piece.width))
        obj["CustomImage"] = {"ImageURL": self.url(picture.name), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0,
                              "CustomToken": {"Thickness": THICKNESS, "MergeDistancePixels": 15.0,
                                              "StandUp": False, "Stackable": False}}
        self.objects.append(obj)

    def tile(self, nickname: str, piece: Piece, x: float, z: float, shape: int = BOX, locked: bool = False,
             name: str | None = None) -> None:
        front = self.picture(f"{_slug(name or piece.name)}.png",
                             _png(piece.front, piece.width, piece.height, shape == CIRCLE))
        back = None
        if piece.back is not None and piece.back != piece.front:
            back = self.picture(f"{_slug(name or piece.name)}-back.png",
                                _png(piece.back, piece.width, piece.height, shape == CIRCLE))
        obj = self._base("Custom_Tile", nickname, _transform(x, z, piece.width))
        obj["Locked"] = locked
        obj["CustomImage"] = {"ImageURL": self.url(front.name),
                              "ImageSecondaryURL": self.url(back.name) if back else "",
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": shape, "Thickness": THICKNESS, "Stackable": shape == CIRCLE,
                                             "Stretch": True}}
        self.objects.append(obj)

    def deck(self, nickname: str, pieces: list[Piece], x: float, z: float, deck_id: int) -> int:
        """Cards as DeckCustom objects over sheets of at most MAX_SHEET_CARDS faces; returns the
        next free deck id."""
        from PIL import Image

        for start in range(0, len(pieces), MAX_SHEET_CARDS):
            chunk = pieces[start:start + MAX_SHEET_CARDS]
            faces = [Image.open(io.BytesIO(_png(p.front, p.width, p.height, False))).convert("RGB") for p in chunk]
            backs_differ = len({repr(p.back) for p in chunk}) > 1
            cols = min(SHEET_COLS, max(2, len(chunk)))
            rows = max(2, -(-(len(chunk) + 1) // cols))  # the last slot of a sheet is TTS's hidden card
            cw, ch = faces[0].size

            def sheet(images):
                out = Image.new("RGB", (cw * cols, ch * rows), "#ffffff")
                for i, image in enumerate(images):
                    out.paste(image.resize((cw, ch)), ((i % cols) * cw, (i // cols) * ch))
                buffer = io.BytesIO()
                out.save(buffer, "PNG", dpi=(DPI, DPI))
                return buffer.getvalue()

            suffix = f"-{start // MAX_SHEET_CARDS + 1}" if len(pieces) > MAX_SHEET_CARDS else ""
            face = self.picture(f"{_slug(nickname)}{suffix}-faces.png", sheet(faces))
            first = chunk[0]
            if backs_differ:
                backs = [Image.open(io.BytesIO(_png(p.back, p.width, p.height, False))).convert("RGB") for p in chunk]
                back = self.picture(f"{_slug(nickname)}{suffix}-backs.png", sheet(backs))
            else:
                back = self.picture(f"{_slug(nickname)}{suffix}-back.png",
                                    _png(first.back or first.front, first.width, first.height, False))
            custom = {str(deck_id): {"FaceURL": self.url(face.name), "BackURL": self.url(back.name),
                                     "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                                     "UniqueBack": backs_differ, "Type": 0}}
            ids = [deck_id * 100 + i for i in range(len(chunk))]
            transform = _transform(x + (start // MAX_SHEET_CARDS) * 3.0, z, first.width, y=1.0)
            transform["rotZ"] = 180.0  # face down, ready to draw
            obj = self._base("DeckCustom", f"{nickname}{suffix}", transform)
            obj["CustomDeck"] = custom
            obj["DeckIDs"] = ids
            obj["ContainedObjects"] = [
                {**self._base("Card", p.name, _transform(0.0, 0.0, p.width)), "CardID": card_id, "CustomDeck": custom}
                for p, card_id in zip(chunk, ids)]
            self.objects.append(obj)
            deck_id += 1
        return deck_id


def export_tts(edition, out_dir: str | Path, theme: Theme = DEFAULT_THEME, relative: bool = False,
               force: bool = False, solo: bool = False) -> tuple[Path, list[Path]]:
    """Write `<edition>.json` and its `images/` into `out_dir`; (the JSON's path, every file
    written). Refuses (UsageError) a file in the way that the toolkit did not write, unless
    `force`; writes every file or none."""
    folder = Path(out_dir)
    info = family_of(edition).info
    stem = f"{_slug(edition.name)}{'-solo' if solo else ''}"
    export = _Export(folder, relative, stem)
    prints = info.components
    deck_id = 1
    players = edition.players_max or edition.players_min or 1
    if solo:
        players = 1
    if "boards" in prints:
        quilt = boards_mod.quilt_board(edition, 0.0, theme)
        time_board = boards_mod.time_board(edition, parse_paper("297x420mm"), bleed=0.0, theme=theme)
        board_units = time_board.width / MM_PER_UNIT
        export.tile("time board", time_board, 0.0, 0.0, locked=True, name="time-board")
        quilt_units = quilt.width / MM_PER_UNIT
        for seat in range(players):
            x = (-1 if seat % 2 == 0 else 1) * (board_units / 2 + quilt_units / 2 + 9.0)
            z = -(seat // 2) * (quilt_units + 2.0)
            export.tile(f"quilt board, player {seat + 1}", quilt, x, z, locked=True, name="quilt-board")
        tokens = tokens_mod.token_pieces(edition, 0.0, solo, theme)
        bank = [t for t in tokens if t.name.startswith("button-")]
        others = [t for t in tokens if not t.name.startswith("button-")]
        for i, piece in enumerate(bank):
            export.tile(piece.name.replace("-", " "), piece, board_units / 2 + 3.0 + (i % 4) * 1.0,
                        board_units / 2 + 4.0 + (i // 4) * 1.0,
                        CIRCLE if piece.outline is not None else BOX)
        ring = board_units / 2 + 5.0
    else:
        board_units = 0.0
        others = tokens_mod.token_pieces(edition, 0.0, solo, theme) if "tokens" in prints else []
        ring = 0.0
    if "tiles" in prints:
        pieces = tiles_mod.tile_pieces(edition, extras=True, bleed=0.0, theme=theme)
        patches = edition.all_patches()
        count = len(patches)
        smallest = min(range(count), key=lambda i: (patches[i].shape.size, i)) if count else 0
        ring = max(ring, count * 2.0 / (2 * math.pi))
        for i, piece in enumerate(pieces[:count]):
            angle = 2 * math.pi * i / max(1, count)
            export.token(patches[i].id, piece, ring * math.cos(angle), ring * math.sin(angle))
        for j, piece in enumerate(pieces[count:]):
            export.token(piece.name.replace("-", " "), piece, -board_units / 2 - 3.0 - (j % 3) * 2.0,
                         board_units / 2 + 4.0 + (j // 3) * 2.0)
        marker_angle = 2 * math.pi * (smallest + 0.5) / max(1, count)
        neutral = (ring * math.cos(marker_angle), ring * math.sin(marker_angle))
    else:
        neutral = (0.0, -6.0)
    for k, piece in enumerate(others):
        if piece.name.startswith("time-token"):
            x, z = board_units / 2 - 1.0 - k * 0.8, -board_units / 2 + 1.0
        elif piece.name != "level-marker":  # the token that marks a place in the circle
            x, z = neutral
        else:
            x, z = board_units / 2 + 2.0, -board_units / 2 - 2.0 - k
        export.tile(piece.name.replace("-", " "), piece, x, z, CIRCLE if piece.outline is not None else BOX)
    if "cards" in prints:
        cards = doodle_mod.card_pieces(edition, 0.0, theme)
        patch_cards = [c for c in cards if c.name in {p.id for p in edition.patches}]
        start_cards = [c for c in cards if c not in patch_cards]
        deck_id = export.deck("patch cards", patch_cards, -4.0, 0.0, deck_id)
        if start_cards:
            deck_id = export.deck("start cards", start_cards, 4.0, 0.0, deck_id)
    if "sheet" in prints:
        paper = parse_paper("a5")
        symbol = doodle_mod.sheet_symbol(edition, paper, theme.title)
        sheet_png = _sheet_png(edition, paper, symbol)
        picture = export.picture("score-sheet.png", sheet_png)
        for seat in range(players):
            obj = export._base("Custom_Tile", f"score sheet, player {seat + 1}",
                               _transform(-12.0 + seat * 7.0, -10.0, paper.width))
            obj["CustomImage"] = {"ImageURL": export.url(picture.name), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                  "WidthScale": 0.0, "CustomTile": {"Type": BOX, "Thickness": THICKNESS,
                                                                   "Stackable": True, "Stretch": True}}
            export.objects.append(obj)
    deck = solo_opponent(edition)
    if deck is not None and (solo or "tiles" in prints):
        automa = automa_mod.automa_pieces(edition, 0.0, theme)
        for offset, (name, cards) in enumerate(deck.decks):
            chosen = [p for p in automa if p.name.startswith(f"{name}-")]
            deck_id = export.deck(f"Automa {name} deck", chosen, -board_units / 2 - 6.0,
                                  -board_units / 2 + offset * 4.0, deck_id)
    if not export.objects:
        raise UsageError(f"edition '{edition.name}' prints nothing to put on a table")
    save = {"SaveName": f"{edition.title}", "GameMode": edition.title, "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Note": "", "Table": "", "Sky": "", "TabStates": {},
            "ObjectStates": export.objects}
    target = folder / f"{stem}.json"
    export.files[target] = (json.dumps(save, indent=1, sort_keys=False) + "\n").encode("utf-8")
    check_targets(list(export.files))
    if not force:
        existing = not_own(export.files)
        if existing:
            more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
            raise UsageError(f"{existing[0]}{more} already exists and was not written by this toolkit (or was "
                             f"changed since); use --force to overwrite or --out to choose another folder")
    write_all(export.files)
    remember(export.files)
    return target, list(export.files)


def _sheet_png(edition, paper, symbol) -> bytes:
    from toolkit.render.png import document_pngs

    document = Document("score sheet", (doodle_mod.sheet_page(paper),), (symbol,))
    return document_pngs(document, DPI)[0]


