"""Every key docs/source-format.md lists is accepted by the loader under that name (issue 40,
item 5: the 'not' condition key was listed as 'not_'), and a misspelt key's error suggests the key
meant."""

from __future__ import annotations

import inspect
import re

from pydantic import BaseModel
from repo_paths import ROOT

from builder.model import counters, game, maps, rules, scenario, tables


def _models() -> dict[str, type[BaseModel]]:
    out = {}
    for module in (counters, game, maps, rules, scenario, tables):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseModel):
                out[name] = cls
    return out


def _documented() -> dict[str, list[str]]:
    """Model name -> the keys its section of docs/source-format.md lists."""
    text = (ROOT / "docs" / "source-format.md").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^### (\w+)\s*$", line)
        if m:
            current = m.group(1)
            out[current] = []
            continue
        m = re.match(r"^\| `([^`]+)` \|", line)
        if m and current:
            out[current].append(m.group(1))
    return out


def test_every_documented_key_is_the_name_the_loader_reads():
    models = _models()
    documented = _documented()
    assert "When" in documented and "not" in documented["When"]
    for name, keys in documented.items():
        cls = models.get(name)
        assert cls is not None, f"docs/source-format.md documents {name}, which no model defines"
        accepted = {f.alias or n for n, f in cls.model_fields.items()}
        wrong = [k for k in keys if k not in accepted]
        assert not wrong, f"{name}: documented as {wrong}, but the loader reads {sorted(accepted)}"


def test_a_rule_condition_with_not_loads_and_not_underscore_is_refused_with_a_hint():
    from builder.load.files import describe

    r = rules.Rule.model_validate({"id": "x", "label": "x", "shift": -1,
                                   "when": {"not": {"turn": "1"}}})
    assert r.when.not_ is not None
    from pydantic import ValidationError

    try:
        rules.Rule.model_validate({"id": "x", "label": "x", "shift": -1,
                                   "when": {"not_": {"turn": "1"}}})
    except ValidationError as exc:
        err = exc.errors()[0]
    else:
        raise AssertionError("not_ was accepted")
    msg, fix = describe(err)
    assert msg == "is not a known key" and "did you mean 'not'?" in fix
