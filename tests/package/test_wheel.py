"""The package installs like one: an sdist is made from the checkout, a wheel from that sdist,
and the wheel is installed into a fresh virtual environment (no system site-packages, so neither
the checkout nor an editable install can stand in for a missing file). There, in a folder
outside the repository, `builder new`, `check`, `build` (every format, and the proof) and
`calc` run as a user runs them, and a copy of a sample builds its player aid (the page that
once needed templates/ from a checkout). Slow: the environment's libraries are installed from
pip's cache or the configured index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from repo_paths import ROOT

pytestmark = pytest.mark.slow

# What a build reads at run time besides the code: the wheel and the sdist must carry them.
RUNTIME_FILES = ["templates/aid/engine.js", "templates/aid/aid.js", "templates/aid/aid.css",
                 "templates/aid/page.html.j2", "templates/aid/index.html.j2",
                 "templates/new-game/game.toml", "templates/new-game/scenarios/first-battle.toml",
                 "schema/game.schema.json", "schema/tables.schema.json"]
FORMATS = ["json", "html", "svg", "pdf", "png", "vmod"]


def _run(args: list, cwd: Path, env: dict | None = None, timeout: int = 900):
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)
    return done


def _ok(done) -> str:
    assert done.returncode == 0, f"{done.args}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin/ folder of a fresh virtual environment with builder installed from its wheel."""
    where = tmp_path_factory.mktemp("package")
    dist = where / "dist"
    # the sdist, made from the checkout's files alone (setuptools' own backend)
    src = where / "src"
    src.mkdir()
    for name in ("builder", "templates"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    _ok(_run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
              "print(b.build_sdist(sys.argv[1]))", dist], cwd=src))
    (sdist,) = dist.glob("builder-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    missing = [f for f in RUNTIME_FILES if not any(n.endswith(f) for n in names)]
    assert not missing, f"the sdist lacks {missing}"
    # the wheel, built from the sdist (what pip does with an sdist from an index)
    _ok(_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, sdist],
             cwd=where))
    (wheel,) = dist.glob("builder-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    missing = [f for f in RUNTIME_FILES if f"builder/{f}" not in names]
    assert not missing, f"the wheel lacks {missing}"
    # a fresh environment: only the wheel and the libraries it names
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    # (no PYTHONPATH: a checkout on it would count as builder already installed)
    _ok(_run([env_dir / "bin" / "python", "-m", "pip", "install", "-q", wheel], cwd=where,
             env=_env(env_dir / "bin", where)))
    return env_dir / "bin"


def _env(bin_dir: Path, home: Path) -> dict:
    """The user's environment, without what would put a checkout on the path."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
               BUILDER_CACHE_DIR=str(home / "cache"))
    return env


def test_the_installed_wheel_makes_a_new_game_in_every_format(installed, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = _env(installed, tmp_path)
    builder = installed / "builder"
    # the package imported is the installed one, not the checkout's
    where = _ok(_run([installed / "python", "-c", "import builder; print(builder.__file__)"],
                     cwd=work, env=env))
    assert "site-packages" in where and str(ROOT) not in where, where
    out = _ok(_run([builder, "new", "river-crossing"], cwd=work, env=env))
    assert "wrote sources/river-crossing/game.toml" in out, out
    game = work / "sources" / "river-crossing"
    schema_line = (game / "game.toml").read_text(encoding="utf-8").splitlines()[0]
    schema = (game / schema_line.removeprefix("#:schema ")).resolve()
    assert schema.is_file() and "site-packages" in str(schema), schema_line
    check = _ok(_run([builder, "check", "river-crossing", "--strict"], cwd=work, env=env))
    assert check.rstrip().endswith("ok"), check
    _ok(_run([builder, "build", "river-crossing", "--formats", ",".join(FORMATS), "--proof"],
             cwd=work, env=env))
    out_dir = work / "output" / "river-crossing"
    html = (out_dir / "river-crossing-aid.html").read_text(encoding="utf-8")
    assert "<script" in html and "River Crossing" in html
    assert (out_dir / "river-crossing.json").stat().st_size > 1000
    with zipfile.ZipFile(out_dir / "river-crossing.vmod") as z:
        assert "buildFile.xml" in z.namelist()
    for kind in ("map", "counters", "aids"):
        assert (out_dir / "print" / f"river-crossing-{kind}.pdf").read_bytes().startswith(b"%PDF")
    assert list((out_dir / "print").glob("*.svg")) and list((out_dir / "print").glob("*.png"))
    assert (out_dir / "river-crossing-proof.pdf").read_bytes().startswith(b"%PDF")
    calc = _ok(_run([builder, "calc", "river-crossing", "crt", "attack=6", "defense=4", "--roll",
                     "3"], cwd=work, env=env))
    assert "RESULT:" in calc, calc


def test_the_installed_wheel_builds_a_copied_sample_aid(installed, tmp_path):
    """The case issue 43 found: a copy of sources/ outside the repository, `--formats html`."""
    work = tmp_path / "copy"
    shutil.copytree(ROOT / "sources" / "scheldt", work / "sources" / "scheldt")
    _ok(_run([installed / "builder", "build", "scheldt", "--formats", "html"], cwd=work,
             env=_env(installed, tmp_path)))
    html = (work / "output" / "scheldt" / "scheldt-aid.html").read_text(encoding="utf-8")
    assert "Scheldt" in html and "<script" in html
