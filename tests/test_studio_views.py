"""What the studio's pages are given to draw, through its HTTP API: pieces at their printed size,
each seat's figures in its family's words, the price on every piece, one colour per drawing, a
card's cut choices as variants of the card, the prompt's own hint, and a run's games and time."""
from __future__ import annotations

import json
import re
from pathlib import Path
import struct
import time

import pytest

from tests.test_studio_api import BASE, TOKEN, error_of, first_placement, make_folder, wait_for  # noqa: F401
from toolkit.games.squares import people_text
from toolkit.studio.app import create_app

import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    folder = make_folder(tmp_path / "studio")
    app = create_app(folder, TOKEN, max_running=1, watch=False)
    with TestClient(app, base_url=BASE, headers={"x-studio-token": TOKEN}) as c:
        c.studio = app.studio
        c.folder = folder
        yield c


def test_every_piece_of_a_deck_carries_its_printed_size(client):
    """The page draws a deck at one scale from these sizes: a 2-cell patch a third of a 6-cell one."""
    deck = client.get("/api/deck", params={"ref": "classic"}).json()
    sizes = {p["id"]: p["image_mm"] for p in deck["patches"]}
    assert all(size and size[0] > 0 and size[1] > 0 for size in sizes.values())
    widths = sorted(w for w, _ in sizes.values())
    assert widths[-1] > 2 * widths[0]  # scaled to its own box, each would look alike
    # one cell is the same length on every tile: the size grows by whole cells
    cell = {round(w - h, 6) for p in deck["patches"] for w, h in [sizes[p["id"]]]
            if len(p["rows"]) == 1 and len(p["rows"][0]) == 2}
    assert len(cell) <= 1


def test_a_classic_position_prices_its_pieces_and_shows_what_makes_the_score(client):
    view = client.post("/api/play", json={"edition": "classic", "seed": 1, "seats": ["human", "greedy"]}).json()
    first = view["boards"][0]["facts"][0]
    assert first.startswith("5 buttons, income 0, 81 empty") and "score -157" in first
    market = view["pieces"]
    assert market and all(re.fullmatch(r"cost \d+, time \d+, \+\d+", p["details"]) for p in market)
    assert view["status"] == "move 1: player 1 to move"
    buy = [p for p in view["moves"]["pieces"] if p["label"].startswith("buy ")]
    assert buy and all(p["details"].startswith("cost ") for p in buy)


def play_until(client, view, done, limit=80):
    for _ in range(limit):
        if done(view):
            return view
        view = client.post(f"/api/play/{view['id']}/act", json={"action": first_placement(view)}).json()
    raise AssertionError("never reached")


@pytest.mark.slow
def test_each_doodle_drawing_is_its_own_piece(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 3, "seats": ["human"]}).json()
    view = play_until(client, view, lambda v: len(v["history"]) >= 6)
    board = view["boards"][0]
    placed = board["placed"]
    assert [p["kind"] for p in placed] == ["start", *["drawing"] * (len(placed) - 1)]
    covering = {piece for *_, piece in board["cells"]}
    assert covering == set(range(len(placed)))  # every cell names the drawing that covers it


def test_a_cards_cut_choices_are_variants_of_the_card(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 3, "seats": ["human"]}).json()
    view = play_until(client, view, lambda v: any("cut" in p["label"] for p in v["moves"]["pieces"]))
    pieces = view["moves"]["pieces"]
    groups = {p["group"] for p in pieces}
    assert len(pieces) > 8 and len(groups) <= 4, groups
    assert groups <= {"draw", "neighbour left draw", "neighbour right draw", "single"}
    for p in pieces:
        assert re.fullmatch(r"whole|cut [hv]\d [ab]", p["variant"])
        assert p["label"].replace(p["variant"] + " ", "") == p["group"] if p["variant"] != "whole" else p["label"] == p["group"]


@pytest.mark.slow
def test_a_doodle_scoring_reads_the_same_in_the_status_and_the_caption(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 3, "seats": ["human", "greedy"]}).json()
    view = play_until(client, view, lambda v: "player 2 scores" in v["event"])
    points = re.search(r"player 2 scores (\d+)", view["event"]).group(1)
    facts = view["boards"][1]["facts"][0]
    assert f"rounds {points}," in facts and f"score {view['scores'][1]}" in facts


@pytest.mark.slow
def test_the_hint_is_the_prompts_hint(client):
    from toolkit import play

    view = client.post("/api/play", json={"edition": "classic", "seed": 1, "seats": ["human", "greedy"]}).json()
    hint = client.get(f"/api/play/{view['id']}/hint").json()
    game = client.studio.games.get(view["id"]).game
    assert hint["text"] == people_text(play.hint(game))  # squares lettered, as the prompt prints it
    assert hint["text"].startswith(f"hint for player 1: {hint['action_text']}") and "expects:" in hint["text"]
    assert hint["action_text"] == people_text(hint["action"])
    sent = {a for p in view["moves"]["pieces"] for o in p["orientations"] for *_, a in o["at"]}
    assert hint["action"] in sent | {b["action"] for b in view["moves"]["buttons"]}


@pytest.mark.slow
def test_a_run_that_fails_at_once_keeps_its_own_time_and_counts_games_per_edition(client):
    body = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "nosuchbot,greedy", "games": 4000, "seed": 1}}
    run = client.post("/api/runs", json=body).json()
    assert run["games"] == 4000 and run["games_per"] == "edition"
    process = client.studio.runs.get(run["id"]).process
    process.wait(120)
    ended = time.time()
    time.sleep(1.5)  # nobody looks at the run meanwhile
    view = client.get(f"/api/runs/{run['id']}").json()
    assert view["state"] == "failed"
    took = ended - client.studio.runs.get(run["id"]).started
    assert view["seconds"] <= round(took, 1) + 0.3, (view["seconds"], took)


def png_width(data: bytes) -> int:
    return struct.unpack(">I", data[16:20])[0]


@pytest.mark.slow
def test_report_pages_are_sharp(client):
    body = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "random,random", "games": 40, "seed": 1}}
    run = client.post("/api/runs", json=body).json()
    view = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["state"] != "running" and v)
    assert view["state"] == "finished", view["stderr"]
    page = client.get(f"/api/runs/{run['id']}/pages/0").content
    assert png_width(page) >= 850  # an A4 page at 110 dpi: 909 px (at 60 dpi, 496)


@pytest.mark.slow
def test_a_run_folder_swapped_for_a_link_is_not_written_through(client, tmp_path):
    """The command writes into a private folder; its results reach FOLDER/studio-runs/<run>/
    only the way the studio writes files, so a run folder swapped for a link out of FOLDER while
    the command plays receives nothing out there."""
    import shutil

    outside = tmp_path / "outside"
    outside.mkdir()
    body = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "random,random", "games": 40, "seed": 1}}
    run = client.post("/api/runs", json=body).json()
    assert run["command"].endswith(f"--out {run['folder']}")
    private = client.studio.runs.get(run["id"]).private
    where = client.folder / run["folder"]
    shutil.rmtree(where)
    where.symlink_to(outside, target_is_directory=True)
    view = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["state"] not in ("running", "stopping") and v)
    assert list(outside.iterdir()) == []
    assert "were not saved" in view["stderr"]
    assert not Path(private).exists()  # nothing left behind


@pytest.mark.slow
def test_a_runs_results_reach_its_folder_of_folder(client):
    body = {"command": "balance", "args": {"base": "classic", "variants": ["six-buttons.yaml"],
                                           "bots": "random,random", "games": 40, "seed": 1}}
    run = client.post("/api/runs", json=body).json()
    private = client.studio.runs.get(run["id"]).private
    view = wait_for(lambda: (v := client.get(f"/api/runs/{run['id']}").json())["state"] not in ("running", "stopping") and v)
    assert view["state"] == "finished", view["stderr"]
    assert {"results.json", "report.md", "report.pdf"} <= set(view["files"])
    assert (client.folder / view["folder"] / "report.pdf").read_bytes().startswith(b"%PDF")
    assert not Path(private).exists()


# ----- squares as the printed boards name them --------------------------------------------------

RECORD_FORM = re.compile(r"\br\d+ c\d+\b|\brow \d+, col")
"""A square written as records hold it (`r4 c2`) or as the rules' messages do (`row 4, col 2`)."""
SQUARE = re.compile(r"\b[A-I][1-9]\b")


def shown_texts(view) -> list[str]:
    """Every text of a play or record view that the page puts before a person."""
    texts = [view["text"], view["status"], view["event"] or "", *view["history"], *view.get("bot_moves", []),
             *(fact for board in view["boards"] for fact in board["facts"]), *view["offers"].values(),
             *(piece["details"] for piece in view["pieces"])]
    if view.get("action"):
        texts.append(view["action"])
    moves = view.get("moves") or {"pieces": [], "buttons": []}
    texts += [button["text"] for button in moves["buttons"]]
    texts += [text for piece in moves["pieces"] for text in (piece["label"], piece["group"], piece["details"])]
    return texts


@pytest.mark.slow
def test_a_doodle_game_shows_squares_as_the_pads_name_them_and_records_the_machine_form(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 3, "seats": ["human", "greedy"]}).json()
    scorings = 0
    while not scorings:  # to the first scoring, whose buttons name rectangles
        leaked = [t for t in shown_texts(view) if RECORD_FORM.search(t)]
        assert not leaked, leaked[:3]
        buttons = view["moves"]["buttons"]
        for button in buttons:  # shown lettered, sent back as the record writes it
            assert button["text"] == people_text(button["action"])
            if button["action"].startswith("score "):
                assert re.fullmatch(r"score r\d+ c\d+ \d+x\d+", button["action"])
                assert re.fullmatch(r"score [A-I][1-9] \d+x\d+", button["text"])
                scorings += 1
        if not view["history"]:  # the hint: lettered in its text and on its button
            hint = client.get(f"/api/play/{view['id']}/hint").json()
            assert not RECORD_FORM.search(hint["text"]) and hint["action_text"] in hint["text"]
            assert hint["action_text"] == people_text(hint["action"])
        view = client.post(f"/api/play/{view['id']}/act", json={"action": first_placement(view)}).json()
    assert not [t for t in shown_texts(view) if RECORD_FORM.search(t)]
    assert any(SQUARE.search(line) for line in view["history"])
    assert any(SQUARE.search(line) for line in view["bot_moves"] + view["history"][1::2])
    assert "A  B  C  D  E  F  G  H  I" in view["text"] and not RECORD_FORM.search(view["text"])
    record = client.get(f"/api/play/{view['id']}/record").json()
    assert record["actions"] == [a for a in record["actions"] if not SQUARE.search(a)]
    assert [people_text(a) for a in record["actions"]] == view["history"]
    assert any(re.search(r"\br\d+ c\d+\b", a) for a in record["actions"])


def test_a_square_may_be_typed_as_the_board_names_it_and_is_recorded_as_the_machine_form(client):
    view = client.post("/api/play", json={"edition": "classic", "seed": 2, "seats": ["human", "greedy"]}).json()
    r, c, action = view["moves"]["pieces"][0]["orientations"][0]["at"][0]
    typed = people_text(action)
    assert typed != action and f"{'ABCDEFGHI'[c]}{r + 1}" in typed
    after = client.post(f"/api/play/{view['id']}/act", json={"action": typed}).json()
    assert after["history"][0] == typed
    assert client.get(f"/api/play/{view['id']}/record").json()["actions"][0] == action
    # a refusal names the square as the board does
    game = client.post("/api/play", json={"edition": "doodle", "seed": 1, "seats": ["human"]}).json()["id"]
    refused = error_of(client.post(f"/api/play/{game}/act", json={"action": "start o0 I9"}))
    assert "illegal action" in refused and not RECORD_FORM.search(refused), refused


@pytest.mark.slow
def test_a_record_step_shows_the_lettered_action_and_keeps_the_records_own(client):
    view = client.post("/api/play", json={"edition": "doodle", "seed": 9, "seats": ["human", "greedy"]}).json()
    for _ in range(6):
        view = client.post(f"/api/play/{view['id']}/act", json={"action": first_placement(view)}).json()
    record = client.get(f"/api/play/{view['id']}/record").json()
    (client.folder / "game.json").write_text(json.dumps(record))
    for step in range(1, len(record["actions"]) + 1):
        shown = client.get("/api/record", params={"path": "game.json", "step": step}).json()
        assert shown["record_action"] == record["actions"][step - 1]
        assert shown["action"] == people_text(shown["record_action"])
        leaked = [t for t in shown_texts(shown) if RECORD_FORM.search(t)]
        assert not leaked, leaked[:3]
    assert SQUARE.search(shown["action"]) or any(SQUARE.search(h) for h in shown["history"])


def test_the_table_and_a_players_sheet_name_no_square_in_the_record_form(client):
    table = client.post("/api/table", json={"edition": "doodle", "seed": 3, "players": 2}).json()
    while True:
        sheet = client.get(f"/api/sheet/{table['id']}/0", params={"key": table["seats"][0]["key"]}).json()
        for shown in (table, sheet):
            texts = json.dumps({k: shown.get(k) for k in ("say", "notes", "cards", "current")})
            assert not RECORD_FORM.search(texts), texts[:200]
        if table["over"]:
            break
        table = client.post(f"/api/table/{table['id']}/next").json()
