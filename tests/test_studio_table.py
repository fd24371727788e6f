"""Doodle at the table through the studio's API: the deal and the die are the engine's for the
seed, one tap is one announcement, each player's link opens that sheet and nothing else, and a
sheet scores itself by the rules."""
from __future__ import annotations

import warnings

import pytest

from tests.test_studio_api import BASE, TOKEN, error_of, make_folder
from toolkit.studio.app import create_app
from toolkit.studio.security import sheet_key

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def folder(tmp_path):
    return make_folder(tmp_path / "studio")


@pytest.fixture
def client(folder):
    app = create_app(folder, TOKEN, watch=False)
    with TestClient(app, base_url=BASE, headers={"x-studio-token": TOKEN}) as c:
        c.studio = app.studio
        yield c


def deal(client, seed=7, players=3):
    view = client.post("/api/table", json={"edition": "doodle", "seed": seed, "players": players}).json()
    assert view["phase"] == "start" and len(view["seats"]) == players, view
    return view


def announcements(client, view):
    seen = []
    while not view["over"]:
        view = client.post(f"/api/table/{view['id']}/next").json()
        seen.append((view["phase"], view["round"], view["turn"], view["roll"],
                     view["current"]["id"] if view["current"] else None))
    return seen


@pytest.mark.slow
def test_a_table_deals_the_engines_cards_and_rolls_for_its_seed(client):
    from toolkit.bots import make_bot
    from toolkit.families import family_of
    from toolkit.games.rng import seed_state
    from toolkit.specs import load_edition

    view = deal(client, seed=7, players=3)
    assert [c["id"] for c in view["start_cards"]] == ["S02", "S03", "S04"]
    told = announcements(client, view)
    # a game of greedy players with that seed meets the same rolls and cards, turn by turn
    edition = load_edition("doodle")
    game = family_of(edition).new_game(edition, 7, 3)
    bots = [make_bot("greedy", edition) for _ in range(3)]
    rngs = [seed_state(7, 1, seat) for seat in range(3)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].choose(game, rngs[seat]))
    rolled = [(c["round"], c["turn"], c["roll"], c["card"]) for c in game.chance_log() if c["turn"] != "final"]
    assert [(r, t, roll, card) for phase, r, t, roll, card in told if phase == "turn"] == rolled
    phases = [phase for phase, *_ in told]
    assert phases.count("scoring") == 3 and phases.count("free-choice") == 1 and phases[-1] == "over"
    assert len(told) == len(rolled) + 5  # 18 rolled turns, 3 scorings, the free choice, the end
    # the same seed deals the same table again
    assert announcements(client, deal(client, seed=7, players=3)) == told
    assert "the game is over" in error_of(client.post(f"/api/table/{view['id']}/next"))


def test_each_players_link_opens_that_sheet_only(client, folder):
    view = deal(client, players=2)
    table = view["id"]
    key0, key1 = view["seats"][0]["key"], view["seats"][1]["key"]
    assert key0 == sheet_key(TOKEN, table, 0) and key0 != key1
    with TestClient(client.app, base_url=BASE) as phone:  # no studio token
        assert phone.get(f"/sheet/{table}/0?key={key0}").status_code == 200
        sheet = phone.get(f"/api/sheet/{table}/0", headers={"x-sheet-key": key0}).json()
        assert sheet["seat"] == 0 and sheet["start_card"]["id"] == view["start_cards"][0]["id"]
        assert phone.get(f"/api/sheet/{table}/1", headers={"x-sheet-key": key0}).status_code == 401
        assert phone.get(f"/api/sheet/{table}/0", headers={"x-sheet-key": key0 + "x"}).status_code == 401
        assert phone.get(f"/api/sheet/{table}/0").status_code == 401
        for path in ("/api/info", f"/api/table/{table}", "/api/specs", "/"):
            assert phone.get(path, headers={"x-sheet-key": key0}).status_code == 401
            assert phone.get(f"{path}?key={key0}").status_code == 401
        assert phone.post(f"/api/table/{table}/next", headers={"x-sheet-key": key0}).status_code == 401


def test_a_sheet_scores_itself_by_the_rules(client):
    view = deal(client, players=2)
    table, key = view["id"], view["seats"][0]["key"]
    headers = {"x-sheet-key": key}
    square = [[r, c] for r in range(3) for c in range(4)]  # a 4x3 rectangle: 3*3 + 1 = 10 points
    sheet = client.post(f"/api/sheet/{table}/0", json={"cells": square}, headers=headers).json()
    assert sheet["best"] == 10 and sheet["best_rect"] == [0, 0, 4, 3] and sheet["empty"] == 81 - 12
    while view["phase"] != "scoring":
        view = client.post(f"/api/table/{table}/next").json()
    assert view["seats"][0]["round_scores"] == [None, None, None]
    view = client.post(f"/api/table/{table}/next").json()  # moving on writes the rectangle down
    assert view["seats"][0]["round_scores"] == [10, None, None] and view["seats"][1]["round_scores"] == [0, None, None]
    while not view["over"]:
        view = client.post(f"/api/table/{table}/next").json()
    seat = view["seats"][0]
    assert seat["round_scores"] == [10, 10, 10] and seat["penalty"] == 69 and seat["total"] == 30 - 69


@pytest.mark.parametrize("body,message", [
    ({"edition": "classic", "seed": 1, "players": 2}, "roll-and-write"),
    ({"edition": "doodle", "seed": -1, "players": 2}, "seed"),
    ({"edition": "doodle", "seed": 1, "players": 0}, "players"),
    ({"edition": "doodle", "seed": 1, "players": "two"}, "players"),
    ({"edition": "nowhere.yaml", "seed": 1, "players": 2}, "nowhere"),
])
def test_a_bad_table_is_one_clear_line(client, body, message):
    assert message in error_of(client.post("/api/table", json=body))


def test_a_bad_sheet_edit_is_one_clear_line(client):
    view = deal(client, players=1)
    headers = {"x-sheet-key": view["seats"][0]["key"]}
    url = f"/api/sheet/{view['id']}/0"
    for cells in ([[9, 0]], [[0]], "all", [[0, True]], [[0, 0]] * 82):
        assert "cells" in error_of(client.post(url, json={"cells": cells}, headers=headers))
    assert "no table" in error_of(client.get("/api/table/t999999"))
