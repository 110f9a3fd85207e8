"""The lower layers import without circles: what two modules both need sits below them.

Every import in builder/ (at the top of a module or inside a function: a deferred import is still
a circle, only hidden) makes an edge; a strongly connected group of two or more modules is a
circle. The loader, the model, the tables and the geometry must have none (issue 43: checks.py and
the scenario checks, files.py and the source cache, the rules and tables models imported each
other).
"""

from __future__ import annotations

import ast
from pathlib import Path

from repo_paths import ROOT

LAYERS = ("builder.load", "builder.model", "builder.tables", "builder.geometry")


def _modules() -> dict[str, Path]:
    out = {}
    for path in (ROOT / "builder").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the builder modules it imports, anywhere in its text."""
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in mods}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for a in node.names:
                    target = f"{base}.{a.name}"
                    if target in mods:
                        graph[name].add(target)
                    elif base in mods:
                        graph[name].add(base)
        graph[name].discard(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_lower_layers_import_without_circles():
    bad = [group for group in circles(import_graph())
           if any(m.startswith(LAYERS) for m in group)]
    assert not bad, "modules that import each other (put what both need below them): " + "; ".join(
        " <-> ".join(group) for group in bad)
