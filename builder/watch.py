"""`builder watch GAME`: rebuild on every save and show the result in a local preview page.

The page (served from 127.0.0.1 only, by the standard library's http.server) polls a small
state document twice a second and swaps in the new drawings when a rebuild finishes; a save
with problems shows them and keeps the last good pictures. Files are watched with watchfiles
(inotify on Linux, so a save is seen in milliseconds, not at the next poll of the disk); the
build cache (builder.cache) means a rebuild draws again only the components the change touches.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PREVIEW_FORMAT = "svg"  # drawn fastest; the browser shows it at any zoom


class PreviewState:
    """What the page shows: the drawings of the last good build, and the latest problems."""

    def __init__(self):
        self.lock = threading.Lock()
        self.version = 0
        self.files: list[str] = []  # names under OUT/<slug>/print/
        self.problems: list[str] = []
        self.warnings: list[str] = []
        self.seconds = 0.0
        self.title = ""

    def snapshot(self) -> dict:
        with self.lock:
            return {"version": self.version, "files": list(self.files), "problems": list(self.problems),
                    "warnings": list(self.warnings), "seconds": round(self.seconds, 2),
                    "title": self.title}

    def update(self, **changes) -> None:
        with self.lock:
            for key, value in changes.items():
                setattr(self, key, value)
            self.version += 1


def rebuild(folder: Path, out_root: Path, store, state: PreviewState, formats=(PREVIEW_FORMAT,)) -> None:
    """Check and build the game; on problems keep the last good drawings and show the problems."""
    from builder.errors import SourceError
    from builder.load.game import inspect_game
    from builder.outputs import build_game

    started = time.perf_counter()
    try:
        game, found = inspect_game(folder)
        if game is None:
            state.update(problems=[str(p) for p in found.problems] + (
                [f"{found.dropped:,} more problems not listed"] if found.dropped else []),
                warnings=[str(p) for p in found.warnings], seconds=time.perf_counter() - started)
            return
        paths = build_game(game, formats, out_root, cache=store)
    except SourceError as exc:
        state.update(problems=[str(p) for p in exc.problems], seconds=time.perf_counter() - started)
        return
    except Exception as exc:  # noqa: BLE001 - the watcher outlives any one bad save
        state.update(problems=[f"the build failed: {type(exc).__name__}: {exc}"],
                     seconds=time.perf_counter() - started)
        return
    print_dir = out_root / game.slug / "print"
    files = sorted(p.name for p in paths if p.parent == print_dir and p.suffix == ".svg")
    state.update(files=files, problems=[], warnings=[str(p) for p in found.warnings],
                 seconds=time.perf_counter() - started, title=game.info.title)


class _PreviewServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A page closed or reloaded while it was being answered drops its connection: that is
        the browser's doing, not a server error (http.server printed its traceback, which
        could land in the middle of the watcher's own messages)."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(state: PreviewState, print_dir_of, port: int) -> ThreadingHTTPServer:
    """The preview server on 127.0.0.1 (this machine only); port 0 picks a free one."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the name http.server calls
            path = self.path.split("?", 1)[0]
            if path == "/":
                self._send(200, "text/html; charset=utf-8", PAGE.encode("utf-8"))
            elif path == "/state":
                self._send(200, "application/json", json.dumps(state.snapshot()).encode("utf-8"))
            elif path.startswith("/files/") and path[7:] in state.snapshot()["files"]:
                try:  # only the names of the last build, so no other file can be asked for
                    data = (print_dir_of() / path[7:]).read_bytes()
                except OSError:
                    self._send(404, "text/plain", b"not built yet")
                    return
                self._send(200, "image/svg+xml", data)
            else:
                self._send(404, "text/plain", b"not found")

        def _send(self, code: int, kind: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # one line per poll would bury the build messages
            pass

    return _PreviewServer(("127.0.0.1", port), Handler)


def watch(folder: Path, out_root: Path, port: int, echo, formats=(PREVIEW_FORMAT,),
          ready=None) -> None:
    """Serve the preview and rebuild on every change under the game folder until Ctrl+C."""
    import watchfiles

    from builder.cache import Cache

    store = Cache(out_root / ".cache")
    state = PreviewState()
    slug = folder.resolve().name
    server = make_server(state, lambda: out_root / slug / "print", port)
    thread = threading.Thread(target=server.serve_forever, name="preview", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        rebuild(folder, out_root, store, state, formats)
        _report(state, echo)
        echo(f"preview: {url}  (rebuilds on every save; Ctrl+C stops)")
        if ready:
            ready(url)
        for changes in watchfiles.watch(folder, debounce=50, step=20, raise_interrupt=True):
            names = sorted({Path(p).name for _, p in changes})
            echo(f"changed: {', '.join(names)}")
            rebuild(folder, out_root, store, state, formats)
            _report(state, echo)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
        echo("stopped")


def _report(state: PreviewState, echo) -> None:
    s = state.snapshot()
    if s["problems"]:
        echo(f"{len(s['problems'])} problem(s), the preview keeps the last good build:")
        for p in s["problems"]:
            echo(f"  {p}")
    else:
        echo(f"built {len(s['files'])} drawings in {s['seconds']:.2f} s"
             + (f", {len(s['warnings'])} warning(s)" if s["warnings"] else ""))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>builder watch</title>
<style>
body{font:15px system-ui,sans-serif;margin:0;background:#f4efe1;color:#1d1b18}
header{position:sticky;top:0;background:#4a4237;color:#fff;padding:.5em 1em;display:flex;gap:1em}
#status{margin-left:auto;opacity:.85}
section{padding:.5em 1em}
h2{font-size:1.05em;margin:.8em 0 .3em}
.problems{background:#fbe3e1;border-left:6px solid #b3261e;padding:.5em 1em;margin:.5em 1em}
.warnings{background:#fff4d6;border-left:6px solid #b78a00;padding:.5em 1em;margin:.5em 1em}
.problems li,.warnings li{font-family:monospace;white-space:pre-wrap;margin:.2em 0}
img{max-width:100%;background:#fff;box-shadow:0 1px 4px #0003;margin:.3em .3em .3em 0}
.group{display:flex;flex-wrap:wrap;align-items:flex-start}
.group img{max-width:48%}
</style></head>
<body><header><strong id="title">builder watch</strong><span id="status">waiting for the first build</span></header>
<div id="problems"></div><div id="warnings"></div>
<section><h2>Map</h2><div class="group" id="map"></div></section>
<section><h2>Counter sheets</h2><div class="group" id="counters"></div></section>
<section><h2>Aid cards</h2><div class="group" id="aids"></div></section>
<script>
"use strict";
let shown = -1;
function list(id, cls, head, items) {
  const box = document.getElementById(id);
  box.textContent = "";
  if (!items.length) { box.className = ""; return; }
  box.className = cls;
  const h = document.createElement("strong"); h.textContent = head; box.appendChild(h);
  const ul = document.createElement("ul");
  for (const text of items) { const li = document.createElement("li"); li.textContent = text; ul.appendChild(li); }
  box.appendChild(ul);
}
function pictures(id, files, version) {
  const box = document.getElementById(id);
  box.textContent = "";
  for (const f of files) {
    const img = document.createElement("img");
    img.src = "/files/" + encodeURIComponent(f) + "?v=" + version;
    img.alt = f; img.dataset.file = f;
    box.appendChild(img);
  }
}
async function poll() {
  try {
    const s = await (await fetch("/state", {cache: "no-store"})).json();
    if (s.version !== shown) {
      shown = s.version;
      document.body.dataset.version = s.version;
      if (s.title) document.getElementById("title").textContent = s.title;
      list("problems", "problems", s.problems.length + " problem(s): the pictures are from the last good build", s.problems);
      list("warnings", "warnings", s.warnings.length + " warning(s)", s.warnings);
      if (!s.problems.length) {
        const by = (part) => s.files.filter((f) => f.includes("-" + part));
        pictures("map", by("map"), s.version);
        pictures("counters", by("counters-").concat(by("calibration")), s.version);
        pictures("aids", by("aids-"), s.version);
      }
      document.getElementById("status").textContent =
        (s.problems.length ? "problems" : "built") + " in " + s.seconds + " s, " + new Date().toLocaleTimeString();
    }
  } catch (e) {
    document.getElementById("status").textContent = "builder watch has stopped";
  }
  setTimeout(poll, 300);
}
poll();
</script></body></html>
"""
