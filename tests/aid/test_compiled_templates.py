"""The aid's templates are compiled once and kept (builder.aid.page._compiled_templates); a kept
file that is torn or cannot be written never changes or stops the page."""

from __future__ import annotations

import subprocess
import sys

PAGE = ("from builder.load import load_game, find_game; from builder.aid.page import render_aid;"
        "import hashlib; print(hashlib.sha256(render_aid(load_game(find_game('scheldt')))"
        ".encode()).hexdigest())")


def _page(env) -> str:
    done = subprocess.run([sys.executable, "-c", PAGE], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_kept_templates_give_the_same_page_and_torn_ones_are_compiled_again(tmp_path):
    import os

    env = dict(os.environ, BUILDER_CACHE_DIR=str(tmp_path))
    first = _page(env)  # compiles and keeps
    kept = list((tmp_path / "templates").iterdir())
    assert kept, "no compiled template was kept"
    assert _page(env) == first  # read back
    for f in kept:
        f.write_bytes(f.read_bytes()[:40])  # torn in the middle of its checksum
    assert _page(env) == first
    (tmp_path / "templates").rename(tmp_path / "elsewhere")
    (tmp_path / "templates").write_text("not a folder")  # cannot be made: compiled each time
    assert _page(env) == first
