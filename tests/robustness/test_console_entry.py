"""The console entry (cli.run) exits without tearing the heap down: what it printed must still
all arrive, and its exit codes must be click's."""

from __future__ import annotations

import subprocess
import sys

from builder.load import list_games


def _builder(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], capture_output=True,
                          text=True, timeout=120)


def test_everything_printed_arrives_through_a_pipe():
    done = _builder("list")
    assert done.returncode == 0
    assert done.stdout.split() == list(list_games())


def test_a_long_output_is_flushed_whole():
    done = _builder("rules", "scheldt", "--search", "the")
    assert done.returncode == 0
    assert len(done.stdout) > 2000 and done.stdout.endswith("\n")


def test_exit_codes_are_kept():
    assert _builder("check", "no-such-game").returncode == 2
    usage = _builder("calc")
    assert usage.returncode == 2 and "Usage:" in usage.stderr
    assert _builder("--version").returncode == 0
