"""docs/contributing.md stays true to the tree: every file or folder it names exists, and every
layer it lists is the one tests/test_layers.py enforces."""
from __future__ import annotations

import re
from pathlib import Path

from test_layers import LAYERS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "contributing.md"


def _named_paths(text: str) -> list[str]:
    """Paths in code spans: `toolkit/...`, `tests/...`, `specs/...`, `docs/...`, `benchmarks/...`
    (a `<name>` placeholder stands for any entry of its folder)."""
    spans = re.findall(r"`([^`\s]+)`", text)
    return [s for s in spans if re.match(r"(toolkit|tests|specs|docs|benchmarks)/", s)]


def test_every_path_the_guide_names_exists():
    missing = []
    for named in _named_paths(PAGE.read_text(encoding="utf-8")):
        path = named.split("<", 1)[0].rstrip("/") if "<" in named else named.rstrip("/")
        if not (ROOT / path).exists():
            missing.append(named)
    assert not missing, f"docs/contributing.md names paths that are not in the tree: {missing}"


def test_the_guide_names_a_path_in_every_layer():
    text = PAGE.read_text(encoding="utf-8")
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.+?) \|", text, re.M)}
    assert sorted(rows) == [level for level, _ in LAYERS], "the table's floors are test_layers.py's"
    for level, names in LAYERS:
        for name in names:
            if name == "toolkit":
                continue
            path = name.replace(".", "/")
            assert f"`{path}/`" in rows[level] or f"`{path}.py`" in rows[level], (level, name)
