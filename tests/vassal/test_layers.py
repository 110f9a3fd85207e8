"""The module code imports one way: names, geometry, traits and expressions below; the combat
calculators above them; the module's assembly (builder.vassal.module) on top. No circle, counting
the imports made inside functions (the seven-file circle of module, turn_events, victory,
vassal_combat, locations, pieces and sight had been hidden that way)."""

from __future__ import annotations

import ast
from pathlib import Path

from repo_paths import ROOT

PACKAGES = ("builder.vassal", "builder.vassal_combat")
ASSEMBLY = {"builder.vassal.module"}  # may import the combat package


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        folder = ROOT / Path(*pkg.split("."))
        for p in folder.glob("*.py"):
            out[pkg if p.stem == "__init__" else f"{pkg}.{p.stem}"] = p
    return out


def _imports(path: Path, mods: dict[str, Path]) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if full in mods:
                    out.add(full)
                elif node.module in mods:
                    out.add(node.module)
    return out


def test_no_import_circle_in_the_module_code():
    mods = _modules()
    graph = {m: _imports(p, mods) - {m} for m, p in mods.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            circle = visit(m)
            assert circle is None, " -> ".join(circle)


def test_only_the_assembly_imports_the_combat_package():
    mods = _modules()
    up = {m: sorted(i for i in _imports(p, mods) if i.startswith("builder.vassal_combat"))
          for m, p in mods.items() if m.startswith("builder.vassal.") and m not in ASSEMBLY}
    assert {m: i for m, i in up.items() if i} == {}
