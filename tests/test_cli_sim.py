"""`patchwork simulate` and `patchwork balance` end to end: files, determinism, bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from toolkit.cli.app import app

runner = CliRunner()
FILES = ("results.json", "report.md", "report.pdf")


def run(*args: str):
    return runner.invoke(app, [*args, "--no-progress"])


@pytest.mark.slow
def test_simulate_writes_json_markdown_and_pdf(tmp_path):
    out = tmp_path / "run"
    result = run("simulate", "classic-revised", "--bots", "greedy,random", "--games", "20", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "bot 0 (greedy) win rate" in result.output
    assert "classic-revised" in result.output  # the time-track layout is always stated
    doc = json.loads((out / "results.json").read_text())
    assert doc["command"] == "patchwork simulate classic-revised --bots greedy,random --games 20 --seed 3"
    assert doc["edition"]["time_track"]["layout"] == "classic-revised"
    assert doc["edition"]["time_track"]["leather_patches"] == [26, 32, 38, 44, 50]
    assert len(doc["edition"]["content_hash"]) == 64 and doc["toolkit"]["version"]
    fig = doc["figures"]
    assert fig["games"] == 20 and doc["deals"] == 10
    assert fig["seats"][0]["win_rate"]["estimate"] + fig["seats"][1]["win_rate"]["estimate"] == pytest.approx(1.0)
    assert fig["bots"][0]["win_rate"]["estimate"] > 0.5
    assert sum(c for _, c in fig["distributions"]["score_seat0"]) == 20
    bought = sum(p["bought"] for p in fig["patches"])
    assert bought == sum(sum(p["by_seat"]) for p in fig["patches"]) > 0
    md = (out / "report.md").read_text()
    assert "# Simulation: " in md and "classic-revised" in md and "| P" in md
    text = "".join(page.extract_text() for page in PdfReader(out / "report.pdf").pages)
    assert "Simulation" in text and "Score distribution" in text


@pytest.mark.slow
def test_output_bytes_do_not_depend_on_workers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run("simulate", "classic", "--bots", "random,random", "--games", "40", "--seed", "8", "--workers", "1", "--out", str(a)).exit_code == 0
    assert run("simulate", "classic", "--bots", "random,random", "--games", "40", "--seed", "8", "--workers", "2", "--out", str(b)).exit_code == 0
    for name in FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.mark.slow
def test_simulate_doodle_solo(tmp_path):
    out = tmp_path / "d"
    result = run("simulate", "doodle", "--bots", "random", "--games", "12", "--seed", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    fig = json.loads((out / "results.json").read_text())["figures"]
    assert fig["players"] == 1 and fig["games"] == 12
    assert sum(c["games"] for c in fig["start_cards"]) == 12
    assert [r["round"] for r in fig["rounds"]] == [1, 2, 3]
    assert {s["special"] for s in fig["specials"]} == {"neighbour", "single", "cut", "again"}
    assert "Start cards" in (out / "report.md").read_text()


@pytest.mark.slow
def test_simulate_automa_keeps_the_player_bot_first(tmp_path):
    out = tmp_path / "solo"
    result = run("simulate", "anniversary", "--bots", "automa,random", "--games", "7", "--automa-level", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text())
    assert [b["name"] for b in doc["bots"]] == ["random", "automa:2:normal"]
    assert "always moves first" in doc["seats"] and doc["games_per_deal"] == 1
    fig = doc["figures"]
    assert not fig["seat_swap"] and fig["games"] == 7
    # No swap: seat 0 is the player bot in every game, so seat and bot figures coincide.
    assert fig["seats"][0]["win_rate"] == fig["bots"][0]["win_rate"]
    assert fig["seats"][1]["mean_score"] == fig["bots"][1]["mean_score"]


@pytest.mark.slow
def test_simulate_a_variant_file_and_a_doodle_table_of_three(tmp_path):
    variant = tmp_path / "dear.yaml"
    variant.write_text("kind: variant\nname: dearer-start\ntitle: Fewer buttons\nextends: classic\nstarting_buttons: 3\n")
    result = run("simulate", str(variant), "--bots", "random,random", "--games", "4", "--out", str(tmp_path / "v"))
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "v" / "results.json").read_text())
    assert doc["edition"]["name"] == "dearer-start" and str(variant) in doc["command"]
    result = run("simulate", "doodle", "--bots", "greedy,random,random", "--games", "3", "--out", str(tmp_path / "d"))
    assert result.exit_code == 0, result.output
    fig = json.loads((tmp_path / "d" / "results.json").read_text())["figures"]
    assert fig["players"] == 3 and len(fig["seats"]) == 3
    assert fig["seats"][0]["mean_score"]["estimate"] > fig["seats"][1]["mean_score"]["estimate"]


@pytest.mark.slow
def test_balance_writes_paired_differences(tmp_path):
    out = tmp_path / "bal"
    result = run("balance", "classic", "six-buttons", "revised-leather", "--bots", "random,random",
                 "--games", "40", "--seed", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "six-buttons vs classic" in result.output
    doc = json.loads((out / "results.json").read_text())
    assert [v["ref"] for v in doc["variants"]] == ["six-buttons", "revised-leather"]
    rows = {r["metric"]: r for r in doc["variants"][0]["differences"]}
    assert set(rows) == {"seat0_win", "score_seat0", "score_seat1", "margin", "plies", "bonus"}
    assert rows["score_seat0"]["difference"]["n"] == 20  # one pair per deal
    assert doc["variants"][1]["edition"]["time_track"]["layout"] != doc["base"]["edition"]["time_track"]["layout"] \
        or doc["variants"][1]["edition"]["time_track"]["leather_patches"] != doc["base"]["edition"]["time_track"]["leather_patches"]
    assert "## Variant `six-buttons`" in (out / "report.md").read_text()
    assert len(PdfReader(out / "report.pdf").pages) >= 2
    # Every chart of the report (histograms, differences) goes through the one chart backend,
    # which paints it as PNG too, the same bytes every time; the difference chart's text is the markdown's.
    from toolkit.reports import charts
    from toolkit.sections import DifferenceChart, ReportChart
    from toolkit.reports.simulation import balance_report

    drawn = [s for s in balance_report(doc).sections if isinstance(s, (ReportChart, DifferenceChart))]
    assert {type(s) for s in drawn} == {ReportChart, DifferenceChart}
    for chart in drawn:
        assert charts.png(chart).startswith(b"\x89PNG") and charts.png(chart) == charts.png(chart)
    assert "\n".join(charts.text(drawn[0])) in (out / "report.md").read_text()


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "classic", "--bots", "foo,random"], "unknown bot 'foo'"),
        (["simulate", "doodle", "--bots", "automa"], "bot 'automa' plays the time-track editions only"),
        (["simulate", "doodle", "--bots", "mcts:10"], "time-track editions only"),
        (["simulate", "classic", "--bots", "random,random", "--games", "0"], "--games must be a positive"),
        (["simulate", "classic", "--bots", "random,random", "--games", "5"], "must be even"),
        (["simulate", "classic", "--bots", "random,random", "--workers", "0"], "--workers must be at least 1"),
        (["simulate", "no-such-edition", "--bots", "random,random"], "unknown edition 'no-such-edition'"),
        (["simulate", "classic", "--bots", "automa,random"], "has no Automa deck"),
        (["simulate", "classic", "--bots", "mcts:x,random"], "MCTS budget must be an integer"),
        (["simulate", "classic", "--bots", "mcts:,random"], "budget must be a whole number after the colon"),
        (["simulate", "classic", "--bots", "greedy:3,random"], "greedy takes no argument"),
        (["simulate", "classic", "--bots", "random"], "2 seats"),
        (["simulate", "classic", "--scheduler", "localhost:1"], "tcp://HOST:PORT"),
        (["balance", "classic", "doodle"], "one rules family"),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_clear_message_and_no_files(tmp_path, args, message):
    out = tmp_path / "out"
    if "--games" not in args:
        args = [*args, "--games", "4"]
    result = run(*args, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists()


@pytest.mark.slow
def test_unreachable_scheduler_from_the_shell(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "toolkit", "simulate", "classic", "--games", "4", "--no-progress",
         "--scheduler", "tcp://127.0.0.1:9", "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("patchwork: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_missing_dask_extra_is_named(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    out = tmp_path / "out"
    result = run("simulate", "classic", "--games", "4", "--scheduler", "tcp://127.0.0.1:8786", "--out", str(out))
    assert result.exit_code == 2
    assert "needs Dask distributed, which is not installed" in result.output
    assert not out.exists()


@pytest.mark.slow
def test_simulate_intervals_take_the_deal_as_their_unit():
    import json

    from cli_helpers import ok

    result = ok("simulate", "classic", "--bots", "greedy,greedy", "--games", "60", "--no-progress", "--json")
    figures = json.loads(result.stdout)["figures"]
    win = figures["seats"][0]["win_rate"]
    assert win["deals"] == 30 and win["n"] == 60 and win["design_effect"] >= 1.0
    from toolkit.stats import wilson

    plain = wilson(round(win["estimate"] * 60), 60)
    assert win["high"] - win["low"] >= plain.high - plain.low - 1e-9  # never narrower than counting games
    for row in figures["patches"]:
        assert row["buy_rate"]["deals"] == 30
    assert figures["margin"]["seat0_minus_seat1"]["deals"] == 30
    table = ok("simulate", "classic", "--bots", "greedy,greedy", "--games", "60", "--no-progress").output
    assert "30 deals x 2 seat-swapped games" in table
    doodle = json.loads(ok("simulate", "doodle", "--games", "4", "--no-progress", "--json").stdout)
    assert "deals" not in json.dumps(doodle["figures"]["score"])  # one game a deal: independent games
