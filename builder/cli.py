"""The `builder` command: list, check, build, calc, tables, rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from builder.errors import SourceError
from builder.load import find_game, list_games, load_game
from builder.summary import assumed_items, summary_lines

EXIT_SOURCE_ERROR = 2


def _load(name: str):
    """Load a game or exit 2 with every problem listed."""
    try:
        return load_game(find_game(name))
    except FileNotFoundError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    except SourceError as exc:
        n = len(exc.problems)
        click.echo(f"error: {name}: {n} problem{'s' if n != 1 else ''} in the sources:", err=True)
        for p in exc.problems:
            click.echo(f"  {p}", err=True)
        sys.exit(EXIT_SOURCE_ERROR)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="builder")
def main() -> None:
    """Build print files, a VASSAL module and a rules assistant from one folder of game data."""


@main.command("list")
def list_cmd() -> None:
    """List the games under sources/."""
    for name in list_games():
        click.echo(name)


@main.command()
@click.argument("games", nargs=-1, required=True)
@click.option("--assumed", is_flag=True, help="Also list every value marked as assumed.")
def check(games: tuple[str, ...], assumed: bool) -> None:
    """Validate GAME(s) and print a summary (GAME: folder under sources/ or a path)."""
    for name in games:
        game = _load(name)
        for line in summary_lines(game):
            click.echo(line)
        if assumed:
            for where, fields in assumed_items(game):
                click.echo(f"    assumed: {where}: {', '.join(fields)}")
        click.echo("  ok")


FORMATS = ("json",)


@main.command()
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Build every game under sources/.")
@click.option("--formats", default="all", show_default=True,
              help=f"Comma-separated: {', '.join(FORMATS)}, or all.")
@click.option("--out", "out_dir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder the outputs go to, one sub-folder per game.")
def build(games: tuple[str, ...], all_games: bool, formats: str, out_dir: str) -> None:
    """Build the outputs of GAME(s) into OUT/<game>/."""
    from builder.outputs import build_game

    names = list(games) or (list_games() if all_games else [])
    if not names:
        raise click.UsageError("name a GAME or give --all")
    wanted = FORMATS if formats == "all" else tuple(f.strip() for f in formats.split(",") if f.strip())
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown:
        raise click.UsageError(f"unknown format {', '.join(unknown)}: choose from {', '.join(FORMATS)}")
    loaded = [_load(n) for n in names]  # validate everything before writing anything
    for game in loaded:
        for path in build_game(game, wanted, Path(out_dir)):
            click.echo(f"wrote {path}")


@main.command()
@click.argument("game")
@click.argument("table", required=False)
def tables(game: str, table: str | None) -> None:
    """List GAME's tables, or print TABLE as text."""
    from builder.tables_text import table_text

    g = _load(game)
    if not table:
        for t in g.tables:
            click.echo(f"{t.id:24} {t.kind:14} {t.name}")
        return
    if table not in g.table_by_id:
        click.echo(f"error: {game} has no table '{table}' (tables: {', '.join(g.table_by_id)})", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    click.echo(table_text(g.table_by_id[table]))


@main.command()
@click.argument("game")
@click.argument("section", required=False)
@click.option("--search", "-s", "query", help="Find sections containing these words.")
def rules(game: str, section: str | None, query: str | None) -> None:
    """Show GAME's rules: the contents, one SECTION by number, or --search words."""
    from builder.rules_lookup import contents, find_section, search

    g = _load(game)
    if g.rules is None:
        click.echo(f"error: {game} has no rules.md", err=True)
        sys.exit(EXIT_SOURCE_ERROR)
    if query:
        hits = search(g.rules, query)
        if not hits:
            click.echo(f"no section mentions '{query}'")
            sys.exit(1)
        for s, snippet in hits:
            click.echo(f"{s.id:10} {s.title}\n           {snippet}")
        return
    if section:
        s = find_section(g.rules, section)
        if s is None:
            click.echo(f"error: {game} has no section {section} (see `builder rules {game}`)", err=True)
            sys.exit(EXIT_SOURCE_ERROR)
        click.echo(f"{s.id} {s.title}\n\n{s.text}")
        return
    click.echo(contents(g.rules))


@main.command()
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Folder to write to (default: the package's schema/ folder).")
def schema(out_dir: str | None) -> None:
    """Write the JSON Schemas of the source files (for editor completion and validation)."""
    from builder.schema import SCHEMA_DIR, write_schemas

    for path in write_schemas(Path(out_dir) if out_dir else SCHEMA_DIR):
        click.echo(f"wrote {path}")


if __name__ == "__main__":
    main()
