"""Render the player aid: one self-contained HTML file per game, and the index of all games.

Scripts and styles are inlined from templates/aid/ so the file works alone from disk; a
Content-Security-Policy forbids every network request, and only the page's own scripts (by
hash) may run.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

import jinja2
import markupsafe

from builder import resources
from builder.aid import content, tools
from builder.aid.engine_data import engine_script_json
from builder.aid.names import UniqueNames
from builder.aid.rules_html import render_rules, section_label
from builder.model.game_model import Game

TEMPLATES = resources.aid_templates()
SCRIPTS = ("engine.js", "aid.js")  # the engine first: the interface calls it


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=_compiled_templates(),
        autoescape=True,  # every value comes from the sources: escape it all
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["section_label"] = section_label
    env.filters["breakable"] = _breakable
    return env


def _compiled_templates() -> jinja2.BytecodeCache | None:
    """The templates compiled once and kept beside the validated models: compiling them was
    half of writing a campaign game's aid page (a quarter of a second). jinja2 keys each by its
    source's checksum and its own version, and writes it whole (a temporary file renamed)."""
    from builder.load.model_cache import cache_dir

    folder = cache_dir() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only home: compiled each time, as before
        return None
    return _CompiledTemplates(str(folder))


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """A compiled template that cannot be read back or kept is compiled again: a damaged or
    read-only folder never stops a build."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a torn or foreign file: jinja2 compiles the template
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _breakable(text) -> markupsafe.Markup:
    """A table cell's text with a line-break chance after each '..' of a range ('+2..+3'), and
    '>=' '<=' as one sign each, so a band column of a combat table is a number wide on a phone."""
    text = str(text).replace(">=", "\u2265").replace("<=", "\u2264")
    return markupsafe.escape(text).replace("..", markupsafe.Markup("..<wbr>"))


def _asset(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _csp(scripts: list[str]) -> str:
    """No network at all; only these exact inline scripts run."""
    return ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
            f"script-src {' '.join(_csp_hash(s) for s in scripts)}; "
            "form-action 'none'; base-uri 'none'")


def render_aid(game: Game) -> str:
    """The player aid page of one game, as HTML text (deterministic)."""
    info = game.info
    scripts = [_asset(n) for n in SCRIPTS]
    data, data_json = engine_script_json(game)
    unique = UniqueNames()
    sections = render_rules(game.rules, unique) if game.rules else []
    calculators = tools.offered(game, data["calculators"])
    tables = [content.table_card(game, t) for t in game.tables]
    scenarios = [content.scenario_view(game, s) for s in game.scenarios]
    sequence = content.sequence(game)
    ctx = {
        "slug": game.slug,
        "title": info.title,
        "subtitle": info.subtitle,
        "series": info.series,
        "description": info.description,
        "scale": info.scale,
        "credits": info.credits,
        "css": _asset("aid.css"),
        "scripts": scripts,
        "csp": _csp(scripts),
        "data_json": data_json,
        "calculators": calculators,
        "dice": tools.dice(game),
        "nav": _nav(calculators, tables, scenarios, sequence, sections),
        "hex_example": _hex_examples(game),
        "tables": tables,
        "terrain": content.terrain_rows(game),
        "turns": content.turn_track(game),
        "map_tracks": list(game.map.tracks),
        "decks": [{"name": d.name, "side": content.side_name(game, d.side), "draw": d.draw,
                   "per_turn": d.per_turn, "note": d.note} for d in info.decks],
        "scenarios": scenarios,
        "sequence": sequence,
        "rules_title": game.rules.title if game.rules else "",
        "sections": sections,
        "unique": unique,
    }
    return _env().get_template("page.html.j2").render(ctx)


def _nav(calculators, tables, scenarios, sequence, sections) -> list[tuple[str, str]]:
    """The sections the page has, as (id, link text), in page order."""
    return [(i, label) for i, label, present in (
        ("calculators", "Calculators", calculators), ("tables", "Tables", tables),
        ("terrain", "Terrain", True), ("tracks", "Tracks", True), ("scenarios", "Set-up", scenarios),
        ("sequence", "Sequence", sequence), ("rules", "Rules", sections)) if present]


def _hex_examples(game: Game) -> tuple[str, str]:
    """Two neighbouring hex numbers of this map, for the placeholders of hex inputs."""
    if not game.is_hex:
        return ("", "")
    h = game.grid.middle_hex()
    n = game.grid.neighbours_of_one(h)
    return (game.grid.label(h), game.grid.label(n[0]) if n else game.grid.label(h))


def render_index(entries: list[dict]) -> str:
    """The index of every game's outputs: entries of {slug, title, files: [(name, href)],
    map_png, counters_png (data: URIs of the previews, or empty)}."""
    css = _asset("aid.css")
    return _env().get_template("index.html.j2").render(
        {"entries": entries, "css": css,
         "csp": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'"})
