"""The module's zip writer (vassal/archive.py) writes what zipfile writes, byte for byte, when
zipfile deflates with libdeflate at the writer's level as the writer does."""

from __future__ import annotations

import io
import zipfile

import deflate
import pytest

from builder.load import load_game
from builder.vassal import archive


class _WholeEntryDeflater:
    """zipfile's compressor interface over libdeflate, which deflates a whole buffer at once."""

    def __init__(self):
        self._parts = []

    def compress(self, data):
        self._parts.append(bytes(data))
        return b""

    def flush(self):
        return deflate.deflate_compress(b"".join(self._parts), archive.TEXT_LEVEL)


@pytest.fixture(autouse=True)
def zipfile_deflates_like_the_writer(monkeypatch):
    real = zipfile._get_compressor

    def compressor(compress_type, compresslevel=None):
        if compress_type == zipfile.ZIP_DEFLATED:
            return _WholeEntryDeflater()
        return real(compress_type, compresslevel)

    monkeypatch.setattr(zipfile, "_get_compressor", compressor)


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
