"""What changed since the module's previous version: the page players read in the Charts window,
and the build record beside the module that tells one version from the next.

A build writes output/<game>/<game>.vmod-record.json: the version built, a digest of what
reached the module (its entries less the version and this page) and a snapshot of what players
see of the counters, markers, tables, scenarios, map and rules. The next build compares with it:
the same version over a different module is worth a warning (players could not tell the two
apart), and a new version's page lists the differences from the snapshot of the version before,
with the designer's own notes for it (game.toml [changes]).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from builder import words
from builder.model.counters import split_factors
from builder.model.game_model import Game
from builder.vassal import html, pieces

PAGE = "what-changed.html"
TITLE = "What changed"
RECORD_FORMAT = 1


@dataclass(frozen=True)
class Baseline:
    """The version a page compares with, and its snapshot (None: the module's first version);
    gone: the pictures of counters removed in any earlier version, kept for old saved games."""

    version: str
    snapshot: dict | None
    gone: dict | None = None


def record_path(module_path: Path) -> Path:
    """The build record beside a module file."""
    return module_path.with_name(module_path.name + "-record.json")


def read_record(module_path: Path) -> dict | None:
    """The last build's record, or None (none yet, or one this builder cannot read)."""
    path = record_path(module_path)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("format") == RECORD_FORMAT else None


def baseline(record: dict | None, version: str) -> Baseline | None:
    """What this version's page compares with: the last build of an earlier version."""
    if record is None:
        return None
    if record.get("version") != version:
        return Baseline(str(record.get("version", "")), record.get("snapshot"),
                        seen_before(record.get("baseline")))
    kept = record.get("baseline")  # the same version again: the same comparison as before
    return Baseline(kept["version"], kept.get("snapshot"), kept.get("gone")) if kept else None


def new_record(version: str, digest: str, snapshot: dict, base: Baseline | None) -> dict:
    """The record of this build (written beside the module)."""
    return {"format": RECORD_FORMAT, "version": version, "digest": digest, "snapshot": snapshot,
            "baseline": None if base is None else {"version": base.version,
                                                   "snapshot": base.snapshot,
                                                   "gone": base.gone}}


def seen_before(base: dict | None) -> dict:
    """{counter id: [name, last version it was in]} of every counter of a baseline's version
    and the versions before it (the baseline's own 'gone')."""
    if not base:
        return {}
    seen = dict(base.get("gone") or {})
    for kind in ("units", "markers"):
        for cid, item in ((base.get("snapshot") or {}).get(kind) or {}).items():
            seen[cid] = [item.get("name", cid), str(base.get("version", ""))]
    return seen


def removed_counters(game: Game, since: Baseline | None) -> dict[str, tuple[str, str]]:
    """The counters of earlier versions that this version removed ({id: (name, last version)}):
    the module keeps a picture under each one's old image names, so that a game saved in an
    earlier version opens with the piece marked as removed, not with VASSAL's 'Image not found'
    error (its Refresh Counters names the piece: 'Slot not found')."""
    if since is None:
        return {}
    seen = seen_before({"version": since.version, "snapshot": since.snapshot,
                        "gone": since.gone})
    present = set(game.unit_by_id) | set(game.marker_by_id)
    return {cid: (name, last) for cid, (name, last) in seen.items() if cid not in present}


def removed_counter_svg(name: str, version: str) -> str:
    """The picture a removed counter's old saved pieces show: its name and when it went."""
    from builder.render import svg

    body = (svg.rect(2, 2, 60, 60, fill="#d9d9d9", stroke="#666666", stroke_width=2)
            + svg.fitted(32, 20, name, 56, 9, anchor="middle", bold=True)
            + svg.fitted(32, 36, "removed after", 56, 8, anchor="middle")
            + svg.fitted(32, 48, f"version {version}", 56, 8, anchor="middle"))
    return svg.document(64, 64, body, background=None, title=f"{name}: removed")


def unchanged_version_warning(record: dict | None, version: str, digest: str) -> str:
    """The warning when the module changed since the last build and its version did not."""
    if record is None or record.get("version") != version or record.get("digest") == digest:
        return ""
    return (f"the module changed since its last build but game.toml still gives version "
            f"{version}: raise `version` in game.toml (and say what changed under [changes]) "
            "before publishing it, so players can tell the two modules apart")


# --- what players see of the game, kept for the next version's page ----------------------------
def _digest(value) -> str:
    if hasattr(value, "model_dump_json"):
        text = value.model_dump_json()
    elif isinstance(value, tuple):
        text = "\n".join(v.model_dump_json() if hasattr(v, "model_dump_json") else repr(v)
                         for v in value)
    else:
        text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _factors(game: Game, text: str) -> dict[str, str]:
    names = game.info.factor_names
    return {names[i] if i < len(names) else f"factor {i + 1}": part
            for i, part in enumerate(split_factors(text))}


def snapshot(game: Game) -> dict:
    """The counters, markers, tables, scenarios, map and rules as players see them (the
    player view: notes and readings are not part of it)."""
    sides = {s.id: s.name for s in game.info.sides}
    formations = {f.id: f.name for s in game.info.sides for f in s.formations}
    decks = {d.id: d.name for d in game.info.decks}
    units = {u.id: {"name": pieces.unit_name(u), "side": sides.get(u.side, u.side),
                    "formation": formations.get(u.formation, u.formation), "size": u.size,
                    "front": _factors(game, u.front), "back": _factors(game, u.back),
                    "back_name": u.back_name if u.two_sided else "", "copies": u.copies}
             for u in game.units}
    markers = {m.id: {"name": m.name, "side": sides.get(m.side, m.side), "front": m.front,
                      "back": m.back, "value": m.value, "copies": m.copies,
                      "deck": decks.get(m.deck, m.deck)}
               for m in game.markers}
    tables = {t.id: {"name": t.name, "digest": _digest(t)} for t in game.tables}
    scenarios = {}
    for sc in game.scenarios:
        parts = {"set-up": (sc.setup, sc.setup_note, sc.not_in_play),
                 "reinforcements": sc.reinforcements, "withdrawals": sc.withdrawals,
                 "victory conditions": (sc.victory, sc.victory_table, sc.victory_counts,
                                        sc.victory_questions, sc.victory_default,
                                        sc.victory_by_hand),
                 "special rules": sc.special_rules}
        rest = sc.model_dump(exclude={"setup", "setup_note", "not_in_play", "reinforcements",
                                      "withdrawals", "victory", "victory_table", "victory_counts",
                                      "victory_questions", "victory_default", "victory_by_hand",
                                      "special_rules", "name", "id"})
        scenarios[sc.id or sc.name] = {"name": sc.name,
                                       "parts": {k: _digest(v) for k, v in parts.items()},
                                       "rest": _digest(rest)}
    rules = ({s.id: {"title": s.title, "digest": _digest((s.title, s.text))}
              for s in game.rules.sections} if game.rules else {})
    return {"units": units, "markers": markers, "tables": tables, "scenarios": scenarios,
            "map": _digest(game.map) if game.map is not None else "", "rules": rules}


# --- the differences in player words -----------------------------------------------------------
def _unit_line(u: dict) -> str:
    where = ", ".join(x for x in (u["side"], u["formation"]) if x)
    return f"{u['name']} ({where})" if where else u["name"]


def _new_unit_line(u: dict) -> str:
    printed = "-".join(u["front"].values())
    return _unit_line(u) + (f", {printed}" if printed else "")


def _faces(old: dict, new: dict, back_name: str) -> list[str]:
    out = []
    for face, label in (("front", ""), ("back", f" on its {back_name or 'back'} side")):
        for name in dict.fromkeys([*old[face], *new[face]]):
            a, b = old[face].get(name), new[face].get(name)
            if a != b:
                out.append(f"{name}{label} {b if b is not None else 'none'}, was "
                           f"{a if a is not None else 'none'}")
    return out


def _unit_changes(old: dict, new: dict) -> list[str]:
    out = []
    if old["name"] != new["name"]:
        out.append(f"now {new['name']}")
    out += _faces(old, new, new["back_name"] or old["back_name"])
    for key, label in (("side", "side"), ("formation", "formation"), ("size", "size")):
        if old[key] != new[key]:
            out.append(f"{label} {new[key] or 'none'}, was {old[key] or 'none'}")
    if bool(old["back"]) != bool(new["back"]):
        out.append("now two-sided" if new["back"] else "now one-sided")
    elif old["back_name"] != new["back_name"]:
        out.append(f"its back is now the {new['back_name']} side, was {old['back_name']}")
    if old["copies"] != new["copies"]:
        out.append(f"{words.plural(new['copies'], 'counter')} in the mix, was {old['copies']}")
    return out


def _marker_changes(old: dict, new: dict) -> list[str]:
    out = []
    if old["name"] != new["name"]:
        out.append(f"renamed {new['name']}")
    for key, label in (("front", "front reads"), ("back", "back reads"), ("value", "worth"),
                       ("side", "side"), ("deck", "deck")):
        if old[key] != new[key]:
            a, b = old[key], new[key]
            out.append(f"{label} {b if b not in (None, '') else 'nothing'}, was "
                       f"{a if a not in (None, '') else 'nothing'}")
    if old["copies"] != new["copies"]:
        out.append(f"{words.plural(new['copies'], 'copy', 'copies')}, was {old['copies']}")
    return out


def differences(old: dict, new: dict) -> list[tuple[str, list[str]]]:
    """(heading, sentences) for each part that changed between two snapshots."""
    sections: list[tuple[str, list[str]]] = []

    def added_removed(kind: str, line, new_line=None) -> tuple[list[str], list[str], list[str]]:
        a, b = old.get(kind, {}), new.get(kind, {})
        added = [f"New: {(new_line or line)(b[k])}." for k in b if k not in a]
        removed = [f"Removed: {line(a[k])}." for k in a if k not in b]
        return added, removed, [k for k in b if k in a]

    added, removed, both = added_removed("units", _unit_line, _new_unit_line)
    changed = []
    for k in both:
        what = _unit_changes(old["units"][k], new["units"][k])
        if what:
            changed.append(f"{_unit_line(old['units'][k])}: {'; '.join(what)}.")
    if removed:
        removed.append("A game saved with an earlier version keeps a removed counter as it was: "
                       "VASSAL's Refresh Counters names it in the chat (its slot is not found).")
    if added or changed or removed:
        sections.append(("Counters", added + changed + removed))

    def marker_line(m: dict) -> str:
        return m["name"] + (f" ({m['deck']} deck)" if m["deck"] else "")

    added, removed, both = added_removed("markers", marker_line)
    changed = []
    for k in both:
        what = _marker_changes(old["markers"][k], new["markers"][k])
        if what:
            changed.append(f"{marker_line(old['markers'][k])}: {'; '.join(what)}.")
    if added or changed or removed:
        sections.append(("Markers", added + changed + removed))

    added, removed, both = added_removed("tables", lambda t: t["name"])
    changed = [f"{new['tables'][k]['name']}: changed"
               + (f" (was called {old['tables'][k]['name']})"
                  if old["tables"][k]["name"] != new["tables"][k]["name"] else "") + "."
               for k in both if old["tables"][k] != new["tables"][k]]
    if added or changed or removed:
        sections.append(("Tables", added + changed + removed))

    added, removed, both = added_removed("scenarios", lambda s: s["name"])
    changed = []
    for k in both:
        a, b = old["scenarios"][k], new["scenarios"][k]
        parts = [p for p in b["parts"] if a["parts"].get(p) != b["parts"][p]]
        if a["rest"] != b["rest"]:
            parts.append("other details")
        if a["name"] != b["name"]:
            parts.insert(0, f"its name (was {a['name']})")
        if parts:
            changed.append(f"{b['name']}: {words.either(parts, 'and')} changed.")
    if added or changed or removed:
        sections.append(("Scenarios", added + changed + removed))

    other = []
    if old.get("map") != new.get("map"):
        other.append("The map changed.")
    a, b = old.get("rules", {}), new.get("rules", {})
    sections_changed = [f"{k} {b[k]['title']}" for k in b if a.get(k) != b[k]]
    gone = [f"{k} {a[k]['title']}" for k in a if k not in b]
    if sections_changed:
        other.append(f"Rules changed: {words.either(sections_changed, 'and')}.")
    if gone:
        other.append(f"Rules removed: {words.either(gone, 'and')}.")
    if other:
        sections.append(("Map and rules", other))
    return sections


def page(game: Game, base: Baseline | None, snap: dict) -> str:
    """The 'What changed' page: this version, the designer's notes, the differences."""
    info = game.info
    body = [f"<h1>{escape(info.title)}: version {escape(info.version)}</h1>"]
    notes = info.changes.get(info.version, ())
    if base is None or base.snapshot is None:
        body.append("<p>The first version of this module.</p>")
        found: list[tuple[str, list[str]]] = []
    else:
        body.append(f"<p>Changes since version {escape(base.version)}.</p>")
        found = differences(base.snapshot, snap)
    if notes:
        body.append("<h2>From the designer</h2><ul>"
                    + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    for heading, lines in found:
        body.append(f"<h2>{escape(heading)}</h2><ul>"
                    + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>")
    if base is not None and base.snapshot is not None and not found:
        body.append("<p>No counter, marker, table, scenario, map or rule changed.</p>")
    earlier = [(v, n) for v, n in info.changes.items() if v != info.version and n]
    if earlier:
        body.append("<h2>Earlier versions</h2>")
        for v, n in earlier:
            body.append(f"<h3>Version {escape(v)}</h3><ul>"
                        + "".join(f"<li>{escape(x)}</li>" for x in n) + "</ul>")
    return html.page(TITLE, "\n".join(body))


def content_digest(entries: dict[str, bytes], version: str) -> str:
    """A digest of what reached the module, blind to its version and to this page: the
    entries, each set-up's saved game without its copy of moduledata, and buildFile.xml with
    the module's version attribute left out."""
    import io
    import zipfile

    h = hashlib.sha256()
    for name in sorted(entries):
        if name in ("moduledata", PAGE):
            continue
        data = entries[name]
        if name.endswith(".vsav"):
            data = zipfile.ZipFile(io.BytesIO(data)).read("savedGame")
        elif name == "buildFile.xml":
            data = re.sub(rb'(<VASSAL\.build\.GameModule\b[^>]*?) version="[^"]*"', rb"\1",
                          data, count=1)
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()
