"""Choices the rules make, as table settings (issue 40, item 5): the table's ends before or after
the shifts on a differential table (the ratio case and per-unit division are in
test_hold_the_line.py)."""

from __future__ import annotations

import shutil

from builder.load import load_game
from builder.tables import api
from tests.tables.games import FIXTURES


def test_differential_ends_after_shifts(tmp_path):
    folder = tmp_path / "tables-hex"
    shutil.copytree(FIXTURES / "tables-hex", folder)
    before = load_game(folder)
    text = (folder / "tables.toml").read_text(encoding="utf-8")
    (folder / "tables.toml").write_text(text.replace('kind = "differential"',
                                                     'kind = "differential"\nends = "after-shifts"',
                                                     1), encoding="utf-8")
    after = load_game(folder)
    given = {"attack": 1, "defence": 4, "row": "peak", "support": 2}
    # -3 on the Peak row, whose first band is -1: read on its first column, then two right
    # (before the shifts), or two columns before the row, then two right: the first column
    assert api.calculate(before, "crt", given).column == "+1 on Peak"
    assert api.calculate(after, "crt", given).column == "-1 on Peak"
    # within the row the two agree
    inside = {**given, "attack": 4}
    assert api.calculate(before, "crt", inside).column == api.calculate(after, "crt", inside).column
