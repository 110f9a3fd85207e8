"""Run the module checker (scripts/vassal/VCheck.java: a real VASSAL engine under Xvfb) and read
its records: in the module's long-lived engine (tests/vassal_combat/engine.py), or through
scripts/vassal-check as a designer runs it (BUILDER_ENGINE_SERVER=0, VCHECK_SNAPSHOT)."""

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
        ask_side: list[str] | None = None) -> EngineRun:
    """Open the module in the engine; probe points are asked for their location names.
    ask_side: the checker asks for one of these sides modally as the new game starts, as VASSAL
    3.7's wizard does."""
    pfile = ""
    if probes:
        pfile = tmp / f"{vmod.stem}.probes"
        pfile.write_text("".join(f"{m}\t{x}\t{y}\n" for m, x, y, _ in probes), encoding="utf-8")
    from tests.vassal_combat import engine

    if engine.serving() and not os.environ.get("VCHECK_SNAPSHOT"):
        script = [f"ASK\t{','.join(ask_side)}"] if ask_side else []
        script += ["ATTRIBUTES", "REPORT", "TOOLBARS", f"SETUPS\t{pfile}"]
        text, stderr, code = engine.server(vmod).run("VCheck", script, timeout=400), "", 0
    else:
        env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"))
        if ask_side:
            env["VCHECK_ASK_SIDE"] = ",".join(ask_side)
        proc = subprocess.run([str(CHECK), str(vmod), *([str(pfile)] if pfile else [])],
                              check=False, capture_output=True, text=True, encoding="utf-8",
                              env=env, timeout=400)
        text, stderr, code = proc.stdout, proc.stderr, proc.returncode
    records = [line.split("\t") for line in text.splitlines() if line.strip()]
    out = EngineRun(records, stderr, code)
    for r in out.kind("PIECE"):
        setup, map_name, name, location, x, y, holder, props = (r + [""] * 8)[:8]
        pmap = dict(kv.split("=", 1) for kv in props.split("\x1f") if "=" in kv)
        out.pieces.setdefault(setup, []).append(
            {"map": map_name, "name": name, "location": location, "x": int(x), "y": int(y),
             "holder": holder, "props": pmap})
    return out
