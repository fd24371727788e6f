"""The solo kit (`render kit anniversary --solo`, and `build`): one file to play against the Automa,
measured from the PDF: one quilt board, the time board with each level's space marked where the
rules page says it is, both Automa decks, the level marker and the solo rules."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.cli_helpers import fails, ok
from toolkit.errors import UsageError
from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.components import level_spaces
from toolkit.render.imposition import Duplex
from toolkit.specs import load_edition

MM = 25.4 / 72.0


def _texts(page) -> list[tuple[str, float, float]]:
    """(text, x, y) in mm, y up, of every string drawn on a PDF page."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), x * MM, y * MM))

    page.extract_text(visitor_text=visit)
    return found


@pytest.fixture(scope="module")
def solo_kit():
    edition = load_edition("anniversary")
    options = RenderOptions(solo=True, backs=True, duplex=Duplex("long"))
    document = render_component("kit", edition, options)
    return document, PdfReader(io.BytesIO(encode(document, "pdf", "long")[0]))


def test_the_level_spaces_count_back_from_the_final_space():
    assert level_spaces(load_edition("anniversary")) == (
        (1, "Intern", 52), (2, "Apprentice", 44), (3, "Fellow", 41), (4, "Master", 38), (5, "Legend", 35))
    assert level_spaces(load_edition("classic")) == ()


@pytest.mark.slow
def test_the_solo_kit_holds_one_quilt_board_both_decks_the_marker_and_the_solo_rules(solo_kit):
    document, reader = solo_kit
    labels = [page.label for page in document.pages]
    assert labels.count("quilt board 1") == 1 and "quilt board 2" not in labels
    text = " ".join(page.extract_text() for page in reader.pages)
    assert text.count("AUTOMA") >= 24 and "tactical" in text and "normal" in text
    assert "LEVEL" in text and "solo rules" in text and "reaches or passes the level marker" in text
    assert "1 level marker" in text and "24 Automa cards" in text
    assert len(reader.pages) % 2 == 0  # every front has its back


def test_every_level_badge_sits_on_its_space(solo_kit):
    document, reader = solo_kit
    board = next(i for i, page in enumerate(document.pages) if page.label == "time board")
    texts = _texts(reader.pages[board])
    space = document.pages[board].trim.width / 8
    for level, _name, at in level_spaces(load_edition("anniversary")):
        number = next((x, y) for t, x, y in texts if t == str(at))
        badge = [(x, y) for t, x, y in texts if t == f"L{level}" and abs(x - number[0]) < space / 2
                 and 0 < number[1] - y < space]
        assert badge, f"no L{level} badge on space {at}"


def test_solo_needs_an_automa_and_applies_to_kit_boards_tokens_rules():
    with pytest.raises(UsageError, match="--solo prints the kit for editions that include the solo opponent"):
        render_component("kit", load_edition("classic"), RenderOptions(solo=True))
    with pytest.raises(UsageError, match="--solo changes the kit, boards, tokens, rules"):
        render_component("tiles", load_edition("anniversary"), RenderOptions(solo=True))
    tokens = render_component("tokens", load_edition("anniversary"), RenderOptions(solo=True))
    assert "LEVEL" in PdfReader(io.BytesIO(encode(tokens, "pdf")[0])).pages[0].extract_text()


@pytest.mark.slow
def test_render_kit_solo_from_the_command_line(tmp_path):
    result = ok("render", "kit", "anniversary", "--solo", "--backs", "--out", str(tmp_path / "solo.pdf"))
    assert "solo.pdf: 22 page(s)" in result.output
    error = fails("render", "kit", "express", "--solo", "--out", str(tmp_path / "x.pdf"))
    assert "no Automa deck" in str(error) and "\n" not in str(error)


@pytest.mark.slow
def test_the_solo_kit_says_which_pages_hold_the_automa_decks(solo_kit):
    """The one solo file also serves a player who owns the game's other pieces: its note names the
    pages of the decks, and those pages (and only those) hold Automa cards."""
    import re

    document, reader = solo_kit
    note = next(n for n in document.notes if "Automa decks are pages" in n)
    first, last = (int(v) for v in re.search(r"pages (\d+)-(\d+)", note).groups())
    holding = [i + 1 for i, page in enumerate(reader.pages) if page.extract_text().lstrip().startswith("AUTOMA")]
    assert holding == list(range(first, last + 1))
