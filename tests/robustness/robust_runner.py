"""Running `builder` as a separate process under CPU and memory limits, and snapshots of output/."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = {"mini": ROOT / "tests" / "fixtures" / "mini",
            "area": ROOT / "tests" / "fixtures" / "robust-area"}
MEMORY_LIMIT = 1 << 30  # address space: a full build of a sample stays well under this
CPU_LIMIT = 30  # seconds of CPU before the kernel stops the process (the hard stop)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    cpu: float  # user + system seconds of the child
    max_rss_mb: float


# Runs builder as its own child under the limits and reports that child's CPU time and peak
# memory. A launcher in between because a child forked from the test process itself would report
# the test process's pages at the fork as its peak memory (ru_maxrss survives exec).
_LAUNCHER = """
import os, resource, signal, sys
cpu, memory, report = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    os.execv(sys.argv[4], sys.argv[4:])
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as f:
    f.write(f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
if os.WIFSIGNALED(status):
    signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_builder(*args: str | Path, cwd: Path, wall: float = 180.0, env: dict | None = None) -> Run:
    """`python -m builder ARGS` with CPU and memory limits; measures its CPU time and peak memory.

    CPU time, not wall time, is what the cases are held to: the machine may be busy with
    other builds, and a wall-clock limit would then fail for reasons not in the code.
    """
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with tempfile.TemporaryDirectory() as tmp:
        report, out_path, err_path = (Path(tmp) / n for n in ("usage", "out", "err"))
        with out_path.open("wb") as out, err_path.open("wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-c", _LAUNCHER, str(CPU_LIMIT), str(MEMORY_LIMIT), str(report),
                 sys.executable, "-m", "builder", *map(str, args)],
                cwd=cwd, stdout=out, stderr=err, env=full_env, start_new_session=True)
            timer = threading.Timer(wall, lambda: os.killpg(proc.pid, signal.SIGKILL))
            timer.start()
            try:
                proc.wait()
            finally:
                timer.cancel()
        cpu, rss_kb = (float(v) for v in report.read_text().split()) if report.exists() else (0, 0)
        return Run(proc.returncode, out_path.read_text("utf-8", "replace"),
                   err_path.read_text("utf-8", "replace"), cpu, rss_kb / 1024)


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every file and folder under folder: relative path -> (kind, bytes, mtime). The build
    cache's SQLite shared-memory index (cache.sqlite3-shm) is listed but not compared: any
    reader of the database, such as the up-to-date check a broken build makes before loading,
    records its read lock there; the database and its log must stay as they were."""
    out: dict[str, tuple] = {}
    if not folder.exists():
        return out
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.name.endswith(".sqlite3-shm"):
            out[rel] = ("sqlite shared memory",)
        elif path.is_dir():
            out[rel] = ("dir",)
        else:
            out[rel] = ("file", path.read_bytes(), path.stat().st_mtime_ns)
    return out


def changes(before: dict, after: dict) -> list[str]:
    """What differs between two snapshots, in words (empty when identical)."""
    diffs = [f"new: {k}" for k in after if k not in before]
    diffs += [f"gone: {k}" for k in before if k not in after]
    diffs += [f"changed: {k}" for k in before if k in after and before[k] != after[k]]
    return diffs


def start_builder(*args: str | Path, cwd: Path, env: dict | None = None) -> subprocess.Popen:
    """`python -m builder ARGS` in the background, in its own process group (to kill it whole)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "builder", *map(str, args)], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env,
                            start_new_session=True)


def files(folder: Path, skip_cache: bool = True) -> dict[str, bytes]:
    """Every file under folder: relative path -> bytes (the build cache left out)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if skip_cache and rel.parts[0] == ".cache":
            continue
        if path.is_file():
            out[str(rel)] = path.read_bytes()
    return out


def is_temporary(rel: str) -> bool:
    """A writer's temporary file: hidden and ending in .tmp, so no reader globs it as an output."""
    name = Path(rel).name
    return name.startswith(".") and name.endswith(".tmp")
