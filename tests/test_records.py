"""Game records and the action notation: round trips, replay, and every way a record can be bad."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.bots import make_bot
from toolkit.errors import NotationError, RecordError
from toolkit.games import records
from toolkit.games.rng import seed_state
from toolkit.games.timetrack.game import Advance, AutomaTurn, Buy, PlaceLeather, TimeTrackGame, parse_action
from toolkit.specs import load_edition

actions = st.one_of(
    st.just(Advance()),
    st.just(AutomaTurn()),
    st.builds(
        Buy,
        st.from_regex(r"[A-Z][0-9]{2,3}", fullmatch=True),
        st.integers(0, 7),
        st.integers(0, 40),
        st.integers(0, 40),
    ),
    st.builds(PlaceLeather, st.integers(0, 40), st.integers(0, 40)),
)


@given(actions)
@settings(max_examples=200, deadline=None)
def test_action_notation_round_trips(action):
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "adv", "buy P17", "buy P17 o1 r2", "leather 4 5", "buy P17 o-1 r0 c0"])
def test_unreadable_actions_are_notation_errors(text):
    with pytest.raises(NotationError, match="cannot read action"):
        parse_action(text)


def test_notation_tolerates_case_and_spacing():
    assert parse_action("  BUY  p17 O3 R2 C4 ") == Buy("P17", 3, 2, 4)
    assert parse_action("Advance") == Advance()


def played(name: str = "classic", seed: int = 5, **options) -> TimeTrackGame:
    edition = load_edition(name)
    game = TimeTrackGame(edition, seed, **options)
    rng = seed_state(seed, 3)
    bots = [make_bot("random", edition), make_bot("automa", edition) if options else make_bot("random", edition)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game, rng))
    return game


def test_a_record_replays_to_the_same_game(tmp_path):
    game = played()
    record = records.make_record(game, ["random", "random"])
    path = records.write_record(tmp_path / "game.json", record)
    again = records.replay(records.read_record(path))
    assert again.scores() == game.scores() == record["final_scores"]
    assert [str(a) for a in again.history] == record["actions"]
    assert (again.state == game.state).all()


def test_a_record_holds_edition_hash_seed_players_options(tmp_path):
    game = played("anniversary", 8, automa_level=4, automa_deck="tactical")
    record = records.make_record(game, ["human", "automa:4"])
    assert record["edition"] == {"name": "anniversary", "content_hash": game.edition.content_hash}
    assert record["seed"] == 8 and record["players"] == ["human", "automa:4"]
    assert record["options"] == {"automa_level": 4, "automa_deck": "tactical"}
    assert record["format_version"] == records.FORMAT_VERSION and record["toolkit_version"]
    assert records.replay(record).scores() == game.scores()


def test_a_record_of_a_variant_file_names_the_file(tmp_path):
    variant = tmp_path / "mine.yaml"
    variant.write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 7\n")
    edition = load_edition(variant)
    game = TimeTrackGame(edition, 3)
    game.apply("advance")
    record = records.make_record(game, ["human", "human"])
    assert record["edition"]["path"] == str(Path(edition.source).resolve())
    assert record["final_scores"] is None
    again = records.replay(record)
    assert again.buttons == game.buttons


def test_records_are_byte_identical_for_the_same_game(tmp_path):
    a = records.dumps(records.make_record(played(seed=9), ["random", "random"]))
    b = records.dumps(records.make_record(played(seed=9), ["random", "random"]))
    assert a == b


def test_replay_stops_at_the_first_illegal_action_with_its_index():
    game = played()
    record = records.make_record(game, ["random", "random"])
    record["actions"][6] = "buy P00 o0 r0 c0" if record["actions"][6] != "buy P00 o0 r0 c0" else "advance"
    record["final_scores"] = None
    with pytest.raises(RecordError, match=r"^action 6 \('buy P00 o0 r0 c0'\): illegal action"):
        records.replay(record)


def test_replay_reports_unreadable_action_text():
    record = records.make_record(played(), ["random", "random"])
    record["actions"][2] = "jump"
    with pytest.raises(RecordError, match=r"action 2 \('jump'\): cannot read action"):
        records.replay(record)


def test_changed_scores_are_detected():
    record = records.make_record(played(), ["random", "random"])
    record["final_scores"] = [s + 1 for s in record["final_scores"]]
    with pytest.raises(RecordError, match="differ from the recorded"):
        records.replay(record)


def test_unknown_format_version_gives_a_version_message(tmp_path):
    record = records.make_record(played(), ["random", "random"])
    record["format_version"] = 99
    path = tmp_path / "future.json"
    path.write_text(json.dumps(record))
    with pytest.raises(RecordError, match="format_version 99 is not supported"):
        records.read_record(path)


def test_content_hash_mismatch_is_explained():
    record = records.make_record(played(), ["random", "random"])
    record["edition"]["content_hash"] = "0" * 64
    with pytest.raises(RecordError, match="the rules data changed"):
        records.replay(record)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r.pop("seed"), "seed: missing"),
        (lambda r: r.update(actions="advance"), "actions: expected a JSON array, got string"),
        (lambda r: r.update(format="other"), "format: expected"),
        (lambda r: r.update(seed="7"), "seed: expected a JSON integer, got string"),
        (lambda r: r.update(edition="classic"), "edition: expected a JSON object, got string"),
        (lambda r: r["actions"].append(3), r"actions\[\d+\]: expected action text"),
        (lambda r: r.update(edition={"name": "classic"}), "edition: needs"),
    ],
)
def test_malformed_records_name_the_key(mutate, message):
    record = records.make_record(played(), ["random", "random"])
    mutate(record)
    with pytest.raises(RecordError, match=message):
        records.check_record(record)


def test_unreadable_files(tmp_path):
    with pytest.raises(RecordError, match="no such record file"):
        records.read_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(RecordError, match=r"bad.json:1:3: not valid JSON"):
        records.read_record(bad)


def test_unknown_edition_in_a_record():
    record = records.make_record(played(), ["random", "random"])
    record["edition"]["name"] = "no-such-edition"
    with pytest.raises(RecordError, match="cannot be loaded"):
        records.replay(record)


# ----- variant files replay from any working directory --------------------------------------------


def _variant_record(tmp_path, monkeypatch):
    """A record written as `cd tmp_path && play var/mine.yaml --record var/rec.json` would."""
    folder = tmp_path / "var"
    folder.mkdir()
    (folder / "mine.yaml").write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 7\n")
    monkeypatch.chdir(tmp_path)
    game = TimeTrackGame(load_edition("var/mine.yaml"), 3)
    game.apply("advance")
    path = records.write_record(folder / "rec.json", records.make_record(game, ["human", "human"]))
    return folder, path, game


def test_a_variant_record_replays_from_another_directory(tmp_path, monkeypatch):
    folder, path, game = _variant_record(tmp_path, monkeypatch)
    data = json.loads(path.read_text())
    assert data["edition"]["path"] == str((folder / "mine.yaml").resolve())
    assert data["edition"]["relative_path"] == "mine.yaml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = records.replay(records.read_record(path), base_dir=path.parent)
    assert again.buttons == game.buttons


def test_a_moved_folder_replays_by_the_relative_path(tmp_path, monkeypatch):
    folder, path, game = _variant_record(tmp_path, monkeypatch)
    moved = tmp_path / "moved"
    os.rename(folder, moved)
    monkeypatch.chdir(moved)
    again = records.replay(records.read_record(moved / "rec.json"), base_dir=moved)
    assert again.buttons == game.buttons


def test_a_missing_variant_file_names_the_places_looked_at(tmp_path, monkeypatch):
    folder, path, _ = _variant_record(tmp_path, monkeypatch)
    (folder / "mine.yaml").unlink()
    with pytest.raises(RecordError, match=r"variant file that is not found \(looked at .*mine.yaml"):
        records.replay(records.read_record(path), base_dir=folder)


def test_a_changed_variant_file_is_refused_by_its_hash(tmp_path, monkeypatch):
    folder, path, _ = _variant_record(tmp_path, monkeypatch)
    (folder / "mine.yaml").write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 8\n")
    with pytest.raises(RecordError, match="the rules data changed"):
        records.replay(records.read_record(path), base_dir=folder)


# ----- unreadable and unwritable paths, wrong types -------------------------------------------------


def test_a_non_utf8_file_is_a_record_error(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00{}")
    with pytest.raises(RecordError, match="byte 0 is not UTF-8"):
        records.read_record(path)
    with pytest.raises(RecordError, match="is a directory"):
        records.read_record(tmp_path)


def test_record_paths_are_checked_before_writing(tmp_path):
    with pytest.raises(RecordError, match="is a directory"):
        records.check_record_path(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(RecordError, match="is not a directory"):
        records.check_record_path(afile / "rec.json")
    assert records.check_record_path(tmp_path / "new" / "deeper" / "rec.json")
    assert not (tmp_path / "new").exists()
    if os.path.exists("/proc/version"):
        with pytest.raises(RecordError, match="cannot write in /proc"):
            records.check_record_path("/proc/version")
    if os.path.exists("/dev/null"):
        with pytest.raises(RecordError, match="not a regular file"):
            records.check_record_path("/dev/null")


def test_a_failed_write_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="cannot write the record"):
        records.write_record(tmp_path, records.make_record(played(), ["random", "random"]))


def test_a_string_format_version_is_a_type_error(tmp_path):
    record = records.make_record(played(), ["random", "random"])
    record["format_version"] = "1"
    with pytest.raises(RecordError, match=r"format_version: expected a JSON integer .*got string \"1\""):
        records.check_record(record)


@pytest.mark.parametrize("seats", [3, 1])
def test_wrong_seats_are_worded_for_records(seats):
    record = records.make_record(played(), ["random", "random"])
    record["seats"] = seats
    with pytest.raises(RecordError, match=rf"the record has seats: {seats}, but classic is played by 2") as info:
        records.replay(record)
    assert "--players" not in str(info.value)


def test_seats_of_the_wrong_type_name_the_key():
    record = records.make_record(played(), ["random", "random"])
    record["seats"] = "2"
    with pytest.raises(RecordError, match="seats: expected a whole number"):
        records.check_record(record)
