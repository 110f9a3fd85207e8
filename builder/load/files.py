"""Reading TOML and CSV source files, turning every fault into a Problem with file and line."""

from __future__ import annotations

import csv
import functools
import io
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from builder.errors import Collector
from builder.load.source_bytes import MAX_SOURCE_BYTES, read_bytes
from builder.load.source_cache import cached
from builder.load.tomlindex import find_line, index_lines

MAX_RULES_BYTES = 4 * 1024 * 1024  # a long rulebook is under 1 MB of text
MAX_CSV_ROWS = 20_000  # every counter of a monster game fits; more is generated data or a mistake
MAX_NUMBER = 10**9  # no count, turn, size or factor in a game comes near this
MAX_DEPTH = 32  # the deepest real source nests arrays 4 levels

# Characters XML (SVG, VASSAL) cannot hold, or that only appear in binary files: C0 controls
# except tab/newline/return, DEL, and the non-characters U+FFFE and U+FFFF.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def read_text(path: Path, errors: Collector, limit: int = MAX_SOURCE_BYTES) -> str | None:
    """The file's text as UTF-8 (a byte-order mark is accepted), or None with a problem noted."""
    data = read_bytes(path, errors, limit)
    if data is None:
        return None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        errors.add(path, "", "is UTF-16 encoded", "save it as UTF-8")
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        errors.add(path, f"line {line}", f"is not UTF-8 (byte 0x{data[exc.start]:02x})",
                   "save the file as UTF-8")
        return None
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        code = f"U+{ord(bad.group()):04X}"
        hint = " (a file with NUL bytes is often UTF-16 or not text at all)" if bad.group() == "\0" else ""
        errors.add(path, f"line {line}, column {column}", f"contains the control character {code}"
                   + hint, "delete it, or save the file as plain UTF-8 text")
        return None
    return text


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
    """The parsed file, or None with its problems noted (kept between builds while the file's
    bytes stay the same: builder.load.source_cache)."""
    return cached("toml", path, errors, lambda: _read_toml(path, errors))


def _read_toml(path: Path, errors: Collector) -> TomlSource | None:
    text = read_text(path, errors)
    if text is None:
        return None
    if not text.strip():
        errors.add(path, "", "is empty", "fill it in: see the source format in README.md")
        return None
    try:
        data = tomllib.loads(text)
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
    except RecursionError:  # tomllib recurses once per bracket level
        errors.add(path, "", f"nests arrays or tables far more than the {MAX_DEPTH} levels allowed",
                   "flatten the data: no source needs more than a few levels")
        return None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        errors.add(path, "", f"cannot be read as TOML: {str(exc).split(';')[0]}",
                   "look for an absurdly long number")
        return None
    src = TomlSource(path, data, text)
    bad = False
    for loc, value in _nodes(data):
        if len(loc) > MAX_DEPTH:
            errors.add(path, src.where(loc[:MAX_DEPTH]), f"nests arrays or tables more than the "
                       f"{MAX_DEPTH} levels allowed", "flatten the data: no source needs more than a few")
            return None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        if isinstance(value, float) and not math.isfinite(value):
            errors.add(path, src.where(loc), f"{value} is not a usable number", "write a finite number")
            bad = True
        elif abs(value) > MAX_NUMBER:
            shown = f"{value:.3g}" if isinstance(value, float) else f"a {len(str(abs(value)))}-digit number"
            errors.add(path, src.where(loc), f"{shown} is beyond the {MAX_NUMBER:,} any value may be",
                       "correct the number")
            bad = True
    return None if bad else src


def _nodes(data: Any):
    """(key path, value) of every value, tables and arrays included, iteratively, in order."""
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        loc, node = stack.pop()
        yield loc, node
        if isinstance(node, dict):
            stack.extend((loc + (k,), v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((loc + (i,), v) for i, v in reversed(list(enumerate(node))))


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


def _clean_loc(loc: tuple, data: Any, missing: bool = False) -> tuple:
    """Drop the union tags pydantic inserts ('tables', 2, 'ratio', 'columns' -> without 'ratio').

    A last part is only kept as a tag when it names a missing key ('hex' may be one)."""
    out: list = []
    node = data
    for i, part in enumerate(loc):
        is_last = i == len(loc) - 1
        if (not (is_last and missing) and isinstance(part, str) and part in _UNION_TAGS
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
    "int_from_float": "write a whole number",
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


@functools.cache
def _known_keys() -> frozenset[str]:
    """Every key a source file may use, as the loader reads it (a field's alias where it has one:
    'not', not the field name 'not_')."""
    import inspect

    from pydantic import BaseModel

    from builder.model import counters, game, maps, rules, scenario, tables

    out = set()
    for module in (counters, game, maps, rules, scenario, tables):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseModel):
                out |= {f.alias or name for name, f in cls.model_fields.items()}
    return frozenset(out)


def _near_key(key) -> str:
    """The known key a misspelt one most likely means ('' when none is close)."""
    import difflib

    if not isinstance(key, str):
        return ""
    found = difflib.get_close_matches(key, sorted(_known_keys()), n=1, cutoff=0.75)
    return found[0] if found else ""


def describe(err: dict) -> tuple[str, str]:
    """A pydantic error as (what is wrong, how to fix it)."""
    msg = err["msg"].removeprefix("Value error, ")
    kind = err["type"]
    value = err.get("input")
    if kind == "missing":
        msg = "is required but missing"
    elif kind == "extra_forbidden":
        msg = "is not a known key"
        near = _near_key(err["loc"][-1] if err.get("loc") else None)
        if near:
            return msg, f"did you mean '{near}'? (or remove it; the keys are listed in README.md)"
    elif isinstance(value, (str, int, float)) and kind not in ("value_error",) and len(str(value)) < 60:
        msg += f" (got {value!r})"
    return msg, _FIXES.get(kind, "" if kind == "value_error" else "see README.md for this key")


def validate_toml(model: type[BaseModel], src: TomlSource, errors: Collector, data: Any = None,
                  salvage: bool = False):
    """Build a model from a TOML file's data, noting every validation problem with its line.

    salvage: when the data has problems, return a model of what is left once the list items
    and unknown keys with problems are cut out (None if that does not validate either), so the
    rest of the file can still be checked against the other files in the same run."""
    data = src.data if data is None else data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errs = exc.errors()
        for err in errs:
            loc = _clean_loc(err["loc"], data, missing=err["type"] == "missing")
            msg, fix = describe(err)
            errors.add(src.path, src.where(loc), msg, fix)
        return _salvage(model, data, errs) if salvage else None


_CUT = object()
MAX_SALVAGE_ROUNDS = 6  # each round cuts one more level of broken items


def _salvage(model: type[BaseModel], data: Any, errs: list) -> BaseModel | None:
    """The model of `data` without the items its validation errors fall in, or None."""
    import copy

    data = copy.deepcopy(data)
    for _ in range(MAX_SALVAGE_ROUNDS):
        cuts = set()
        for err in errs:
            loc = _clean_loc(err["loc"], data, missing=err["type"] == "missing")
            items = [i for i, part in enumerate(loc) if isinstance(part, int)]
            if items:
                cuts.add(loc[: items[-1] + 1])
            elif err["type"] == "extra_forbidden" and loc:
                cuts.add(loc)
            else:
                return None  # a required key or a whole value is wrong: nothing sound is left
        for loc in cuts:
            parent = data
            for part in loc[:-1]:
                try:
                    parent = parent[part]
                except (KeyError, IndexError, TypeError):
                    parent = None
                    break
            if isinstance(parent, list) and isinstance(loc[-1], int) and loc[-1] < len(parent):
                parent[loc[-1]] = _CUT
            elif isinstance(parent, dict):
                parent.pop(loc[-1], None)
        data = _without_cuts(data)
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            errs = exc.errors()
    return None


def _without_cuts(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_cuts(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_without_cuts(v) for v in node if v is not _CUT]
    return node


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
        for count, record in enumerate(reader, start=1):
            line = reader.line_num
            if count > MAX_CSV_ROWS:
                errors.add(path, f"line {line}", f"has more than {MAX_CSV_ROWS:,} rows",
                           "split the game, or check the file was not generated by mistake")
                return None
            if not record or all(not cell.strip() for cell in record) or record[0].lstrip().startswith("#"):
                continue
            if len(record) != len(header):
                errors.add(path, f"line {line}", f"has {len(record)} fields but the header has "
                           f"{len(header)}", "add or remove commas; quote a value that contains a comma")
                continue
            rows.append((line, {h: cell.strip() for h, cell in zip(header, record)}))
    except csv.Error as exc:
        fix = ("shorten the value (or close the quotes that run on from an earlier line)"
               if "field larger" in str(exc) else "close the quotes around the value")
        errors.add(path, f"line {reader.line_num}", f"CSV syntax error: {exc}", fix)
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
