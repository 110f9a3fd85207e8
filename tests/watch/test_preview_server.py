"""The preview server of `builder watch` on its own: a page that drops its connection (closed or
reloaded while it was being answered) is not reported as a server error. http.server printed a
traceback for it, which landed among the watcher's messages as Ctrl+C stopped it."""

from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path

from builder.watch import PreviewState, make_server


def test_a_page_that_drops_its_connection_is_not_an_error(capsys):
    server = make_server(PreviewState(), lambda: Path("."), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for _ in range(3):
            s = socket.create_connection(server.server_address)
            # closed with a reset halfway through its request, as a closing tab may
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.sendall(b"GET /state HTTP/1.1\r\nHost: x\r\n")
            time.sleep(0.1)
            s.close()
        time.sleep(0.5)
        with socket.create_connection(server.server_address) as s:  # and it still answers
            s.sendall(b"GET /state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
    finally:
        server.shutdown()
        server.server_close()
    assert answer.startswith(b"HTTP/1.0 200")
    assert capsys.readouterr().err == ""
