"""The anchor for workload (b): the same game made with LaTeX's `wargame` package and pywargame.

    python3 benchmarks/anchor.py write GAME DIR     # DIR/folio.sty, folio.tex, export.tex
    python3 benchmarks/anchor.py run DIR [PYTHON]   # .tex -> folio.pdf, export.pdf, folio.vmod

`write` reads a game folder written by benchmarks/synth.py (map.toml, counters.csv,
markers.csv, tables.toml) and writes it the way the `wargame` package's tutorial does
(texdoc wargame; /usr/share/doc/texlive-doc/latex/wargame/tutorial): a package with the board,
every counter as a TikZ style and the lists of counters; a print document (the board, the
double-sided counter sheets, the charts); an export document (`wgexport` class: each counter
face, the board and the charts on their own pages, with a JSON description). `run` compiles
both with pdflatex (again while the log asks for a rerun) and makes the VASSAL module with
pywargame's LaTeX exporter (`wgexport.py`), as the tutorial's Makefile does. benchmarks/run.py
times `run` from a cold start (the .tex files written, nothing compiled).

What is the same as builder's (b): 30 x 40 hexes of 0.6 in with each hex's terrain (wargame's
own woods, swamp, rough and mountains drawings; sea as a fill; towns with their names), the
rivers, roads and railway, hex numbers, 200 two-sided units with NATO symbols, unit names and
factors on both faces, the 41 markers, counter sheets front and back, a CRT and a terrain
chart, and a module with the board, its hex grid and every piece. Not drawn: objectives, the
region tint, the turn track and the set-up (builder's module places the units; wgexport's
draft leaves them in the OOB). The board is one page of its own size, not tiled on letter
pages as builder prints it.

Install (Debian 12 and PyPI; not needed by the builder, its tests or CI):

    apt-get install -y --no-install-recommends texlive-games texlive-latex-extra \\
        texlive-pictures texlive-fonts-recommended poppler-utils
    python3.12 -m pip install pywargame

pywargame 0.8.0 needs Python 3.12 or later (it uses backslashes inside f-strings); the run
looks for it under this Python, then `python3.13`/`python3.12` on PATH and pyenv's versions,
or the interpreter named by ANCHOR_PYTHON. Its LaTeX exporter module also forgets to import the
VASSAL classes it uses (NameError: name 'GlobalOptions' is not defined); `run` starts it
through a two-line shim that hands it those names, changing nothing else.
"""

from __future__ import annotations

import csv
import glob
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

INSTALL = ("apt-get install -y --no-install-recommends texlive-games texlive-latex-extra "
           "texlive-pictures texlive-fonts-recommended poppler-utils; "
           "python3.12 -m pip install pywargame")

# builder's terrain ids -> the wargame package's terrain drawings (sea: a fill, no drawing)
TERRAIN = {"marsh": "swamp", "woods": "woods", "rough": "rough", "mountain": "mountains"}
# builder's unit types -> NATO APP-6(C) symbol keys of the wargame package
SYMBOL = {
    "infantry": "main=infantry",
    "armour": "main=armoured",
    "mechanised": "main={armoured,infantry}",
    "motorised": "main={infantry,motorized}",
    "artillery": "main=artillery",
    "mountain": "main=infantry,lower=mountain",
    "cavalry": "main=reconnaissance",
    "paratroop": "main=infantry,lower=airborne",
    "engineer": "main=engineer",
    "headquarters": "main=headquarters",
}
CHIT_PITCH = 1.24  # cm between counters on a sheet (the tutorial's)
PER_ROW = 7  # fronts in a sheet row (backs mirrored beside them)
ROWS_PER_PAGE = 16


@dataclass
class Unit:
    id: str
    side: str
    formation: str
    name: str
    type: str
    size: str
    front: tuple[str, ...]
    back: tuple[str, ...]


@dataclass
class Marker:
    id: str
    front: str
    back: str
    copies: int


@dataclass
class Game:
    title: str
    columns: int
    rows: int
    hex_in: float  # across flats, inches
    colours: dict[str, str]  # terrain, side and formation id -> #rrggbb
    terrain: dict[tuple[int, int], str] = field(default_factory=dict)  # (col, row) -> id
    towns: dict[tuple[int, int], str] = field(default_factory=dict)  # (col, row) -> name
    units: list[Unit] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    rivers: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    lines: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)  # type, hexes
    crt: list[list[str]] = field(default_factory=list)  # die roll, then results
    terrain_names: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> name, MP


def _cell(text: str) -> tuple[int, int]:
    return int(text[:2]), int(text[2:4])


def _hexes(spec: str) -> list[tuple[int, int]]:
    """"0304" or "0304..0309" (a run along one column, either way, as synth.py writes them),
    in order."""
    first, _, last = spec.partition("..")
    c, r = _cell(first)
    end = _cell(last)[1] if last else r
    step = 1 if end >= r else -1
    return [(c, row) for row in range(r, end + step, step)]


def read_game(folder: Path) -> Game:
    """The parts of a one-sheet synthetic game the anchor draws (see the module's docstring)."""
    game_toml = tomllib.loads((folder / "game.toml").read_text())
    map_toml = tomllib.loads((folder / "map.toml").read_text())
    colours = {}
    for side in game_toml["sides"]:
        colours[side["id"]] = side["color"]
        for f in side.get("formations", []):
            colours[f["id"]] = f["color"]
    for t in map_toml["terrain_types"]:
        colours[t["id"]] = t["color"]
    size = map_toml["hex_size"]
    game = Game(title=game_toml["title"],
                columns=int(map_toml["columns"].split("-")[1]),
                rows=int(map_toml["rows"].split("-")[1]),
                hex_in=float(size.removesuffix("in")), colours=colours)
    game.terrain_names = {t["id"]: (t["name"], str(t.get("effects", {}).get("movement", "")))
                          for t in map_toml["terrain_types"]}
    for block in map_toml.get("terrain", []):
        for spec in block["hexes"]:
            for cell in _hexes(spec):
                if block["terrain"] == "town":
                    game.towns.setdefault(cell, "")
                else:
                    game.terrain[cell] = block["terrain"]
    for block in map_toml.get("hexsides", []):
        for side in block["sides"]:
            a, b = side.split("/")
            game.rivers.append((_cell(a), _cell(b)))
    for block in map_toml.get("lines", []):
        game.lines.append((block["type"], [h for spec in block["hexes"] for h in _hexes(spec)]))
    for kind in ("hexside_types", "line_types"):
        for t in map_toml.get(kind, []):
            colours[t["id"]] = t["color"]
    for label in map_toml.get("labels", []):
        cell = _cell(label["hex"])
        if cell in game.towns:
            game.towns[cell] = label["text"]
    with open(folder / "counters.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            game.units.append(Unit(row["id"], row["side"], row["formation"], row["unit"],
                                   row["type"], row["size"], tuple(row["front"].split("-")),
                                   tuple(row["back"].split("-"))))
    with open(folder / "markers.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            game.markers.append(Marker("marker-" + row["id"], row["front"],
                                       row["back"] or row["front"], int(row["copies"] or 1)))
    tables = tomllib.loads((folder / "tables.toml").read_text())
    crt = next(t for t in tables["tables"] if t["id"] == "crt")
    game.crt = [[roll, *results] for roll, results in crt["results"].items()]
    return game


def _tex(text: str) -> str:
    """Text safe inside a TikZ key value and a LaTeX paragraph."""
    return re.sub(r"([#$%&_{}])", r"\\\1", text)


def _colour_name(key: str) -> str:
    """A colour name of letters only: digits spelt as letters (axis-10 -> wgaxisba)."""
    spelt = key.translate(str.maketrans("0123456789", "abcdefghij"))
    return "wg" + re.sub(r"[^a-zA-Z]", "", spelt)


def game_sty(game: Game) -> str:
    """The package both documents load: colours, counter styles, the board, the charts."""
    out = [r"\ProvidesPackage{folio}", r"\RequirePackage{wargame}", ""]
    for key, colour in sorted(game.colours.items()):
        out.append(rf"\definecolor{{{_colour_name(key)}}}{{HTML}}{{{colour.lstrip('#')[:6]}}}")
    out += ["", r"% units: front and back faces (the tutorial's style: back paler, back factors)"]
    for u in game.units:
        fill = _colour_name(u.formation if u.formation in game.colours else u.side)
        chit = (rf"chit={{symbol={{faction=friendly,command=land,{SYMBOL[u.type]},"
                rf"echelon={u.size},scale line widths,line width=1pt}},"
                rf"unique={{chit/identifier={_tex(u.name)}}},"
                rf"factors={{chit/3 factors={{{','.join(u.front)}}}}}}}")
        out.append(rf"\tikzset{{{u.id}/.style={{fill={fill},draw=black,{chit}}},")
        out.append(rf"  {u.id} flipped/.style={{{u.id},fill={fill}!50!white,"
                   rf"/chit/factors={{chit/3 factors={{{','.join(u.back)}}}}}}}}}")
    out += ["", r"\tikzset{chit/3 factors/.style={font=\sffamily\bfseries\small}}"]
    out += ["", r"\tikzset{marker text/.pic={\node[font=\sffamily\bfseries\scriptsize,"
                r"align=center,text width=1.1cm]{#1};}}"]
    for m in game.markers:
        out.append(rf"\tikzset{{{m.id}/.style={{fill=white,draw=black,"
                   rf"chit={{full={{marker text={_tex(m.front)}}}}}}},")
        out.append(rf"  {m.id} flipped/.style={{fill=white,draw=black,"
                   rf"chit={{full={{marker text={_tex(m.back)}}}}}}}}}")
    # lists of turns of counters, as the tutorial's \alla: one turn (every counter once: the
    # module's images; the counter sheets list each copy)
    for side in sorted({u.side for u in game.units}):
        out.append(rf"\def\all{side}" + _turn([u.id for u in game.units if u.side == side]))
    out.append(r"\def\allmarkers" + _turn([m.id for m in game.markers]))
    out += ["", *_board(game), "", *_charts(game), r"\endinput", ""]
    return "\n".join(out)


def _turn(items: list[str]) -> str:
    """A list of one turn of counters: {{a,b,c}}."""
    return "{{" + ",".join(items) + "}}"


def _board(game: Game) -> list[str]:
    """The board as in the tutorial: hex options, then one \\hex per hex with its terrain."""
    out = [r"\tikzset{hex/short bottom columns=none,hex/short top columns=none,",
           r"  hex/first row and column are=1,hex/row direction is=reversed,",
           r"  every hex/.style={/hex/label={auto=numbers},fill=white,draw=black,"
           r"line width=.3pt},",
           r"  hex/town name/.append style={font=\sffamily\tiny,below=1.5mm}}",
           r"\newcommand\hexes{%"]
    for c in range(1, game.columns + 1):
        for r in range(1, game.rows + 1):
            tid = game.terrain.get((c, r), "clear")
            opts = [f"fill={_colour_name(tid)}"]
            if tid in TERRAIN:
                opts.append(f"terrain={TERRAIN[tid]}")
            if (c, r) in game.towns:
                opts.append(f"town={{name={{{_tex(game.towns[(c, r)])}}}}}")
            out.append(rf"  \hex[{','.join(opts)}](c={c},r={r});")
    # a river runs along the side two hexes share: the perpendicular bisector of their
    # centres, half a side (1 cm in the package) each way of the midpoint; .57735 is 0.5 over
    # the half distance between centres (sqrt 3 / 2)
    for (c1, r1), (c2, r2) in game.rivers:
        a, b = f"hex cs:c={c1},r={r1}", f"hex cs:c={c2},r={r2}"
        out.append(rf"  \draw[river] ($({a})!.5!({b})!.57735!90:({b})$)"
                   rf" -- ($({a})!.5!({b})!.57735!-90:({b})$);")
    for kind, cells in game.lines:  # roads and railways from hex centre to hex centre
        path = " -- ".join(f"(hex cs:c={c},r={r})" for c, r in cells)
        out.append(rf"  \draw[{kind}] {path};")
    out += ["}",
            r"\tikzset{river/.style={draw=wgriver,line width=2pt,line cap=round},",
            r"  road/.style={draw=wgroad,line width=1.2pt,line join=round},",
            r"  rail/.style={draw=wgrail,line width=1pt,dashed,line join=round}}",
            # flat-topped hexes of 1 cm to the corner in the package; the game's are
            # hex_in across the flats
            rf"\newcommand\boardscale{{{game.hex_in * 2.54 / 3 ** 0.5:.4f}}}",
            r"\newcommand\board{%",
            r"  \begin{tikzpicture}[zoned,scale=\boardscale]",
            r"    \begin{scope}[zone scope=Hex]",
            r"      \hexes",
            rf"      \boardframe(c=1,r=1)(c={game.columns},r={game.rows})",
            r"    \end{scope}",
            r"  \end{tikzpicture}}"]
    return out


def _charts(game: Game) -> list[str]:
    cols = len(game.crt[0]) - 1
    out = [r"\newcommand\crt{%", rf"  \begin{{tabular}}{{|c|{'c' * cols}|}}\hline",
           rf"  \textbf{{Die}} & \multicolumn{{{cols}}}{{c|}}{{\textbf{{Result}}}}\\\hline"]
    out += ["  " + " & ".join(_tex(x) for x in row) + r"\\" for row in game.crt]
    out += [r"  \hline\end{tabular}}", r"\newcommand\tec{%",
            r"  \begin{tabular}{|cl|c|}\hline \multicolumn{2}{|c|}{\textbf{Terrain}} & MP\\\hline"]
    for tid, (name, mp) in game.terrain_names.items():
        opts = f"label=,fill={_colour_name(tid)}" + (
            f",terrain={TERRAIN[tid]}" if tid in TERRAIN else "")
        out.append(rf"  \tikz[scale=.4]{{\hex[{opts}]}} & {_tex(name)} & {_tex(mp)}\\")
    out += [r"  \hline\end{tabular}}"]
    return out


def _sheets(lists: list[str]) -> list[str]:
    """Double-sided counter sheets, a page per ROWS_PER_PAGE rows (\\doublechits, as the
    tutorial prints them)."""
    out = []
    for items in lists:
        for start in range(0, len(items), PER_ROW * ROWS_PER_PAGE):
            chunk = _turn(items[start:start + PER_ROW * ROWS_PER_PAGE])
            out += [r"\begin{center}\begin{tikzpicture}",
                    rf"  \doublechits{{{chunk}}}{{{PER_ROW}}}{{{CHIT_PITCH}}}",
                    r"\end{tikzpicture}\end{center}", r"\clearpage"]
    return out


def print_tex(game: Game) -> str:
    """The print-and-play document: the board on a page of its size, counter sheets, charts."""
    sides = sorted({u.side for u in game.units})
    lists = [[u.id for u in game.units if u.side == s] for s in sides]
    # copies spelt out: "id/copies" is split by the turn loop, not the counter loop
    lists.append([m.id for m in game.markers for _ in range(m.copies)])
    return "\n".join([
        r"\documentclass[11pt]{article}",
        r"\usepackage[margin=1cm,letterpaper]{geometry}",
        r"\usepackage{folio}",
        r"\pagestyle{empty}",
        r"\begin{document}",
        # the board alone on a page as large as it is (the tutorial's board is one page)
        r"\newsavebox\boardbox\sbox\boardbox{\board}",
        r"\pdfpagewidth=\dimexpr\wd\boardbox+2cm\relax",
        r"\pdfpageheight=\dimexpr\ht\boardbox+\dp\boardbox+2cm\relax",
        # no height for the page builder (taller than the text area, it would first ship an
        # empty page); hung from the text area's top left corner, 1 cm in
        r"\noindent\makebox[0pt][l]{\raisebox{-\height}[0pt][0pt]{\usebox\boardbox}}",
        r"\clearpage",
        r"\pdfpagewidth=8.5in\pdfpageheight=11in",
        *_sheets(lists),
        rf"\section*{{{_tex(game.title)}: charts}}",
        r"\crt\qquad\tec",
        r"\end{document}", ""])


def export_tex(game: Game) -> str:
    """The wgexport document: each counter face, the board and the charts on their own page."""
    sides = sorted({u.side for u in game.units})
    lines = [r"\documentclass[11pt]{wgexport}", r"\usepackage{folio}", r"\begin{document}",
             r"\begin{imagelist}"]
    lines += [rf"\doublechitimages[{s.title()}]{{\all{s}}}" for s in sides]
    lines += [r"\doublechitimages[Markers]{\allmarkers}",
              r"\begin{boardimage}{Board}{}", r"  \board", r"\end{boardimage}",
              r"\info{CRT}{chart}{}", r"\begin{tikzpicture}\node{\crt};\end{tikzpicture}",
              r"\info{TEC}{chart}{}", r"\begin{tikzpicture}\node{\tec};\end{tikzpicture}",
              r"\end{imagelist}", r"\end{document}", ""]
    return "\n".join(lines)


def write(folder: Path, out: Path) -> None:
    """The three LaTeX files for the game in FOLDER, in OUT."""
    game = read_game(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / "folio.sty").write_text(game_sty(game))
    (out / "folio.tex").write_text(print_tex(game))
    (out / "export.tex").write_text(export_tex(game))


# --- what is installed ------------------------------------------------------------------------

EXPORT_SHIM = ("import sys, pywargame.vassal as v, pywargame.latex.latexexporter as x; "
               "[setattr(x, k, getattr(v, k)) for k in dir(v) if not hasattr(x, k)]; "
               "from pywargame.latex.main import exportMain; sys.argv[0] = 'wgexport.py'; "
               "exportMain()")


def exporter_python() -> str | None:
    """An interpreter that can import pywargame's LaTeX exporter, or None."""
    names = [os.environ.get("ANCHOR_PYTHON", ""), sys.executable]
    names += [shutil.which(n) or "" for n in ("python3.13", "python3.12")]
    names += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python3")))
    for name in dict.fromkeys(n for n in names if n):
        try:
            ok = subprocess.run([name, "-c", "import pywargame.latex.main"],
                                capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return name
    return None


def missing() -> str:
    """What the anchor lacks on this machine ("" when it can run)."""
    lacks = []
    if not shutil.which("pdflatex"):
        lacks.append("pdflatex")
    elif subprocess.run(["kpsewhich", "wargame.sty"], capture_output=True).returncode != 0:
        lacks.append("wargame.sty")
    if not shutil.which("pdftocairo"):
        lacks.append("pdftocairo")
    if exporter_python() is None:
        lacks.append("pywargame (Python >= 3.12)")
    return ", ".join(lacks)


# --- the pipeline -----------------------------------------------------------------------------

def _latex(work: Path, name: str) -> float:
    """pdflatex NAME.tex, again while the log asks for a rerun (at most 3 passes)."""
    start = time.perf_counter()
    for _ in range(3):
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                               f"{name}.tex"], cwd=work, capture_output=True, text=True)
        log = (work / f"{name}.log").read_text(errors="replace") if (
            work / f"{name}.log").exists() else done.stdout
        if done.returncode != 0:
            errors = [x for x in log.splitlines() if x.startswith("!")] or log.splitlines()[-5:]
            raise RuntimeError(f"pdflatex {name}.tex exited {done.returncode}: "
                               + " / ".join(errors[:3]))
        if "Rerun to get" not in log:
            break
    return time.perf_counter() - start


def run(work: Path, python: str | None = None) -> None:
    """Compile the print and export documents and make the module with PYTHON's pywargame;
    print what each step took. A failing exporter is reported, not raised: the PDFs stand as
    a partial anchor (the caller sees no folio.vmod)."""
    python = python or exporter_python()
    if python is None:
        raise RuntimeError(f"pywargame not installed: {INSTALL}")
    steps = {"pdflatex folio": _latex(work, "folio"), "pdflatex export": _latex(work, "export")}
    start = time.perf_counter()
    done = subprocess.run([python, "-c", EXPORT_SHIM, "export.pdf", "export.json",
                           "-r", "folio.pdf", "-o", "folio.vmod", "-t", "Synthetic folio",
                           "-v", "1.0", "-d", "benchmark anchor"],
                          cwd=work, capture_output=True, text=True)
    steps["wgexport"] = time.perf_counter() - start
    print("; ".join(f"{k} {v:.1f} s" for k, v in steps.items()))
    if done.returncode != 0 or not (work / "folio.vmod").exists():
        last = [x for x in (done.stderr or done.stdout).splitlines() if x.strip()]
        print(f"wgexport failed (exit {done.returncode}): {last[-1] if last else 'no output'}")


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(Path(sys.argv[2]), Path(sys.argv[3]))
        return 0
    if len(sys.argv) in (3, 4) and sys.argv[1] == "run":
        try:
            run(Path(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else None)
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
