"""Game records and the action notation: round trips, replay, and every way a record can be bad."""
from __future__ import annotations

import json

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
    assert record["edition"]["path"] == str(edition.source)
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
        (lambda r: r.update(actions="advance"), "actions: expected a JSON list"),
        (lambda r: r.update(format="other"), "format: expected"),
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
