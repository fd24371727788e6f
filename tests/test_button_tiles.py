"""The button tiles a printed kit holds come from the edition's rules family (the box its time
board comes in), not from the render code: the rulebooks' component lists, and a variant keeps
its base game's box."""
from __future__ import annotations

import pytest

from toolkit.families import family_of
from toolkit.render.tokens import token_counts
from toolkit.specs import load_edition


def _tiles(edition):
    return family_of(edition).button_tiles(edition)


@pytest.mark.parametrize("name, total, kinds", [
    ("classic", 162, 4), ("classic-revised", 162, 4), ("christmas", 162, 4), ("anniversary", 162, 4),
    ("express", 70, 3),
])
def test_each_box_holds_the_buttons_its_rulebook_lists(name, total, kinds):
    tiles = _tiles(load_edition(name))
    assert sum(value * count for value, count in tiles) == total and len(tiles) == kinds


def test_a_game_without_a_price_in_buttons_has_no_button_tiles():
    doodle = load_edition("doodle")
    assert _tiles(doodle) == ()
    assert not any("button" in text for text, _ in token_counts(doodle))


def test_a_variant_keeps_the_box_of_its_time_board(tmp_path):
    path = tmp_path / "long-express.yaml"
    path.write_text("kind: variant\nname: long-express\ntitle: Express with more buttons\nextends: express\n"
                    "starting_buttons: 9\n")
    variant = load_edition(path)
    assert _tiles(variant) == _tiles(load_edition("express"))
    assert ("12 1-button tiles", 12) in token_counts(variant)
