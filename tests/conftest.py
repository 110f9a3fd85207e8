"""Shared test helpers: the repo root, the fixture game, and running the CLI in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from repo_paths import MINI, ROOT  # noqa: F401  (ROOT re-exported for fixtures below)


@pytest.fixture(autouse=True, scope="session")
def _model_cache(tmp_path_factory):
    """Validated models are kept in a folder of the test session, not the user's ~/.cache."""
    import os

    os.environ["BUILDER_CACHE_DIR"] = str(tmp_path_factory.mktemp("model-cache"))


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
