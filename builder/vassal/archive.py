"""Deterministic zip archives (.vmod, .vsav): sorted entries, fixed timestamps and permissions."""

from __future__ import annotations

import io
import zipfile

from builder.buildtime import build_time_utc


def _zip_time() -> tuple[int, int, int, int, int, int]:
    """Entry timestamp: SOURCE_DATE_EPOCH or 2000-01-01 (zip cannot store years before 1980)."""
    t = build_time_utc()
    return (max(t.tm_year, 1980), t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    """A zip of the entries in name order; images stored, text deflated; no varying metadata."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_zip_time())
            info.create_system = 3
            info.external_attr = 0o644 << 16
            stored = name.lower().endswith((".png", ".jpg", ".gif", ".vsav"))
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            zf.writestr(info, entries[name], compresslevel=9 if not stored else None)
    return buf.getvalue()
