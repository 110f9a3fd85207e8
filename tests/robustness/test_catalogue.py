"""Every broken or hostile source in the catalogue: a clear message, exit 2, output/ untouched.

Each case runs `builder build` in its own process (under CPU and memory limits) with --out set
to a folder holding a previous complete build, then compares that folder byte for byte.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from robustness.broken_inputs import CASES, prepare
from robustness.robust_runner import FIXTURES, changes, run_builder, snapshot

_INSTRUCTION = re.compile(r"[:;] (write|use|give|add|remove|narrow|correct|rename|save|put|delete|"
                          r"split|set|move|flatten|check|swap)\b")
# Seconds of CPU per case: start-up (~0.3 s) + load + the message. A guard against runaway work
# (a quadratic check, a retry loop), not a speed target: the largest case, 17,000 regions, takes
# 3.3-3.7 s on this 2-core machine with the main branch of 2026-11-26 and with its parent alike
# (TOML parsing of 2 MB is 2 s of it); speed lives in benchmarks/run.py.
CPU_BUDGET = 8.0
pytestmark = pytest.mark.slow  # 127 broken games, each through a builder process


@pytest.fixture(scope="session")
def previous_build(tmp_path_factory) -> Path:
    """A complete build of the fixture game, every format, as a reader last saw it."""
    where = tmp_path_factory.mktemp("previous")
    shutil.copytree(FIXTURES["mini"], where / "mini")
    run = run_builder("build", where / "mini", "--out", where / "out", cwd=where)
    if run.returncode != 0:  # an output still being written elsewhere: the JSON build will do
        run = run_builder("build", where / "mini", "--formats", "json", "--out", where / "out",
                          cwd=where)
    assert run.returncode == 0, run.stderr
    (where / "out" / "notes.txt").write_text("a file of the reader's own\n", encoding="utf-8")
    return where / "out"


def test_catalogue_is_large_and_named_uniquely():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=c.defect))
                                  if c.defect else c for c in CASES], ids=[c.name for c in CASES])
def test_broken_input(case, tmp_path, previous_build):
    target = prepare(case, FIXTURES, tmp_path)
    out = tmp_path / "out"
    shutil.copytree(previous_build, out, symlinks=True)
    before = snapshot(out)

    run = run_builder("build", target, "--out", out, cwd=tmp_path)

    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.returncode == 2, f"exit {run.returncode}\n{run.stderr[-3000:]}"
    lines = [ln for ln in run.stderr.splitlines() if case.file in ln and case.place in ln]
    good = [ln for ln in lines if all(w in ln for w in case.words)]
    assert good, f"expected {case.file} / {case.place!r} / {case.words} in:\n{run.stderr[:3000]}"
    if case.fixable:  # a fix in brackets, or an instruction in the message itself
        assert all("(fix: " in ln or _INSTRUCTION.search(ln) for ln in good), good
    assert len(run.stderr) < 60_000, "the message is a flood"
    assert "wrote " not in run.stdout
    assert changes(before, snapshot(out)) == []
    assert run.cpu < CPU_BUDGET, f"{run.cpu:.2f} s of CPU"
    assert run.max_rss_mb < 400, f"{run.max_rss_mb:.0f} MB"
