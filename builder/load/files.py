"""Reading TOML and CSV source files, turning every fault into a Problem with file and line."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from builder.errors import Collector
from builder.load.tomlindex import find_line, index_lines

MAX_SOURCE_BYTES = 20 * 1024 * 1024  # a hand-edited source file is never this large


def read_text(path: Path, errors: Collector) -> str | None:
    """The file's text as UTF-8 (a byte-order mark is accepted), or None with a problem noted."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        errors.add(path, "", f"cannot be read ({exc.strerror})", "check the file exists and is readable")
        return None
    if size > MAX_SOURCE_BYTES:
        errors.add(path, "", f"is {size / 1e6:.0f} MB, larger than the {MAX_SOURCE_BYTES // 2**20} MiB "
                   "a source file may be", "split it or remove generated content")
        return None
    data = path.read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        errors.add(path, "", "is UTF-16 encoded", "save it as UTF-8")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        errors.add(path, f"line {line}", f"is not UTF-8 (byte 0x{data[exc.start]:02x})",
                   "save the file as UTF-8")
        return None


class TomlSource:
    """A parsed TOML file with its line index."""

    def __init__(self, path: Path, data: dict[str, Any], text: str):
        self.path = path
        self.data = data
        self.lines = index_lines(text)

    def where(self, loc: tuple) -> str:
        key = key_path(loc)
        line = find_line(self.lines, loc)
        if line and key:
            return f"line {line}, key {key}"
        return f"key {key}" if key else (f"line {line}" if line else "")


def read_toml(path: Path, errors: Collector) -> TomlSource | None:
    text = read_text(path, errors)
    if text is None:
        return None
    if not text.strip():
        errors.add(path, "", "is empty", "fill it in: see the source format in README.md")
        return None
    try:
        return TomlSource(path, tomllib.loads(text), text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        where = ""
        if "(at line" in msg:
            msg, _, pos = msg.partition(" (at ")
            where = pos.rstrip(")")
        errors.add(path, where, f"TOML syntax error: {msg}",
                   "correct the syntax (quotes around text, '=' between key and value, "
                   "no key given twice)")
        return None


def key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


_UNION_TAGS = {"hex", "area", "differential", "ratio", "fire", "modified-roll", "lookup", "chart",
               "function-after", "function-before"}


def _clean_loc(loc: tuple, data: Any) -> tuple:
    """Drop the union tags pydantic inserts ('tables', 2, 'ratio', 'columns' -> without 'ratio')."""
    out: list = []
    node = data
    for i, part in enumerate(loc):
        is_last = i == len(loc) - 1
        if (not is_last and isinstance(part, str) and part in _UNION_TAGS
                and not (isinstance(node, dict) and part in node)):
            continue
        out.append(part)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return tuple(out)


_FIXES = {
    "missing": "add it",
    "extra_forbidden": "remove it, or correct its spelling (the keys are listed in README.md)",
    "literal_error": "use one of the values listed",
    "int_parsing": "write a whole number",
    "int_type": "write a whole number",
    "float_parsing": "write a number",
    "bool_type": "write true or false",
    "bool_parsing": "write true or false",
    "string_type": "write text in quotes",
    "too_short": "add the missing entries",
    "greater_than_equal": "use a larger value",
    "less_than_equal": "use a smaller value",
    "union_tag_invalid": "set 'kind' to one of the values listed",
    "union_tag_not_found": "add a 'kind' key",
}


def describe(err: dict) -> tuple[str, str]:
    """A pydantic error as (what is wrong, how to fix it)."""
    msg = err["msg"].removeprefix("Value error, ")
    kind = err["type"]
    value = err.get("input")
    if kind == "missing":
        msg = "is required but missing"
    elif kind == "extra_forbidden":
        msg = "is not a known key"
    elif isinstance(value, (str, int, float)) and kind not in ("value_error",) and len(str(value)) < 60:
        msg += f" (got {value!r})"
    return msg, _FIXES.get(kind, "" if kind == "value_error" else "see README.md for this key")


def validate_toml(model: type[BaseModel], src: TomlSource, errors: Collector, data: Any = None):
    """Build a model from a TOML file's data, noting every validation problem with its line."""
    data = src.data if data is None else data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            loc = _clean_loc(err["loc"], data)
            msg, fix = describe(err)
            errors.add(src.path, src.where(loc), msg, fix)
        return None


def read_csv(path: Path, columns: dict[str, bool], errors: Collector) -> list[tuple[int, dict]] | None:
    """Rows of a CSV file as (line number, {column: text}); columns maps name -> required."""
    text = read_text(path, errors)
    if text is None:
        return None
    if not text.strip():
        errors.add(path, "", "is empty", "write the header line first: " + ",".join(columns))
        return None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, dict]] = []
    try:
        header = [h.strip() for h in next(reader)]
        missing = [c for c, required in columns.items() if required and c not in header]
        unknown = [h for h in header if h not in columns]
        dupes = sorted({h for h in header if header.count(h) > 1})
        if missing or unknown or dupes:
            for c in missing:
                errors.add(path, "line 1", f"the header has no column '{c}'", f"add '{c}' to the header")
            for c in unknown:
                errors.add(path, "line 1", f"unknown column '{c}'",
                           "remove it or correct its spelling; columns: " + ", ".join(columns))
            for c in dupes:
                errors.add(path, "line 1", f"column '{c}' appears twice", "keep one")
            return None
        for record in reader:
            line = reader.line_num
            if not record or all(not cell.strip() for cell in record) or record[0].lstrip().startswith("#"):
                continue
            if len(record) != len(header):
                errors.add(path, f"line {line}", f"has {len(record)} fields but the header has "
                           f"{len(header)}", "add or remove commas; quote a value that contains a comma")
                continue
            rows.append((line, {h: cell.strip() for h, cell in zip(header, record)}))
    except csv.Error as exc:
        errors.add(path, f"line {reader.line_num}", f"CSV syntax error: {exc}",
                   "close the quotes around the value")
        return None
    return rows


def validate_row(model: type[BaseModel], path: Path, line: int, data: dict, errors: Collector):
    """Build a model from one CSV row; problems name the line and the column."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            column = err["loc"][0] if err["loc"] else ""
            msg, fix = describe(err)
            errors.add(path, f"line {line}, column '{column}'", msg, fix)
        return None
