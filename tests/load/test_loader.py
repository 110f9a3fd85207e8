"""The loader builds the whole model from a good folder, and the schemas match the models."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from repo_paths import MINI

from builder.load import load_game
from builder.load.rules_md import cited_sections
from builder.schema import SCHEMA_DIR, SCHEMAS, schema_for


def test_fixture_loads_completely():
    g = load_game(MINI)
    assert g.info.title == "Mini Game"
    assert [s.id for s in g.info.sides] == ["blue", "red"]
    assert g.hex_terrain[g.hex("0202")] == ("woods", "town")
    assert g.hex_terrain[g.hex("0101")] == ("clear",)
    assert g.unit_by_id["b-2"].red == ("attack",)
    assert g.unit_by_id["b-2"].assumed_fields() == ("front", "back")
    assert g.unit_by_id["r-1"].factors() == [5, 7, 5]
    assert g.marker_by_id["sf-2"].deck == "support"
    s = g.scenarios[0]
    assert s.id == "basic"
    r1 = next(p for p in s.setup if p.unit == "r-1")
    assert (r1.at, r1.also, r1.within) == ("0404", ("0405",), 1)
    assert [sec.id for sec in g.rules.sections] == ["1.0", "1.1", "2.0", "2.1"]
    assert g.rules.sections[0].refs == ("2.1", "9.9")


def test_model_is_immutable():
    g = load_game(MINI)
    with pytest.raises(ValidationError, match="frozen"):
        g.info.title = "x"


def test_cited_sections_need_a_cue():
    assert cited_sections("see 16.1 and 16.2; per 13.0 (9.1.2)") == ["16.1", "16.2", "13.0", "(9.1.2"]
    assert cited_sections("rounded: 3.5 = 3, 3.51 = 4") == []


def test_committed_schemas_are_current():
    for filename, (title, model) in SCHEMAS.items():
        committed = json.loads((SCHEMA_DIR / filename).read_text())
        assert committed == json.loads(json.dumps(schema_for(title, model))), (
            f"{filename} is stale: run `builder schema`"
        )


def test_build_json_is_deterministic(tmp_path, run_cli):
    out1, out2 = tmp_path / "a", tmp_path / "b"
    assert run_cli("build", MINI, "--formats", "json", "--out", out1).exit_code == 0
    assert run_cli("build", MINI, "--formats", "json", "--out", out2).exit_code == 0
    a = (out1 / "mini" / "mini.json").read_bytes()
    assert a == (out2 / "mini" / "mini.json").read_bytes()
    assert json.loads(a)["info"]["title"] == "Mini Game"


def test_build_writes_nothing_when_sources_are_broken(mini, tmp_path, run_cli):
    (mini / "game.toml").write_text("title = ", encoding="utf-8")
    result = run_cli("build", mini, "--formats", "json", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert not (tmp_path / "out").exists()


def test_source_reference_is_current_and_complete():
    """docs/source-format.md is generated from the models: every key has a meaning, and the
    committed file is what `builder schema` writes now (issue 15)."""
    from builder.source_docs import DOCS_FILE, generate

    text, missing = generate()
    assert missing == [], f"keys without a description (add Field(description=...)): {missing}"
    assert DOCS_FILE.read_text(encoding="utf-8") == text, "docs/source-format.md is stale: run `builder schema`"
    for key in ("`rounding`", "`shift_effect`", "`terrain_choice`", "`not_in_play`", "`entry_exception`",
                "`face`", "`code`", "`instruction`", "`returns`"):
        assert key in text, key
