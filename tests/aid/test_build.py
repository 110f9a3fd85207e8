"""Building the aid: one self-contained, deterministic file per game; the index of all games;
text from the sources escaped everywhere, in a real browser too."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html import unescape

from builder.aid.engine_data import engine_data
from builder.aid.page import render_aid
from builder.load import find_game, load_game
from tests.aid.conftest import ROOT

HOSTILE = ROOT / "tests" / "fixtures" / "aid-hostile"
MINI = ROOT / "tests" / "fixtures" / "mini"


def _scripts(html: str) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)


def test_cli_writes_one_self_contained_file(run_cli, tmp_path):
    res = run_cli("build", MINI, "--formats", "html", "--out", tmp_path)
    assert res.exit_code == 0, res.output
    page = tmp_path / "mini" / "mini-aid.html"
    assert f"wrote {page}" in res.output
    html = page.read_text(encoding="utf-8")
    markup = re.sub(r"<script>.*?</script>", "", html, flags=re.DOTALL)  # the page's own code
    # nothing loaded from anywhere: no src/href to another file, no stylesheet links or imports
    assert not re.search(r"<(?:link|img|iframe|object|embed)\b", markup)
    assert not re.search(r"<[a-z][^>]*\ssrc\s*=", markup)
    assert not re.search(r"@import|url\(", html)
    hrefs = re.findall(r'href="([^"]*)"', markup)
    assert hrefs and all(h.startswith("#") for h in hrefs), [h for h in hrefs if not h.startswith("#")]
    # the policy forbids the network, and allows exactly the page's own scripts
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    csp = unescape(csp)
    assert "default-src 'none'" in csp
    for body in _scripts(html):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp


def test_build_is_deterministic():
    game = load_game(find_game(str(MINI)))
    assert render_aid(game) == render_aid(load_game(find_game(str(MINI))))


def test_embedded_data_is_the_engine_data():
    game = load_game(find_game(str(MINI)))
    html = render_aid(game)
    raw = re.search(r'<script type="application/json" id="aid-data">(.*?)</script>', html, re.DOTALL).group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw
    assert json.loads(raw) == json.loads(json.dumps(engine_data(game)))


def test_index_for_all_games(run_cli, tmp_path, monkeypatch):
    import builder.cli

    games = [str(MINI), str(HOSTILE)]
    monkeypatch.setattr(builder.cli, "list_games", lambda: games)
    res = run_cli("build", "--all", "--formats", "json,html", "--out", tmp_path)
    assert res.exit_code == 0, res.output
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f"wrote {tmp_path / 'index.html'}" in res.output
    for slug in ("mini", "aid-hostile"):
        assert f'href="{slug}/{slug}-aid.html"' in index
        assert f'href="{slug}/{slug}.json"' in index
        assert (tmp_path / slug / f"{slug}-aid.html").is_file()
    assert "<script" not in index.replace("&lt;script", "")
    # a single game is not an --all build: no index
    res = run_cli("build", MINI, "--formats", "html", "--out", tmp_path / "one")
    assert not (tmp_path / "one" / "index.html").exists()


def test_unknown_format_is_refused(run_cli, tmp_path):
    from click.testing import CliRunner

    from builder.cli import main

    res = CliRunner().invoke(main, ["build", str(MINI), "--formats", "htm", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "html" in res.output


def test_hostile_text_stays_text(tmp_path, open_page):
    """Markup in every kind of source text shows as text and never runs."""
    from builder.outputs.html import build

    game = load_game(find_game(str(HOSTILE)))
    page_path = build(game, tmp_path)[0]
    html = page_path.read_text(encoding="utf-8")
    assert len(_scripts(html)) == 2  # the engine and the interface, nothing from the sources
    page, watch = open_page(page_path)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate("window.__pwned") is None
    assert "<script>window.__pwned=1</script>" in page.title()
    assert page.locator("text=<script>window.__pwned=7</script>").count() == 1
    assert page.locator("a[href^='javascript'], a[href^='http'], img").count() == 0
    assert page.locator("[onclick], [onerror], [onmouseover]").count() == 0
    # the table with a hostile name still calculates
    page.locator("#calc-weather [data-action=roll-resolve]").click()
    assert page.locator("#calc-weather .calc-out").get_attribute("data-state") == "done"
    assert page.evaluate("window.__pwned") is None
    assert not watch.requests  # the image in the rules was never fetched
