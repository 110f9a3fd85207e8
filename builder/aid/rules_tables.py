"""Tables written in the rules' Markdown, made into tables a screen reader can read.

A Markdown table has one header row of <th> and data cells for everything else. Rules copied
from a printed chart lean on layout instead: a heading cell followed by empty ones that it
spans, a row of the body that is a label ("DIE ROLL") for the rows below. Here the empty
header cells are folded into the span of the heading before them, header cells get a scope,
the first cell of each body row becomes its row header, a body row with only its first cell
filled becomes a header row, and the table is wrapped in a named region that scrolls sideways
and can be focused, so a wide table can be scrolled by keyboard.
"""

from __future__ import annotations

from html import escape

from markdown_it.token import Token


def _cells(tokens: list[Token], start: int, end: int) -> list[list[int]]:
    """The rows between two indices: for each row, the index of each cell's opening token."""
    rows: list[list[int]] = []
    for i in range(start, end):
        t = tokens[i]
        if t.type == "tr_open":
            rows.append([])
        elif t.type in ("th_open", "td_open"):
            rows[-1].append(i)
    return rows


def _empty(tokens: list[Token], open_idx: int) -> bool:
    inline = tokens[open_idx + 1]
    return inline.type == "inline" and not inline.content.strip()


def _retag(tokens: list[Token], open_idx: int, tag: str, **attrs: str) -> None:
    """Make a cell a th or td (its closing token follows its inline content)."""
    kind = "th" if tag == "th" else "td"
    opening, closing = tokens[open_idx], tokens[open_idx + 2]
    opening.type, opening.tag = f"{kind}_open", tag
    closing.type, closing.tag = f"{kind}_close", tag
    for k, v in attrs.items():
        opening.attrSet(k, v)


def _fix_head(tokens: list[Token], row: list[int]) -> list[int]:
    """Fold empty header cells into the span of the heading before them; returns the indices
    of tokens to drop."""
    drop: list[int] = []
    last = None
    for idx in row:
        if _empty(tokens, idx):
            if last is None:
                _retag(tokens, idx, "td")  # the corner above the row headers
                continue
            span = int(tokens[last].attrGet("colspan") or 1) + 1
            tokens[last].attrSet("colspan", str(span))
            tokens[last].attrSet("scope", "colgroup" if span > 1 else "col")
            drop += [idx, idx + 1, idx + 2]
        else:
            tokens[idx].attrSet("scope", "col")
            last = idx
    return drop


def _fix_body_row(tokens: list[Token], row: list[int]) -> None:
    first, rest = row[0], row[1:]
    if _empty(tokens, first):
        return
    if rest and all(_empty(tokens, i) for i in rest):
        _retag(tokens, first, "th", scope="col")  # a label for the column below it
    else:
        _retag(tokens, first, "th", scope="row")


def _region(content: str) -> Token:
    t = Token("html_block", "", 0)
    t.content = content
    return t


def accessible_tables(tokens: list[Token], name_of) -> list[Token]:
    """The tokens with every table fixed as above; name_of(n, caption) names the n-th table of
    the text (caption: the bold line just before it, or '')."""
    out: list[Token] = []
    i, n = 0, 0
    while i < len(tokens):
        t = tokens[i]
        if t.type != "table_open":
            out.append(t)
            i += 1
            continue
        end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
        head_end = next((j for j in range(i, end) if tokens[j].type == "thead_close"), i)
        drop: set[int] = set()
        for row in _cells(tokens, i, head_end):
            drop |= set(_fix_head(tokens, row))
        for row in _cells(tokens, head_end, end):
            _fix_body_row(tokens, row)
        n += 1
        name = name_of(n, _caption(out))
        out.append(_region(f'<div class="scroll" tabindex="0" role="region" '
                           f'aria-label="{escape(name)}">\n'))
        out += [tokens[j] for j in range(i, end + 1) if j not in drop]
        out.append(_region("</div>\n"))
        i = end + 1
    return out


def _caption(before: list[Token]) -> str:
    """The text of a paragraph that is one bold phrase, just before the table ('' if none)."""
    if len(before) < 3 or before[-1].type != "paragraph_close":
        return ""
    inline = before[-2]
    kids = [k for k in (inline.children or []) if not (k.type == "text" and not k.content.strip())]
    if len(kids) == 3 and kids[0].type == "strong_open" and kids[2].type == "strong_close":
        return kids[1].content.strip()
    return ""
