"""The shape of the house: data flows one way, and nothing lower imports anything higher.

plain building blocks (errors, jit, stats, fileio, the report sections) -> geometry -> specs ->
games -> bots -> families -> play -> records/sim/render -> decks -> workbench/warmup -> reports,
with the CLI and the studio on top calling the same library (docs/contributing.md describes each
floor). Read from the code's own import statements (lazy imports inside functions included), so
a move that breaks the order fails here, naming the file and line.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import toolkit

PACKAGE = Path(toolkit.__file__).parent

LAYERS: list[tuple[int, tuple[str, ...]]] = [
    # plain building blocks every layer may use; the report section model (toolkit.sections) is
    # plain data that the families fill and the reports render
    (0, ("toolkit", "toolkit.errors", "toolkit.jit", "toolkit.stats", "toolkit.fileio", "toolkit.sections")),
    (1, ("toolkit.geometry",)),
    (2, ("toolkit.specs",)),
    (3, ("toolkit.games",)),
    (4, ("toolkit.bots",)),
    (5, ("toolkit.families",)),
    (6, ("toolkit.play",)),
    (7, ("toolkit.records", "toolkit.sim", "toolkit.render")),
    (8, ("toolkit.decks",)),
    (9, ("toolkit.workbench", "toolkit.warmup")),
    (10, ("toolkit.reports",)),
    (11, ("toolkit.cli", "toolkit.studio", "toolkit.__main__")),
]
SURFACES = ("toolkit.cli", "toolkit.studio")
"""The two surfaces call the library, never each other (the CLI only starts the studio)."""
ALLOWED_SURFACE_IMPORTS = {("toolkit.cli.studio_cmd", "toolkit.studio")}


def _layer(module: str) -> tuple[int, str]:
    best = (-1, -1, "")
    for level, names in LAYERS:
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best[0]:
                best = (len(name), level, name)
    assert best[1] >= 0, f"{module} is in no layer: add it to LAYERS"
    return best[1], best[2]


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield path, module


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


def test_nothing_lower_imports_anything_higher():
    wrong = []
    for path, module in _modules():
        mine, _ = _layer(module)
        for line, name in _imports(path):
            if name.split(".")[0] != "toolkit":
                continue
            theirs, _ = _layer(name)
            if theirs > mine:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {name}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_the_surfaces_do_not_import_each_other():
    wrong = []
    for path, module in _modules():
        if not module.startswith(SURFACES):
            continue
        home = next(s for s in SURFACES if module.startswith(s))
        for line, name in _imports(path):
            other = next((s for s in SURFACES if name == s or name.startswith(s + ".")), None)
            if other and other != home and (module, other) not in ALLOWED_SURFACE_IMPORTS:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {name}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_games_import_nothing_above_the_specs_and_geometry():
    for path, module in _modules():
        if module.startswith("toolkit.games"):
            for line, name in _imports(path):
                if name.startswith("toolkit."):
                    assert _layer(name)[0] <= 3, f"{path}:{line}: {name}"


def test_every_layer_is_a_whole_package():
    """A module never sits lower than the package around it: plain data that low layers share
    lives low (toolkit.sections), not carved out of a high package."""
    carved = []
    for level, names in LAYERS:
        for name in names:
            for other_level, others in LAYERS:
                carved += [f"{name} (layer {level}) sits inside {other} (layer {other_level})"
                           for other in others
                           if other != "toolkit" and name.startswith(other + ".") and other_level > level]
    assert not carved, "\n".join(carved)


def test_the_section_model_is_plain_data():
    """The report sections the families fill import nothing of the toolkit."""
    path = PACKAGE / "sections.py"
    toolkit_imports = [f"{path}:{line}: {name}" for line, name in _imports(path) if name.split(".")[0] == "toolkit"]
    assert not toolkit_imports, "\n".join(toolkit_imports)
