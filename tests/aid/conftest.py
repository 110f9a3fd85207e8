"""The player aid in a real browser: Debian's Chromium, headless, pages loaded from file://.

Every page opened here routes all requests: anything but the page's own file fails the test,
and so does any console error or uncaught exception.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.load import find_game, list_games, load_game

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ["tests/fixtures/mini", "tests/fixtures/tables-hex", "tests/fixtures/tables-area",
            "tests/fixtures/hold-the-line",
            "tests/fixtures/eastern-front", "tests/fixtures/hill-112"]
SAMPLES = list_games()
GAMES = SAMPLES + [f for f in FIXTURES if (ROOT / f).is_dir()]


def game_id(name: str) -> str:
    return Path(name).name


@pytest.fixture(scope="session")
def games() -> dict:
    """Every sample and table fixture, loaded once, as the page shows it (builder.views)."""
    from builder.views import player_view

    return {name: player_view(load_game(find_game(str(ROOT / name) if "/" in name else name)))
            for name in GAMES}


@pytest.fixture(scope="session")
def pages(tmp_path_factory, games) -> dict:
    """Each game's aid page, built once per test run with the index of all games beside them,
    and shared read-only by the xdist workers (tests/shared_builds.py): name -> Path."""
    from shared_builds import build_once

    from builder.outputs.html import build, build_index

    def make(out: Path) -> None:
        for g in games.values():
            build(g, out / g.slug)
        build_index([str(ROOT / n) if "/" in n else n for n in games], out)

    out = build_once(tmp_path_factory, "aid-pages", make)
    return {name: out / g.slug / f"{g.slug}-aid.html" for name, g in games.items()}


class Watch:
    """What a page did that it must not: requests off the file, console errors, exceptions."""

    def __init__(self, url: str):
        self.url = url
        self.requests: list[str] = []
        self.errors: list[str] = []

    def check(self) -> None:
        assert not self.requests, f"network requests from an offline page: {self.requests}"
        assert not self.errors, f"console errors: {self.errors}"


@pytest.fixture
def open_page(browser):
    """open_page(path, width=..., height=..., clock=False) -> (page, watch); checked when the
    test ends. With clock=True the page's time stands still once it has loaded: its timers
    (the live region's pause after typing) run when the test moves it on, page.clock.run_for(ms),
    so a test waits for no real time."""
    opened = []

    def _open(path: Path, width: int = 1280, height: int = 900, context_args: dict | None = None,
              clock: bool = False):
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  **(context_args or {}))
        page = ctx.new_page()
        page.set_default_timeout(8000)
        url = path.resolve().as_uri()
        watch = Watch(url)

        def route(r):
            if r.request.url.split("#")[0] == url:
                r.continue_()
            else:
                watch.requests.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("request", lambda r: watch.requests.append(r.url)
                if r.url.split("#")[0] != url else None)
        page.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: watch.errors.append(f"uncaught: {e}"))
        if clock:
            page.clock.install()
        page.goto(url)
        if clock:
            page.clock.pause_at(page.evaluate("Date.now()") + 1000)
        opened.append((ctx, watch))
        return page, watch

    yield _open
    for ctx, watch in opened:
        ctx.close()
    for _, watch in opened:
        watch.check()


@pytest.fixture(scope="session")
def typed(games) -> dict:
    """Per game: a rolled case of every calculator, and an error case of each that has one."""
    from tests.aid.forms import pick

    out = {}
    for name, game in games.items():
        todo = pick(game)
        out[name] = {
            "rolled": [c for c in todo if "error" not in c[3] and c[2] is not None]
            or [c for c in todo if "error" not in c[3]],
            "error": [c for c in todo if "error" in c[3]],
        }
    return out


@pytest.fixture(scope="session")
def index_page(pages):
    """The index of all games, written beside their aid pages (by `pages`)."""
    return next(iter(pages.values())).parents[1] / "index.html"
