"""The one timestamp every output carries: SOURCE_DATE_EPOCH, else a fixed 2000-01-01.

A fixed date keeps rebuilt archives and PDFs byte-identical; SOURCE_DATE_EPOCH lets a packager
choose it (https://reproducible-builds.org/specs/source-date-epoch/).
"""

from __future__ import annotations

import os
import time

DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z; also the earliest date a zip entry can hold well


def build_epoch() -> int:
    """Seconds since 1970 for every timestamp written into an output."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(value) if value.isdigit() else DEFAULT_EPOCH


def build_time_utc() -> time.struct_time:
    return time.gmtime(build_epoch())
