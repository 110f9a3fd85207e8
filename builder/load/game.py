"""Load one game folder: read every file, validate each, then check every cross-reference."""

from __future__ import annotations

import re
from pathlib import Path

from builder.errors import Collector
from builder.load import all_checks, checks
from builder.load.files import (
    MAX_RULES_BYTES,
    read_csv,
    read_text,
    read_toml,
    validate_row,
    validate_toml,
)
from builder.load.rules_md import parse_rules
from builder.load.source_cache import cached
from builder.model.base import complete_schemas
from builder.model.counters import Marker, Unit
from builder.model.game import GameInfo
from builder.model.game_model import Game
from builder.model.maps import AreaMap, HexMap
from builder.model.scenario import Placement, Scenario
from builder.model.tables import TablesFile

SOURCES = Path("sources")

UNIT_COLUMNS = {
    "id": True, "side": True, "formation": False, "unit": True, "type": True, "size": False,
    "front": True, "back": False, "back_name": False, "red": False, "marks": False,
    "copies": False, "counter": False, "counter_type": False, "assumed": False, "source": False,
    "note": False,
}
MARKER_COLUMNS = {
    "id": True, "name": True, "kind": True, "side": False, "front": False, "back": False,
    "value": False, "red": False, "counter": False, "copies": False, "deck": False,
    "assumed": False, "source": False, "note": False,
}
SETUP_COLUMNS = {
    "unit": True, "at": True, "also": False, "within": False, "region": False, "face": False,
    "code": False, "instruction": False, "assumed": False, "source": False, "note": False,
}
_LIST_COLUMNS = {"red", "marks", "also"}
MAX_SCENARIOS = 500  # the largest published games have a few dozen
_SCENARIO_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")


def list_games(root: Path = SOURCES) -> list[str]:
    """Names of the game folders under sources/ (those with a game.toml)."""
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.toml").is_file())


def find_game(name: str, root: Path = SOURCES) -> Path:
    """A GAME argument: a folder name under sources/ or a path to a game folder."""
    as_path = Path(name)
    if (as_path / "game.toml").is_file():
        return as_path
    under = root / name
    if (under / "game.toml").is_file():
        return under
    known = ", ".join(list_games(root)) or "none"
    raise FileNotFoundError(
        f"no game '{name}': expected a folder under {root}/ or a path to a folder with game.toml "
        f"(games here: {known})"
    )


def _cells(row: dict, model) -> dict:
    """CSV cells to model input: empty cells take the default, lists split on ';'."""
    data: dict = {}
    for key, value in row.items():
        if value == "":
            continue
        if key == "red" and model is Marker:
            data[key] = value.lower() in ("yes", "true", "1", "red")
        elif key in _LIST_COLUMNS:
            data[key] = [v.strip() for v in value.replace(";", " ").split() if v.strip()]
        elif key == "assumed":
            low = value.lower()
            if low in ("yes", "true", "*", "all"):
                data[key] = True
            elif low in ("no", "false"):
                data[key] = False
            else:
                data[key] = [v.strip() for v in value.split(";") if v.strip()]
        else:
            data[key] = value
    return data


def _present(path: Path) -> bool:
    """The file is there, or a link stands in its place (a broken link is reported, not skipped)."""
    return path.exists() or path.is_symlink()


def _read_rows(path: Path, columns: dict, model, errors: Collector, required: bool = True,
               ids: set | None = None, id_column: str = "id") -> list:
    """Valid rows as (line, item); ids (when given) collects every row's id, valid or not."""
    if not _present(path):
        if required:
            errors.add(path, "", "is missing", f"create it with the header: {','.join(columns)}")
        return []
    def read() -> tuple[list, set]:
        rows = read_csv(path, columns, errors)
        named = {checks.UNREADABLE} if rows is None else set()  # unknown ids: set-ups unchecked
        out = []
        for line, row in rows or []:
            if row.get(id_column):
                named.add(row[id_column])
            data = _cells(row, model)
            item = validate_row(model, path, line, data, errors)
            if item is not None:
                out.append((line, item))
        return out, named

    # the rows of a file read before with the same bytes: builder.load.source_cache
    out, named = cached(f"csv rows {model.__name__} {id_column} {','.join(columns)}", path,
                        errors, read)
    if ids is not None:
        ids.update(named)
    return out


def load_game(folder: Path | str) -> Game:
    """Read and validate a game folder; raise SourceError listing every problem found."""
    game, errors = inspect_game(folder)
    errors.raise_if_any()
    return game


def inspect_game(folder: Path | str) -> tuple[Game | None, Collector]:
    """Read and check a game folder: (the game, or None when it has problems; the collector with
    every problem and warning). Every file is checked even when another one is broken."""
    folder = Path(folder)
    errors = Collector(folder)
    complete_schemas()
    if not folder.is_dir():
        errors.add(folder, "", "is not a folder", "give a folder name under sources/ or a path to one")
        return None, errors

    info = map_ = None
    game_src = read_toml(folder / "game.toml", errors)
    if game_src:
        info = validate_toml(GameInfo, game_src, errors, salvage=True)
    map_src = read_toml(folder / "map.toml", errors)
    if map_src:
        kind = map_src.data.get("kind")
        if kind not in ("hex", "area"):
            errors.add(map_src.path, map_src.where(("kind",)) or "key kind",
                       f"kind is {kind!r}", "set kind = \"hex\" or kind = \"area\"")
        else:
            map_ = validate_toml(HexMap if kind == "hex" else AreaMap, map_src, errors, salvage=True)

    counter_ids: set[str] = set()  # every id written, so a broken row does not also break set-ups
    units = _read_rows(folder / "counters.csv", UNIT_COLUMNS, Unit, errors, ids=counter_ids)
    markers = _read_rows(folder / "markers.csv", MARKER_COLUMNS, Marker, errors, required=False,
                         ids=counter_ids)

    tables = ()
    tables_src = None
    if _present(folder / "tables.toml"):
        tables_src = read_toml(folder / "tables.toml", errors)
        if tables_src:
            parsed = validate_toml(TablesFile, tables_src, errors, salvage=True)
            tables = parsed.tables if parsed else ()

    scenarios = _load_scenarios(folder, errors)

    rules = None
    rules_text = None
    if _present(folder / "rules.md"):
        rules_text = read_text(folder / "rules.md", errors, limit=MAX_RULES_BYTES)
        if rules_text is not None:
            rules = parse_rules(rules_text, folder / "rules.md", errors)

    parts = dict(
        slug=folder.resolve().name,
        folder=str(folder),
        units=tuple(u for _, u in units),
        markers=tuple(m for _, m in markers),
        tables=tables,
        scenarios=tuple(s for s, _ in scenarios),
        rules=rules,
    )
    if info is not None and map_ is not None:
        game = Game(info=info, map=map_, **parts)
    else:  # a stand-in, only for checking the other files against what could be read
        game = Game.model_construct(info=info or checks.stand_in_info(game_src), map=map_, **parts)
    raw = checks.RawIds.of(game_src, tables_src, _present(folder / "tables.toml"))
    all_checks.check_game(game, errors, game_src, map_src, tables_src, units, markers, scenarios,
                      counter_ids, raw=raw, complete=info is not None, rules_text=rules_text)
    return (None if errors.problems else game), errors


def _load_scenarios(folder: Path, errors: Collector) -> list:
    out = []
    sdir = folder / "scenarios"
    if not sdir.is_dir():
        if sdir.exists():
            errors.add(sdir, "", "is not a folder", "make scenarios/ a folder of <id>.toml files")
        return out
    paths = sorted(sdir.glob("*.toml"))
    if len(paths) > MAX_SCENARIOS:  # each becomes module set-ups and printed set-up charts
        errors.add(sdir, "", f"holds {len(paths):,} scenarios, more than the {MAX_SCENARIOS} a game "
                   "may have", "keep the scenarios the rules give; move drafts out of the folder")
        return out
    for path in paths:
        sid = path.stem
        if not _SCENARIO_ID.fullmatch(sid):
            errors.add(path, "", f"'{sid}' is not a scenario id (it names the scenario in every "
                       "output)", "rename the file with lower-case letters, digits, '-' or '_'")
            continue
        src = read_toml(path, errors)
        if not src:  # its set-up file is still checked for problems of its own
            if _present(sdir / f"{sid}.setup.csv"):
                _read_rows(sdir / f"{sid}.setup.csv", SETUP_COLUMNS, Placement, errors)
            continue
        data = dict(src.data)
        setup_name = data.get("setup_file") or f"{sid}.setup.csv"
        if not isinstance(setup_name, str) or Path(setup_name).name != setup_name or \
                setup_name.startswith("."):
            errors.add(path, src.where(("setup_file",)), f"setup_file {setup_name!r} is not a file "
                       "name in scenarios/", "give just the file name, e.g. 'campaign.setup.csv'")
            continue
        setup_path = sdir / setup_name
        placements = []
        named: set[str] = set()  # units of every row, valid or not
        if "setup" in data:
            errors.add(path, src.where(("setup",)), "set-up positions belong in the .setup.csv file",
                       f"move them to {setup_name}")
        if _present(setup_path):
            for line, item in _read_rows(setup_path, SETUP_COLUMNS, Placement, errors, ids=named,
                                         id_column="unit"):
                placements.append(item.model_copy(update={"line": line}))
        elif data.get("setup_file"):
            errors.add(path, src.where(("setup_file",)), f"names {setup_name}, which does not exist",
                       "create it or correct the name")
        data["id"] = sid
        scenario = validate_toml(Scenario, src, errors, data=data, salvage=True)
        if scenario is not None:
            scenario = scenario.model_copy(update={"setup": tuple(placements),
                                                   "setup_file": setup_path.name})
            out.append((scenario, (src, setup_path, named)))
    return out
