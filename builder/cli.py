"""The `builder` command: list, check, build, calc, tables, rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from builder.errors import SourceError
from builder.load import find_game, list_games, load_game
from builder.summary import assumed_items, summary_lines
from builder.views import designer_text

EXIT_SOURCE_ERROR = 2
EXIT_UNEXPECTED = 1


def unexpected_error(exc: BaseException) -> str:
    """One line for an error no check foresaw: what it was, and what to do (never a traceback;
    BUILDER_TRACEBACK=1 prints one too)."""
    what = " ".join(str(exc).split()) or "(no message)"
    if len(what) > 300:
        what = what[:297] + "..."
    if isinstance(exc, FileNotFoundError) and "site-packages" in str(exc.filename or ""):
        hint = "the installed builder is missing a file of its own: reinstall it"
    elif isinstance(exc, MemoryError):
        hint = "the machine ran out of memory: build fewer formats at once (--formats, -j 1)"
    elif isinstance(exc, OSError):
        hint = "check the output folder is writable and the disk has room, then run it again"
    else:
        hint = "this is a fault in builder, not in your sources: run it again with " \
               "BUILDER_TRACEBACK=1 and report what it prints"
    return f"error: unexpected {type(exc).__name__}: {what} (hint: {hint})"


def _load(name: str, cached: bool = True):
    """Load a game or exit 2 with every problem listed. `cached`: reuse the model validated
    last time if neither the sources nor the builder changed (builder.load.model_cache)."""
    from builder.load.model_cache import load_game_cached

    try:
        folder = find_game(name)
        return load_game_cached(folder, load_game) if cached else load_game(folder)
    except FileNotFoundError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    except SourceError as exc:
        _exit_with(name, exc)


def _exit_with(name: str, exc: SourceError):
    """List every problem of a game's sources (then its warnings) and exit 2."""
    _list_problems(name, exc.problems, exc.warnings)
    sys.exit(EXIT_SOURCE_ERROR)


def _list_problems(name: str, problems, warnings) -> None:
    """Problems first, then warnings (legal but likely wrong), each with file, place and fix."""
    for kind, items, what in (("error", problems, "problem"), ("warning", warnings, "warning")):
        if not items:
            continue
        n = len(items)
        tail = " in the sources:" if kind == "error" else " (legal, but likely wrong):"
        click.echo(f"{kind}: {name}: {n} {what}{'s' if n != 1 else ''}{tail}", err=True)
        for p in items:
            click.echo(f"  {p}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="builder")
def main() -> None:
    """Build print files, a VASSAL module and a rules assistant from one folder of game data."""


def run() -> None:
    """The console entry point: main(), then exit without freeing the heap object by object
    (a campaign game's model and drawings took 0.45 s to tear down after every file was
    written). Exit handlers still run and the streams are flushed first."""
    import atexit
    import gc
    import os

    # A build makes millions of small objects that live to its end (the model, the drawings),
    # and the collector's default (a pass every 700 new objects) spent 0.1-0.2 s per process
    # scanning them again. Collect less often, and set aside what exists before each fork so
    # neither the parent nor the forked children scan it again (as CPython's gc docs advise).
    gc.set_threshold(20_000, 20, 20)
    os.register_at_fork(before=gc.freeze)
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        print("builder: interrupted", file=sys.stderr)
        code = 130
    except Exception as exc:  # noqa: BLE001  (a bug or the machine, never a traceback)
        print(unexpected_error(exc), file=sys.stderr)
        if os.environ.get("BUILDER_TRACEBACK"):
            import traceback

            traceback.print_exception(exc)
        code = EXIT_UNEXPECTED
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    if sys.getprofile() or sys.gettrace():  # a profiler or coverage writes its data at exit
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing left to say to it
            code = code or 1
    os._exit(code)


@main.command("list")
def list_cmd() -> None:
    """List the games under sources/."""
    for name in list_games():
        click.echo(name)


@main.command()
@click.argument("games", nargs=-1, required=True)
@click.option("--assumed", is_flag=True, help="Also list every value marked as assumed.")
@click.option("--strict", is_flag=True, help="Warnings fail the check too (exit 2).")
def check(games: tuple[str, ...], assumed: bool, strict: bool) -> None:
    """Validate GAME(s): every problem, then every warning, at once; a summary when valid."""
    from builder.load.game import inspect_game

    failed = False
    for name in games:
        try:
            folder = find_game(name)
        except FileNotFoundError as exc:
            click.echo(f"error: {exc}", err=True)
            failed = True
            continue
        game, found = inspect_game(folder)
        if game is None:
            try:
                found.raise_if_any()
            except SourceError as exc:
                _list_problems(name, exc.problems, exc.warnings)
            failed = True
            continue
        for line in summary_lines(game):
            click.echo(line)
        if assumed:
            for where, fields in assumed_items(game):
                click.echo(f"    assumed: {where}: {', '.join(fields)}")
            from builder import terrain_chart

            for line in terrain_chart.summary(game):
                click.echo(f"    {line}")
        warnings = list(found.warnings) + [  # text printed for players as written
            f"{where} is printed for players but says "
            f"{', '.join(repr(w) for w in dict.fromkeys(words))}: move that to the item's "
            "`note` (shown only in the proof, builder build --proof)"
            for where, words in designer_text(game)]
        warnings += _look_alikes(game)
        warnings += _module_by_hand(game)
        _list_problems(name, [], warnings)
        failed = failed or (strict and bool(warnings))
        click.echo("  ok" if not warnings else
                   f"  ok, with {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
                   + (" (failed: --strict)" if strict else ""))
    if failed:
        sys.exit(EXIT_SOURCE_ERROR)


def _module_by_hand(game) -> list[str]:
    """Rules the VASSAL module leaves to the player (issue 38): each named with file and line."""
    from builder.vassal_combat.tables import by_hand_warnings

    return by_hand_warnings(game)


def _look_alikes(game) -> list[str]:
    """Two terrain or hexside types the printed map could not tell apart (issue 16)."""
    if game.map is None or getattr(game.map, "artwork", None):
        return []
    from builder.render.map_styles import look_alikes

    return [f"map.toml: {text}: give one of them another colour or pattern, so the map and "
            "its legend tell them apart, in greyscale too" for text in look_alikes(game)]


FORMATS = ("json", "html", "svg", "pdf", "png")
FORMATS += ("vmod",)


@main.command()
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Build every game under sources/.")
@click.option("--formats", default="all", show_default=True,
              help=f"Comma-separated: {', '.join(FORMATS)}, or all.")
@click.option("--out", "out_dir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder the outputs go to, one sub-folder per game.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Where drawn components are kept between builds (default: OUT/.cache).")
@click.option("--no-cache", is_flag=True,
              help="Draw everything again, without reading or writing the cache.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes for drawing (default: BUILDER_JOBS, else one per core).")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None,
              help="Paper for the print files (default: the game's paper in game.toml).")
@click.option("--map-sheet", type=click.Choice(["tiled", "11x17", "a3", "22x34"]), default=None,
              help="Print the map on one large sheet instead of tiled over the paper (a map "
                   "larger than the sheet is refused, naming the smallest sheet that fits).")
@click.option("--proof", is_flag=True,
              help="Also write the designer's proof, OUT/<game>/<game>-proof.pdf: every assumed "
                   "value, note, reading and editor's note (the player files have none).")
def build(games: tuple[str, ...], all_games: bool, formats: str, out_dir: str,
          cache_dir: str | None, no_cache: bool, jobs: int | None, paper: str | None, map_sheet: str | None,
          proof: bool) -> None:
    """Build the outputs of GAME(s) into OUT/<game>/ (unchanged ones are skipped)."""
    from contextlib import ExitStack

    from builder import incremental, parallel
    from builder.cache import Cache
    from builder.load import later
    from builder.outputs import build_game
    from builder.outputs.print import print_options, print_options_tag

    stack = ExitStack()

    if games and all_games:
        raise click.UsageError(
            f"give GAME names or --all, not both: --all builds every game under sources/ "
            f"(to build the games in a folder, name them: builder build {games[0]}/*)")
    names = list(games) or (list_games() if all_games else [])
    if not names:
        raise click.UsageError("name a GAME or give --all")
    wanted = FORMATS if formats == "all" else tuple(f.strip() for f in formats.split(",") if f.strip())
    wanted += ("proof",) if proof and "proof" not in wanted else ()
    unknown = [f for f in wanted if f not in FORMATS + ("proof",)]
    if unknown:
        raise click.UsageError(f"unknown format {', '.join(unknown)}: choose from {', '.join(FORMATS)}")
    store = None if no_cache else Cache(Path(cache_dir) if cache_dir else Path(out_dir) / ".cache")
    plans = []  # (name, sources digest, formats to build, files already up to date)
    for name in names:
        try:
            folder = find_game(name)
        except FileNotFoundError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_SOURCE_ERROR)
        digest = incremental.sources_digest(folder) + print_options_tag(paper, map_sheet)
        game_out = Path(out_dir) / folder.resolve().name  # the slug load_game gives
        todo, fresh = [], []
        for fmt in wanted:
            done = incremental.up_to_date(store, digest, fmt, game_out)
            todo.extend([fmt] if done is None else [])
            fresh.extend(done or [])
        plans.append((name, digest, todo, fresh))
    stack.enter_context(later.deferred())  # what loading learnt is written while formats build
    try:
        # validate everything that must be built before writing anything
        loaded = [(_load(name, cached=not no_cache) if todo else None, digest, todo, fresh)
                  for name, digest, todo, fresh in plans]
        if map_sheet and set(wanted) & {"svg", "pdf", "png"}:
            from builder.outputs.print import map_sheet_problem

            for game, *_ in loaded:
                problem = game and map_sheet_problem(game, map_sheet)
                if problem:
                    click.echo(f"error: {game.slug}: {problem}", err=True)
                    sys.exit(EXIT_SOURCE_ERROR)
        parallel.JOBS = jobs
        stack.enter_context(print_options(paper=paper, map_sheet=map_sheet))
        for game, digest, todo, fresh in loaded:
            for path in fresh:
                click.echo(f"unchanged {path}")
            if game is not None:
                try:  # a builder may find a fault only it can see (e.g. supplied map art)
                    made = len(incremental.kept)
                    paths = build_game(game, todo, Path(out_dir), cache=store, digest=digest)
                    kept = set(incremental.kept[made:])  # a set: a campaign game has 200 files
                    for path in paths:
                        click.echo(f"{'unchanged' if path in kept else 'wrote'} {path}")
                except SourceError as exc:
                    _exit_with(game.slug, exc)
                except MemoryError:
                    # cairo cannot replay a campaign-sized map (a dozen Europa sheets) into one
                    # raster; the vector formats still build
                    click.echo(f"error: {game.slug}: ran out of memory drawing a raster of the whole "
                               f"map ({', '.join(todo)}); the map is too large for one image: build "
                               "the vector formats (--formats json,html,svg,pdf) or split the map "
                               "into games of a few sheets", err=True)
                    sys.exit(1)
    finally:
        stack.close()
        parallel.JOBS = None
    if all_games:  # the index links every game's outputs, after all are built
        from builder import cache as cache_mod
        from builder.outputs.html import build_index

        with cache_mod.using(store):  # its previews are drawn once, then taken from the cache
            click.echo(f"wrote {build_index(names, Path(out_dir))}")
    if store is not None and store.stats.written:
        store.prune()


@main.command()
@click.argument("game")
@click.argument("table", required=False)
@click.option("--json", "as_json", is_flag=True, help="Every calculator and its inputs as JSON.")
@click.option("--designer", is_flag=True,
              help="Also show what is assumed or reconstructed, and the tables' notes.")
def tables(game: str, table: str | None, as_json: bool, designer: bool) -> None:
    """List GAME's tables with their inputs, types and allowed values, or print TABLE as text."""
    import json

    from builder.tables.api import CalcError, list_calculators
    from builder.tables_text import calculators_text, table_text
    from builder.views import player_view

    g = _load(game)
    if not designer:
        g = player_view(g)
    try:
        entries = list_calculators(g)
    except CalcError as exc:
        _calc_error(exc)
    if table:
        entries = [e for e in entries if e["id"] == table]
        if not entries:
            known = ", ".join(e["id"] for e in list_calculators(g))
            click.echo(f"error: {game} has no table '{table}' (tables: {known})", err=True)
            sys.exit(EXIT_SOURCE_ERROR)
    if as_json:
        click.echo(json.dumps(entries if not table else entries[0], indent=2, ensure_ascii=False))
        return
    if table and table in g.table_by_id:
        click.echo(table_text(g, g.table_by_id[table]) + "\n")
    click.echo(calculators_text(entries))


def _calc_error(exc) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(EXIT_SOURCE_ERROR)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("table")
@click.argument("assignments", nargs=-1)
@click.option("--roll", help="The roll: a total (7), the dice (3,4), or one per marker (2,5).")
@click.option("--json", "as_json", is_flag=True, help="The answer as one JSON object.")
@click.option("--designer", is_flag=True,
              help="Also show the designer's notes: what is assumed or reconstructed, readings.")
def calc(game: str, table: str, assignments: tuple[str, ...], roll: str | None, as_json: bool,
         designer: bool) -> None:
    """Work out TABLE of GAME for NAME=VALUE inputs: the result with --roll, else the odds."""
    from builder.tables.api import CalcError, calculate, parse_assignments
    from builder.views import player_view

    g = _load(game)
    # the working a player reads: no provenance, assumed marks or readings; choosing another
    # reading of a table (reading=...) is the designer's question, answered with the notes
    if not designer and not any(a.split("=", 1)[0].strip() == "reading" for a in assignments):
        g = player_view(g)
    try:
        result = calculate(g, table, parse_assignments(assignments), roll)
    except CalcError as exc:
        _calc_error(exc)
    except ValueError as exc:  # a bad roll or hex: the message says what is allowed
        _calc_error(exc)
    if as_json:
        import json

        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        from builder.tables_text import calculation_text

        click.echo(calculation_text(result))


@main.command()
@click.argument("game")
@click.argument("section", required=False)
@click.option("--search", "-s", "query", help="Find sections containing these words.")
def rules(game: str, section: str | None, query: str | None) -> None:
    """Show GAME's rules: the contents, one SECTION by number, or --search words."""
    from builder.rules_lookup import contents, find_section, search, section_text

    g = _load(game)
    if g.rules is None:
        click.echo(f"error: {game} has no rules.md", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    if query:
        hits = search(g.rules, query)
        if not hits:
            click.echo(f"no section mentions '{query}'")
            sys.exit(1)
        for rank, (s, snippet) in enumerate(hits, 1):
            click.echo(f"{rank:>2}. {s.id:10} {s.title}\n              {snippet}")
        return
    if section:
        s = find_section(g.rules, section)
        if s is None:
            near = [x.id for x in g.rules.sections if x.id.split(".")[0] == section.strip("[]").split(".")[0]]
            click.echo(f"error: {game} has no section {section}"
                       + (f" (sections there: {', '.join(near)})" if near else
                          f" (see `builder rules {game}` for the contents)"), err=True)
            sys.exit(EXIT_SOURCE_ERROR)
        click.echo(section_text(g.rules, s))
        return
    click.echo(contents(g.rules))


@main.command("new")
@click.argument("name")
@click.option("--title", default="", help="The game's title (default: from NAME, 'my-game' -> 'My Game').")
def new_cmd(name: str, title: str) -> None:
    """Start a new game: NAME is a folder under sources/ (or a path) that does not exist yet."""
    from builder.load.game import SOURCES
    from builder.new_game import create_game

    folder = Path(name) if ("/" in name or name.startswith(".")) else SOURCES / name
    try:
        written = create_game(folder, title)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"next: builder check {name}; builder build {name} (see README.md, 'Your first game')")


@main.command()
@click.argument("game")
@click.option("--out", "out_dir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder the outputs go to, one sub-folder per game.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port of the preview page on 127.0.0.1 (0: any free port).")
@click.option("--formats", default="svg", show_default=True,
              help="Formats rebuilt on each save (the page shows the SVG drawings).")
def watch(game: str, out_dir: str, port: int, formats: str) -> None:
    """Rebuild GAME on every save and show map, counters, aid cards and problems in a local page."""
    from builder import parallel
    from builder.watch import watch as run_watch

    try:
        folder = find_game(game)
    except FileNotFoundError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    wanted = tuple(f.strip() for f in formats.split(",") if f.strip())
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown or "svg" not in wanted:
        raise click.UsageError(f"--formats must include svg (the page shows it); choose from "
                               f"{', '.join(FORMATS)}")
    out_root = Path(out_dir)
    if out_root.resolve().is_relative_to(folder.resolve()):
        raise click.UsageError("--out is inside the game folder: each build would trigger the next")
    parallel.JOBS = 1  # a few drawings change per save: starting workers costs more than it saves
    try:
        run_watch(folder, out_root, port, lambda text: click.echo(text), wanted)
    except OSError as exc:  # e.g. the port is taken
        click.echo(f"error: cannot serve the preview on 127.0.0.1:{port}: {exc.strerror or exc} "
                   "(fix: choose another --port, or 0 for any free one)", err=True)
        sys.exit(1)


@main.command()
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Folder to write to (default: the package's schema/ folder).")
def schema(out_dir: str | None) -> None:
    """Write the JSON Schemas of the source files (for editor completion and validation) and
    docs/source-format.md, the reference of every key."""
    from builder.resources import checkout
    from builder.schema import SCHEMA_DIR, write_schemas
    from builder.source_docs import write_docs

    for path in write_schemas(Path(out_dir) if out_dir else SCHEMA_DIR):
        click.echo(f"wrote {path}")
    if not out_dir and checkout():  # the reference in docs/ is generated from the same models
        click.echo(f"wrote {write_docs()}")


if __name__ == "__main__":
    main()
