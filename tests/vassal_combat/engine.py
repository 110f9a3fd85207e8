"""Running the real VASSAL engine from the tests.

The engine and its class path are the ones scripts/vassal-check runs (scripts/vassal/engine.py
chooses: VASSAL 3.7.26 unless VENGINE_JAR or VENGINE=3.6 says otherwise); our Java helpers live
in tests/vassal_combat/java and are compiled once per source version into a cache folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from repo_paths import ROOT, engine_choice

JAVA_DIR = Path(__file__).resolve().parent / "java"


class EngineMissing(RuntimeError):
    """The engine, Java or a library it needs is not installed (the message says which)."""


@cache
def _chosen():
    try:
        return engine_choice().choose()
    except engine_choice().EngineMissing as exc:
        raise EngineMissing(str(exc)) from None


def engine_jar() -> Path:
    """The engine's jar (scripts/vassal/engine.py chooses: VASSAL 3.7.26 unless told)."""
    return _chosen().jar


def classpath() -> str:
    """The engine jar and its libraries, as scripts/vassal-check runs them."""
    if not shutil.which("java") or not shutil.which("javac"):
        raise EngineMissing("java and javac (17) are needed")
    return _chosen().classpath


def stubs() -> list[Path]:
    """Stand-ins for jars Debian lacks (the 3.6 engine), plus the dialog answerer the checkers
    share."""
    own = [ROOT / "scripts" / "vassal" / "WizardCloser.java"]
    if not _chosen().stubs:
        return own
    return own + sorted((ROOT / "scripts" / "vassal" / "stubs").rglob("*.java"))


@cache
def compiled() -> Path:
    """The folder holding our compiled helpers (compiled once per source version)."""
    sources = sorted(JAVA_DIR.glob("*.java")) + stubs()
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sources)
                          + classpath().encode()).hexdigest()[:12]
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    out = base / "builder-vassal-combat" / digest
    if not (out / "ExprCheck.class").exists():
        tmp = Path(tempfile.mkdtemp(prefix="vcombat-", dir=base if base.exists() else None))
        res = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(tmp), "-cp",
                              classpath(), *map(str, sources)], check=False, capture_output=True,
                             text=True)
        if res.returncode != 0:
            raise RuntimeError("javac failed:\n" + res.stderr[-4000:])
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(out, ignore_errors=True)
        tmp.rename(out)
    return out


def _java(main: str, args: list[str], stdin: str = "", gui: bool = False,
          timeout: int = 600) -> str:
    home = tempfile.mkdtemp(prefix="vcombat-home-")
    try:
        logback = Path(home) / "logback.xml"
        logback.write_text('<configuration><root level="warn"/></configuration>\n')
        cmd = ["java", "-Djava.awt.headless=" + ("false" if gui else "true"),
               f"-Duser.home={home}", f"-Dlogback.configurationFile={logback}", "-Xmx1g",
               "-cp", f"{compiled()}:{classpath()}", main, *args]
        if gui:
            if not shutil.which("xvfb-run"):
                raise EngineMissing("xvfb-run is needed to open a module")
            cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *cmd]
        res = subprocess.run(cmd, check=False, input=stdin, capture_output=True, text=True,
                             timeout=timeout,
                             encoding="utf-8")
        if res.returncode != 0:
            raise RuntimeError(f"{main} failed ({res.returncode}):\n{res.stderr[-4000:]}")
        return res.stdout
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _unesc(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), text)


class ExprScript:
    """A batch for ExprCheck: calculated properties, then cases with values and evaluations."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.asked = 0

    def calc(self, name: str, expr: str) -> None:
        self.lines.append(f"P\t{name}\t{_esc(expr)}")

    def globals(self, values: dict[str, object]) -> None:
        for k, v in values.items():
            self.lines.append(f"G\t{k}\t{_esc(str(v))}")

    def reset(self) -> None:
        """Another table: the engine forgets every property, global and value."""
        self.lines.append("Z")

    def case(self, values: dict[str, object]) -> None:
        self.lines.append("C")
        for k, v in values.items():
            if v is not None:
                self.lines.append(f"V\t{k}\t{_esc(str(v))}")

    def ask(self, name: str) -> int:
        self.lines.append(f"E\t{name}")
        self.asked += 1
        return self.asked - 1

    def ask_expr(self, expr: str) -> int:
        self.lines.append(f"X\t{_esc(expr)}")
        self.asked += 1
        return self.asked - 1

    def run(self) -> list[tuple[bool, str]]:
        """(ok, text) per question, in order: ok=False carries the engine's error."""
        out = _java("ExprCheck", [], "\n".join(self.lines) + "\n")
        answers = []
        for line in out.splitlines():
            if line.startswith(("R\t", "X\t")):
                answers.append((line[0] == "R", _unesc(line[2:])))
        if len(answers) != self.asked:
            raise RuntimeError(f"ExprCheck answered {len(answers)} of {self.asked} questions")
        return answers


def run_gui(main: str, args: list[str], timeout: int = 600) -> str:
    """Run one of our helpers in a real engine with a display (under Xvfb)."""
    return _java(main, args, gui=True, timeout=timeout)
