"""Factor strips cannot print garbage (issue 16, item 3): a unit lacking a factor ('—-—-5',
Veritable's 79th Armoured) prints an en dash for it with dots between the factors, never dashes
run together; a strip that cannot be read is refused by the model."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from builder.load import find_game, load_game
from builder.model.counters import Unit, factor_text, printed_factors
from builder.render.counters import counter_svg


@pytest.mark.parametrize("text,parts,sep", [
    ("5-7-5", ["5", "7", "5"], "-"),
    ("(2)-6", ["(2)", "6"], "-"),
    ("20", ["20"], "-"),
    ("", [], "-"),
    ("—-—-5", ["–", "–", "5"], "·"),
    ("4-–-6", ["4", "–", "6"], "·"),
])
def test_printed_factors(text, parts, sep):
    assert printed_factors(text) == (parts, sep)


def test_no_dashes_run_together_in_text_or_on_the_counter():
    assert factor_text("—-—-5") == "–\u2009·\u2009–\u2009·\u20095"
    game = load_game(find_game("operation-veritable"))
    svg = counter_svg(game, "al-30")
    assert "—" not in svg and "–-" not in svg and "-–" not in svg
    assert svg.count(">–<") == 2 and ">5<" in svg


@pytest.mark.parametrize("bad", ["5--5", "5-x-5", "-5", "5-"])
def test_unreadable_strips_are_refused(bad):
    with pytest.raises(ValidationError, match="is not a factor list"):
        Unit(id="u", side="a", unit="1", type="infantry", front=bad)
