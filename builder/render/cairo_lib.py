"""cairocffi, imported without parsing cairo's C declarations again in every process.

    from builder.render.cairo_lib import cairo

On import cairocffi hands cairo's header text to cffi, which parses it with pycparser: 0.27 s of
its 0.35 s import, paid before a build draws anything (a fifteenth of a small game's build).
cffi's out-of-line ABI mode keeps the parsed declarations in a generated Python module that
imports in milliseconds (cffi's documented ``set_source(name, None)`` + ``emit_python_code``).

The first process on a machine imports cairocffi as usual, then writes those modules for its
two FFIs (cairo, gdk-pixbuf) into the user cache (beside the pickled models of
builder.load.model_cache), named after a digest of what they depend on (Python, the cffi
backend, cairocffi's own source); modules of another digest are removed. Later processes load
them and install them as ``cairocffi.ffi`` before importing cairocffi, which then finds its
declarations parsed. The C calls are the same either way. Anything unexpected (xcb support,
which includes a third FFI; a cache that cannot be written or read) falls back to the usual
import.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import os
import sys
import tempfile
import types
from pathlib import Path


def _digest() -> str | None:
    """What the generated modules depend on; None where the usual import must be used."""
    import _cffi_backend

    spec = importlib.util.find_spec("cairocffi")
    if spec is None or not spec.submodule_search_locations or importlib.util.find_spec("xcffib"):
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    h = hashlib.sha256(f"{sys.version}\0{_cffi_backend.__version__}\0".encode())
    for name in ("__init__.py", "ffi.py", "constants.py"):
        h.update((folder / name).read_bytes())
    return h.hexdigest()[:24]


def _folder() -> Path:
    from builder.load.model_cache import cache_dir

    return cache_dir() / "cffi"


def _names(digest: str) -> tuple[str, str]:
    return f"_builder_cairo_ffi_{digest}", f"_builder_pixbuf_ffi_{digest}"


def _load_generated(folder: Path, digest: str) -> bool:
    """Install the generated FFIs as cairocffi.ffi; False (nothing installed) if they are not
    there or do not load."""
    names = _names(digest)
    paths = [folder / f"{name}.py" for name in names]
    if not all(p.is_file() for p in paths):
        return False
    try:
        loaded = []
        for name, path in zip(names, paths):
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module  # the pixbuf module imports the cairo one by name
            spec.loader.exec_module(module)
            loaded.append(module)
    except Exception:  # noqa: BLE001 - a damaged cache entry: the usual import instead
        for name in names:
            sys.modules.pop(name, None)
        return False
    shim = types.ModuleType("cairocffi.ffi", "cairocffi's FFIs, parsed ahead (builder)")
    shim.ffi, shim.ffi_pixbuf = loaded[0].ffi, loaded[1].ffi
    sys.modules["cairocffi.ffi"] = shim
    return True


def _write_generated(folder: Path, digest: str) -> None:
    """Write the out-of-line modules of the FFIs the usual import just parsed."""
    ffis = sys.modules["cairocffi.ffi"]
    folder.mkdir(parents=True, exist_ok=True)
    for ffi, name in zip((ffis.ffi, ffis.ffi_pixbuf), _names(digest)):
        ffi.set_source(name, None)  # names the module (and what the pixbuf one includes)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        os.close(fd)
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # cffi says "generating <file>"
                ffi.emit_python_code(tmp)
            os.replace(tmp, folder / f"{name}.py")
        finally:
            Path(tmp).unlink(missing_ok=True)
    for old in folder.glob("_builder_*_ffi_*.py"):  # left by another cairocffi or Python
        if not old.stem.endswith(digest):
            old.unlink(missing_ok=True)


def _import() -> types.ModuleType:
    if "cairocffi" in sys.modules:
        return sys.modules["cairocffi"]
    try:
        digest = _digest()
        folder = _folder()
    except (OSError, ImportError, RuntimeError):  # RuntimeError: no home folder to cache in
        digest = None
    if digest is not None and _load_generated(folder, digest):
        try:
            import cairocffi

            return cairocffi
        except Exception:  # noqa: BLE001 - the usual import below
            for name in [m for m in sys.modules if m.split(".")[0] == "cairocffi"]:
                del sys.modules[name]
            for name in _names(digest):
                sys.modules.pop(name, None)
            digest = None
    import cairocffi

    if digest is not None:
        with contextlib.suppress(OSError):
            _write_generated(folder, digest)
    return cairocffi


cairo = _import()
