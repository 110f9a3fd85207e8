"""Whole builds: the cache and the worker pool change how fast, never what is written."""

from __future__ import annotations

import shutil

import pytest

from builder.cli import FORMATS

DRAWN = [f for f in ("svg", "pdf", "png", "vmod") if f in FORMATS]


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.parts}


@pytest.mark.skipif(not DRAWN, reason="no drawn format is registered")
def test_cached_parallel_build_is_byte_identical_to_a_plain_one(mini, tmp_path, run_cli):
    fmts = ",".join(DRAWN)
    plain = run_cli("build", mini, "--formats", fmts, "--out", tmp_path / "plain",
                    "--no-cache", "--jobs", "1")
    assert plain.exit_code == 0, plain.output
    fast = run_cli("build", mini, "--formats", fmts, "--out", tmp_path / "fast", "--jobs", "2")
    assert fast.exit_code == 0, fast.output
    expected = _files(tmp_path / "plain")
    assert expected and _files(tmp_path / "fast") == expected
    assert any(name.endswith(".pdf") for name in expected)

    # drawn again from the cache alone (outputs deleted): still the same bytes
    shutil.rmtree(tmp_path / "fast" / "mini")
    again = run_cli("build", mini, "--formats", fmts, "--out", tmp_path / "fast", "--jobs", "2")
    assert again.exit_code == 0, again.output
    assert _files(tmp_path / "fast") == expected
