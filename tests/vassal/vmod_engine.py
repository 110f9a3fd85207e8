"""Run scripts/vassal-check (a real VASSAL engine under Xvfb) and read its records."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from repo_paths import engine_choice

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "vassal-check"
PROBLEM_KINDS = {"WARN", "ERROR", "BUG", "LOADFAIL", "EXCEPTION", "PIECEFAIL", "NOMAP", "UNCAUGHT",
                 "HTMLCHARTFAIL", "NOCLASS", "DIALOG"}


def missing_engine() -> str:
    """Why the engine cannot run here ('' when it can)."""
    for tool in ("java", "javac", "xvfb-run"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    choice = engine_choice()
    try:
        choice.choose()
    except choice.EngineMissing as exc:
        return str(exc)
    return ""


def engine_origin() -> str:
    """Where the engine the tests run comes from (scripts/vassal/engine.py)."""
    return engine_choice().choose().origin


@dataclass
class EngineRun:
    """What the engine reported about one module."""

    records: list[list[str]]
    stderr: str = ""
    returncode: int = 0
    pieces: dict[str, list[dict]] = field(default_factory=dict)

    def kind(self, k: str) -> list[list[str]]:
        return [r[1:] for r in self.records if r[0] == k]

    @property
    def engine_version(self) -> str:
        m = re.search(r"You are using version (\S+?),", " ".join(" ".join(r) for r in self.records))
        return m.group(1) if m else ""


def run(vmod: Path, probes: list[tuple[str, int, int, str]] | None, tmp: Path,
        env: dict[str, str] | None = None) -> EngineRun:
    """Open the module in the engine; probe points are asked for their location names."""
    args = [str(CHECK), str(vmod)]
    if probes:
        pfile = tmp / f"{vmod.stem}.probes"
        pfile.write_text("".join(f"{m}\t{x}\t{y}\n" for m, x, y, _ in probes), encoding="utf-8")
        args.append(str(pfile))
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"), **(env or {}))
    proc = subprocess.run(args, check=False, capture_output=True, text=True, encoding="utf-8",
                          env=env,
                          timeout=400)
    records = [line.split("\t") for line in proc.stdout.splitlines() if line.strip()]
    out = EngineRun(records, proc.stderr, proc.returncode)
    for r in out.kind("PIECE"):
        setup, map_name, name, location, x, y, holder, props = (r + [""] * 8)[:8]
        pmap = dict(kv.split("=", 1) for kv in props.split("\x1f") if "=" in kv)
        out.pieces.setdefault(setup, []).append(
            {"map": map_name, "name": name, "location": location, "x": int(x), "y": int(y),
             "holder": holder, "props": pmap})
    return out
