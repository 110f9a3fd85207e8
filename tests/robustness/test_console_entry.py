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


BROKEN = """
import sys
import builder.outputs
from builder.cli import run

def build(*args, **kwargs):
    raise {error}

builder.outputs.BUILDERS["json"] = build
sys.argv = ["builder", "build", {game!r}, "--formats", "json", "--out", {out!r}, "--no-cache"]
run()
"""


def test_an_unexpected_error_is_one_line_with_a_hint(tmp_path):
    from repo_paths import MINI

    for error, hint in (("KeyError('side')", "not in your sources"),
                        ("OSError(28, 'No space left on device')", "the disk has room")):
        code = BROKEN.format(error=error, game=str(MINI), out=str(tmp_path / "out"))
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: unexpected "), done.stderr
        assert hint in lines[0], lines[0]
