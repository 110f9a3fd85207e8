"""A game in progress across a module update, in the real engine (issue 42).

Version 1 of a game's module is opened in VASSAL; its first scenario is set up and played a
little (a unit moved, one flipped, one eliminated to a box, a marker placed from the palette) and
saved. The sources are then edited as errata do: a unit inserted before the others, the moved
unit's first factor raised, the placed marker renamed, another unit on the map removed; version 2
is built, the old save opened in it and VASSAL's Refresh Counters run as a player runs it (its
dialog, its options as it opens, Run). Then a game set up in version 2, saved and opened again,
is refreshed too. RefreshCheck (tests/vassal_combat/java) drives the engine.

`python3 tests/vassal/refresh_play.py GAME [--builder ROOT]` prints what the engine said; with
--builder, the modules are built by another checkout of the builder (e.g. a worktree of commit
06973ad, whose slot ids were numbered 1, 2, 3 in palette order), for the before-and-after notes.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT, ROOT / "tests"):  # run as a script too (tests/vassal_combat/engine.py)
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from builder.load import load_game
from builder.vassal.geometry import BoardGeometry
from builder.vassal.module import BOX_MAP, MAIN_MAP
from builder.vassal.pieces import prop_name

INSERTED = "zz-inserted"
NEW_VERSION = "9.1"


@dataclass
class Plan:
    """What the player does in version 1, and what the errata change for version 2."""

    scenario: str
    moved: str  # a unit moved on the main map; its first factor is raised in version 2
    to: tuple[int, int]
    eliminated: str  # a unit moved into a box of the boxes window
    box: tuple[str, int, int]  # the box's name and a point in it
    removed: str  # a unit on the map that version 2 no longer has
    marker: str  # a marker (id) placed from the palette beside the moved unit; renamed
    marker_slot: str
    flipped: str  # a two-sided unit, or the marker when no unit has a back ('': nothing has)
    factor: str  # the property holding the moved unit's first factor ('Attack')
    raised: str  # its value in version 2
    props: list[str] = field(default_factory=list)


def _only_in_setups(folder: Path, uid: str) -> bool:
    """True when the unit's id appears in no source file but counters.csv and set-up lists."""
    pattern = re.compile(r"(?<![\w-])" + re.escape(uid) + r"(?![\w-])")
    for p in folder.rglob("*"):
        if p.is_file() and p.suffix in (".toml", ".csv", ".md") and p.name != "counters.csv" \
                and not p.name.endswith(".setup.csv") and pattern.search(p.read_text("utf-8")):
            return False
    return True


def plan(folder: Path, probes) -> Plan:
    """Choose the pieces to play with from the first scenario's set-up."""
    game = load_game(folder)
    sc = game.scenarios[0]
    geom = BoardGeometry(game)
    count = Counter(p.unit for p in sc.setup) + Counter(r.unit for r in sc.reinforcements)
    on_map, taken = [], set()
    for p in sc.setup:
        u = game.unit_by_id.get(p.unit)
        where = _place(game, p.at)
        if where:
            taken.add(where)
        if u is not None and count[u.id] == 1 and u.copies == 1 and where:
            on_map.append((u, where))
    moved, start = on_map[0]
    rest = [u for u, _ in on_map[1:]]
    removed = next(u for u in rest if _only_in_setups(folder, u.id))
    rest = [u for u in rest if u is not removed]
    flipped = next((u for u in rest if u.two_sided), None)
    rest = [u for u in rest if u is not flipped]
    eliminated = rest[0]
    free = next(w for w in _around(game, start) if w not in taken)
    to = geom.hex_point(free) if game.is_hex else geom.sector_point(free)
    boxes = [(name, x, y) for m, x, y, name in probes if m == BOX_MAP]
    box = next((b for b in boxes if re.search(r"eliminat|loss", b[0], re.IGNORECASE)), boxes[0])
    plain = [m for m in game.markers if not m.deck]
    marker = next((m for m in plain if flipped or m.back), plain[0])
    first = game.info.factor_names[0]
    value = re.split(r"-", moved.front)[0]
    raised = str(int(re.sub(r"\D", "", value) or 0) + 1)
    factors = [prop_name(f) for f in game.info.factor_names]
    return Plan(sc.name, moved.id, to, eliminated.id, box, removed.id, marker.id, marker.name,
                flipped.id if flipped else marker.id if marker.back else "", prop_name(first),
                raised,
                ["PieceId", "UnitId", "MarkerId", "Step_Level", "Face_Level", *factors])


def _place(game, at: str) -> str:
    if game.is_hex:
        try:
            h = game.hex(at)
        except ValueError:
            return ""
        return game.grid.label(h) if game.grid.contains(h) else ""
    return at if at in game.sector_by_id else ""


def _around(game, where: str) -> list[str]:
    if game.is_hex:
        return [game.grid.label(n) for n in game.grid.neighbours(game.hex(where))]
    return [s.id for s in game.map.sectors if s.id != where]


def first_session(p: Plan, save: Path) -> list[str]:
    """Version 1: set up, play, save."""
    return ["SETUP\t" + p.scenario,
            f"MOVE\t{p.moved}\t{MAIN_MAP}\t{p.to[0]}\t{p.to[1]}",
            f"PLACE\t{p.marker_slot}\t{MAIN_MAP}\t{p.to[0]}\t{p.to[1]}",
            *([f"FLIP\t{p.flipped}"] if p.flipped else []),
            f"MOVE\t{p.eliminated}\t{BOX_MAP}\t{p.box[1]}\t{p.box[2]}",
            "ECHO\tsaved", "DUMP\t" + ",".join(p.props), f"SAVE\t{save}"]


def second_session(p: Plan, save: Path, again: Path) -> list[str]:
    """Version 2: open the old save, refresh; a game set up in version 2, saved, reopened and
    refreshed."""
    props = "DUMP\t" + ",".join(p.props)
    return ["ECHO\topened", f"LOAD\t{save}", props, "ECHO\trefresh", "REFRESH",
            "ECHO\trefreshed", props,
            "ECHO\tnew", "SETUP\t" + p.scenario, f"SAVE\t{again}", f"LOAD\t{again}",
            "ECHO\trefresh-new", "REFRESH", "ECHO\tend"]


def edit_sources(folder: Path, p: Plan) -> None:
    """Errata for version 2: a unit inserted first, a factor raised, a marker renamed, a unit
    removed, the version raised."""
    counters = folder / "counters.csv"
    rows = list(csv.reader(io.StringIO(counters.read_text("utf-8"))))
    head, body = rows[0], [r for r in rows[1:] if r]
    col = {name: i for i, name in enumerate(head)}
    new = list(body[0])
    new[col["id"]], new[col["unit"]] = INSERTED, "99"
    out = [head, new]
    for r in body:
        if r[col["id"]] == p.removed:
            continue
        if r[col["id"]] == p.moved:
            parts = r[col["front"]].split("-")
            parts[0] = re.sub(r"\d+", p.raised, parts[0], count=1)
            r[col["front"]] = "-".join(parts)
        out.append(r)
    _write_csv(counters, out)
    markers = folder / "markers.csv"
    rows = list(csv.reader(io.StringIO(markers.read_text("utf-8"))))
    mcol = {name: i for i, name in enumerate(rows[0])}
    for r in rows[1:]:
        if r and r[mcol["id"]] == p.marker:
            r[mcol["name"]] = renamed(r[mcol["name"]])
    _write_csv(markers, rows)
    for setup in (folder / "scenarios").glob("*.setup.csv"):
        rows = list(csv.reader(io.StringIO(setup.read_text("utf-8"))))
        kept = [rows[0]] + [r for r in rows[1:] if r and r[0] != p.removed]
        kept.append([INSERTED] + kept[1][1:])  # set up beside the first unit of the list
        _write_csv(setup, kept)
    toml = folder / "game.toml"
    text = toml.read_text("utf-8")
    if re.search(r'(?m)^version\s*=', text):
        text = re.sub(r'(?m)^version\s*=.*$', f'version = "{NEW_VERSION}"', text, count=1)
    else:
        text = re.sub(r'(?m)^(title\s*=.*)$', rf'\1\nversion = "{NEW_VERSION}"', text, count=1)
    toml.write_text(text, "utf-8")


def renamed(name: str) -> str:
    """The placed marker's name in version 2."""
    return f"{name} (revised)"


def _write_csv(path: Path, rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), "utf-8")


def parts(records: list[list[str]]) -> dict[str, list[list[str]]]:
    """The engine's records, by the MARK before them."""
    out: dict[str, list[list[str]]] = {"start": []}
    here = "start"
    for r in records:
        if r[0] == "MARK":
            here = r[1]
            out[here] = []
        else:
            out[here].append(r)
    return out


def run_engine(vmod: Path, script: list[str], tmp: Path, name: str) -> list[list[str]]:
    """RefreshCheck's records for a script."""
    from tests.vassal_combat.engine import run_gui

    spec = tmp / f"{name}.txt"
    spec.write_text("\n".join(script) + "\n", encoding="utf-8")
    return [line.split("\t") for line in run_gui("RefreshCheck", [str(vmod), str(spec)])
            .splitlines()]


def play(folder: Path, tmp: Path, build: Callable[[Path, Path], object]) -> dict:
    """The whole update: returns the plan and the engine's records of both sessions.
    `build(folder, vmod)` writes a module of the sources in folder and returns its probes."""
    work = tmp / "sources" / folder.name
    shutil.copytree(folder, work)
    one, two = tmp / "v1.vmod", tmp / "v2.vmod"
    probes = build(work, one)
    p = plan(work, probes)
    save, again = tmp / "old.vsav", tmp / "new.vsav"
    first = run_engine(one, first_session(p, save), tmp, "first")
    edit_sources(work, p)
    build(work, two)
    second = run_engine(two, second_session(p, save, again), tmp, "second")
    return {"plan": p, "first": parts(first), "second": parts(second)}


def build_here(folder: Path, vmod: Path):
    """Build with this checkout (builder.vassal.module), each build after the first compared
    with the one before through the build record, as `builder build` does (output/<game>/)."""
    from builder.vassal import changes
    from builder.vassal.module import build_module

    last = folder.parent / "last.vmod"  # its record: last.vmod-record.json
    game = load_game(folder)
    since = changes.baseline(changes.read_record(last), game.info.version)
    b = build_module(game, since)
    vmod.write_bytes(b.vmod())
    changes.record_path(last).write_text(json.dumps(changes.new_record(
        game.info.version, b.content_digest, b.snapshot, since)), encoding="utf-8")
    return b.probes


def build_with(root: Path) -> Callable[[Path, Path], object]:
    """Build with another checkout of the builder (its build_module, in a process of its own)."""
    def build(folder: Path, vmod: Path):
        code = ("import sys, json; from builder.load import load_game; "
                "from builder.vassal.module import build_module; "
                "import builder; print(builder.__file__, file=sys.stderr); "
                "b = build_module(load_game(sys.argv[1])); open(sys.argv[2], 'wb').write(b.vmod()); "
                "print(json.dumps(b.probes if isinstance(b.probes, list) else b.make_probes()))")

        import os

        env = dict(os.environ, PYTHONPATH=str(root), BUILDER_CACHE_DIR=str(vmod.parent / "cache"))
        res = subprocess.run([sys.executable, "-c", code, str(folder), str(vmod)], env=env,
                             cwd=root, capture_output=True, text=True, check=True)  # its builder
        return [tuple(x) for x in json.loads(res.stdout.splitlines()[-1])]
    return build


def main(argv: list[str]) -> int:
    import argparse
    import tempfile

    from builder.load import find_game

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--builder", type=Path, help="another checkout's root, to build with")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        got = play(find_game(args.game), Path(tmp), build_with(args.builder) if args.builder
                   else build_here)
    print(got["plan"])
    for part, records in got["second"].items():
        for r in records:
            if r[0] in ("CHAT", "OPTION", "PROBLEM"):
                print(part, *r, sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
