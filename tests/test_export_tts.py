"""`patchwork export tts`: the saved object's structure, and every image it names on disk with the
size and shape it claims. Tabletop Simulator itself cannot run here, so nothing is loaded in it."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from tests.cli_helpers import fails, ok

TRANSFORM = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}


def _path(url: str, base: Path) -> Path:
    if url.startswith("file://"):
        return Path(unquote(urlparse(url).path))
    return base / url


def _export(tmp_path, *args) -> tuple[dict, Path]:
    out = tmp_path / "tts"
    result = ok("export", "tts", *args, "--out", str(out))
    target = Path(result.output.split("wrote ", 1)[1].split(":", 1)[0])
    return json.loads(target.read_text()), out


def _check_images(save: dict, base: Path) -> dict[str, list[dict]]:
    by_kind: dict[str, list[dict]] = {}
    guids = set()
    for obj in save["ObjectStates"]:
        by_kind.setdefault(obj["Name"], []).append(obj)
        assert set(obj["Transform"]) == TRANSFORM and obj["Transform"]["posY"] > 0
        assert obj["GUID"] not in guids
        guids.add(obj["GUID"])
        if obj["Name"] in ("Custom_Tile", "Custom_Token"):
            image = obj["CustomImage"]
            for key in ("ImageURL", "ImageSecondaryURL"):
                if image[key]:
                    with Image.open(_path(image[key], base)) as picture:
                        assert picture.format == "PNG" and picture.width > 10
        elif obj["Name"] == "DeckCustom":
            (deck,) = obj["CustomDeck"].values()
            cards = obj["ContainedObjects"]
            assert len(cards) == len(obj["DeckIDs"]) <= deck["NumWidth"] * deck["NumHeight"] - 1
            assert [c["CardID"] for c in cards] == obj["DeckIDs"]
            with Image.open(_path(deck["FaceURL"], base)) as sheet:
                assert sheet.width % deck["NumWidth"] == 0 and sheet.height % deck["NumHeight"] == 0
                face = (sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"])
            with Image.open(_path(deck["BackURL"], base)) as back:
                assert back.size == (sheet.size if deck["UniqueBack"] else face)
        else:
            pytest.fail(f"unexpected object {obj['Name']}")
    return by_kind


@pytest.mark.slow
def test_classic_is_set_up_with_every_piece(tmp_path):
    save, out = _export(tmp_path, "classic")
    assert save["ObjectStates"] and save["SaveName"]
    kinds = _check_images(save, out)
    tokens = kinds["Custom_Token"]
    assert len(tokens) == 33 + 5 + 1  # patches, leather patches, the 7x7 tile
    names = {t["Nickname"] for t in tokens}
    assert {"P00", "P32"} <= names
    tiles = {t["Nickname"] for t in kinds["Custom_Tile"]}
    assert {"time board", "quilt board, player 1", "quilt board, player 2"} <= tiles
    assert sum(1 for t in kinds["Custom_Tile"] if t["Nickname"].startswith("button")) == 32 + 12 + 5 + 1


@pytest.mark.slow
def test_a_patch_is_cut_to_its_shape_and_sized_as_printed(tmp_path):
    save, out = _export(tmp_path, "classic")
    tokens = {t["Nickname"]: t for t in save["ObjectStates"] if t["Name"] == "Custom_Token"}
    p00 = tokens["P00"]  # the 1x2 patch: 38 x 19 mm
    assert p00["Transform"]["scaleX"] == pytest.approx(38 / 25.4, abs=0.01)
    with Image.open(_path(p00["CustomImage"]["ImageURL"], out)) as picture:
        assert picture.mode == "RGBA" and abs(picture.width / picture.height - 2.0) < 0.02
    from toolkit.specs import load_edition

    bent = next(p.id for p in load_edition("classic").patches if p.shape.size < p.shape.width * p.shape.height)
    l_shaped = tokens[bent]
    with Image.open(_path(l_shaped["CustomImage"]["ImageURL"], out)) as picture:
        alpha = picture.getchannel("A")
        assert alpha.getextrema() == (0, 255), "clear outside the patch, solid inside"


@pytest.mark.slow
def test_doodle_has_its_decks_and_a_score_sheet_per_player(tmp_path):
    save, out = _export(tmp_path, "doodle")
    kinds = _check_images(save, out)
    decks = {d["Nickname"] for d in kinds["DeckCustom"]}
    assert "patch cards" in decks and "start cards" in decks
    assert any(t["Nickname"].startswith("score sheet") for t in kinds["Custom_Tile"])


@pytest.mark.slow
def test_the_solo_game_has_both_automa_decks_and_one_quilt(tmp_path):
    save, out = _export(tmp_path, "anniversary", "--solo")
    kinds = _check_images(save, out)
    decks = sorted(d["Nickname"] for d in kinds["DeckCustom"])
    assert decks == ["Automa normal deck", "Automa tactical deck"]
    quilts = [t for t in kinds["Custom_Tile"] if t["Nickname"].startswith("quilt board")]
    assert len(quilts) == 1


@pytest.mark.slow
def test_a_custom_deck_exports_and_relative_paths_stay_inside(tmp_path):
    variant = tmp_path / "mine.yaml"
    variant.write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\n"
                       "add_patches:\n  - {id: X01, cost: 1, time: 1, income: 0, shape: \"#\"}\n")
    save, out = _export(tmp_path, str(variant), "--relative")
    assert any(o["Nickname"] == "X01" for o in save["ObjectStates"])
    for obj in save["ObjectStates"]:
        if "CustomImage" in obj:
            assert obj["CustomImage"]["ImageURL"].startswith("images/")
    _check_images(save, out)


@pytest.mark.slow
def test_a_second_export_replaces_its_own_files_only(tmp_path):
    _export(tmp_path, "express")
    _export(tmp_path, "express")
    json_file = tmp_path / "tts" / "express.json"
    json_file.write_text("{}")
    error = fails("export", "tts", "express", "--out", str(tmp_path / "tts"))
    assert "not written by this toolkit" in str(error) and json_file.read_text() == "{}"


def test_solo_without_an_automa_is_one_line(tmp_path):
    error = fails("export", "tts", "classic", "--solo", "--out", str(tmp_path / "t"))
    assert "Automa" in str(error) and not (tmp_path / "t").exists()
