"""Builds killed at any moment, or run two at once into one folder, leave every output either
the previous or the new complete file; a rebuild then gives exactly the new outputs. Two builds
of the same sources, from different folders, are byte for byte the same."""

from __future__ import annotations

import os
import shutil
import signal
import time
import zipfile
from pathlib import Path

import pytest
from robustness.robust_runner import FIXTURES, files, is_temporary, run_builder, start_builder

EPOCH = "1700000000"  # 2023-11-14T22:13:20Z
ENV = {"SOURCE_DATE_EPOCH": EPOCH}
KILL_POINTS = (0.1, 0.25, 0.4, 0.55, 0.7, 0.9)  # fractions of a full build's time


def make_versions(where: Path) -> tuple[Path, Path]:
    """Version A (the fixture) and version B (every output changes: title, a factor, rules)."""
    a = where / "A" / "mini"
    b = where / "B" / "mini"
    shutil.copytree(FIXTURES["mini"], a)
    shutil.copytree(FIXTURES["mini"], b)
    for name, old, new in (("game.toml", 'title = "Mini Game"', 'title = "Mini Game, second edition"'),
                           ("counters.csv", "5-4-6,2-2-6", "6-4-6,3-2-6"),
                           ("rules.md", "Each hex is 1 km.", "Each hex is 2 km.")):
        path = b / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return a, b


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """Both versions and a complete reference build of each: (A, B, outputs A, outputs B, secs)."""
    where = tmp_path_factory.mktemp("atomic")
    a, b = make_versions(where)
    refs = {}
    for name, game in (("A", a), ("B", b)):
        start = time.monotonic()
        run = run_builder("build", game, "--out", where / f"ref{name}", cwd=where, env=ENV)
        assert run.returncode == 0, run.stderr[-2000:]
        refs[name] = (where / f"ref{name}", time.monotonic() - start)
    return a, b, refs["A"][0], refs["B"][0], refs["B"][1]


def check_each_file_old_or_new(out: Path, ref_a: Path, ref_b: Path) -> list[str]:
    """Fail on any output that is neither complete version; return the temporary files left."""
    old, new, now = files(ref_a), files(ref_b), files(out)
    missing = [k for k in old if k not in now]
    assert not missing, f"previous outputs gone: {missing}"
    litter = []
    for rel, data in now.items():
        if rel in old and data == old[rel] or rel in new and data == new[rel]:
            continue
        assert is_temporary(rel), f"{rel} is neither the old nor the new complete file"
        litter.append(rel)
    return litter


@pytest.mark.slow  # six builds killed part-way, each rebuilt
def test_killed_builds_leave_old_or_new_files(versions, tmp_path):
    _, b, ref_a, ref_b, seconds = versions
    litter_total = 0
    for i, fraction in enumerate(KILL_POINTS):
        out = tmp_path / f"out{i}"
        shutil.copytree(ref_a, out)  # what a reader last built, cache and all
        proc = start_builder("build", b, "--out", out, cwd=tmp_path, env=ENV)
        time.sleep(seconds * fraction)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        litter_total += len(check_each_file_old_or_new(out, ref_a, ref_b))
        if i in (1, len(KILL_POINTS) - 1):  # the killed build's cache must not spoil the next
            run = run_builder("build", b, "--out", out, cwd=tmp_path, env=ENV)
            assert run.returncode == 0, run.stderr[-2000:]
            now = {k: v for k, v in files(out).items() if not is_temporary(k)}
            assert now == files(ref_b), sorted(k for k in now if now[k] != files(ref_b).get(k))
    print(f"{len(KILL_POINTS)} builds killed; {litter_total} hidden temporary files left")


def test_two_builds_at_once_into_one_folder(versions, tmp_path):
    a, b, ref_a, ref_b, _ = versions
    out = tmp_path / "out"
    shutil.copytree(ref_a, out)
    same = [start_builder("build", b, "--out", out, cwd=tmp_path, env=ENV) for _ in range(2)]
    for proc in same:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()[-2000:]
    assert {k: v for k, v in files(out).items() if not is_temporary(k)} == files(ref_b)
    # two different versions at once: every file is one of them, whole
    mixed = [start_builder("build", g, "--out", out, cwd=tmp_path, env=ENV) for g in (a, b)]
    for proc in mixed:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()[-2000:]
    assert check_each_file_old_or_new(out, ref_a, ref_b) == []


def test_same_sources_give_the_same_bytes(versions, tmp_path):
    _, b, _, ref_b, _ = versions
    elsewhere = tmp_path / "some" / "other" / "place" / "mini"
    shutil.copytree(b, elsewhere)
    run = run_builder("build", elsewhere, "--out", tmp_path / "again", "--no-cache", cwd=tmp_path,
                      env=ENV)
    assert run.returncode == 0, run.stderr[-2000:]
    again, ref = files(tmp_path / "again"), files(ref_b)
    assert set(again) == set(ref)
    kinds = {Path(k).suffix for k in ref}
    assert {".pdf", ".png", ".svg", ".vmod", ".html", ".json"} <= kinds
    assert [k for k in ref if again[k] != ref[k]] == []


def test_pdfs_carry_source_date_epoch(versions):
    pikepdf = pytest.importorskip("pikepdf")
    _, _, _, ref_b, _ = versions
    pdfs = sorted(ref_b.rglob("*.pdf"))
    assert pdfs
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            assert str(pdf.docinfo["/CreationDate"]).startswith("20231114221320"), path.name


def test_module_archive_carries_source_date_epoch(versions):
    _, _, _, ref_b, _ = versions
    with zipfile.ZipFile(next(ref_b.rglob("*.vmod"))) as z:
        assert {i.date_time for i in z.infolist()} == {(2023, 11, 14, 22, 13, 20)}
