"""Find the line of a key path in a TOML file, so messages can say 'line 12' and not only a path.

A small structural scan (headers, keys, arrays of tables); tomllib itself keeps no positions.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")
_ELEMENT = re.compile(r"^\s*(\{|\[|\"|'|[-+]?\d)")

Path = tuple


def _split_dotted(text: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r'"[^"]*"|\'[^\']*\'|[^.]+', text)]


def index_lines(text: str) -> dict[Path, int]:
    """Map every key path ('tables', 2, 'columns') that starts a line to its 1-based line."""
    index: dict[Path, int] = {}
    arrays: dict[Path, int] = {}  # array-of-tables path (with parent indexes) -> last index
    current: list = []
    in_string = False
    open_key: Path | None = None
    depth = 0
    element = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string:
            if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                in_string = False
            continue
        if open_key is not None:  # inside a multi-line array: index its elements by line
            stripped = line.strip()
            if depth == 1 and _ELEMENT.match(stripped):
                index.setdefault(open_key + (element,), number)
                element += 1
            depth += line.count("[") - line.count("]") + line.count("{") - line.count("}")
            if depth <= 0:
                open_key = None
            continue
        m = _HEADER.match(line)
        if m and not _KEY.match(line):
            resolved: list = []
            keys = _split_dotted(m.group(2))
            for k in keys[:-1]:
                resolved.append(k)
                if tuple(resolved) in arrays:
                    resolved.append(arrays[tuple(resolved)])
            resolved.append(keys[-1])
            if m.group(1) == "[[":
                key = tuple(resolved)
                arrays[key] = arrays.get(key, -1) + 1
                resolved.append(arrays[key])
            current = resolved
            index.setdefault(tuple(current), number)
            continue
        m = _KEY.match(line)
        if m:
            path = tuple(current) + tuple(_split_dotted(m.group(1)))
            index.setdefault(path, number)
            rest = line[m.end():]
            if rest.count('"""') % 2 == 1 or rest.count("'''") % 2 == 1:
                in_string = True
            opened = rest.count("[") - rest.count("]") + rest.count("{") - rest.count("}")
            if opened > 0:
                open_key, depth, element = path, opened, 0
    return index


def find_line(index: dict[Path, int], path: Path) -> int | None:
    """The line of the longest prefix of path that the index knows."""
    for end in range(len(path), 0, -1):
        line = index.get(tuple(path[:end]))
        if line is not None:
            return line
    return None
