"""The module's zip writer (vassal/archive.py) writes what zipfile writes, byte for byte."""

from __future__ import annotations

import io
import zipfile

from builder.load import load_game
from builder.vassal import archive


def test_zip_bytes_equal_zipfiles_for_odd_entries():
    entries = {"images/a.png": b"\x89PNG" + bytes(range(256)) * 40, "empty.txt": b"",
               "buildFile.xml": b"<a>" + b"x" * 5000 + b"</a>", "caf\u00e9.html": "é".encode(),
               "s.vsav": b"PK...", "images/B.GIF": b"GIF89a", "z/deep/name.json": b"{}\n" * 3}
    data = archive.zip_bytes(entries)
    assert data == archive._zipfile_bytes(entries)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.testzip() is None
        assert {i.filename: zf.read(i) for i in zf.infolist()} == entries


def test_zip_bytes_equal_zipfiles_for_a_module(mini, monkeypatch):
    from builder.vassal.module import build_module

    monkeypatch.setenv("BUILDER_JOBS", "1")
    entries = build_module(load_game(mini)).entries
    assert archive.zip_bytes(entries) == archive._zipfile_bytes(entries)
