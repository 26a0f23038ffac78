"""No import circle in the engine (issue 20): every module of ``engine/`` is read as an
import graph (every ``import`` statement, wherever it stands: module level, ``if
TYPE_CHECKING`` or inside a function), and the graph must have no cycle; each module of
``engine/duplicate`` must also import alone, first, in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ENGINE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """The engine module an imported name lives in (``engine.a.b.C`` → ``engine.a.b``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module → the engine modules it imports (a package's own ``__init__`` excluded:
    Python runs it first whichever submodule is imported)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps |= {
                    _target(a.name, modules) for a in node.names if a.name.startswith("engine")
                }
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.startswith("engine"):
                    for alias in node.names:
                        full = f"{node.module}.{alias.name}"
                        deps.add(full if full in modules else _target(node.module, modules))
            elif isinstance(node, ast.ImportFrom) and node.level:  # relative: none today
                raise AssertionError(f"{name}: use absolute imports (engine.…)")
        graph[name] = {d for d in deps if d and d != name and not name.startswith(d + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module
    (Tarjan's algorithm), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_engine_has_no_import_circle() -> None:
    graph = import_graph()
    assert "engine.duplicate.values" in graph["engine.duplicate.racks"]
    assert cycles(graph) == []


DUPLICATE = sorted(name for name in _modules() if name.startswith("engine.duplicate."))


@pytest.mark.parametrize("module", DUPLICATE)
def test_each_duplicate_module_imports_alone(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
