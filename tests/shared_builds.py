"""Builds made once per test run and shared, read-only, by every pytest-xdist worker.

The suite runs in parallel (scripts/test.sh: pytest -n); a session fixture is made once per
worker, so an expensive build asked for by tests on three workers was made three times. A
folder made through build_once() is made by the first worker that asks, under a file lock in
the run's shared temporary folder; the others wait for it and read the same files. Its files
are made read-only, so a test that writes into a shared build fails at once instead of
changing what other tests read (for a user other than root, whom permissions do not stop): a
test that edits outputs copies them first.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

_DONE = ".built"


def run_folder(tmp_path_factory: pytest.TempPathFactory, name: str = "shared-builds") -> Path:
    """The folder `name` that every worker of this run sees: beside the workers' own temporary
    folders under xdist (pytest-of-USER/pytest-N/NAME), in the session's own folder without."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / name
    folder.mkdir(exist_ok=True)
    return folder


def build_once(tmp_path_factory: pytest.TempPathFactory, name: str,
               make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by make(folder) once per test run, whichever worker asks first.

    A make() that fails leaves no folder: the next worker to ask tries again (and fails the
    same way, with its own traceback)."""
    root = run_folder(tmp_path_factory)
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not (folder / _DONE).exists():
            if folder.exists():
                _writable(folder)
                shutil.rmtree(folder)
            folder.mkdir()
            try:
                make(folder)
            except BaseException:
                _writable(folder)
                shutil.rmtree(folder, ignore_errors=True)
                raise
            (folder / _DONE).touch()
            _read_only(folder)
    return folder


def _read_only(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)


def _writable(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            path.chmod(stat.S_IMODE(path.stat().st_mode) | 0o200)
