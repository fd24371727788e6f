"""The studio's HTTP API through Starlette's test client: every endpoint, its bad inputs, and the
guards (token, Host, Origin, request size, paths kept inside FOLDER, runs in flight)."""
from __future__ import annotations

import json
import os
import shutil
import time
import warnings
from pathlib import Path

import pytest

import httpx  # noqa: F401  (the test client needs it: a declared test dependency, so no skip)
with warnings.catch_warnings():  # newer Starlette asks for httpx2 and still works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from toolkit.games.squares import people_text  # noqa: E402
from toolkit.studio.app import create_app  # noqa: E402
from toolkit.studio.security import MAX_BODY_BYTES, static_key  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "studio-test-token-0123456789"
SPECS = Path(__file__).resolve().parent.parent / "specs"
BASE = "http://127.0.0.1:8123"


def make_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(SPECS / "variants" / "six-buttons.yaml", path / "six-buttons.yaml")
    (path / "mine.yaml").write_text("# my variant: dearer P05\nkind: variant\nname: mine\nextends: classic\n"
                                    "patch_changes:\n  P05: {cost: 3}\n")
    (path / "broken.yaml").write_text("kind: variant\nname: broken\nextends: classic\nstarting_buttons: -3\n")
    (path / "notes.json").write_text('{"hello": "not a record"}\n')
    return path


@pytest.fixture
def folder(tmp_path):
    return make_folder(tmp_path / "studio")


@pytest.fixture
def client(folder):
    app = create_app(folder, TOKEN, max_running=1)
    with TestClient(app, base_url=BASE, headers={"x-studio-token": TOKEN}) as c:
        c.studio = app.studio
        yield c


def bare(folder, **kwargs):
    """A client that sends no token of its own."""
    return TestClient(create_app(folder, TOKEN, watch=False), base_url=BASE, **kwargs)


def error_of(response, status=400) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


# ----- guards -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/api/info", "/static/main.js", "/api/specs", "/api/runs"])
def test_no_token_is_refused(folder, path):
    with bare(folder) as c:
        assert "no valid access token" in error_of(c.get(path), 401)


def test_a_wrong_token_is_refused_everywhere(folder):
    with bare(folder) as c:
        assert c.get("/api/info", headers={"x-studio-token": TOKEN + "x"}).status_code == 401
        assert c.get("/?token=nope").status_code == 401
        assert c.get("/api/info", cookies={"patchwork_studio_token": "nope"}).status_code == 401
        assert c.post("/api/shape", json={"shape": "#"}).status_code == 401


def test_the_token_in_the_address_opens_the_page_and_no_cookie_carries_it(folder):
    with bare(folder) as c:
        page = c.get(f"/?token={TOKEN}")
        assert page.status_code == 200 and "<title>Patchwork studio</title>" in page.text
        # a cookie reaches every port of the host: the token must never be one
        assert "set-cookie" not in page.headers
        key = static_key(TOKEN)
        assert TOKEN not in key and f'src="/static/{key}/main.js"' in page.text
        assert c.get(f"/static/{key}/main.js").status_code == 200  # the page's scripts need only the key
        assert c.get(f"/static/{key}/api.js").status_code == 200  # and so do the modules it imports
        assert c.get("/static/main.js").status_code == 401
        assert c.get(f"/static/{static_key('another-token-0123456789')}/main.js").status_code == 401
        assert c.get(f"/api/info?key={key}").status_code == 401  # the key opens nothing else
        assert c.get("/api/info", headers={"cookie": f"patchwork_studio_token={TOKEN}"}).status_code == 401
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-content-type-options"] == "nosniff" and page.headers["x-frame-options"] == "DENY"
        assert c.get("/api/info", headers={"x-studio-token": TOKEN}).json()["folder"] == str(folder.resolve())
        assert c.get(f"/api/info?token={TOKEN}").status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8123", "127.0.0.1.nip.io", "10.0.0.1"])
def test_a_foreign_host_header_is_refused_even_with_the_token(client, host):
    assert "Host header" in error_of(client.get("/api/info", headers={"host": host}), 403)


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "localhost"])
def test_loopback_host_headers_pass(client, host):
    assert client.get("/api/info", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8123",
                                    "null", "file://"])
def test_a_cross_site_origin_is_refused(client, origin):
    response = client.post("/api/shape", json={"shape": "##"}, headers={"origin": origin})
    assert error_of(response, 403).startswith("refused")


def test_the_same_origin_passes_and_a_cross_site_fetch_is_refused(client):
    assert client.post("/api/shape", json={"shape": "##"}, headers={"origin": BASE}).status_code == 200
    assert client.get("/api/info", headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert client.get("/api/info", headers={"sec-fetch-site": "same-origin"}).status_code == 200


def test_a_huge_request_is_refused(client):
    body = json.dumps({"shape": "#" * (MAX_BODY_BYTES + 10)})
    assert "larger than" in error_of(client.post("/api/shape", content=body,
                                                 headers={"content-type": "application/json"}), 413)

    def chunks():  # no Content-Length: counted while read
        for _ in range(MAX_BODY_BYTES // 1000 + 5):
            yield b" " * 1000

    assert client.post("/api/shape", content=chunks()).status_code == 413
    assert client.post("/api/shape", content=b"x", headers={"content-length": "abc"}).status_code == 400


def test_unknown_routes_and_methods(client):
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/shape").status_code == 405
    assert client.get("/static/../../etc/passwd").status_code in (400, 404)


# ----- paths inside FOLDER ------------------------------------------------------------------------

@pytest.mark.parametrize("ref,message", [
    ("../outside.yaml", "'..' may not leave"),
    ("sub/../../outside.yaml", "'..' may not leave"),
    ("/etc/passwd.yaml", "not an absolute one"),
    ("notes.json", "neither a bundled edition"),
    ("missing.yaml", "no such file"),
    ("bad\x01name.yaml", "control characters"),
    ("", "no edition named"),
])
def test_a_path_out_of_the_folder_or_not_a_spec_is_refused(client, ref, message):
    assert message in error_of(client.get("/api/deck", params={"ref": ref}))


def test_a_symlink_out_of_the_folder_and_special_files_are_refused(client, folder, tmp_path):
    outside = tmp_path / "outside.yaml"
    shutil.copy(SPECS / "variants" / "six-buttons.yaml", outside)
    (folder / "link.yaml").symlink_to(outside)
    assert "leads out of the studio's folder" in error_of(client.get("/api/deck", params={"ref": "link.yaml"}))
    os.mkfifo(folder / "fifo.yaml")
    assert "not a regular file" in error_of(client.get("/api/deck", params={"ref": "fifo.yaml"}))
    (folder / "dir.yaml").mkdir()
    assert "not a regular file" in error_of(client.get("/api/deck", params={"ref": "dir.yaml"}))
    patch = {"id": "N01", "shape": "##", "cost": 1, "time": 1, "income": 0}
    for target in ("link.yaml", "../evil.yaml", "fifo.yaml", "nowhere/new.yaml"):
        response = client.post("/api/shape/save", json={"file": target, "deck": "classic", "patch": patch})
        assert response.status_code == 400, target
    assert outside.read_text() == (SPECS / "variants" / "six-buttons.yaml").read_text()
    assert not (tmp_path / "evil.yaml").exists()


@pytest.mark.slow
def test_a_symlink_inside_the_folder_is_followed(client, folder):
    (folder / "alias.yaml").symlink_to(folder / "six-buttons.yaml")
    assert client.get("/api/deck", params={"ref": "alias.yaml"}).json()["edition"]["name"] == "six-buttons"


# ----- specs, shapes and decks --------------------------------------------------------------------

def test_info_and_the_spec_listing(client):
    info = client.get("/api/info").json()
    assert {f["title"] for f in info["families"]} >= {"Doodle", "time-track"}
    specs = client.get("/api/specs").json()
    assert "classic" in specs["bundled"] and "doodle-8x8" in specs["bundled"]
    kinds = {f["path"]: f["kind"] for f in specs["files"]}
    assert kinds["six-buttons.yaml"] == "variant" and kinds["broken.yaml"] == "variant"


def test_shape_facts_are_the_shape_commands(client):
    from toolkit.geometry.facts import describe_shape
    from toolkit.geometry import Board, Shape

    facts = client.post("/api/shape", json={"cells": [[3, 4], [3, 5], [4, 5], [4, 6]]}).json()
    expected = describe_shape(Shape.parse("##./.##"), Board(9, 9))
    for key, value in expected.items():
        assert facts[key] == value, key
    assert facts["shape"] == "##./.##" and facts["chiral"] is True and facts["cuttable"] is True
    assert facts["same_shape"] == [] and facts["deck"] is None


def test_shape_twins_and_board_come_from_the_deck(client):
    from toolkit.specs import load_edition

    doodle = load_edition("doodle")
    patch = doodle.patches[4]
    facts = client.post("/api/shape", json={"shape": patch.shape.format(), "deck": "doodle"}).json()
    assert patch.id in facts["same_shape"] and facts["deck"] == "doodle" and facts["board"] == "9x9"
    assert facts["fields"] == ["copies"]
    small = client.post("/api/shape", json={"shape": "##", "deck": "doodle-8x8"}).json()
    assert small["board"] == "8x8" and small["placements"] == 2 * 7 * 8
    assert client.post("/api/shape", json={"shape": "##", "deck": "six-buttons.yaml"}).json()["fields"] == [
        "cost", "time", "income"]


@pytest.mark.parametrize("body,message", [
    ({"cells": []}, "no cells"),
    ({"cells": "##"}, "no cells"),
    ({"cells": [[0, 0], [0]]}, "a cell is [row, column]"),
    ({"cells": [[0, 99]]}, "a cell is [row, column]"),
    ({"cells": [[0, True]]}, "a cell is [row, column]"),
    ({"cells": [[r, c] for r in range(9) for c in range(9)]}, "at most 64 cells"),
    ({"shape": "#x#"}, ""),
    ({"shape": 5}, "shape text"),
    ({"shape": "##", "board": "nine"}, "expected WIDTHxHEIGHT"),
    ({"shape": "##", "deck": "no-such-edition"}, "neither a bundled edition"),
    ({"shape": "##", "deck": "gone.yaml"}, "no such file"),
])
def test_a_malformed_shape_is_one_clear_line(client, body, message):
    text = error_of(client.post("/api/shape", json=body))
    assert message in text and "\n" not in text and "Traceback" not in text


def test_a_body_that_is_not_a_json_object(client):
    assert "not JSON" in error_of(client.post("/api/shape", content=b"{nope", headers={"content-type": "application/json"}))
    assert "JSON object" in error_of(client.post("/api/shape", json=[1, 2]))


@pytest.mark.slow
def test_the_deck_view_draws_every_patch_with_its_numbers(client):
    view = client.get("/api/deck", params={"ref": "mine.yaml"}).json()
    assert view["edition"]["name"] == "mine" and view["problems"] == []
    patches = {p["id"]: p for p in view["patches"]}
    assert len(patches) == 33 and patches["P05"]["cost"] == 3
    assert all(p["image"].startswith("data:image/svg+xml;base64,") for p in patches.values())
    assert {"cost", "time", "income", "size", "residual"} <= set(view["sort_keys"])
    doodle = client.get("/api/deck", params={"ref": "doodle"}).json()
    assert doodle["fields"] == ["copies"] and "residual" not in doodle["sort_keys"]


def test_the_deck_view_lists_a_specs_problems_with_file_and_line(client):
    view = client.get("/api/deck", params={"ref": "broken.yaml"}).json()
    assert view["edition"] is None and view["patches"] == []
    texts = [p["text"] for p in view["problems"]]
    assert any(t.startswith("broken.yaml:4:") and "starting_buttons" in t for t in texts), texts


@pytest.mark.slow
def test_the_folder_is_watched(client, folder):
    version = client.get("/api/changes", params={"since": 0, "wait": 0}).json()["version"]
    time.sleep(0.05)
    (folder / "mine.yaml").write_text((folder / "mine.yaml").read_text().replace("cost: 3", "cost: 4"))
    answer = client.get("/api/changes", params={"since": version, "wait": 20}).json()
    assert answer["version"] > version
    patches = {p["id"]: p for p in client.get("/api/deck", params={"ref": "mine.yaml"}).json()["patches"]}
    assert patches["P05"]["cost"] == 4
    assert client.get("/api/changes", params={"since": answer["version"], "wait": 0}).json() == answer
    assert "wait" in error_of(client.get("/api/changes", params={"since": 0, "wait": 999}))


@pytest.mark.slow
def test_preview_draws_the_patch_from_the_edition_with_it_added(client):
    patch = {"id": "N01", "cells": [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]], "cost": 4, "time": 2, "income": 1}
    preview = client.post("/api/shape/preview", json={"deck": "six-buttons.yaml", "patch": patch}).json()
    assert preview["problems"] == [] and preview["image"].startswith("data:image/svg+xml;base64,")
    assert preview["entry"] == {"id": "N01", "shape": "##./.##/..#", "cost": 4, "time": 2, "income": 1}
    twin = dict(patch, id="N02", shape=None, cells=[[0, 0], [0, 1]], cost=2, time=1, income=0)
    from toolkit.specs import load_edition

    p = next(p for p in load_edition("classic").patches if p.shape.size == 2)
    twin.update(cost=p.cost, time=p.time, income=p.income)
    clash = client.post("/api/shape/preview", json={"deck": "six-buttons.yaml", "patch": twin}).json()
    assert clash["image"] is None and any("same shape and stats" in q["message"] for q in clash["problems"])
    for bad, message in (({**patch, "id": "9x"}, "patch id"), ({**patch, "cost": 100}, "patch cost"),
                         ({**patch, "time": "soon"}, "patch time"), ({**patch, "cells": []}, "no cells")):
        assert message in error_of(client.post("/api/shape/preview", json={"deck": "six-buttons.yaml", "patch": bad}))


@pytest.mark.slow
def test_save_writes_a_patch_that_validate_accepts_and_keeps_the_file(client, folder):
    from toolkit.specs import load_edition, validate_report

    before = (folder / "mine.yaml").read_text()
    patch = {"id": "N01", "cells": [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]], "cost": 4, "time": 2, "income": 1}
    saved = client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml", "patch": patch}).json()
    text = (folder / "mine.yaml").read_text()
    assert saved["saved"] == "mine.yaml" and text.startswith(before)  # comment and keys kept, in order
    assert text.endswith('add_patches:\n  - {id: N01, shape: "##./.##/..#", cost: 4, time: 2, income: 1}\n')
    assert validate_report([folder / "mine.yaml"]).errors == []
    assert load_edition(str(folder / "mine.yaml")).patch("N01").cost == 4
    # the same id again replaces its line; another id is added below it
    client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml", "patch": {**patch, "cost": 5}})
    client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml",
                                         "patch": {**patch, "id": "N02", "cells": [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 2]]}})
    edition = load_edition(str(folder / "mine.yaml"))
    assert edition.patch("N01").cost == 5 and edition.patch("N02").shape.size == 6
    assert (folder / "mine.yaml").read_text().count("N01") == 1
    assert not any("studio-check" in p.name for p in folder.iterdir())


def test_save_refuses_what_validate_would_refuse_and_leaves_the_file(client, folder):
    from toolkit.specs import load_edition

    before = (folder / "mine.yaml").read_text()
    p = next(p for p in load_edition("classic").patches if p.shape.size == 3)
    clash = {"id": "N09", "shape": p.shape.format(), "cost": p.cost, "time": p.time, "income": p.income}
    response = client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml", "patch": clash})
    assert "not saved" in error_of(response)
    assert response.json()["problems"][0]["file"] == "mine.yaml"
    assert (folder / "mine.yaml").read_text() == before
    (folder / "set.yaml").write_text("kind: patch-set\npatches: []\n")
    assert "into a variant file" in error_of(client.post("/api/shape/save", json={
        "file": "set.yaml", "deck": "classic", "patch": clash}))


def test_save_creates_a_new_variant_of_the_chosen_edition(client, folder):
    from toolkit.specs import load_edition

    patch = {"id": "N01", "cells": [[0, 0], [0, 1], [1, 1], [1, 2], [2, 1], [2, 2], [3, 2]], "copies": 2}
    client.post("/api/shape/save", json={"file": "my-doodle.yaml", "extends": "doodle", "patch": patch}).raise_for_status()
    edition = load_edition(str(folder / "my-doodle.yaml"))
    assert edition.patch("N01").copies == 2 and len(edition.patches) == 25


# ----- playing ------------------------------------------------------------------------------------

def first_placement(view) -> str:
    moves = view["moves"]
    if moves["pieces"]:
        return moves["pieces"][0]["orientations"][0]["at"][0][2]
    return moves["buttons"][0]["action"]


@pytest.mark.slow
def test_a_doodle_game_is_played_to_the_end_through_the_api(client):
    from toolkit import records

    view = client.post("/api/play", json={"edition": "doodle", "seed": 5, "seats": ["human"]}).json()
    assert view["your_turn"] and view["moves"]["pieces"][0]["label"] == "start"
    start_card = view["pieces"][0]
    cells = sum(row.count("#") for row in start_card["rows"])
    assert all(len(o["cells"]) == cells for o in view["moves"]["pieces"][0]["orientations"])
    game_id = view["id"]
    while not view["over"]:
        before = len(view["history"])
        view = client.post(f"/api/play/{game_id}/act", json={"action": first_placement(view)}).json()
        assert len(view["history"]) == before + 1
    assert view["winners"] == [0] and view["moves"] is None
    record = client.get(f"/api/play/{game_id}/record")
    assert "attachment" in record.headers["content-disposition"]
    replayed = records.replay(record.json())
    assert replayed.is_over and replayed.scores() == view["scores"]


def test_a_placement_ghost_covers_the_cells_the_rules_draw(client):
    view = client.post("/api/play", json={"edition": "classic", "seed": 2, "seats": ["human", "greedy"]}).json()
    piece = view["moves"]["pieces"][0]
    entry = piece["orientations"][0]
    r, c, text = entry["at"][0]
    after = client.post(f"/api/play/{view['id']}/act", json={"action": text}).json()
    mine = {(row, col) for row, col, *_ in after["boards"][0]["cells"]}
    assert mine == {(r + dr, c + dc) for dr, dc in entry["cells"]}
    assert after["bot_moves"] and after["bot_moves"][0].startswith("player 2 (greedy)")


def test_illegal_and_unreadable_actions_undo_and_hint(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 1, "seats": ["human"]}).json()
    game_id = view["id"]
    assert "illegal action" in error_of(client.post(f"/api/play/{game_id}/act", json={"action": "start o0 r8 c8"}))
    assert "dance" in error_of(client.post(f"/api/play/{game_id}/act", json={"action": "dance"}))
    assert "action" in error_of(client.post(f"/api/play/{game_id}/act", json={"action": 5}))
    assert "nothing to undo" in error_of(client.post(f"/api/play/{game_id}/undo"))
    view = client.post(f"/api/play/{game_id}/act", json={"action": first_placement(view)}).json()
    assert view["can_undo"] and len(view["history"]) == 1
    view = client.post(f"/api/play/{game_id}/undo").json()
    assert view["history"] == [] and not view["can_undo"]
    hint = client.get(f"/api/play/{game_id}/hint").json()
    assert hint["action"].startswith("start") and hint["action_text"] in hint["text"]


@pytest.mark.parametrize("body,message", [
    ({"edition": "doodle", "seed": 1, "seats": ["human", "nonsense"]}, "nonsense"),
    ({"edition": "doodle", "seed": 1, "seats": ["greedy"]}, "seat a person"),
    ({"edition": "doodle", "seed": -1, "seats": ["human"]}, "seed"),
    ({"edition": "doodle", "seed": 1, "seats": []}, "seats"),
    ({"edition": "doodle", "seed": 1, "seats": "human"}, "seats"),
    ({"edition": "classic", "seed": 1, "seats": ["human", "human", "greedy"]}, "names 3 players"),
    ({"edition": "classic", "seed": 1, "seats": ["human", "automa"]}, "Automa"),
    ({"edition": "../x.yaml", "seed": 1, "seats": ["human"]}, "'..'"),
])
def test_a_bad_game_setup_is_one_clear_line(client, body, message):
    text = error_of(client.post("/api/play", json=body))
    assert message in text and "\n" not in text


def test_fewer_names_than_seats_seat_people_first(client):
    view = client.post("/api/play", json={"edition": "classic", "seed": 1, "seats": ["human"]}).json()
    assert view["players"] == ["human", "human"] and view["your_turn"]
    view = client.post(f"/api/play/{view['id']}/act", json={"action": "advance"}).json()
    assert view["your_turn"] and view["current"] == 1 and view["bot_moves"] == []


def test_automa_plays_its_own_seat(client):
    view = client.post("/api/play", json={"edition": "anniversary", "seed": 3, "seats": ["human", "automa:2"]}).json()
    assert view["players"] == ["human", "automa:2:normal"] or view["players"][1].startswith("automa")
    view = client.post(f"/api/play/{view['id']}/act", json={"action": "advance"}).json()
    assert view["your_turn"] and any("Automa" in move for move in view["bot_moves"])


def test_an_unknown_game(client):
    assert "no game" in error_of(client.get("/api/play/g999999"))
    assert "no game" in error_of(client.post("/api/play/nope/act", json={"action": "pass"}))


# ----- records ------------------------------------------------------------------------------------

def write_record(client, folder: Path, name: str = "game.json") -> dict:
    view = client.post("/api/play", json={"edition": "doodle", "seed": 9, "seats": ["human", "greedy"]}).json()
    for _ in range(6):
        view = client.post(f"/api/play/{view['id']}/act", json={"action": first_placement(view)}).json()
    record = client.get(f"/api/play/{view['id']}/record").json()
    (folder / name).write_text(json.dumps(record))
    return record


@pytest.mark.slow
def test_a_record_is_stepped_move_by_move(client, folder):
    record = write_record(client, folder)
    assert client.get("/api/records").json()["records"] == ["game.json"]
    first = client.get("/api/record", params={"path": "game.json", "step": 0}).json()
    assert first["step"] == 0 and first["steps"] == len(record["actions"]) and first["action"] is None
    assert all(board["cells"] == [] for board in first["boards"])
    third = client.get("/api/record", params={"path": "game.json", "step": 3}).json()
    assert third["record_action"] == record["actions"][2] and third["action"] == people_text(record["actions"][2])
    assert third["history"] == [people_text(a) for a in record["actions"][:3]]
    known = len(third["chance"])  # the chance so far: the turn in play has not been drawn by every seat yet
    assert known >= 1 and third["chance"][:-1] == record["chance"][:known - 1]
    assert {k: v for k, v in third["chance"][-1].items() if k != "drawn"} == {
        k: v for k, v in record["chance"][known - 1].items() if k != "drawn"}
    assert third["players"] == ["human", "greedy"]
    last = client.get("/api/record", params={"path": "game.json", "step": 10**6}).json()
    assert last["step"] == last["steps"]


def test_a_records_rectangles_are_drawn_on_their_sheets(client, folder):
    from toolkit import play, records

    from toolkit.specs import load_edition

    edition = load_edition("doodle")
    game = play.play_bots(edition, "greedy,greedy", 3)
    (folder / "whole.json").write_text(records.dumps(records.make_record(game, ["greedy", "greedy"], {})))
    view = client.get("/api/record", params={"path": "whole.json", "step": 10**6}).json()
    scored = [a for a in records.make_record(game, ["greedy", "greedy"], {})["actions"] if a.startswith("score r")]
    assert sum(len(b.get("rectangles", [])) for b in view["boards"]) == len(scored) > 0


@pytest.mark.slow
def test_bad_records_are_one_clear_line(client, folder):
    assert "step" in error_of(client.get("/api/record", params={"path": "game.json", "step": -1}))
    assert "expected a .json file" in error_of(client.get("/api/record", params={"path": "mine.yaml"}))
    assert "'..'" in error_of(client.get("/api/record", params={"path": "../game.json"}))
    text = error_of(client.get("/api/record", params={"path": "notes.json"}))
    assert "notes.json" in text and str(folder) not in text
    record = write_record(client, folder, "edited.json")
    record["actions"][2] = "pass pass"
    (folder / "edited.json").write_text(json.dumps(record))
    assert "action 2" in error_of(client.get("/api/record", params={"path": "edited.json"}))


# ----- runs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("body,message", [
    ({"command": "rm"}, "command: one of"),
    ({"command": "balance", "args": {"base": "classic"}}, "variants is needed"),
    ({"command": "balance", "args": {"base": "classic", "variants": ["six-buttons"], "out": "/tmp"}}, "takes no out"),
    ({"command": "balance", "args": {"base": "classic", "variants": ["--out=/etc"]}}, "not a value"),
    ({"command": "balance", "args": {"base": "classic", "variants": ["six-buttons"], "bots": "-x"}}, "not a value"),
    ({"command": "balance", "args": {"base": "classic", "variants": ["six-buttons"], "games": 0}}, "games"),
    ({"command": "balance", "args": {"base": "sub/../../x.yaml", "variants": ["six-buttons"]}}, "'..'"),
    ({"command": "price", "args": {"edition": "classic", "patch": "P05", "width": "wide"}}, "width"),
    ({"command": "sweep", "args": {"base": "classic", "set": ["a b"]}}, "not a value"),
    ({"command": "balance", "args": "classic"}, "args"),
])
def test_a_bad_run_is_refused_before_it_starts(client, body, message):
    assert message in error_of(client.post("/api/runs", json=body))
    assert client.get("/api/runs").json()["runs"] == []


def wait_for(check, seconds=240.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


LONG_RUN = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "random,random", "games": 4000000, "seed": 1}}


@pytest.mark.slow
def test_a_run_shows_its_command_progress_and_stops_like_ctrl_c(client, folder):
    run = client.post("/api/runs", json=LONG_RUN).json()
    assert run["command"].startswith("patchwork balance classic six-buttons.yaml --bots random,random "
                                      "--games 4000000 --seed 1 --out studio-runs/")
    assert run["state"] == "running"
    # at most one run in flight (this studio's limit)
    assert "at most 1 at once" in error_of(client.post("/api/runs", json=LONG_RUN))
    view = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["done"] > 0 and v)
    assert view["total"] == 8000000 and view["state"] == "running"
    stopped = client.post(f"/api/runs/{run['id']}/stop").json()
    assert stopped["state"] in ("stopping", "stopped")
    final = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["state"] == "stopped" and v, 30)
    assert final["exit_code"] is not None and "interrupted" in final["stderr"]
    assert "results.json" not in final["files"]
    assert "no run" in error_of(client.get("/api/runs/r0"))


@pytest.mark.slow
def test_a_finished_run_has_the_reports_figures_and_pages(client, folder):
    body = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "random,random", "games": 200, "seed": 1}}
    run = client.post("/api/runs", json=body).json()
    view = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["state"] != "running" and v)
    assert view["state"] == "finished", view["stderr"]
    assert {"results.json", "report.md", "report.pdf"} <= set(view["files"])
    assert (folder / view["folder"] / "results.json").is_file()
    report = client.get(f"/api/runs/{run['id']}/report").json()
    assert "six-buttons" in report["markdown"] and report["pdf_pages"] >= 1
    page = client.get(f"/api/runs/{run['id']}/pages/0")
    assert page.status_code == 200 and page.content.startswith(b"\x89PNG")
    assert client.get(f"/api/runs/{run['id']}/files/report.pdf").content.startswith(b"%PDF")
    assert client.get(f"/api/runs/{run['id']}/files/..%2Fmine.yaml").status_code in (400, 404)
    assert "no file" in error_of(client.get(f"/api/runs/{run['id']}/files/mine.yaml"))
    assert "page" in error_of(client.get(f"/api/runs/{run['id']}/pages/99"))
    assert client.get("/api/runs").json()["runs"][0]["id"] == run["id"]


@pytest.mark.slow
def test_stopping_the_studio_stops_its_runs(folder):
    app = create_app(folder, TOKEN)
    with TestClient(app, base_url=BASE, headers={"x-studio-token": TOKEN}) as c:
        run = c.post("/api/runs", json=LONG_RUN).json()
        process = app.studio.runs.get(run["id"]).process
        assert process.poll() is None
    assert process.poll() is not None


@pytest.mark.slow
def test_ctrl_c_stops_the_studio_and_its_runs(folder):
    """`patchwork studio` as a person runs it: it prints its address, and Ctrl-C stops it and the
    runs it started, with no process left behind."""
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    env = dict(os.environ, PATCHWORK_STUDIO_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    studio = subprocess.Popen([sys.executable, "-m", "toolkit", "studio", str(folder)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any("token=" in line for line in lines):
            line = studio.stdout.readline()
            assert line, "".join(lines) + studio.stderr.read()
            lines.append(line)
        url = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", "".join(lines))
        assert url and url.group(2) == TOKEN
        request = urllib.request.Request(url.group(1) + "api/runs", data=json.dumps(LONG_RUN).encode(),
                                         headers={"x-studio-token": TOKEN, "content-type": "application/json"})
        run = json.loads(urllib.request.urlopen(request, timeout=60).read())
        assert run["state"] == "running"
        os.kill(studio.pid, signal.SIGINT)
        out, err = studio.communicate(timeout=30)
        assert studio.returncode == 130 and out.endswith("studio stopped\n") and err == "", (out, err)
        with pytest.raises(ProcessLookupError):  # the run's process group is gone too
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                os.killpg(run["pid"], 0)
                time.sleep(0.1)
    finally:
        if studio.poll() is None:
            studio.kill()
            studio.wait()


def test_the_command_refuses_a_bad_folder_or_port(tmp_path):
    from typer.testing import CliRunner

    from toolkit.cli.app import app

    result = CliRunner().invoke(app, ["studio", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a folder" in result.output
    result = CliRunner().invoke(app, ["studio", str(tmp_path), "--port", "70000"])
    assert result.exit_code == 2


def test_a_deeply_nested_body_is_one_clear_line(client):
    deep = "[" * 100_000 + "]" * 100_000  # 200 KB: within the size a body may have
    assert len(deep) < MAX_BODY_BYTES
    for body in (deep, '{"a":' * 40_000 + "1" + "}" * 40_000):
        message = error_of(client.post("/api/shape", content=body, headers={"content-type": "application/json"}))
        assert "nested" in message and "\n" not in message
    assert "not JSON" in error_of(client.post("/api/shape", content=b"\xff\xfe"))
