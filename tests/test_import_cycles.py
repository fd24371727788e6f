"""No import cycles anywhere in toolkit/: the module import graph, read from the code's own
import statements, has no loop.

What counts as an edge: every import the code can run, at the top of a module and inside a
function alike (and a command module's `lazy("toolkit.x")`). An import made lazy keeps start-up
fast; it does not make a loop acceptable: the two modules still need each other, and which one
finishes loading first then depends on which a caller happened to import first. Only imports
under `if TYPE_CHECKING:`, which never run, are left out. `from package import name` is an edge
to the submodule when `name` is one, else to the package; the parent packages an import loads
on the way are not edges of their own (every package's `__init__` would otherwise close a loop
with each submodule it names).

A failure names each loop as a chain of `file:line: module imports module` lines.
"""
from __future__ import annotations

import ast
from pathlib import Path

import toolkit

PACKAGE = Path(toolkit.__file__).parent


def module_files(package: Path) -> dict[str, Path]:
    """Every module of the package under `package`, by dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree: ast.AST):
    """Every node of the tree except those under `if TYPE_CHECKING:`."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.orelse:
                yield statement
                yield from _nodes(statement)
            continue
        yield child
        yield from _nodes(child)


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """(imported module of the package, line) for each import `module` can run."""
    root = next(iter(modules)).split(".")[0]

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found = []
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lazy"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names = [node.args[0].value]
        for name in names:
            if name == root or name.startswith(root + "."):
                target = known(name)
                if target is not None and target != module:
                    found.append((target, node.lineno))
    return found


def import_cycles(package: Path) -> list[list[str]]:
    """One loop per group of modules that import each other, each step as `file:line: a imports b`
    (and the whole group when the loop shown passes through only some of it)."""
    modules = module_files(package)
    edges: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        for target, line in imports_of(module, path, modules):
            edges.setdefault(module, {}).setdefault(target, line)

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(start: str) -> None:  # Tarjan's algorithm, iterative (no recursion limit to meet)
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, {})))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for module in sorted(modules):
        if module not in index:
            connect(module)

    loops = []
    for group in groups:
        members = set(group)
        start = group[0]
        came_from: dict[str, str] = {}
        frontier = [start]
        while start not in came_from:  # breadth first from start, inside the group, back to start
            following = []
            for node in frontier:
                for nxt in sorted(edges.get(node, {})):
                    if nxt in members and nxt not in came_from:
                        came_from[nxt] = node
                        following.append(nxt)
            frontier = following
        chain = [start]
        while True:
            chain.append(came_from[chain[-1]])
            if chain[-1] == start:
                break
        chain.reverse()
        steps = [f"{modules[a].relative_to(package.parent)}:{edges[a][b]}: {a} imports {b}" for a, b in zip(chain, chain[1:])]
        if len(group) > len(chain) - 1:
            steps.append(f"(one loop of {len(group)} modules that import each other: {', '.join(group)})")
        loops.append(steps)
    return loops


def test_no_module_of_the_toolkit_imports_itself_through_others():
    loops = import_cycles(PACKAGE)
    assert not loops, "import cycles:\n" + "\n\n".join("\n".join(loop) for loop in loops)


def test_the_check_finds_a_loop_closed_inside_a_function(tmp_path):
    """The check itself: a loop closed by a function's import is found and named; one under
    `if TYPE_CHECKING:` is not a loop."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def later():\n    from pkg import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n")
    (package / "e.py").write_text("from . import d\n")
    assert import_cycles(package) == [[
        "pkg/a.py:1: pkg.a imports pkg.sub.b",
        "pkg/sub/b.py:2: pkg.sub.b imports pkg.c",
        "pkg/c.py:1: pkg.c imports pkg.a",
    ]]
