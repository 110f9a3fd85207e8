"""Running the real VASSAL engine from the tests.

The engine and its class path are the ones scripts/vassal-check runs (scripts/vassal/engine.py
chooses: VASSAL 3.7.26 unless VENGINE_JAR or VENGINE=3.6 says otherwise); our Java helpers live
in tests/vassal_combat/java (and scripts/vassal/VCheck.java) and are compiled once per source
version into a cache folder.

A script runs in a long-lived engine (EngineServer.java): one JVM per module per test process,
started by the first script for that module and kept for the next ones (VASSAL's GameModule is
a singleton, so one module a JVM), the game closed between scripts as File > Close does; the
expression checker has one JVM per test process. A JVM start and a module load cost a few
seconds of CPU each, once instead of once per test. BUILDER_ENGINE_SERVER=0 runs each script
in a JVM of its own, as before (to tell a server problem from an engine one).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections import OrderedDict
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
    share and the module checker (scripts/vassal-check's VCheck, run here in a server too)."""
    own = [ROOT / "scripts" / "vassal" / f for f in ("WizardCloser.java", "VCheck.java")]
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
    if not (out / "EngineServer.class").exists():
        tmp = Path(tempfile.mkdtemp(prefix="vcombat-", dir=base if base.exists() else None))
        res = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(tmp), "-cp",
                              classpath(), *map(str, sources)], check=False, capture_output=True,
                             text=True)
        if res.returncode != 0:
            raise RuntimeError("javac failed:\n" + res.stderr[-4000:])
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            tmp.rename(out)
        except OSError:  # another test process compiled the same sources first: theirs serves
            shutil.rmtree(tmp, ignore_errors=True)
    return out


def _command(main: str, args: list[str], home: str, gui: bool) -> list[str]:
    logback = Path(home) / "logback.xml"
    logback.write_text('<configuration><root level="warn"/></configuration>\n')
    cmd = ["java", "-Djava.awt.headless=" + ("false" if gui else "true"),
           f"-Duser.home={home}", f"-Dlogback.configurationFile={logback}", "-Xmx1g",
           "-cp", f"{compiled()}:{classpath()}", main, *args]
    if gui:
        if not shutil.which("xvfb-run"):
            raise EngineMissing("xvfb-run is needed to open a module")
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *cmd]
    return cmd


def _java(main: str, args: list[str], stdin: str = "", gui: bool = False,
          timeout: int = 600) -> str:
    home = tempfile.mkdtemp(prefix="vcombat-home-")
    try:
        res = subprocess.run(_command(main, args, home, gui), check=False, input=stdin,
                             capture_output=True, text=True, timeout=timeout, encoding="utf-8")
        if res.returncode != 0:
            raise RuntimeError(f"{main} failed ({res.returncode}):\n{res.stderr[-4000:]}")
        return res.stdout
    finally:
        shutil.rmtree(home, ignore_errors=True)


READY = "\x1eREADY"
UNSERVED = "\x1eUNSERVED"


class Unserved(RuntimeError):
    """The helper lacks the methods a server runs it by (begin, run, end, problem)."""


class EngineServer:
    """One long-lived engine (EngineServer.java): a module opened once, scripts run in turn."""

    def __init__(self, vmod: Path | None) -> None:
        self.home = tempfile.mkdtemp(prefix="vengine-home-")
        self.vmod = None
        if vmod is not None:  # its own copy: the test's folder may go before the engine does
            self.vmod = Path(self.home) / "module.vmod"
            shutil.copyfile(vmod, self.vmod)
        # open for the engine's life: what it said, for the message when it fails
        self.stderr = open(Path(self.home) / "stderr.txt", "w+", encoding="utf-8")  # noqa: SIM115
        self.proc = subprocess.Popen(
            _command("EngineServer", [], self.home, gui=vmod is not None), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.stderr, text=True, encoding="utf-8",
            start_new_session=True)  # its own process group: Xvfb and java end together
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.loaded = ""
        if self.vmod is not None:
            self.loaded = self._send(["LOAD\t" + str(self.vmod)], timeout=600)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, lines: list[str], timeout: int) -> str:
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines))
            self.proc.stdin.flush()
        except OSError:
            raise RuntimeError(self._died("would not take a script")) from None
        out = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                self.close()
                raise RuntimeError(self._died(f"did not answer within {timeout} s")) from None
            if line is None:
                raise RuntimeError(self._died("ended"))
            if line.rstrip("\n") == READY:
                return "".join(out)
            out.append(line)

    def _died(self, what: str) -> str:
        self.stderr.flush()
        self.stderr.seek(0)
        return f"the engine server {what}:\n{self.stderr.read()[-4000:]}"

    def run(self, helper: str, script: list[str], timeout: int = 600) -> str:
        """The records of one script of `helper` (CombatCheck, VCheck, ExprCheck...): what a
        one-shot `java helper MODULE SCRIPT` prints."""
        if any("\n" in line for line in script):
            raise ValueError("a script line holds a newline (escape it)")
        out = self._send([f"RUN\t{helper}\t{len(script)}", *script], timeout)
        if out.rstrip("\n").endswith(UNSERVED):
            raise Unserved(helper)
        return out

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """QUIT (the JVM ends, xvfb-run waits for it and ends Xvfb), else the process group."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("QUIT\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(self.proc.pid, sig)
                        self.proc.wait(timeout=10)
                        break
                    except ProcessLookupError:
                        break
                    except subprocess.TimeoutExpired:
                        continue
        self.stderr.close()
        shutil.rmtree(self.home, ignore_errors=True)


KEEP = 2  # module engines kept open per test process (each holds a module: about 500 MB)
_servers: OrderedDict[str, EngineServer] = OrderedDict()


_lock = threading.Lock()


def server(vmod: Path | None) -> EngineServer:
    """The engine for this module (the same bytes: the same engine), or for expressions (None);
    started on first use and kept for the test process (the least recently used module engine
    closed when more than KEEP are open: tests/conftest.py runs one game's engine tests in a
    row)."""
    key = "" if vmod is None else hashlib.sha1(Path(vmod).read_bytes()).hexdigest()
    with _lock:
        s = _servers.pop(key, None)
        if s is None or not s.alive:
            s = EngineServer(vmod)
        _servers[key] = s
        modules = [k for k in _servers if k]
        for k in modules[:max(0, len(modules) - KEEP)]:
            _servers.pop(k).close()
        return s


@atexit.register
def close_all() -> None:
    """End every engine this process started."""
    while _servers:
        _servers.popitem()[1].close()


def serving() -> bool:
    return os.environ.get("BUILDER_ENGINE_SERVER", "1") != "0"


_modules: dict[str, tuple] = {}


def game_module(folder: str) -> tuple:
    """(game, its ModuleBuild, the .vmod bytes) for a game folder (or a sample's name), loaded
    and built once per test process: a game's engine tests share them as they share its engine
    (the game is a frozen model: no test changes it)."""
    hit = _modules.get(str(folder))
    if hit is None:
        from builder.load import find_game, load_game
        from builder.vassal.module import build_module

        game = load_game(find_game(str(folder)))
        build = build_module(game)
        hit = _modules[str(folder)] = (game, build, build.vmod())
    return hit


def build_of(game):
    """The ModuleBuild of a game: game_module's when the game came from there, else new."""
    for g, build, _ in _modules.values():
        if g is game:
            return build
    from builder.vassal.module import build_module

    return build_module(game)


def module_file(folder: str, tmp: Path) -> Path:
    """The game's module written into the folder tmp (game_module's bytes)."""
    game, _, data = game_module(folder)
    path = tmp / f"{game.slug}.vmod"
    path.write_bytes(data)
    return path


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
        if serving():
            out = server(None).run("ExprCheck", self.lines)
        else:
            out = _java("ExprCheck", [], "\n".join(self.lines) + "\n")
        answers = []
        for line in out.splitlines():
            if line.startswith(("R\t", "X\t")):
                answers.append((line[0] == "R", _unesc(line[2:])))
        if len(answers) != self.asked:
            raise RuntimeError(f"ExprCheck answered {len(answers)} of {self.asked} questions")
        return answers


def run_gui(main: str, args: list[str], timeout: int = 600) -> str:
    """Run one of our helpers (MODULE SCRIPT-FILE) in a real engine with a display (Xvfb): in
    the module's long-lived engine (server()), or in a JVM of its own."""
    if serving() and len(args) == 2 and main not in _unserved:
        script = Path(args[1]).read_text(encoding="utf-8").splitlines()
        try:
            return server(Path(args[0])).run(main, script, timeout=timeout)
        except Unserved:
            _unserved.add(main)
    return _java(main, args, gui=True, timeout=timeout)


_unserved: set[str] = set()
