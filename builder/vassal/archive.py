"""Deterministic zip archives (.vmod, .vsav): sorted entries, fixed timestamps and permissions."""

from __future__ import annotations

import io
import zipfile

FIXED_TIME = (2000, 1, 1, 0, 0, 0)


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    """A zip of the entries in name order; images stored, text deflated; no varying metadata."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.create_system = 3
            info.external_attr = 0o644 << 16
            stored = name.lower().endswith((".png", ".jpg", ".gif", ".vsav"))
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            zf.writestr(info, entries[name], compresslevel=9 if not stored else None)
    return buf.getvalue()
