"""Running `builder` as a separate process under CPU and memory limits, and snapshots of output/."""

from __future__ import annotations

import os
import resource
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


def run_builder(*args: str | Path, cwd: Path, wall: float = 180.0, env: dict | None = None) -> Run:
    """`python -m builder ARGS` with CPU and memory limits; measures its CPU time and peak memory.

    CPU time, not wall time, is what the cases are held to: the machine may be busy with
    other builds, and a wall-clock limit would then fail for reasons not in the code.
    """
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "builder", *map(str, args)], cwd=cwd,
                                stdout=out, stderr=err, preexec_fn=limits,  # noqa: PLW1509 (rlimits)
                                env=full_env)
        timer = threading.Timer(wall, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), usage.ru_utime + usage.ru_stime,
                   usage.ru_maxrss / 1024)


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every file and folder under folder: relative path -> (kind, bytes, mtime)."""
    out: dict[str, tuple] = {}
    if not folder.exists():
        return out
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_dir():
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
