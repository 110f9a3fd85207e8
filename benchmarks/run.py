"""Time the builder on the samples and on synthetic games; print wall time and peak memory.

    python3 benchmarks/run.py                 # every workload (a to e, w), a Markdown table
    python3 benchmarks/run.py --only b,e      # some workloads
    python3 benchmarks/run.py --keep DIR      # keep the synthetic games and outputs in DIR

Workload (b) is followed by its anchor, the same game made with LaTeX's `wargame` package and
pywargame (benchmarks/anchor.py, about two minutes; --no-anchor leaves it out); where they
are not installed its row says what to install:

    apt-get install -y --no-install-recommends texlive-games texlive-latex-extra \\
        texlive-pictures texlive-fonts-recommended poppler-utils
    python3.12 -m pip install pywargame      # 0.8.0 needs Python >= 3.12

Each measurement runs `builder` in a fresh process, as a designer would, and samples the
resident memory of that process and its worker processes every 10 ms (Linux /proc); peak
memory is the largest sum seen, or the builder's own peak if larger. Forked workers share
pages, so the sum overstates real use: it is an upper bound. Synthetic games are written
through the public source format by benchmarks/synth.py, so loading and checking are measured
too. Targets are the issue's, for a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import anchor
import synth

MiB = 2**20
MODEL_CACHE: Path | None = None  # the builder's validated-model cache for this run (set in main)


def forget_models() -> None:
    """Empty the validated-model cache, so the next command loads and checks its game cold.
    cairo's C declarations parsed ahead (builder.render.cairo_lib, in its cffi folder) stay:
    like compiled bytecode they belong to the installation, not to a game or a build."""
    if MODEL_CACHE is not None and MODEL_CACHE.is_dir():
        for entry in MODEL_CACHE.iterdir():
            if entry.name == "cffi":
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()


def cold(out: Path, cache_dir: Path | None = None) -> None:
    """A first build: no outputs, no drawings and no validated model kept from earlier runs
    (with --keep, a folder kept from an earlier run holds all three)."""
    shutil.rmtree(out, ignore_errors=True)
    if cache_dir is not None:
        shutil.rmtree(cache_dir, ignore_errors=True)
    forget_models()


@dataclass
class Row:
    workload: str
    what: str
    seconds: float | None = None
    peak_mib: float | None = None
    target: str = ""
    ok: bool | None = None
    note: str = ""
    cpu_s: float | None = None  # user + system time of the builder and its workers
    pss_mib: float | None = None  # peak of the tree's proportional set sizes (shared pages once)


LAST_CPU: list[float] = []  # CPU seconds of the last measure() (kept apart: callers unpack 3)
LAST_PSS: list[float] = []  # peak PSS MiB of the last measure()


def timed(workload: str, what: str, seconds: float, peak_mib: float, **kw) -> Row:
    """A Row for the measurement just made (with its CPU time)."""
    return Row(workload, what, seconds, peak_mib, cpu_s=LAST_CPU[0] if LAST_CPU else None,
               pss_mib=LAST_PSS[0] if LAST_PSS else None, **kw)


def _proc_kib(pid: int, file: str, field: str) -> int:
    """One 'Field:   N kB' line of /proc/PID/FILE, in KiB (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/{file}") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _rss_kib(pid: int) -> int:
    return _proc_kib(pid, "status", "VmRSS:")


def _pss_kib(pid: int) -> int:
    """A process's proportional set size: each page it shares with n processes counts 1/n."""
    return _proc_kib(pid, "smaps_rollup", "Pss:")


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
    except OSError:
        pass
    return out


def _tree_rss_kib(pid: int, of=_rss_kib) -> int:
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += of(p)
        todo.extend(_children(p))
    return total


def measure(args: list[str], cwd: Path = ROOT, env: dict | None = None) -> tuple[float, float, str]:
    """Run `builder ARGS`; (wall seconds, peak MiB of the process tree, output) or raise."""
    run_env = dict(os.environ, BUILDER_PROGRESS="off", **(env or {}))
    if MODEL_CACHE is not None:
        run_env["BUILDER_CACHE_DIR"] = str(MODEL_CACHE)
    # Installed Python keeps compiled bytecode; a sandbox that forbids writing it would time
    # recompiling the builder's modules on every start, which no user's machine does.
    run_env.pop("PYTHONDONTWRITEBYTECODE", None)
    return measure_command([sys.executable, "-m", "builder", *args], cwd, run_env,
                           f"`builder {' '.join(args)}`")


def measure_command(cmd: list[str], cwd: Path, run_env: dict,
                    name: str) -> tuple[float, float, str]:
    """Run CMD; (wall seconds, peak MiB of the process tree, output) or raise. Its CPU time
    (with every child it waited for) goes to LAST_CPU."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=run_env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    peak = peak_pss = 0
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(proc.stdout.read()), daemon=True)
    reader.start()
    last_pss = 0.0
    while True:
        rss = _tree_rss_kib(proc.pid)
        peak = max(peak, rss)
        # forked workers share the parent's pages: PSS counts them once. Reading it walks the
        # page tables (40 ms for a 400 MB process, slowing the builder), so it is read only
        # near the RSS peak, at most once a second
        if rss >= 0.9 * peak and time.perf_counter() - last_pss >= 1.0:
            peak_pss = max(peak_pss, _tree_rss_kib(proc.pid, _pss_kib))
            last_pss = time.perf_counter()
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # reap it here to get its rusage
        if pid:
            break
        time.sleep(0.01)
    seconds = time.perf_counter() - start
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    peak = max(peak, usage.ru_maxrss)  # the builder's own peak, however short
    # wait4 reports the builder's own time plus that of the workers it reaped: on a machine
    # shared with other work, CPU time moves much less than wall time
    LAST_CPU[:] = [usage.ru_utime + usage.ru_stime]
    LAST_PSS[:] = [peak_pss / 1024]
    text = b"".join(output).decode("utf-8", "replace")
    if code != 0:
        raise RuntimeError(f"{name} exited {code}:\n{text[-2000:]}")
    return seconds, peak / 1024, text


def best_of(n: int, args: list[str], setup=None, **kw) -> tuple[float, float, str]:
    """The median time (and the largest peak) of n runs; setup() runs before each."""
    runs, cpus, psss = [], [], []
    for _ in range(n):
        if setup:
            setup()
        runs.append(measure(args, **kw))
        cpus.append(LAST_CPU[0])
        psss.append(LAST_PSS[0])
    LAST_CPU[:] = [statistics.median(cpus)]
    LAST_PSS[:] = [max(psss)]
    return (statistics.median(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2])


def formats() -> tuple[str, ...]:
    from builder.cli import FORMATS

    return FORMATS


def _fmt_list(wanted: tuple[str, ...]) -> tuple[str, str]:
    """(the --formats value, a note naming formats not registered yet)."""
    have = formats()
    present = [f for f in wanted if f in have]
    missing = [f for f in wanted if f not in have]
    note = f"format {', '.join(missing)} not registered yet" if missing else ""
    return ",".join(present), note


def _check(row: Row, limit_s: float | None, limit_mib: float | None = None) -> Row:
    parts = []
    ok = True
    if limit_s is not None:
        parts.append(f"< {limit_s:g} s")
        ok = ok and row.seconds is not None and row.seconds < limit_s
    if limit_mib is not None:  # the tree's memory with shared pages once (PSS), else RSS summed
        parts.append(f"< {limit_mib / 1024:g} GiB")
        used = row.pss_mib or row.peak_mib
        ok = ok and used is not None and used < limit_mib
    row.target = ", ".join(parts)
    row.ok = ok if parts else None
    return row


def _build(game: Path | str, out: Path, fmts: str, extra=()) -> list[str]:
    return ["build", str(game), "--out", str(out), "--formats", fmts, *extra]


def workload_a(work: Path, repeat: int) -> list[Row]:
    from builder.load import list_games

    rows = []
    games = list_games(ROOT / "sources")
    expected = ["eben-emael", "europa-terrain", "operation-veritable", "scheldt", "vimy-ridge"]
    for name in expected:
        if name not in games:
            rows.append(Row("a", f"{name}, all formats", note="sample sources not there yet "
                            "(no game.toml)"))
            continue
        out = work / "a" / name
        fmts = ",".join(formats())
        try:
            s, m, _ = best_of(repeat, _build(name, out, fmts, ["--no-cache"]),
                              setup=lambda out=out: cold(out))
            rows.append(timed("a", f"{name}, all formats ({fmts})", s, m))
        except RuntimeError as exc:
            rows.append(Row("a", f"{name}, all formats", note=_first_error(exc)))
    return rows


def _first_error(exc: Exception) -> str:
    lines = [x for x in str(exc).splitlines() if x.strip()]
    return "failed: " + (lines[-1][:120] if lines else "no output")


def workload_b(work: Path, repeat: int) -> list[Row]:
    game = synth.write_game(work / "folio", synth.FOLIO)
    fmts, note = _fmt_list(("pdf", "vmod"))
    what = f"1,200 hexes, 200 two-sided units: {fmts or 'print, vmod'}"
    if not fmts:
        return [Row("b", what, note=note)]
    out = work / "b-out"
    try:
        s, m, _ = best_of(repeat, _build(game, out, fmts), setup=lambda: cold(out))
    except RuntimeError as exc:
        return [Row("b", what, note=_first_error(exc))]
    row = _check(timed("b", what, s, m, note=note), 1.8)
    return [row] if NO_ANCHOR else [row, anchor_row(work, game, repeat)]


def anchor_row(work: Path, game: Path, repeat: int) -> Row:
    """The same game through LaTeX's `wargame` package and pywargame (benchmarks/anchor.py),
    timed from the written .tex files to the PDFs and the module, every run in a fresh folder."""
    what = "anchor: LaTeX wargame + pywargame, same game: pdf, vmod (from .tex, cold)"
    lacks = anchor.missing()
    if lacks:
        return Row("b", what, note=f"anchor not installed ({lacks}): {anchor.INSTALL}")
    tex = work / "b-anchor"

    def fresh() -> None:
        shutil.rmtree(tex, ignore_errors=True)
        anchor.write(game, tex)

    python = anchor.exporter_python()  # found once, outside the timing
    runs, cpus = [], []
    try:
        for _ in range(repeat):
            fresh()
            runs.append(measure_command([sys.executable, str(HERE / "anchor.py"), "run",
                                         str(tex), python], tex, dict(os.environ), "anchor"))
            cpus.append(LAST_CPU[0])
    except RuntimeError as exc:
        return Row("b", what, note=_first_error(exc))
    LAST_CPU[:] = [statistics.median(cpus)]
    s, m = statistics.median(r[0] for r in runs), max(r[1] for r in runs)
    row = timed("b", what, s, m, target="(reference)", note=_anchor_made(tex, runs[-1][2]))
    if not (tex / "folio.vmod").exists():
        row.what = what.replace("pdf, vmod", "partial: pdf only, no vmod")
    return row


def _anchor_made(tex: Path, output: str) -> str:
    """What the anchor made, from the files themselves, and its step times."""
    import zipfile

    pages = [_pdf_pages(tex / f"{name}.pdf") for name in ("folio", "export")]
    made = f"print PDF {pages[0]} pages, export PDF {pages[1]} pages"
    if (tex / "folio.vmod").exists():
        with zipfile.ZipFile(tex / "folio.vmod") as z:
            names = z.namelist()
        images = sum(1 for n in names if n.startswith("images/"))
        build = "buildFile.xml" in names or "buildFile" in names
        made += f", vmod {images} images{'' if build else ', NO buildFile'}"
    steps = " ".join(output.split())
    return f"{made}; {steps}"


def _pdf_pages(path: Path) -> str:
    if not path.exists():
        return "no"
    done = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True)
    pages = [x.split()[-1] for x in done.stdout.splitlines() if x.startswith("Pages:")]
    return pages[0] if pages else "?"


def workload_cd(work: Path, repeat: int) -> list[Row]:
    game = work / "europa"
    synth.write_game(game, synth.EUROPA)
    rows = []
    try:
        forget_models()
        s, m, _ = measure(["check", str(game)])
        rows.append(timed("c", "same game, `builder check` only", s, m))
    except RuntimeError as exc:
        return rows + [Row("c", "`builder check`", note=_first_error(exc)),
                       Row("d", "rebuild of (c)", note="skipped: the game does not load")]
    # each format alone and cold (its own empty cache): where the time goes, and what fails
    good = []
    for fmt in C_FORMATS or formats():
        try:
            cold(work / f"c-{fmt}", work / f"c-cache-{fmt}")
            s, m, _ = measure(_build(game, work / f"c-{fmt}", fmt,
                                     ["--cache-dir", str(work / f"c-cache-{fmt}")]))
            rows.append(timed("c", f"same game, {fmt} only", s, m))
            good.append(fmt)
        except RuntimeError as exc:
            rows.append(Row("c", f"same game, {fmt} only", note=_first_error(exc)))
    for fmt in good:  # the pdf alone has its own target
        if fmt == "pdf":
            row = next(r for r in rows if r.what == "same game, pdf only")
            _check(row, 10.0)
    fmts = ",".join(formats())
    what = f"20 sheets of 34x50 hexes, 4,000 two-sided counters, all formats ({fmts})"
    shared = ["--cache-dir", str(work / "c-cache")]
    if C_FORMATS:
        rows.append(Row("c", what, note="not run (--formats)"))
    else:
        try:  # the target: every format in one cold build
            cold(work / "c-all", work / "c-cache")
            s, m, _ = measure(_build(game, work / "c-all", fmts, shared))
            rows.append(_check(timed("c", what, s, m), 30.0, 2048))
        except RuntimeError as exc:
            rows.append(_check(Row("c", what, note=_first_error(exc)), 30.0, 2048))
    if not good:
        return rows + [Row("d", "rebuild of (c)", note="skipped: no format builds in (c)")]
    fmts = ",".join(good)
    note = "" if len(good) == len(formats()) else f"formats that build: {fmts}"
    out = work / "d-out"
    try:
        measure(_build(game, out, fmts, shared))  # the build the designer then edits after
        s, m, text = best_of(repeat, _build(game, out, fmts, shared))
        again = note + ("; files rebuilt" if "wrote" in text else "")
        rows.append(_check(timed("d", "rebuild of (c), nothing changed", s, m, note=again), 1.0))
        s, m, _ = best_of(repeat, _build(game, out, fmts, shared),
                          setup=lambda: synth.change_one_counter(game))
        rows.append(_check(timed("d", "rebuild of (c), one counter changed", s, m, note=note),
                           1.5))
        s, m, text = best_of(repeat, _build(game, out, fmts, shared),
                             setup=lambda: synth.change_map(game))
        row = timed("d", "rebuild of (c), the map's title changed", s, m, note=note)
        rows.append(_counters_kept(row, text))
    except RuntimeError as exc:
        rows.append(Row("d", "rebuild of (c)", note=_first_error(exc)))
    return rows


def _counters_kept(row: Row, text: str) -> Row:
    """The target of a map change: no counter-sheet file is made again (the build says
    "unchanged" for each, "wrote" for what it made)."""
    made = [line for line in text.splitlines() if line.startswith("wrote ") and
            ("-counters" in line or "-calibration" in line)]
    row.target = "counter sheets kept"
    row.ok = not made
    row.note = "; ".join(x for x in (row.note, f"{len(made)} counter-sheet files made" if made
                                     else "every counter-sheet file kept") if x)
    return row


def workload_e(work: Path, repeat: int) -> list[Row]:
    rows = []
    folio = work / "folio"
    if not (folio / "game.toml").exists():
        synth.write_game(folio, synth.FOLIO)
    crt = ["crt", "attack=10", "defence=4", "--roll", "3"]
    cases = [("scheldt", ["calc", "scheldt", *crt]),
             ("folio (synthetic)", ["calc", str(folio), *crt])]
    europa = work / "europa"
    if not (europa / "game.toml").exists():
        synth.write_game(europa, synth.EUROPA)
    cases.append(("europa (synthetic)", ["calc", str(europa), *crt]))
    for name, args in cases:
        try:  # a new process each time; the model validated by the previous command is reused
            measure(args)
            s, m, _ = best_of(max(repeat, 3), args)
            rows.append(_check(timed("e", f"`builder calc` CRT, {name}", s, m), 0.3))
            s, m, _ = best_of(max(repeat, 3), args, setup=forget_models)
            rows.append(timed("e", "same, first lookup after an edit (sources validated)", s, m))
        except RuntimeError as exc:
            rows.append(Row("e", f"`builder calc`, {name}", note=_first_error(exc)))
    return rows


def workload_w(work: Path, repeat: int) -> list[Row]:
    """`builder watch` on a copy of Scheldt: from saving counters.csv with a new factor to the
    preview server giving the counter sheet that shows it (the page polls every 0.3 s more)."""
    import json
    import urllib.request

    game = work / "watch" / "scheldt"
    shutil.rmtree(game.parent, ignore_errors=True)
    shutil.copytree(ROOT / "sources" / "scheldt", game)
    env = dict(os.environ, BUILDER_PROGRESS="off", PYTHONPATH=str(ROOT))
    if MODEL_CACHE is not None:
        env["BUILDER_CACHE_DIR"] = str(MODEL_CACHE)
    proc = subprocess.Popen([sys.executable, "-u", "-m", "builder", "watch", str(game), "--out",
                             str(game.parent / "out"), "--port", "0"], cwd=game.parent, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def get(url: str) -> bytes:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.read()

    try:
        url = next((line.split()[1] for line in proc.stdout if line.startswith("preview: ")), "")
        if not url:
            return [Row("w", "`builder watch`", note="the watcher printed no preview address")]
        counters = game / "counters.csv"
        text = counters.read_text(encoding="utf-8")
        times = []
        for i in range(max(repeat, 3)):
            version = json.loads(get(url + "state"))["version"]
            factor = f"{71 + i}-4-5,"
            start = time.perf_counter()
            counters.write_text(text.replace("regiment,3-4-5,", f"regiment,{factor}", 1),
                                encoding="utf-8")
            while time.perf_counter() - start < 30:
                state = json.loads(get(url + "state"))
                if state["version"] > version:
                    sheet = next(f for f in state["files"] if f.endswith("-counters-1-front.svg"))
                    if f">{71 + i}</text>".encode() in get(url + "files/" + sheet):
                        break
                time.sleep(0.02)
            else:
                return [Row("w", "`builder watch`", note="the new factor not served in 30 s")]
            times.append(time.perf_counter() - start)
        row = Row("w", "`builder watch`, a counter's factor saved until its sheet is served "
                  "(Scheldt)", statistics.median(times),
                  note=f"{len(times)} saves: " + ", ".join(f"{t:.2f}" for t in times) + " s")
        return [_check(row, 1.7)]
    finally:
        proc.terminate()
        proc.wait()


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{cpu}, {cores} cores{mem}; Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def table(rows: list[Row]) -> str:
    out = ["| | workload | wall s | CPU s | peak MiB (RSS sum) | peak MiB (PSS sum) | target | met "
           "| note |",
           "|---|---|---:|---:|---:|---:|---|---|---|"]
    for r in rows:
        secs = f"{r.seconds:.2f}" if r.seconds is not None else "—"
        cpu = f"{r.cpu_s:.2f}" if r.cpu_s is not None else "—"
        mib = f"{r.peak_mib:.0f}" if r.peak_mib is not None else "—"
        pss = f"{r.pss_mib:.0f}" if r.pss_mib else "—"
        met = {True: "yes", False: "**no**", None: ""}[r.ok]
        if r.seconds is None and not r.note:
            r.note = "not run"
        out.append(f"| {r.workload} | {r.what} | {secs} | {cpu} | {mib} | {pss} | {r.target} "
                   f"| {met} | {r.note} |")
    return "\n".join(out)


C_FORMATS: list[str] = []  # --formats: (c) and (d) with these formats only
NO_ANCHOR = False  # --no-anchor: (b) without its LaTeX reference row

WORKLOADS = {"a": workload_a, "b": workload_b, "c": workload_cd, "e": workload_e,
             "w": workload_w}


def parser() -> argparse.ArgumentParser:
    """The command line (the README's commands are parsed by it in tests/readme)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="a,b,c,d,e,w",
                   help="workloads to run, e.g. 'b,e' (d needs c)")
    p.add_argument("--repeat", type=int, default=1, help="runs per measurement (median)")
    p.add_argument("--keep", type=Path, help="work in this folder and keep it")
    p.add_argument("--formats", default="", help="(c) and (d) with these formats only, e.g. "
                   "'pdf' (the all-formats build of (c) is then not run)")
    p.add_argument("--no-anchor", action="store_true",
                   help="leave out (b)'s reference row (LaTeX wargame + pywargame, ~2 min)")
    return p


def main() -> int:
    args = parser().parse_args()
    C_FORMATS[:] = [f for f in args.formats.split(",") if f]
    global NO_ANCHOR
    NO_ANCHOR = args.no_anchor
    wanted = {w.strip() for w in args.only.split(",") if w.strip()}
    if "d" in wanted:
        wanted.add("c")
    work = args.keep or Path(tempfile.mkdtemp(prefix="builder-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    global MODEL_CACHE
    MODEL_CACHE = work / "model-cache"
    rows: list[Row] = []
    try:
        for name, fn in WORKLOADS.items():
            if name in wanted:
                print(f"running workload {name} ...", file=sys.stderr, flush=True)
                rows.extend(fn(work, args.repeat))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"Machine: {machine()}\n")
    print(table(rows))
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
