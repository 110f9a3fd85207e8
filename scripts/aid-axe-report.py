#!/usr/bin/env python3
"""Print axe-core's findings on every built player aid page and the index, at 390 and 1280 px,
in both themes, as loaded and after a roll-and-resolve of the first calculator.

    python3 scripts/aid-axe-report.py output/        # a folder that `builder build --all
                                                     # --formats html` wrote
Columns: WCAG 2.2 A/AA rules broken (nodes), other axe rules (best practice) broken (nodes).
Needs tests/aid/axe installed (`npm ci --prefix tests/aid/axe`) and Debian's chromium.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tests.aid.axe_run import run_axe, set_theme, wcag  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def line(name: str, width: int, theme: str, state: str, found: list[dict]) -> str:
    w = wcag(found)
    other = [v for v in found if v not in w]
    nodes = lambda vs: sum(len(v["nodes"]) for v in vs)  # noqa: E731
    ids = ", ".join(f"{v['id']}×{len(v['nodes'])}" for v in found)
    return (f"{name:22} {width:5} {theme:5} {state:6} {len(w):3} ({nodes(w):3}) "
            f"{len(other):3} ({nodes(other):3})  {ids}")


def main(folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    pages = sorted(folder.glob("*/*-aid.html")) + [folder / "index.html"]
    print(f"{'page':22} {'width':>5} theme state  wcag(nodes) other(nodes)  rules")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for path in pages:
            name = path.parent.name if path.name != "index.html" else "index"
            for width in (390, 1280):
                for theme in ("dark", "light"):
                    ctx = browser.new_context(viewport={"width": width, "height": 900})
                    page = ctx.new_page()
                    page.goto(path.resolve().as_uri())
                    set_theme(page, theme)
                    print(line(name, width, theme, "load", run_axe(page)), flush=True)
                    rr = page.locator("[data-action=roll-resolve]")
                    if rr.count():
                        rr.first.click()
                        page.wait_for_timeout(600)
                        print(line(name, width, theme, "rolled", run_axe(page)), flush=True)
                    ctx.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "output"))
