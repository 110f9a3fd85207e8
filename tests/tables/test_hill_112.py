"""Hill 112's hand-worked cases through the command line a player runs (`builder calc`): fire
groups, morale checks, anti-tank fire and lines of sight (tests/tables/hill_112.py)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.tables.hill_112 import CHECKS, FIRES, FOLDER, SIGHTS, VICTORY


def _args(inputs: dict) -> list[str]:
    out = []
    for k, v in inputs.items():
        v = ",".join(v) if isinstance(v, list) else ("yes" if v is True else v)
        out.append(f"{k}={v}")
    return out


def _calc(run_cli, table: str, inputs: dict, roll) -> tuple[dict, str]:
    args = ["calc", FOLDER, table, *_args(inputs)] + (["--roll", roll] if roll else [])
    text = run_cli(*args)
    assert text.exit_code == 0, text.output
    data = run_cli(*args, "--json")
    return json.loads(data.output), text.output


@pytest.mark.parametrize("case", FIRES, ids=lambda c: c.name)
def test_fire(run_cli, case):
    d, out = _calc(run_cli, case.table, case.inputs(), case.roll)
    if case.result:
        assert d["result"] == case.result, out
        assert f": {case.result}" in out
    if case.column:
        assert d["column"] == case.column, out
    for words in case.working:
        assert words in out, (words, out)
    if case.odds:
        got = {x["result"]: Fraction(x["probability"]) for x in d["distribution"]}
        assert got == case.odds, out


def test_fire_beyond_twice_the_range_names_the_rule(run_cli):
    r = run_cli("calc", FOLDER, "anti-tank", "gun=9", "distance=17", "range=8", "--roll", "7")
    assert r.exit_code == 0 and ": not allowed" in r.output and "(8.2)" in r.output


@pytest.mark.parametrize("case", CHECKS, ids=lambda c: c.name)
def test_morale_check(run_cli, case):
    d, out = _calc(run_cli, "morale", case.inputs, case.roll)
    if case.result:
        assert d["result"] == case.result, out
    if case.odds:
        got = {x["result"]: Fraction(x["probability"]) for x in d["distribution"]}
        assert got == case.odds, out


@pytest.mark.parametrize("case", SIGHTS, ids=lambda c: c.name)
def test_line_of_sight_both_ways(run_cli, case):
    for obs, tgt in ((case.a, case.b), (case.b, case.a)):
        inputs = {"observer": obs, "target": tgt, **({"night": True} if case.night else {})}
        d, out = _calc(run_cli, "sight", inputs, None)
        assert d["result"] == ("observed" if case.seen else "not observed"), out
        assert case.why in out, (case.why, out)


def test_a_fire_group_given_unit_by_unit_is_refused_with_a_reason_when_counts_differ(run_cli):
    r = run_cli("calc", FOLDER, "fire", "firepower=6,6", "distance=1", "range=4,4")
    assert r.exit_code == 2
    assert "distance: give one value per firing unit" in (r.output + (r.stderr or ""))


def test_counters_print_their_own_factors():
    """4: a leader's '8-1' (morale, modifier), a tank's gun, a broken squad's morale alone."""
    from tests.tables.games import fixture

    g = fixture("hill-112")
    leader = g.unit_by_id["us-ld-1"]
    assert g.factor_names_of(leader) == ("morale", "modifier")
    assert g.factor_names_of(g.unit_by_id["us-tk-1"]) == ("gun", "range", "armour", "movement")
    assert g.factor_names_of(g.unit_by_id["us-sq-1"], "back") == ("morale",)


@pytest.mark.parametrize("inputs,result", VICTORY)
def test_victory_weighs_squad_equivalents(run_cli, inputs, result):
    d, out = _calc(run_cli, "victory", inputs, None)
    assert d["result"] == result, out
