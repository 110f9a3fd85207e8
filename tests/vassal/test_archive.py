"""The module's zip writer (vassal/archive.py) writes what zipfile writes, byte for byte, when
zipfile deflates with ISA-L at the writer's level as the writer does."""

from __future__ import annotations

import io
import zipfile

import pytest
from isal import isal_zlib

from builder.load import load_game
from builder.vassal import archive


@pytest.fixture(autouse=True)
def zipfile_deflates_like_the_writer(monkeypatch):
    real = zipfile._get_compressor

    def compressor(compress_type, compresslevel=None):
        if compress_type == zipfile.ZIP_DEFLATED:
            return isal_zlib.compressobj(archive.TEXT_LEVEL, isal_zlib.DEFLATED, -15)
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
