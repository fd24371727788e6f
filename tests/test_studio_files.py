"""The studio and FOLDER's files under a hostile folder: FIFOs named like specs and records,
subfolders swapped for symlinks out of FOLDER while the studio works, specs that refer to files
outside FOLDER, and saving beside the user's own files (their names, line endings and modes)."""
from __future__ import annotations

import os
import shutil
import stat
import threading
import time
import warnings
from pathlib import Path

import pytest

import httpx  # noqa: F401
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from toolkit.errors import UsageError  # noqa: E402
from toolkit.studio import files  # noqa: E402
from toolkit.studio.app import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "studio-files-token-0123456789"
SPECS = Path(__file__).resolve().parent.parent / "specs"
BASE = "http://127.0.0.1:8123"
PATCH = {"id": "N01", "cells": [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]], "cost": 4, "time": 2, "income": 1}
ANSWER_SECONDS = 20.0
"""A request that would hang on a FIFO never answers; any answer within this is a pass."""


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "studio"
    path.mkdir()
    (path / "mine.yaml").write_text("kind: variant\nname: mine\nextends: classic\npatch_changes:\n  P05: {cost: 3}\n")
    return path


@pytest.fixture
def client(folder):
    app = create_app(folder, TOKEN, watch=False)
    with TestClient(app, base_url=BASE, headers={"x-studio-token": TOKEN}) as c:
        yield c


def answered(call):
    """The response of `call()`, run in a thread: AssertionError when it does not answer."""
    out = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(ANSWER_SECONDS)
    assert out, "the request hangs"
    return out[0]


def error_of(response, status=400) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


# ----- FIFOs, devices, sockets --------------------------------------------------------------------

@pytest.mark.slow
def test_a_fifo_named_like_a_spec_or_record_never_hangs_a_list_or_a_read(client, folder):
    os.mkfifo(folder / "pipe.yaml")
    os.mkfifo(folder / "pipe.json")
    (folder / "uses-pipe.yaml").write_text("kind: variant\nname: uses-pipe\nextends: ./pipe.yaml\n")
    for _ in range(50):  # more than the server's worker threads: none may be left waiting
        listing = answered(lambda: client.get("/api/specs"))
        assert {"path": "pipe.yaml", "kind": None} in listing.json()["files"]
        assert answered(lambda: client.get("/api/records")).status_code == 200
    assert "FIFO" in error_of(answered(lambda: client.get("/api/deck", params={"ref": "pipe.yaml"})))
    assert "FIFO" in error_of(answered(lambda: client.get("/api/record", params={"path": "pipe.json"})))
    assert "FIFO" in error_of(answered(lambda: client.get("/api/deck", params={"ref": "uses-pipe.yaml"})))
    save = {"file": "pipe.yaml", "deck": "classic", "patch": PATCH}
    assert "FIFO" in error_of(answered(lambda: client.post("/api/shape/save", json=save)))
    assert stat.S_ISFIFO(os.stat(folder / "pipe.yaml").st_mode)


def test_a_socket_and_a_device_are_refused(client, folder):
    import socket

    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(str(folder / "sock.yaml"))
    except OSError:
        pytest.skip("no unix sockets here")
    try:
        assert "socket" in error_of(client.get("/api/deck", params={"ref": "sock.yaml"}))
    finally:
        listener.close()
    (folder / "null.yaml").symlink_to("/dev/null")  # out of FOLDER as well as a device
    assert "leads out" in error_of(client.get("/api/deck", params={"ref": "null.yaml"}))


# ----- symlinks swapped in while the studio works ---------------------------------------------------

@pytest.mark.slow
def test_a_folder_swapped_for_a_symlink_out_never_serves_or_takes_a_write_outside(folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("kind: variant\nname: outside-secret\nextends: classic\n")
    inside_sub = folder / "sub"
    inside_sub.mkdir()
    (inside_sub / "x.yaml").write_text("kind: variant\nname: inside\nextends: classic\n")
    parked = folder / ".parked"
    stop = threading.Event()

    def swap():
        while not stop.is_set():
            os.rename(inside_sub, parked)
            os.symlink(outside, inside_sub)
            os.unlink(inside_sub)
            os.rename(parked, inside_sub)

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    served = refused = 0
    try:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                data, _ = files.read_bytes(folder, "sub/x.yaml")
                assert b"outside-secret" not in data
                served += 1
            except UsageError:
                refused += 1
            try:
                files.write_bytes(folder, "sub/new.yaml", b"kind: variant\nname: new\nextends: classic\n")
            except UsageError:
                pass
    finally:
        stop.set()
        swapper.join(5)
    assert served + refused > 20
    assert sorted(p.name for p in outside.iterdir()) == ["x.yaml"]  # nothing written outside
    assert (outside / "x.yaml").read_text().startswith("kind: variant\nname: outside-secret")


@pytest.mark.slow
def test_the_api_under_a_swapping_folder_never_serves_or_writes_outside(client, folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("kind: variant\nname: outside-secret\nextends: classic\n")
    (outside / "y.json").write_text('{"kind": "game-record", "secret": "outside-secret"}')
    sub = folder / "sub"
    sub.mkdir()
    (sub / "x.yaml").write_text("kind: variant\nname: inside\nextends: classic\n")
    (sub / "y.json").write_text('{"kind": "game-record"}')
    stop = threading.Event()

    def swap():
        while not stop.is_set():
            os.rename(sub, folder / ".parked")
            os.symlink(outside, sub)
            time.sleep(0.0005)
            os.unlink(sub)
            os.rename(folder / ".parked", sub)

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    answers = 0
    try:
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            for response in (client.get("/api/deck", params={"ref": "sub/x.yaml"}),
                             client.get("/api/record", params={"path": "sub/y.json"}),
                             client.post("/api/shape/save", json={"file": "sub/new.yaml", "extends": "classic",
                                                                  "patch": PATCH})):
                assert "outside-secret" not in response.text and str(outside) not in response.text
                answers += 1
    finally:
        stop.set()
        swapper.join(5)
    assert answers >= 3
    assert sorted(p.name for p in outside.iterdir()) == ["x.yaml", "y.json"]


def test_a_symlinked_folder_out_is_refused_and_one_inside_is_followed(client, folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("kind: variant\nname: outside-secret\nextends: classic\n")
    (folder / "away").symlink_to(outside)
    (folder / "real").mkdir()
    (folder / "real" / "y.yaml").write_text("kind: variant\nname: why\nextends: ../mine.yaml\n")
    (folder / "here").symlink_to("real")
    assert "leads out" in error_of(client.get("/api/deck", params={"ref": "away/x.yaml"}))
    assert "leads out" in error_of(client.post("/api/shape/save", json={"file": "away/new.yaml", "extends": "classic",
                                                                       "patch": PATCH}))
    assert not (outside / "new.yaml").exists()
    assert client.get("/api/deck", params={"ref": "here/y.yaml"}).json()["edition"]["name"] == "why"


# ----- specs that refer outside FOLDER -----------------------------------------------------------

@pytest.mark.parametrize("reference", ["extends: ../outside/x.yaml", "extends: {abs}",
                                       "extends: sub/../../outside/x.yaml"])
def test_a_spec_that_extends_a_file_outside_the_folder_is_refused(client, folder, tmp_path, reference):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("kind: variant\nname: outside-secret\nextends: classic\n")
    (folder / "sub").mkdir()
    reference = reference.format(abs=outside / "x.yaml")
    (folder / "reach.yaml").write_text(f"kind: variant\nname: reach\n{reference}\n")
    for response in (client.get("/api/deck", params={"ref": "reach.yaml"}),
                     client.post("/api/play", json={"edition": "reach.yaml", "seats": ["human", "greedy"]}),
                     client.post("/api/shape/preview", json={"deck": "reach.yaml", "patch": PATCH}),
                     client.post("/api/shape/save", json={"file": "new.yaml", "extends": "reach.yaml", "patch": PATCH}),
                     client.post("/api/runs", json={"command": "deck-check", "args": {"variant": "reach.yaml"}})):
        message = error_of(response)
        assert "leads out of the studio's folder" in message
        assert str(tmp_path) not in response.text and "outside-secret" not in response.text
    assert not (folder / "new.yaml").exists()


def test_a_patch_set_outside_the_folder_is_refused_and_one_inside_is_used(client, folder, tmp_path):
    (tmp_path / "set.yaml").write_text("kind: patch-set\npatches: []\n")
    classic = (SPECS / "editions" / "classic.yaml").read_text()
    (folder / "far.yaml").write_text(classic.replace("name: classic", "name: far").replace(
        "patches: classic", "patches: ../set.yaml"))
    assert "leads out" in error_of(client.get("/api/deck", params={"ref": "far.yaml"}))
    (folder / "parts").mkdir()
    shutil.copy(SPECS / "patches" / "classic.yaml", folder / "parts" / "mine.yaml")
    (folder / "near.yaml").write_text(classic.replace("name: classic", "name: near").replace(
        "patches: classic", "patches: parts/mine.yaml"))
    view = client.get("/api/deck", params={"ref": "near.yaml"}).json()
    assert view["edition"]["name"] == "near" and len(view["patches"]) == 33


def test_problems_name_files_of_the_folder_not_the_studios_copies(client, folder):
    (folder / "sub").mkdir()
    (folder / "sub" / "bad.yaml").write_text("kind: variant\nname: bad\nextends: ../mine.yaml\nstarting_buttons: -3\n")
    (folder / "gone.yaml").write_text("kind: variant\nname: gone\nextends: ./nowhere.yaml\n")
    view = client.get("/api/deck", params={"ref": "sub/bad.yaml"}).json()
    assert view["problems"] and all(p["file"] == "sub/bad.yaml" for p in view["problems"])
    response = client.get("/api/deck", params={"ref": "gone.yaml"})
    assert "nowhere.yaml" in response.text and "patchwork-studio-" not in response.text


# ----- saving beside the user's files ---------------------------------------------------------------

def test_saving_keeps_the_users_check_named_file_line_endings_and_mode(client, folder):
    crlf = b"# mine, written on Windows\r\nkind: variant\r\nname: mine\r\nextends: classic\r\n"
    (folder / "mine.yaml").write_bytes(crlf)
    os.chmod(folder / "mine.yaml", 0o640)
    own = b"# the user's own file\nkind: variant\nname: own\nextends: classic\n"
    (folder / "mine-studio-check.yaml").write_bytes(own)
    saved = client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml", "patch": PATCH})
    assert saved.status_code == 200, saved.text
    data = (folder / "mine.yaml").read_bytes()
    assert data.startswith(crlf) and data.endswith(b'cost: 4, time: 2, income: 1}\r\n')
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert stat.S_IMODE(os.stat(folder / "mine.yaml").st_mode) == 0o640
    assert (folder / "mine-studio-check.yaml").read_bytes() == own
    assert sorted(p.name for p in folder.iterdir()) == ["mine-studio-check.yaml", "mine.yaml"]
    # a refused save leaves both files as they were
    clash = {**PATCH, "id": "N02", "cost": 200}
    assert client.post("/api/shape/save", json={"file": "mine.yaml", "deck": "mine.yaml", "patch": clash}).status_code == 400
    assert (folder / "mine.yaml").read_bytes() == data
    assert (folder / "mine-studio-check.yaml").read_bytes() == own


def test_a_new_file_is_written_with_the_usual_mode(client, folder):
    old = os.umask(0o022)
    try:
        client.post("/api/shape/save", json={"file": "fresh.yaml", "extends": "mine.yaml", "patch": PATCH}).raise_for_status()
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(folder / "fresh.yaml").st_mode) == 0o644
    assert "extends: mine.yaml" in (folder / "fresh.yaml").read_text()
    assert client.get("/api/deck", params={"ref": "fresh.yaml"}).json()["edition"]["name"] == "fresh"


def test_a_spec_with_a_byte_order_mark_is_saved_into_and_keeps_it(client, folder):
    (folder / "bom.yaml").write_bytes(b"\xef\xbb\xbfkind: variant\nname: bom\nextends: classic\n")
    assert {"path": "bom.yaml", "kind": "variant"} in client.get("/api/specs").json()["files"]
    client.post("/api/shape/save", json={"file": "bom.yaml", "deck": "bom.yaml", "patch": PATCH}).raise_for_status()
    data = (folder / "bom.yaml").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfkind: variant\n") and b"N01" in data


def test_the_mirror_is_private_and_replaced_when_it_is_not(folder):
    mirror = files.mirror_of(folder)
    assert stat.S_IMODE(os.stat(mirror.path).st_mode) == 0o700
    os.chmod(mirror.path, 0o755)
    again = files.mirror_of(folder)
    assert again is not mirror and again.sound()
    mirror.close()


@pytest.mark.parametrize("key", ["extends", "patches", "time_track", "automa", "start_cards"])
def test_every_key_the_loader_follows_is_checked_before_loading(client, folder, tmp_path, key):
    """The studio checks the references of REFERRING_KEYS; each is one the loader follows (a
    reference to a missing file is the loader's problem), and each is refused when it leads out."""
    from toolkit.studio.design import REFERRING_KEYS

    assert key in REFERRING_KEYS
    classic = (SPECS / "editions" / "classic.yaml").read_text()
    kind = "variant" if key == "extends" else "edition"
    head = f"kind: {kind}\nname: probe\n" if kind == "variant" else classic.replace("name: classic", "name: probe")
    lines = [line for line in head.splitlines() if not line.startswith(f"{key}:")]
    (folder / "missing.yaml").write_text("\n".join([*lines, f"{key}: ./nowhere.yaml"]) + "\n")
    assert "nowhere.yaml" in client.get("/api/deck", params={"ref": "missing.yaml"}).text
    (folder / "out.yaml").write_text("\n".join([*lines, f"{key}: ../elsewhere.yaml"]) + "\n")
    assert "leads out of the studio's folder" in error_of(client.get("/api/deck", params={"ref": "out.yaml"}))


def test_a_run_is_refused_when_its_folder_would_lie_outside(client, folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (folder / "studio-runs").symlink_to(outside)
    response = client.post("/api/runs", json={"command": "deck-check", "args": {"variant": "mine.yaml"}})
    assert "leads out of the studio's folder" in error_of(response)
    assert list(outside.iterdir()) == [] and client.get("/api/runs").json()["runs"] == []


def test_a_runs_result_files_are_its_own_regular_files(folder, tmp_path):
    from toolkit.studio import runs

    (folder / "studio-runs" / "r1").mkdir(parents=True)
    (folder / "studio-runs" / "r1" / "report.md").write_text("# the report\n")
    (tmp_path / "secret.png").write_bytes(b"outside")
    (folder / "studio-runs" / "r1" / "chart.png").symlink_to(tmp_path / "secret.png")
    os.mkfifo(folder / "studio-runs" / "r1" / "results.json")
    run = runs.Run.__new__(runs.Run)  # the run's files only, no process
    run.root, run.rel = folder.resolve(), "studio-runs/r1"
    assert run.files() == ["report.md"]
    assert run.read("report.md", 1000) == b"# the report\n"
    with pytest.raises(UsageError, match="leads out"):
        run.read("chart.png", 1000)
    with pytest.raises(UsageError, match="FIFO"):
        run.read("results.json", 1000)
