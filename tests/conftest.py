"""Shared test helpers: the repo root, the fixture game, and running the CLI in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings
from repo_paths import MINI, ROOT  # noqa: F401  (ROOT re-exported for fixtures below)
from shared_builds import build_once, run_folder

# Hypothesis's default deadline (200 ms per example) is a timing check, not a property: with the
# workers sharing two cores an example of test_vmod_encoding took 395 ms and failed a run. Speed
# is measured in benchmarks/; a test that sets its own deadline keeps it.
settings.register_profile("builder", deadline=None)
settings.load_profile("builder")

# What runs first: scripts/test.sh sends each module whole to one pytest-xdist worker, in the
# order collected; the long modules (the engine's, then the browser's and the full-sample
# builds) go first, and the many short ones fill the workers in behind them.
RUN_FIRST = ("engine", "browser", "slow")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadgroup, as scripts/test.sh runs it: each module whole to one worker (its module
    and session fixtures made once), and modules marked with one xdist_group("name") together,
    on one worker (for modules that share an expensive session fixture)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModulesAndGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.rfind("@") > nodeid.rfind("]"):  # a test of a group: "...::test@name"
                return "group " + nodeid.rsplit("@", 1)[1]
            return super()._split_scope(nodeid)

    return ModulesAndGroups(config, log)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    """Mark `browser` every test that asks for the browser and `slow` every test that asks for
    sample_outputs (directly or through a fixture), then order the modules: engine, browser,
    slow, the rest (each module's tests keep their order, but the engine tests that open a
    game's module go together by game: vassal_game)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if "sample_outputs" in names:
            item.add_marker(pytest.mark.slow)

    def rank(item) -> int:
        return next((i for i, m in enumerate(RUN_FIRST) if item.get_closest_marker(m)),
                    len(RUN_FIRST))

    module_rank: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        module_rank[module] = min(module_rank.get(module, len(RUN_FIRST)), rank(item))
    items.sort(key=lambda item: (module_rank[item.nodeid.split("::")[0]], vassal_game(item),
                                 "engine_runs" not in getattr(item, "fixturenames", ())))


def vassal_game(item) -> str:
    """The game whose module an engine test opens ('' for the other tests): its
    vassal_game("name") mark, or its `name` parameter. The engine tests of one game run one
    after another (across their modules, which one xdist group keeps on one worker), so the
    game's long-lived engine (tests/vassal_combat/engine.py) opens its module once; the module
    checks (engine_runs) first, as they read the engine as a player who just opened the module
    finds it (after a game is closed the turn button's tooltip still names the last turn)."""
    if not item.get_closest_marker("engine"):
        return ""
    mark = item.get_closest_marker("vassal_game")
    if mark:
        return mark.args[0]
    spec = getattr(item, "callspec", None)
    name = spec.params.get("name") if spec else None
    return Path(str(name)).name if isinstance(name, str) else ""


@pytest.fixture(autouse=True, scope="session")
def _model_cache(tmp_path_factory):
    """Validated models are kept in a folder of the test run, not the user's ~/.cache; the
    xdist workers share it (each sample validated once per run, not once per worker)."""
    import os

    os.environ["BUILDER_CACHE_DIR"] = str(run_folder(tmp_path_factory, "model-cache"))


@pytest.fixture(scope="session")
def sample_outputs(tmp_path_factory) -> Path:
    """Every sample game under sources/ built once per test run in every format, with the
    designer's proof and the index (the README's `builder build --all`, with --proof), in a
    fresh process: the output folder (index.html, one sub-folder per game), shared read-only by
    the xdist workers (tests/shared_builds.py). A test that edits outputs copies them first."""

    def make(out: Path) -> None:
        import subprocess
        import sys

        done = subprocess.run([sys.executable, "-m", "builder", "build", "--all", "--proof",
                               "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    return build_once(tmp_path_factory, "samples", make)


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A fresh copy of the tiny fixture game that a test may break."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


@pytest.fixture
def run_cli():
    """Run `builder ARGS` in-process; returns the click Result (exit_code, output, stderr)."""
    from builder.cli import main

    def run(*args: str):
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    return run


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium under Playwright, one for the whole session (two sync APIs cannot nest)."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: apt-get install chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
