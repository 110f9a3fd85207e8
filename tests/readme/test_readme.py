"""The README cannot fall behind: every command in it is run and every TOML and CSV example in it
is loaded, here.

- `builder ...` lines run in order, as a user types them, in a folder holding a copy of
  sources/ (so `builder new my-game` comes before `builder check my-game`); each must exit 0.
  `builder build --all` and `builder build scheldt --proof` are the run's shared build of every
  sample (`sample_outputs`: `builder build --all --proof`), `builder watch` is stopped once it
  serves its page, and `builder schema` writes to a folder of the test (`--out`), compared with
  the package's files.
- Every other command has its runner in OTHER below; a command with none fails the test.
- A TOML example is validated by the model of the file its section names (a fragment may leave
  out required keys, nothing else); a CSV example is read by the loader's own row reader.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError
from repo_paths import ROOT

README = ROOT / "README.md"
_BLOCK = re.compile(r"^(#+ [^\n]*)$|^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(lang: str) -> list[tuple[str, str]]:
    """(the heading above it, text) of each fenced block of this language, in order."""
    heading, out = "", []
    for m in _BLOCK.finditer(README.read_text(encoding="utf-8")):
        if m.group(1):
            heading = m.group(1).lstrip("#").strip()
        elif m.group(2) == lang:
            out.append((heading, m.group(3)))
    return out


def commands() -> list[str]:
    """Every command line of the README's sh blocks (comments and continuations resolved)."""
    out = []
    for _, text in blocks("sh"):
        for line in text.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                out.append(shlex.join(words))
    return out


# --- TOML and CSV examples -----------------------------------------------------------------------
def _models():
    from builder.model.game import GameInfo
    from builder.model.maps import AreaMap, HexMap
    from builder.model.scenario import Scenario
    from builder.model.tables import TablesFile

    return {"game.toml": GameInfo, "map.toml: hex maps": HexMap, "map.toml: area maps": AreaMap,
            "tables.toml": TablesFile, "Rules as data": TablesFile, "scenarios": Scenario}


def _model_for(heading: str):
    found = [m for key, m in _models().items() if heading.startswith(key)]
    return found[0] if found else None


def test_there_are_examples_to_check():
    assert len(blocks("toml")) >= 7 and len(blocks("csv")) >= 2 and len(commands()) >= 30


@pytest.mark.parametrize("index", range(len(blocks("toml"))))
def test_toml_example_is_valid_for_its_file(index):
    heading, text = blocks("toml")[index]
    data = tomllib.loads(text)
    if not data:  # the `#:schema` line alone
        assert text.startswith("#:schema ../../builder/schema/game.schema.json")
        assert (ROOT / "builder" / "schema" / "game.schema.json").is_file()
        return
    model = _model_for(heading)
    assert model, f"README section '{heading}': which file does its TOML example show?"
    if heading.startswith("Rules as data"):  # [[tables.rules]]: rules of the table shown before
        tables = [t for h, t in blocks("toml") if h.startswith("tables.toml")]
        data = tomllib.loads(tables[0] + "\n" + text)
    try:
        model.model_validate(data)
    except ValidationError as exc:
        wrong = [e for e in exc.errors() if e["type"] != "missing"]  # a fragment may omit keys
        assert not wrong, f"README section '{heading}': " + "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in wrong)


def _csv_reader(heading: str, header: list[str]):
    from builder.load import game as loader
    from builder.model.counters import Marker, Unit
    from builder.model.scenario import Placement

    if heading.startswith("counters.csv"):
        return (loader.UNIT_COLUMNS, Unit) if "formation" in header else (
            loader.MARKER_COLUMNS, Marker)
    if heading.startswith("scenarios"):
        return loader.SETUP_COLUMNS, Placement
    return None


@pytest.mark.parametrize("index", range(len(blocks("csv"))))
def test_csv_example_reads_as_its_file(index, tmp_path):
    from builder.errors import Collector
    from builder.load.game import _read_rows

    heading, text = blocks("csv")[index]
    header = next(csv.reader(io.StringIO(text)))
    found = _csv_reader(heading, header)
    assert found, f"README section '{heading}': which file does its CSV example show?"
    columns, model = found
    path = tmp_path / "example.csv"
    path.write_text(text, encoding="utf-8")
    errors = Collector(tmp_path)
    rows = _read_rows(path, columns, model, errors)
    assert not errors.problems, [str(p) for p in errors.problems]
    assert len(rows) == len(text.strip().splitlines()) - 1


# --- commands ------------------------------------------------------------------------------------
def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), BUILDER_PROGRESS="off")


def _run(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=timeout, check=False)


def _watch(args: list[str], cwd: Path) -> None:
    """`builder watch GAME` until it serves its page, then Ctrl+C (on any free port: 8765 may be
    taken on a shared machine)."""
    proc = subprocess.Popen([sys.executable, "-u", "-m", "builder", *args, "--port", "0"],
                            cwd=cwd, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = []
    try:
        deadline = time.monotonic() + 180
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("preview: http://127.0.0.1:") or time.monotonic() > deadline:
                break
        assert seen and seen[-1].startswith("preview: "), "".join(seen)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _schema(cwd: Path) -> None:
    from builder.schema import SCHEMA_DIR

    out = cwd / "schema-out"
    done = _run([sys.executable, "-m", "builder", "schema", "--out", str(out)], cwd)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in out.glob("*.json"))
    assert written == sorted(p.name for p in SCHEMA_DIR.glob("*.json"))
    for name in written:
        assert (out / name).read_bytes() == (SCHEMA_DIR / name).read_bytes(), name


# Commands the shared build of every sample runs (tests/conftest.py, sample_outputs).
SHARED = {"builder build --all", "builder build scheldt --proof"}


def test_every_builder_command_runs(sample_outputs, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(ROOT / "sources", work / "sources")
    ran = []
    for line in commands():
        words = shlex.split(line)
        if words[0] != "builder":
            continue
        if line in SHARED:
            assert (sample_outputs / "index.html").is_file()  # only --all writes the index
            assert (sample_outputs / "scheldt" / "scheldt-proof.pdf").is_file()
        elif words[1] == "watch":
            _watch(words[1:], work)
        elif words[1] == "schema":
            _schema(work)
        else:
            done = _run([sys.executable, "-m", "builder", *words[1:]], work)
            assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr, done.stderr
        ran.append(line)
    assert len(ran) >= 20, ran


def test_the_shared_build_is_the_readme_command():
    """sample_outputs runs `builder build --all --proof`: the two README commands in SHARED."""
    text = (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")
    assert '"build", "--all", "--proof"' in text


def _benchmark_args(words: list[str], tmp_path: Path) -> None:
    """run.py's options parse (a run takes minutes: `benchmarks/run.py` is run by hand)."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    module.parser().parse_args(words[2:])


def _synth(words: list[str], tmp_path: Path) -> None:
    done = _run([sys.executable, *words[1:-1], str(tmp_path / "synth")], ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "synth" / "game.toml").is_file()


def _quick(words: list[str], tmp_path: Path) -> None:
    """The quick loop collects (pytest --collect-only) and leaves the marked tests out."""
    done = _run(["bash", str(ROOT / "scripts" / "quick.sh"), *words[2:], "--collect-only",
                 "-n", "0"], ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert re.search(r"\d+(/\d+)? tests? collected", done.stdout), done.stdout[-2000:]
    if len(words) == 2:  # the whole quick loop leaves the engine, browser and slow tests out
        assert re.search(r"tests collected \(\d+ deselected\)", done.stdout), done.stdout[-2000:]


def _test_sh(words: list[str], tmp_path: Path) -> None:
    """The whole suite: this run is it; CI runs it as the README says."""
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _build_all_sh(words: list[str], tmp_path: Path) -> None:
    """Installs (as scripts/test.sh does), then `builder build --all`, run above."""
    text = (ROOT / "scripts" / "build-all.sh").read_text(encoding="utf-8")
    assert "bash scripts/install-system.sh" in text
    assert text.rstrip().endswith("builder build --all")


OTHER = {
    "python3 benchmarks/run.py": _benchmark_args,
    "python3 benchmarks/synth.py": _synth,
    "bash scripts/quick.sh": _quick,
    "bash scripts/test.sh": _test_sh,
    "bash scripts/build-all.sh": _build_all_sh,
}


@pytest.mark.parametrize("line", [c for c in commands() if not c.startswith("builder ")])
def test_every_other_command_runs(line, tmp_path):
    words = shlex.split(line)
    runner = next((f for prefix, f in OTHER.items() if line.startswith(prefix)), None)
    assert runner, f"README command with no test: {line} (give it a runner in OTHER)"
    runner(words, tmp_path)
