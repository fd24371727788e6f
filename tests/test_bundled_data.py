"""Golden checks of the bundled specs against the reference totals, and the shipped catalogue."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from toolkit.specs import (Family, bundled_specs_dir, list_editions, list_variants, load_edition,
                           validate_paths)

EDITIONS = ["anniversary", "christmas", "classic", "classic-revised", "doodle", "express"]


def test_catalogue_names():
    assert list_editions() == EDITIONS
    assert {"six-buttons", "revised-leather", "cheap-p11", "dear-p05", "doodle-8x8",
            "doodle-4-rounds", "moved-income"} <= set(list_variants())


@pytest.mark.parametrize("name", EDITIONS + ["six-buttons", "revised-leather", "cheap-p11",
                                             "dear-p05", "doodle-8x8", "doodle-4-rounds", "moved-income"])
@pytest.mark.slow
def test_every_bundled_spec_loads(name):
    edition = load_edition(name)
    assert edition.name == name
    assert len(edition.content_hash) == 64
    assert edition.source.startswith("<bundled>/")


@pytest.mark.slow
def test_bundled_specs_validate_without_errors_or_warnings():
    assert validate_paths([bundled_specs_dir()]) == []


def test_classic_totals_match_reference():
    edition = load_edition("classic")
    patches = edition.patches
    assert len(patches) == 33
    assert sum(p.shape.size for p in patches) == 166
    assert sum(p.cost for p in patches) == 133
    assert sum(p.time for p in patches) == 107
    assert sum(p.income for p in patches) == 38
    assert [p.id for p in patches] == [f"P{i:02d}" for i in range(33)]
    assert (edition.board_width, edition.board_height) == (9, 9)
    assert edition.rules.starting_buttons == 5 and edition.rules.market_window == 3
    assert edition.empty_penalty == 2
    assert (edition.rules.bonus.square_size, edition.rules.bonus.points) == (7, 7)
    assert edition.players_min == edition.players_max == 2
    assert edition.family is Family.TIME_TRACK
    assert edition.rules.neutral_token_after == "smallest"
    assert edition.rules.automa is None and edition.rules.late_patches == ()


def test_classic_shapes_repeat_with_different_stats():
    edition = load_edition("classic")
    for a, b in (("P17", "P18"), ("P25", "P26"), ("P27", "P28")):
        pa, pb = edition.patch(a), edition.patch(b)
        assert pa.shape.canonical_key == pb.shape.canonical_key
        assert (pa.cost, pa.time, pa.income) != (pb.cost, pb.time, pb.income)


def test_time_boards_both_leather_layouts():
    original = load_edition("classic").rules.time_track
    revised = load_edition("classic-revised").rules.time_track
    for track in (original, revised):
        assert track.final_space == 53
        assert track.income_marks == (5, 11, 17, 23, 29, 35, 41, 47, 53)
    assert original.leather_patches == (20, 26, 32, 44, 50)
    assert revised.leather_patches == (26, 32, 38, 44, 50)
    assert load_edition("classic").rules.track_layout == "classic-original"
    assert load_edition("classic-revised").rules.track_layout == "classic-revised"
    for name in ("christmas", "anniversary"):
        edition = load_edition(name)
        assert edition.rules.track_layout == "classic-revised"
        assert "revised" in edition.provenance
        assert [p.id for p in edition.patches] == [p.id for p in load_edition("classic").patches]


def test_express_split_and_board():
    edition = load_edition("express")
    assert len(edition.patches) == 15 and len(edition.rules.late_patches) == 8
    assert {p.tag for p in edition.patches} == {"colourful"}
    assert {p.tag for p in edition.rules.late_patches} == {"blue"}
    assert edition.rules.late_patches_enter_at == 5
    assert (edition.board_width, edition.board_height) == (7, 7)
    assert edition.rules.bonus is None
    track = edition.rules.time_track
    assert track.final_space == 29 and len(track.leather_patches) == 6
    assert edition.confidence == "low" and "single public source" in edition.provenance
    smallest = min(edition.patches, key=lambda p: p.shape.size)
    assert smallest.id == "E01" and smallest.shape.size == 3
    assert all(p.confidence == "low" and p.source for p in edition.all_patches())


def test_doodle_deck_reconstruction():
    edition = load_edition("doodle")
    assert edition.family is Family.DOODLE
    assert len(edition.patches) == 24
    assert sum(p.copies for p in edition.patches) == 30
    assert len({p.shape.canonical_key for p in edition.patches}) == 24
    doubled = [p.id for p in edition.patches if p.copies == 2]
    assert doubled == ["D01", "D02", "D03", "D04", "D05", "D06"]
    sizes = sorted(p.shape.size for p in edition.patches)
    assert max(p.shape.size for p in edition.patches if p.copies == 2) <= sizes[6]
    assert all(p.source and p.confidence in ("medium", "low") for p in edition.patches)
    assert len(edition.rules.start_cards) == 10
    assert {c.shape.size for c in edition.rules.start_cards} == {7}
    assert edition.rules.die == (1, 1, 2, 2, 3, 3)
    assert (edition.rules.circle_size, edition.rules.rounds, edition.rules.turns_per_round, edition.rules.refill) == (8, 3, 6, 6)
    assert edition.rules.final_free_choice is True
    assert edition.rules.special_actions == ("neighbour", "single", "cut", "again")
    assert edition.players_min == 1 and edition.players_max is None
    assert edition.empty_penalty == 1
    assert "RULINGS 22" in edition.provenance and edition.confidence == "low"


def test_automa_decks_and_levels():
    automa = load_edition("anniversary").rules.automa
    normal, tactical = automa.deck("normal"), automa.deck("tactical")
    assert [c.number for c in normal] == [1, 2, 3, 12, 5, 6, 7, 8, 9, 10, 11, 4]  # the barcode card is #12
    assert [c.number for c in tactical] == list(range(13, 25))
    assert (normal[0].virtual_buttons, normal[0].income) == (8, 0)
    assert normal[3].filters == () and normal[3].income == 5
    assert tactical[-1].filters == ("LARGEST", "MOST_BUTTONS", "FURTHEST")
    assert [lv.spaces_from_end for lv in automa.levels] == [1, 9, 12, 15, 18]
    assert automa.level(1).scoring == ()
    assert automa.level(5).scoring == ("collected_buttons", "patches_with_buttons", "buttons_on_patches")
    assert automa.discard_at_setup == 2 and automa.bonus_points == 7
    assert load_edition("anniversary").players_min == 1


def test_content_hash_tells_editions_apart():
    hashes = {name: load_edition(name).content_hash for name in EDITIONS}
    assert len(set(hashes.values())) == len(EDITIONS)


@pytest.mark.slow
def test_specs_ship_in_the_wheel_and_are_found_after_install(tmp_path):
    """A regular (non-editable) install carries every bundled YAML file and finds it."""
    root = Path(__file__).resolve().parents[1]
    wheels, target = tmp_path / "wheels", tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(root), "--no-deps", "-q", "-w", str(wheels)],
        capture_output=True, text=True, timeout=300)
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel here (offline?): {built.stderr.strip()[-300:]}")
    wheel = next(wheels.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {"toolkit/bundled_specs/" + p.relative_to(bundled_specs_dir()).as_posix()
                for p in bundled_specs_dir().rglob("*.yaml")}
    assert expected and expected <= names
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    probe = ("import toolkit.specs as s; d = s.bundled_specs_dir(); "
             "print(d); print(s.load_edition('express').source); print(len(s.list_editions()))")
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    folder, source, count = run.stdout.split()
    assert Path(folder).is_relative_to(target)
    # named the same way as in a checkout, not by the site-packages path
    assert source == "<bundled>/editions/express.yaml" and count == "6"
