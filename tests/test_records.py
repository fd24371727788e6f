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
from toolkit import records
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
@pytest.mark.slow
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
    return played_on(load_edition(name), seed, **options)


def played_on(edition, seed: int, **options) -> TimeTrackGame:
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
    assert set(record["edition"]) == {"name", "content_hash", "spec"}
    assert record["edition"]["name"] == "anniversary"
    assert record["edition"]["content_hash"] == game.edition.content_hash
    assert record["seed"] == 8 and record["players"] == ["human", "automa:4"]
    assert record["options"] == {"automa_level": 4, "automa_deck": "tactical"}
    assert record["format_version"] == records.FORMAT_VERSION and record["toolkit_version"]
    assert records.replay(record).scores() == game.scores()


def test_a_record_describes_the_game_without_the_engine():
    """The embedded spec is the whole edition (no references), the deal is the setup, and the
    chance log holds every Automa card drawn and what Automa did with it."""
    game = played("anniversary", 8, automa_level=4, automa_deck="tactical")
    record = json.loads(records.dumps(records.make_record(game, ["human", "automa:4"])))
    spec = record["edition"]["spec"]
    assert spec["kind"] == "edition" and isinstance(spec["patches"], list) and isinstance(spec["time_track"], dict)
    assert isinstance(spec["automa"]["decks"]["tactical"], list)
    assert record["deal"]["circle"] == TimeTrackGame(game.edition, 8, 4, "tactical").circle
    automa_turns = [a for a in record["actions"] if a == "automa"]
    assert len(record["chance"]) == len(automa_turns) > 0
    numbers = {c.number for c in game.edition.rules.automa.deck("tactical")}
    for entry in record["chance"]:
        assert entry["card"] in numbers and entry["did"].startswith(("took ", "passed "))
        assert record["actions"][entry["ply"]] == "automa"
    assert "path" not in json.dumps(record["edition"]).lower().replace("patches", "")


def test_an_express_record_logs_when_the_late_patches_joined():
    game = played("express", 4)
    record = records.make_record(game, ["random", "random"])
    late = [e for e in record["chance"] if "late_patches" in e]
    assert len(late) == 1
    assert sorted(late[0]["late_patches"]) == sorted(p.id for p in game.edition.rules.late_patches)


def test_a_record_of_a_variant_file_replays_after_the_file_is_deleted(tmp_path):
    variant = tmp_path / "mine.yaml"
    variant.write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 7\n")
    edition = load_edition(variant)
    game = TimeTrackGame(edition, 3)
    game.apply("advance")
    record = records.make_record(game, ["human", "human"])
    assert str(tmp_path) not in records.dumps(record)
    assert record["final_scores"] is None
    variant.write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 9\n")
    assert records.replay(record).buttons == game.buttons
    variant.unlink()
    again = records.replay(json.loads(records.dumps(record)))
    assert again.buttons == game.buttons and again.edition.rules.starting_buttons == 7


def test_a_user_file_named_like_a_bundled_variant_is_not_confused_with_it(tmp_path):
    mine = tmp_path / "six-buttons.yaml"
    mine.write_text("kind: variant\nname: six-buttons\nextends: classic\nstarting_buttons: 9\n")
    game = played_on(load_edition(mine), 5)
    again = records.replay(json.loads(records.dumps(records.make_record(game, ["random", "random"]))))
    assert again.edition.rules.starting_buttons == 9 and again.scores() == game.scores()


def test_an_edited_embedded_spec_is_refused_by_its_hash():
    record = records.make_record(played(), ["random", "random"])
    record["edition"]["spec"]["starting_buttons"] = 9
    with pytest.raises(RecordError, match="the record was edited"):
        records.replay(record)


def test_an_edited_chance_log_or_deal_is_refused():
    game = played("anniversary", 8, automa_level=2, automa_deck="normal")
    record = records.make_record(game, ["human", "automa:2"])
    record["chance"][0]["card"] += 1
    with pytest.raises(RecordError, match="chance"):
        records.replay(record)
    record = records.make_record(game, ["human", "automa:2"])
    record["deal"]["circle"] = record["deal"]["circle"][::-1]
    with pytest.raises(RecordError, match="deal differs"):
        records.replay(record)


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
    with pytest.raises(RecordError, match="the record was edited"):
        records.replay(record)
    legacy = _version_1(record)
    with pytest.raises(RecordError, match="the rules data changed"):
        records.replay(legacy)


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
    record = _version_1(records.make_record(played(), ["random", "random"]))
    record["edition"]["name"] = "no-such-edition"
    with pytest.raises(RecordError, match="cannot be loaded"):
        records.replay(record)
    record = records.make_record(played(), ["random", "random"])
    record["edition"]["spec"]["family"] = "chess"
    with pytest.raises(RecordError, match="embedded edition cannot be loaded: .*family"):
        records.replay(record)


# ----- version 1 records (edition by name or variant file path) are still read ----------------------


def _version_1(record: dict) -> dict:
    """The same record as version 1 wrote it: no embedded spec, deal or chance log."""
    legacy = json.loads(json.dumps(record))
    legacy["format_version"] = 1
    legacy["edition"].pop("spec")
    legacy.pop("deal")
    legacy.pop("chance")
    return legacy


def _variant_record(tmp_path, monkeypatch):
    """A version 1 record as `cd tmp_path && play var/mine.yaml --record var/rec.json` wrote it."""
    folder = tmp_path / "var"
    folder.mkdir()
    (folder / "mine.yaml").write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\nstarting_buttons: 7\n")
    monkeypatch.chdir(tmp_path)
    game = TimeTrackGame(load_edition("var/mine.yaml"), 3)
    game.apply("advance")
    record = _version_1(records.make_record(game, ["human", "human"]))
    record["edition"]["path"] = str((folder / "mine.yaml").resolve())
    record["edition"]["relative_path"] = "mine.yaml"
    path = folder / "rec.json"
    path.write_text(records.dumps(record))
    return folder, path, game


def test_a_version_1_variant_record_replays_from_another_directory(tmp_path, monkeypatch):
    folder, path, game = _variant_record(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = records.replay(records.read_record(path), base_dir=path.parent)
    assert again.buttons == game.buttons


def test_a_version_1_record_of_a_moved_folder_replays_by_the_relative_path(tmp_path, monkeypatch):
    folder, path, game = _variant_record(tmp_path, monkeypatch)
    moved = tmp_path / "moved"
    os.rename(folder, moved)
    monkeypatch.chdir(moved)
    again = records.replay(records.read_record(moved / "rec.json"), base_dir=moved)
    assert again.buttons == game.buttons


def test_a_version_1_record_names_the_places_looked_at(tmp_path, monkeypatch):
    folder, path, _ = _variant_record(tmp_path, monkeypatch)
    (folder / "mine.yaml").unlink()
    with pytest.raises(RecordError, match=r"variant file that is not found \(looked at .*mine.yaml"):
        records.replay(records.read_record(path), base_dir=folder)


def test_a_version_1_record_of_a_changed_variant_file_is_refused_by_its_hash(tmp_path, monkeypatch):
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
