"""The studio's pages in a real headless browser: Debian's chromium driven by Playwright (never a
browser Playwright downloads). A studio serves a temporary folder on a free loopback port; each
test acts as a person would (clicks, keys, an edit on disk) and waits for what the page shows.

Screenshots go to $STUDIO_SHOTS when it names a folder (the README's docs/previews/studio.png is
`studio-play-classic.png` of such a run)."""
from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

import playwright.sync_api as playwright_api
import uvicorn  # noqa: F401

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed (.ci/run installs it)"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TOKEN = "studio-browser-token-0123456789"
SPECS = Path(__file__).resolve().parent.parent / "specs"
FIRST_GAME_MS = 300_000
"""The first game of a rules family may compile its kernel (numba) when the cache is cold."""
STEP_MS = 60_000
RECORD_FORM = re.compile(r"\br\d+ c\d+\b")
"""A square as records write it (`r4 c2`): the page names squares as the printed boards do (`C5`)."""


def shot(page, name: str) -> None:
    folder = os.environ.get("STUDIO_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def write_record(folder: Path) -> dict:
    """A Doodle game of two greedy bots, as `patchwork play --record` writes it."""
    from toolkit import records
    from toolkit.bots import make_bot
    from toolkit.families import family_of
    from toolkit.games.rng import seed_state
    from toolkit.specs import load_edition

    edition = load_edition("doodle")
    game = family_of(edition).new_game(edition, 4, 2)
    bots = [make_bot("greedy", edition), make_bot("greedy", edition)]
    rngs = [seed_state(4, 1, seat) for seat in range(2)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].choose(game, rngs[seat]))
    record = records.make_record(game, ["greedy", "greedy"], {})
    (folder / "doodle-game.json").write_text(records.dumps(record))
    return record


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("studio-folder")
    shutil.copy(SPECS / "variants" / "six-buttons.yaml", path / "six-buttons.yaml")
    (path / "mine.yaml").write_text("# my variant\nkind: variant\nname: mine\nextends: classic\n"
                                    "patch_changes:\n  P05: {cost: 3}\n")
    write_record(path)
    return path


@pytest.fixture(scope="module")
def studio_url(folder):
    from toolkit import studio

    sock = studio.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = studio.server(folder, sock, TOKEN)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the studio did not start"
        time.sleep(0.05)
    yield studio.address("127.0.0.1", port, TOKEN)
    server.should_exit = True
    thread.join(15)
    assert not thread.is_alive()


DESKTOP = {"viewport": {"width": 1360, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
"""A phone held upright (an iPhone 12 to 15's CSS pixels): a touch screen, no hover, no keys."""


@pytest.fixture(scope="module")
def chromium():
    with playwright_api.sync_playwright() as p:
        yield p.chromium


def launch(chromium, screen: dict):
    profile = tempfile.mkdtemp(prefix="studio-chromium-")
    context = chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS, **screen)
    return context, profile


@pytest.fixture(scope="module")
def browser_context(chromium):
    context, profile = launch(chromium, DESKTOP)
    yield context
    context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def phone_context(chromium):
    context, profile = launch(chromium, PHONE)
    yield context
    context.close()
    shutil.rmtree(profile, ignore_errors=True)


def open_studio(context, url: str):
    """A page of the studio; the errors its scripts raise are collected in page.errors."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if "Content Security Policy" in message.text else None)
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]", timeout=STEP_MS)
    return page


@pytest.fixture
def page(browser_context, studio_url):
    page = open_studio(browser_context, studio_url)
    yield page
    page.close()
    assert page.errors == []


@pytest.fixture
def phone(phone_context, studio_url):
    page = open_studio(phone_context, studio_url)
    yield page
    page.close()
    assert page.errors == []


@pytest.fixture(params=["desktop", "phone"])
def screen(request, browser_context, phone_context, studio_url):
    """The studio on either screen (the test runs once on each)."""
    page = open_studio(browser_context if request.param == "desktop" else phone_context, studio_url)
    page.screen = request.param
    yield page
    page.close()
    assert page.errors == []


def wait_js(page, expression: str, timeout: int = STEP_MS):
    """Wait until `expression` is truthy in the page. Polled through page.evaluate (DevTools
    evaluation): the page's Content-Security-Policy forbids the in-page eval that
    wait_for_function uses, and the pages are tested under their real policy."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def tab(page, name: str) -> None:
    page.click(f"#tabs button[data-tab={name}]")
    page.wait_for_selector(f"#tab-{name}:not([hidden])")


def fact(page, name: str) -> str:
    return page.inner_text(f"#shape-facts dd[data-fact='{name}']")


def test_the_page_refuses_a_visitor_without_the_token(browser_context, studio_url):
    page = browser_context.new_page()
    response = page.goto(studio_url.split("?")[0].replace("127.0.0.1", "localhost") + "api/info")
    assert response.status == 401 and "access token" in page.inner_text("body")
    page.close()


class _Listener(http.server.BaseHTTPRequestHandler):
    """A plain local web server on another port: it keeps every request's headers."""

    seen: list[str] = []

    def do_GET(self):  # noqa: N802 - the name http.server calls
        type(self).seen.append(str(self.headers))
        body = b"<!doctype html><title>another local server</title><img src='/pixel.png'>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_another_local_port_never_receives_the_token(page):
    """Cookies ignore ports: a token kept in a cookie would reach any server on 127.0.0.1."""
    listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Listener)
    _Listener.seen = []
    thread = threading.Thread(target=listener.serve_forever, daemon=True)
    thread.start()
    try:
        tab(page, "deck")  # the page has made its API calls, scripts and styles loaded
        other = page.context.new_page()
        other.goto(f"http://127.0.0.1:{listener.server_address[1]}/")
        other.wait_for_load_state("load")
        other.reload()
        other.close()
    finally:
        listener.shutdown()
        thread.join(5)
    assert len(_Listener.seen) >= 2
    assert not any(TOKEN in headers for headers in _Listener.seen), _Listener.seen
    assert not any(TOKEN in json.dumps(cookie) for cookie in page.context.cookies())


def test_a_studio_on_every_address_works_from_the_network_link(browser_context, folder):
    """With --host 0.0.0.0 the page opened by the machine's network address (the link another
    device would use) loads and calls the API; a loopback stand-in when there is no network."""
    from toolkit import studio

    sock = studio.bind("0.0.0.0", 0)
    port = sock.getsockname()[1]
    server = studio.server(folder, sock, TOKEN)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the studio did not start"
            time.sleep(0.05)
        links = studio.links("0.0.0.0", port, TOKEN)
        link = links[-1] if len(links) > 1 else f"http://127.0.0.2:{port}/?token={TOKEN}"
        page = browser_context.new_page()
        page.goto(link)
        page.wait_for_selector("body[data-ready=yes]", timeout=STEP_MS)
        tab(page, "deck")
        page.select_option("#deck-ref", "mine.yaml")
        page.wait_for_selector("#deck-tiles[data-ref='mine.yaml'] .tile[data-id=P05]", timeout=STEP_MS)
        page.close()
    finally:
        server.should_exit = True
        thread.join(15)


def test_draw_a_shape_by_clicks_and_see_its_facts(page):
    for r, c in ((2, 2), (2, 3), (3, 3), (3, 4)):
        page.click(f"#shape-board rect[data-r='{r}'][data-c='{c}']")
    wait_js(page, "document.querySelector(\"#shape-facts dd[data-fact='size']\")?.textContent.startsWith('4 cells')",
                           timeout=STEP_MS)
    assert fact(page, "shape") == "##./.##" and fact(page, "chiral") == "yes"
    assert fact(page, "orientations").startswith("4 with reflections")
    assert fact(page, "Doodle CUT").startswith("yes")
    assert fact(page, "placements").startswith("224 on an empty 9x9 board")
    page.select_option("#shape-deck", "mine.yaml")
    page.wait_for_selector("#shape-card:not([hidden])", timeout=STEP_MS)
    wait_js(page, "document.querySelector(\"#shape-facts dd[data-fact='twins']\")?.textContent.endsWith(' in mine')")
    assert fact(page, "twins") == "P27, P28 in mine"  # the classic S tetrominoes
    assert page.is_hidden("label[data-field=copies]") and page.is_visible("label[data-field=cost]")
    # a click on a shaded cell clears it
    page.click("#shape-board rect[data-r='3'][data-c='4']")
    wait_js(page, "document.querySelector(\"#shape-facts dd[data-fact='size']\")?.textContent.startsWith('3 cells')",
                           timeout=STEP_MS)
    page.click("#shape-board rect[data-r='3'][data-c='4']")
    wait_js(page, "document.querySelector(\"#shape-facts dd[data-fact='size']\")?.textContent.startsWith('4 cells')",
                           timeout=STEP_MS)
    shot(page, "studio-shape")
    page.fill("#save-file", "drawn.yaml")
    page.fill("#field-id", "N07")
    page.click("#shape-save")
    wait_js(page, "document.getElementById('save-result').textContent.startsWith('saved')", timeout=STEP_MS)
    assert page.inner_text("#save-result") == "saved N07 into drawn.yaml"


def test_the_deck_view_follows_an_edit_on_disk(page, folder):
    tab(page, "deck")
    page.select_option("#deck-ref", "mine.yaml")
    page.wait_for_selector("#deck-tiles[data-ref='mine.yaml'] .tile[data-id=P05]", timeout=STEP_MS)
    wait_js(page, "document.querySelector('.tile[data-id=P05] .numbers')?.textContent.startsWith('cost 3')",
                           timeout=STEP_MS)
    assert page.locator(".tile").count() == 33 and page.locator(".tile img").count() == 33
    page.select_option("#deck-sort", "cost")
    page.check("#deck-desc")
    costs = [int(t.split(" ")[1]) for t in page.locator(".tile .numbers").all_inner_texts()]
    assert costs == sorted(costs, reverse=True)
    spec = folder / "mine.yaml"
    spec.write_text(spec.read_text().replace("cost: 3", "cost: 30"))
    wait_js(page, "document.querySelector('.tile[data-id=P05] .numbers')?.textContent.startsWith('cost 30')",
                           timeout=STEP_MS)
    assert page.locator(".tile").first.get_attribute("data-id") == "P05"  # still sorted by cost, dearest first
    spec.write_text(spec.read_text().replace("cost: 30", "cost: -1"))
    page.wait_for_selector("#deck-problems li", timeout=STEP_MS)
    assert page.inner_text("#deck-problems li").startswith("mine.yaml:6:")
    spec.write_text(spec.read_text().replace("cost: -1", "cost: 3"))
    page.wait_for_selector("#deck-problems:not(:has(li))", state="attached", timeout=STEP_MS)
    page.wait_for_selector(".tile[data-id=P05]", timeout=STEP_MS)
    shot(page, "studio-deck")


def play_by_clicks(page, limit: int = 120) -> int:
    """Click through a game: the first piece at its first legal place, else the first button."""
    steps = 0
    while page.get_attribute("body", "data-play-over") != "yes":
        assert steps < limit, "the game did not end"
        moves = page.get_attribute("body", "data-play-moves")
        pieces = page.locator("#play-pieces button")
        if pieces.count():
            pieces.first.click()
            r, c = page.evaluate("window.studioPlay.firstLegalCell()")
            cell = f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']"
            page.hover(cell)
            page.wait_for_selector("#play-boards svg.active rect.ghost.ok")
            page.click(cell)
        else:
            page.locator("#play-buttons button").first.click()
        wait_js(page, f"document.body.dataset.playMoves !== '{moves}' && document.body.dataset.playBusy !== 'yes'",
                               timeout=STEP_MS)
        steps += 1
    return steps


def test_play_a_doodle_game_to_the_end_by_clicks(page):
    tab(page, "play")
    page.select_option("#play-edition", "doodle")
    page.fill("#play-seats", "human")
    page.fill("#play-seed", "3")
    page.click("#play-start")
    page.wait_for_selector("body[data-play-over=no]", timeout=FIRST_GAME_MS)
    # the start card: turn it with the keys, see the ghost, put it back
    page.locator("#play-pieces button").first.click()
    page.hover("#play-boards svg.active rect[data-r='4'][data-c='4']")
    page.wait_for_selector("#play-boards svg.active rect.ghost")
    before = page.evaluate("window.studioPlay.orientation")
    page.keyboard.press("r")
    assert page.evaluate("window.studioPlay.orientation") != before
    page.keyboard.press("Escape")
    assert page.evaluate("window.studioPlay.piece") is None
    steps = play_by_clicks(page)
    assert steps >= 20
    assert page.inner_text("#play-status").startswith("Game over")
    shot(page, "studio-play")
    href = page.evaluate("document.getElementById('play-record').href")
    record = json.loads(page.request.get(href).text())
    assert record["format"] == "patchwork-toolkit/game-record" and record["final_scores"] is not None


def test_undo_and_hint_against_a_bot(page):
    tab(page, "play")
    page.select_option("#play-edition", "classic")
    page.fill("#play-seats", "human,greedy")
    page.click("#play-start")
    page.wait_for_selector("body[data-play-over=no] #play-pieces button", timeout=FIRST_GAME_MS)
    page.locator("#play-pieces button").first.click()
    r, c = page.evaluate("window.studioPlay.firstLegalCell()")
    page.click(f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']")
    wait_js(page, "document.body.dataset.playMoves !== '0' && document.body.dataset.playBusy !== 'yes'",
                           timeout=STEP_MS)
    assert "player 2 (greedy)" in page.inner_text("#play-log")
    page.click("#play-undo")
    wait_js(page, "document.body.dataset.playMoves === '0'", timeout=STEP_MS)
    page.click("#play-hint")
    wait_js(page, "document.getElementById('play-hint-text').textContent.startsWith('hint for player 1: ')",
                           timeout=STEP_MS)
    said = page.inner_text("#play-hint-text")
    assert not RECORD_FORM.search(said) and re.search(r"\b[A-I][1-9]\b", said), said
    assert page.inner_text("#play-hint-text button").startswith("play ")
    # a few moves more, then a piece under the pointer, for the picture
    for _ in range(4):
        moves = page.get_attribute("body", "data-play-moves")
        pieces = page.locator("#play-pieces button")
        if pieces.count():
            pieces.last.click()
            page.keyboard.press("r")
            r, c = page.evaluate("window.studioPlay.firstLegalCell()")
            page.click(f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']")
        else:
            page.locator("#play-buttons button").first.click()
        wait_js(page, f"document.body.dataset.playMoves !== '{moves}' && document.body.dataset.playBusy !== 'yes'",
                               timeout=STEP_MS)
    if page.locator("#play-pieces button").count():
        page.locator("#play-pieces button").first.click()
        r, c = page.evaluate("window.studioPlay.firstLegalCell()")
        page.hover(f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']")
        page.wait_for_selector("#play-boards svg.active rect.ghost.ok")
    assert not RECORD_FORM.search(page.inner_text("#play-game")), page.inner_text("#play-game")
    shot(page, "studio-play-classic")


def test_step_through_a_record(page, folder):
    record = json.loads((folder / "doodle-game.json").read_text())
    tab(page, "records")
    page.wait_for_selector("#record-path option[value='doodle-game.json']", state="attached", timeout=STEP_MS)
    page.select_option("#record-path", "doodle-game.json")
    wait_js(page, "document.body.dataset.recordStep === '0'", timeout=STEP_MS)
    for step in (1, 2, 3):
        page.click("#record-next")
        wait_js(page, f"document.body.dataset.recordStep === '{step}'", timeout=STEP_MS)
    from toolkit.games.squares import people_text

    assert page.inner_text("#record-step").startswith(f"action 3 of {len(record['actions'])}: {people_text(record['actions'][2])}")
    assert not RECORD_FORM.search(page.inner_text("#record-step") + page.inner_text("#record-text"))
    assert page.locator("#record-chance tr").count() >= 2
    assert page.locator("#record-boards svg").count() == 2
    page.click("#record-prev")
    wait_js(page, "document.body.dataset.recordStep === '2'", timeout=STEP_MS)
    page.click("#record-last")
    wait_js(page, f"document.body.dataset.recordStep === '{len(record['actions'])}'", timeout=STEP_MS)
    assert "game over" in page.inner_text("#record-step")
    shot(page, "studio-record")


def test_start_and_stop_a_run(page, folder):
    tab(page, "runs")
    page.select_option("#run-command", "balance")
    page.fill("#run-form input[name=variants]", "six-buttons.yaml")
    page.fill("#run-form input[name=bots]", "random,random")
    page.fill("#run-form input[name=games]", "4000000")
    page.click("#run-start")
    page.wait_for_selector(".run[data-state=running] code", timeout=STEP_MS)
    assert page.inner_text(".run code").startswith("patchwork balance classic six-buttons.yaml --bots random,random")
    wait_js(page, "(document.querySelector('.run[data-state=running] progress')?.value || 0) > 0",
                           timeout=STEP_MS)
    shot(page, "studio-run")
    page.click(".run[data-state=running] button.stop")
    page.wait_for_selector(".run[data-state=stopped]", timeout=STEP_MS)
    assert "interrupted" in page.inner_text(".run[data-state=stopped] pre.stderr")
    # a short run to its report
    page.fill("#run-form input[name=games]", "200")
    page.click("#run-start")
    page.wait_for_selector(".run[data-state=finished] button.report", timeout=STEP_MS * 4)
    page.click(".run[data-state=finished] button.report")
    page.wait_for_selector(".report img[alt='report page 1']", timeout=STEP_MS)
    wait_js(page, "document.querySelector(\".report img[alt='report page 1']\").naturalWidth > 0",
                           timeout=STEP_MS)
    assert "six-buttons" in page.inner_text(".report pre.markdown")
    # the result is brought into view, with the PDF itself a link away
    assert page.evaluate("document.querySelector('.report').getBoundingClientRect().top") < 900 / 2
    assert page.evaluate("scrollY") > 0
    pdf = page.evaluate("document.querySelector('.report a.pdf').href")
    assert page.request.get(pdf).body().startswith(b"%PDF")
    shot(page, "studio-run-result")


# ----- both screens: a desktop and a phone ----------------------------------------------------------

def no_sideways_scroll(page) -> None:
    wider = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wider <= 0, f"the page scrolls sideways by {wider} px"


def test_a_first_save_needs_no_deck_picked(page, folder):
    """The Shape tab opens on a usable deck (the family's default edition), so a first Save works."""
    assert page.input_value("#shape-deck") == "classic"
    for r, c in ((1, 1), (1, 2), (2, 2)):
        page.click(f"#shape-board rect[data-r='{r}'][data-c='{c}']")
    wait_js(page, "document.querySelector(\"#shape-facts dd[data-fact='size']\")?.textContent.startsWith('3 cells')")
    page.fill("#save-file", "first-save.yaml")
    page.fill("#field-id", "N31")
    page.click("#shape-save")
    wait_js(page, "document.getElementById('save-result').textContent !== ''")
    assert page.inner_text("#save-result") == "saved N31 into first-save.yaml"
    assert "extends: classic" in (folder / "first-save.yaml").read_text()


def test_the_deck_draws_every_piece_at_one_cell_size(page, studio_url):
    tab(page, "deck")
    page.select_option("#deck-ref", "classic")
    page.wait_for_selector("#deck-tiles[data-ref='classic'] .tile[data-id=P00] img", timeout=STEP_MS)
    wait_js(page, "[...document.querySelectorAll('#deck-tiles img')].every((i) => i.complete && i.naturalWidth > 0)")
    deck = page.request.get(studio_url.split("?")[0] + "api/deck?ref=classic", headers={"x-studio-token": TOKEN}).json()
    printed = {p["id"]: p["image_mm"][0] for p in deck["patches"]}
    drawn = page.evaluate("Object.fromEntries([...document.querySelectorAll('#deck-tiles .tile')].map("
                          "(t) => [t.dataset.id, t.querySelector('img').getBoundingClientRect().width]))")
    scale = [drawn[pid] / printed[pid] for pid in printed]
    assert max(scale) / min(scale) < 1.03, "pieces drawn at different scales"
    assert drawn["P00"] < drawn["P16"] / 2 + 20  # a 2-cell strip beside a 6-cell cross


def start_game(page, edition: str, seats: str, seed: int = 1) -> None:
    tab(page, "play")
    page.select_option("#play-edition", edition)
    page.fill("#play-seats", seats)
    page.fill("#play-seed", str(seed))
    page.click("#play-start")
    page.wait_for_selector("body[data-play-over=no] #play-pieces button", timeout=FIRST_GAME_MS)


TURN_BUTTONS = ("Rotate the piece a quarter turn", "Flip the piece over", "Next orientation of the piece",
                "Place the piece where it is shown", "Put the piece back")


def test_a_phone_plays_by_taps_with_the_pieces_under_the_board(phone):
    start_game(phone, "classic", "human,greedy")
    no_sideways_scroll(phone)
    board = phone.locator("#play-boards figure.active svg").bounding_box()
    pieces = phone.locator("#play-pieces").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390
    gap = pieces["y"] - (board["y"] + board["height"])
    assert 0 <= gap < 200, f"the pieces start {gap:.0f} px under the board"
    for name in TURN_BUTTONS:
        assert phone.get_by_role("button", name=name).is_visible()
    assert phone.locator("#play-pieces .price").first.inner_text().startswith("cost ")
    phone.locator("#play-pieces button").first.tap()
    seen = [phone.evaluate("window.studioPlay.orientation")]
    for name in TURN_BUTTONS[:3]:
        phone.get_by_role("button", name=name).tap()
        seen.append(phone.evaluate("window.studioPlay.orientation"))
    assert all(a != b for a, b in zip(seen, seen[1:])), seen  # each button turns the piece
    # a tap shows where the piece would lie; it is placed only by Place (or a second tap there)
    r, c = phone.evaluate("window.studioPlay.firstLegalCell()")
    phone.tap(f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']")
    phone.wait_for_selector("#play-boards svg.active rect.ghost.ok")
    assert phone.get_attribute("body", "data-play-moves") == "0"
    shot(phone, "studio-phone-preview")
    phone.get_by_role("button", name="Place the piece where it is shown").tap()
    wait_js(phone, "document.body.dataset.playMoves !== '0' && document.body.dataset.playBusy !== 'yes'")
    assert "player 2 (greedy)" in phone.inner_text("#play-log")
    shot(phone, "studio-phone-placed")


def test_a_doodle_card_is_one_button_with_its_cuts_as_variants(phone):
    start_game(phone, "doodle", "human", seed=3)
    for _ in range(12):
        if int(phone.get_attribute("body", "data-play-moves")) >= 3 and "cut" in phone.evaluate(
                "JSON.stringify(window.studioPlay.game.moves.pieces.map((p) => p.label))"):
            break
        moves = phone.get_attribute("body", "data-play-moves")
        phone.locator("#play-pieces button").first.tap()
        r, c = phone.evaluate("window.studioPlay.firstLegalCell()")
        cell = f"#play-boards svg.active rect[data-r='{r}'][data-c='{c}']"
        phone.tap(cell)
        phone.tap(cell)  # the second tap on the previewed cell places it
        wait_js(phone, f"document.body.dataset.playMoves !== '{moves}' && document.body.dataset.playBusy !== 'yes'")
    labels = phone.evaluate("window.studioPlay.game.moves.pieces.length")
    assert labels > 8 and phone.locator("#play-pieces button").count() <= 4
    cards = phone.locator("#play-pieces button[data-group='neighbour right draw'], #play-pieces button[data-group=draw]")
    cards.first.tap()
    assert phone.locator("#play-variants button").count() >= 2
    colours = phone.evaluate("new Set([...document.querySelectorAll('#play-boards svg.active rect.cell.on')]"
                             ".map((r) => r.style.fill)).size")
    placed = phone.evaluate("window.studioPlay.game.boards[0].placed.length")
    assert placed >= 3 and colours == placed  # the start card and each drawing in a colour of its own
    no_sideways_scroll(phone)
    shot(phone, "studio-phone-doodle")


def test_every_view_fits_its_screen(screen):
    for name in ("shape", "deck", "play", "records", "runs"):
        tab(screen, name)
        if name == "deck":
            screen.select_option("#deck-ref", "mine.yaml")
            screen.wait_for_selector("#deck-tiles[data-ref='mine.yaml'] .tile", timeout=STEP_MS)
        elif name == "play":
            start_game(screen, "doodle", "human,greedy", seed=3)
        elif name == "records":
            screen.wait_for_selector("#record-path option[value='doodle-game.json']", state="attached", timeout=STEP_MS)
            screen.select_option("#record-path", "doodle-game.json")
            wait_js(screen, "document.body.dataset.recordStep === '0'")
            screen.click("#record-last")
            wait_js(screen, "document.body.dataset.recordStep !== '0'")
        no_sideways_scroll(screen)
        shot(screen, f"studio-{name}-{screen.screen}")


# ----- Doodle at the table --------------------------------------------------------------------------

def deal_table(page, players: int = 2, seed: int = 7) -> None:
    tab(page, "table")
    page.select_option("#table-edition", "doodle")
    page.fill("#table-players", str(players))
    page.fill("#table-seed", str(seed))
    page.click("#table-deal")
    page.wait_for_selector("#table-game:not([hidden]) .table-seat", timeout=FIRST_GAME_MS)


def tap_next(page) -> None:
    taps = page.get_attribute("body", "data-table-taps")
    page.get_by_role("button", name="Next: roll the die and turn the next card").click()
    wait_js(page, f"document.body.dataset.tableTaps !== '{taps}'")


def test_the_table_deals_and_rolls_in_big_type(screen):
    deal_table(screen)
    assert screen.locator("#table-cards figure").count() == 2  # each player's start card
    assert "start card" in screen.inner_text("#table-cards")
    tap_next(screen)
    roll = screen.inner_text("#table-roll")
    assert roll.isdigit() and screen.inner_text("#table-say").startswith(f"Roll {roll}: draw D")
    size = screen.evaluate("parseFloat(getComputedStyle(document.getElementById('table-roll')).fontSize)")
    assert size >= 48  # readable across a table
    wait_js(screen, "[...document.querySelectorAll('#table-seats img.qr')].every((i) => i.complete && i.naturalWidth > 0)")
    no_sideways_scroll(screen)
    shot(screen, f"studio-table-{screen.screen}")


def test_a_player_keeps_a_sheet_on_a_phone_from_their_own_link(page, phone_context):
    deal_table(page)
    link = page.get_attribute(".table-seat[data-seat='1'] a.sheet-link", "href")
    assert "/sheet/" in link and "key=" in link and TOKEN not in link
    sheet = phone_context.new_page()
    errors: list[str] = []
    sheet.on("pageerror", lambda error: errors.append(str(error)))
    sheet.goto(link)
    sheet.wait_for_selector("#sheet-grid", timeout=STEP_MS)
    assert "draw your start card" in sheet.inner_text("#sheet-say")
    for r in range(2):
        for c in range(3):
            sheet.tap(f"#sheet-grid rect[data-r='{r}'][data-c='{c}']")
    wait_js(sheet, "document.getElementById('sheet-score').textContent.includes('best rectangle now: 5 points')")
    tap_next(page)  # the table moves on: the phone follows
    wait_js(sheet, "document.body.dataset.sheetTaps === '1'")
    assert sheet.inner_text("#sheet-say").startswith("Round 1, turn 1: Roll ")
    # the table sees the player's sheet
    wait_js(page, "document.querySelector(\".table-seat[data-seat='1'] .seat-score\").textContent.includes('75 empty')", timeout=15_000)
    no_sideways_scroll(sheet)
    shot(sheet, "studio-sheet-phone")
    # the sheet's key opens nothing else of the studio
    assert sheet.request.get(link.split("/sheet/")[0] + "/api/info?key=" + link.split("key=")[1]).status == 401
    sheet.close()
    assert errors == []


def test_the_page_shows_each_network_link_with_a_qr_code_that_reads_back(browser_context, folder, tmp_path):
    """A studio on the network shows its links and their QR codes on the page too (the terminal
    prints them already): the code, as the browser draws it, decodes to the link."""
    from toolkit import studio

    zbarimg = shutil.which("zbarimg")
    sock = studio.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    link = f"http://192.168.1.20:{port}/?token={TOKEN}"  # shown only: nothing is sent there
    server = studio.server(folder, sock, TOKEN, network_links=(link,))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the studio did not start"
            time.sleep(0.05)
        page = open_studio(browser_context, studio.address("127.0.0.1", port, TOKEN))
        page.click("#links summary")
        page.wait_for_selector("#links img.qr")
        assert page.inner_text("#links figcaption") == link
        if zbarimg:
            image = tmp_path / "qr.png"
            page.locator("#links img.qr").screenshot(path=str(image))
            out = subprocess.run([zbarimg, "-q", "--raw", str(image)], capture_output=True, text=True, timeout=60)
            assert out.stdout.strip() == link
        shot(page, "studio-links")
        page.close()
        assert page.errors == []
    finally:
        server.should_exit = True
        thread.join(15)


def test_a_loopback_studio_shows_no_network_links(page):
    assert page.is_hidden("#links")
