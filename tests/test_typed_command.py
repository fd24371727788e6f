"""A results document keeps the command as typed beside the one with every option spelled out."""
from __future__ import annotations

import json

import pytest

from cli_helpers import ok
from toolkit.cli import typed


@pytest.mark.parametrize("words, expected", [
    (["balance", "classic", "six-buttons", "--sprt", "score", "--workers", "2"],
     "patchwork balance classic six-buttons --sprt score"),
    (["price", "classic", "P05", "--workers=2", "--out", "runs/p", "--values", "0..8", "--json", "--no-progress"],
     "patchwork price classic P05 --values 0..8"),
    (["simulate", "my variant.yaml", "--scheduler", "tcp://h:8786", "--force"], "patchwork simulate 'my variant.yaml'"),
])
def test_the_typed_command_keeps_the_users_words_without_execution_options(words, expected):
    typed.remember(words)
    assert typed.typed_command() == expected


def test_typed_sits_after_command_in_the_document():
    typed.remember(["simulate", "classic"])
    doc = typed.add_typed({"kind": "simulation", "command": "patchwork simulate classic --games 1000", "games": 1})
    assert list(doc) == ["kind", "command", "typed", "games"] and doc["typed"] == "patchwork simulate classic"


@pytest.mark.slow
def test_simulate_saves_both_and_the_worker_count_changes_no_byte(tmp_path):
    for workers in ("1", "2"):
        ok("simulate", "express", "--games", "40", "--workers", workers, "--no-progress", "--out", str(tmp_path / workers))
    one, two = ((tmp_path / w / "results.json").read_bytes() for w in ("1", "2"))
    assert one == two
    doc = json.loads(one)
    assert doc["typed"] == "patchwork simulate express --games 40"
    assert doc["command"].startswith("patchwork simulate express --bots ") and "--seed 0" in doc["command"]
    report = (tmp_path / "1" / "report.md").read_text()
    assert "Typed: `patchwork simulate express --games 40`" in report and "every option spelled out" in report
