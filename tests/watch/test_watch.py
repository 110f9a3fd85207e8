"""`builder watch` in a real browser (issue 15): edit a counter's factor in a sample and see the
new counter on the preview page within 2 s; a broken save shows its problem and keeps the last
good pictures; Ctrl+C stops the watcher cleanly."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
from repo_paths import ROOT

COUNTERS = 'img[data-file$="-counters-1-front.svg"]'


@pytest.fixture
def watcher(tmp_path):
    """`builder watch` on a copy of Scheldt, in its own process; yields (game folder, url, lines)."""
    game = tmp_path / "scheldt"
    shutil.copytree(ROOT / "sources" / "scheldt", game)
    env = dict(os.environ, PYTHONPATH=str(ROOT), BUILDER_PROGRESS="off")
    proc = subprocess.Popen([sys.executable, "-u", "-m", "builder", "watch", str(game), "--out",
                             str(tmp_path / "out"), "--port", "0"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=_ctrl_c_as_in_a_terminal)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    url, seen, deadline = None, [], time.monotonic() + 120
    while url is None and time.monotonic() < deadline and proc.poll() is None:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if line.startswith("preview: "):
            url = line.split()[1]
    assert url and url.startswith("http://127.0.0.1:"), "".join(seen)
    yield game, url, proc, lines
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _ctrl_c_as_in_a_terminal() -> None:
    """The watcher started as a shell starts a command: a suite run in the background (nohup,
    '&' in a script) ignores Ctrl+C, the watcher would inherit that and never stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _served(page, selector: str) -> str:
    """The SVG text of the picture the page shows."""
    return page.evaluate(f"fetch(document.querySelector('{selector}').src).then(r => r.text())")


def _shown(page, selector: str, after: int) -> str:
    return (f"() => Number(document.body.dataset.version) > {after} && "
            f"document.querySelector('{selector}') && document.querySelector('{selector}').complete "
            f"&& document.querySelector('{selector}').naturalWidth > 0")


def test_edited_counter_appears(watcher, browser):
    """A save shows on the page (how fast: benchmarks/run.py, workload w)."""
    game, url, proc, lines = watcher
    page = browser.new_page()
    try:
        page.goto(url)
        page.wait_for_function(_shown(page, COUNTERS, 0), timeout=30_000)
        assert ">17</text>" not in _served(page, COUNTERS)
        before = int(page.evaluate("document.body.dataset.version"))

        counters = game / "counters.csv"
        text = counters.read_text(encoding="utf-8")
        assert "de-1020,german,70-inf,1020,infantry,regiment,3-4-5," in text
        counters.write_text(text.replace("regiment,3-4-5,", "regiment,17-4-5,", 1), encoding="utf-8")
        page.wait_for_function(_shown(page, COUNTERS, before), timeout=10_000)
        assert ">17</text>" in _served(page, COUNTERS)

        # a broken save: its problem is shown, the last good pictures stay
        version = int(page.evaluate("document.body.dataset.version"))
        (game / "game.toml").write_text((game / "game.toml").read_text() + "\nbroken =\n")
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}",
                               timeout=10_000)
        problems = page.inner_text("#problems")
        assert "game.toml: line" in problems and "TOML syntax error" in problems
        assert ">17</text>" in _served(page, COUNTERS)
        assert page.locator("#map img").count() == 1

        # fixed again: the problems go
        version = int(page.evaluate("document.body.dataset.version"))
        (game / "game.toml").write_text((game / "game.toml").read_text().replace("\nbroken =\n", ""))
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}",
                               timeout=10_000)
        assert page.inner_text("#problems") == ""
    finally:
        page.close()

    proc.send_signal(signal.SIGINT)  # Ctrl+C
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # say what the watcher was doing, then end it
        proc.kill()
        proc.wait()
        pytest.fail("the watcher did not stop within 10 s of Ctrl+C; its last words:\n"
                    + "".join(_drained(lines)[-40:]))
    rest = _drained(lines)
    assert code == 0, "".join(rest)
    assert "stopped\n" in rest and not any("Traceback" in x for x in rest), "".join(rest)


def _drained(lines: queue.Queue) -> list[str]:
    time.sleep(0.2)  # the reader thread passes on the last lines
    out = []
    while not lines.empty():
        out.append(lines.get())
    return out


def test_preview_is_served_to_this_machine_only(watcher):
    import socket

    _, url, proc, _ = watcher
    port = int(url.rsplit(":", 1)[1].strip("/"))
    addresses = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    for address in addresses - {"127.0.0.1"}:
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=2).close()
