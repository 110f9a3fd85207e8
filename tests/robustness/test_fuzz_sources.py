"""Random bytes and random edits of every sample's sources give a loaded game or a SourceError
with clear problems: never another exception."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from robustness.robust_runner import FIXTURES, ROOT

from builder.errors import SourceError
from builder.load import load_game
from builder.tables.api import CalcError, list_calculators

EXAMPLES = 80  # per game: edits of one to three kinds to one file, then a full load
RANDOM_FILES = 30  # per game: one source file replaced by random bytes

GAMES = sorted(p for p in (ROOT / "sources").iterdir() if (p / "game.toml").is_file())
GAMES += [FIXTURES["mini"], FIXTURES["area"]]
pytestmark = pytest.mark.slow  # every sample, 110 edited loads each
TOKENS = [c.encode() for c in '"\'[]{}=,.#\n\\;-+:0123456789az ZA'] + [
    b"\x00", b"\t", b"\r", "é".encode(), "—".encode(), "\ufeff".encode(), "\u202e".encode(),
    "𝕏".encode(), b"\xff", b"\xc3", b"..", b"9999", b"1e999", b"nan", b"-1", b"[[x]]", b'"""',
    b"\n[[tables]]\n", b"\n[[sectors]]\n", b"box:", b"turn:", b"../"]


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """Each game copied once: examples edit one file and put it back."""
    out = {}
    for game in GAMES:
        dest = tmp_path_factory.mktemp("fuzz") / game.name
        shutil.copytree(game, dest)
        try:
            load_game(dest)
        except SourceError:
            continue  # a sample being written right now: fuzzing it would test nothing
        files = sorted(p for p in dest.rglob("*") if p.is_file())
        out[game.name] = (dest, files)
    return out


def lines_op(data: bytes, draw) -> bytes:
    lines = data.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["delete", "duplicate", "swap", "blank"]))
    if how == "delete":
        del lines[i: i + draw(st.integers(1, 3))]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = b""
    return b"\n".join(lines)


def bytes_op(data: bytes, draw) -> bytes:
    if not data:
        return draw(st.binary(max_size=50))
    i = draw(st.integers(0, len(data) - 1))
    how = draw(st.sampled_from(["substitute", "insert", "truncate", "flip", "text"]))
    if how == "substitute":
        return data[:i] + draw(st.sampled_from(TOKENS)) + data[i + draw(st.integers(1, 4)):]
    if how == "insert":
        return data[:i] + draw(st.sampled_from(TOKENS)) + data[i:]
    if how == "truncate":
        return data[:i]
    if how == "flip":
        return data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
    return data[:i] + draw(st.text(max_size=20)).encode("utf-8", "surrogatepass") + data[i:]


def check_load(folder) -> None:
    try:
        game = load_game(folder)
    except SourceError as exc:
        event("SourceError")
        assert exc.problems
        for p in exc.problems:
            text = str(p)
            assert p.file and p.message and "\n" not in p.where, text
        return
    event("still loads")
    try:  # an edit the loader accepts must not break the calculators either
        list_calculators(game)
    except CalcError as exc:
        event("CalcError")
        assert str(exc)


@pytest.mark.parametrize("game", [g.name for g in GAMES])
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_edits_give_clear_errors(copies, game, data):
    if game not in copies:
        pytest.skip(f"{game} does not load as it stands")
    folder, files = copies[game]
    path = data.draw(st.sampled_from(files), label="file")
    original = path.read_bytes()
    edited = original
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(st.sampled_from([lines_op, bytes_op]))
        edited = op(edited, data.draw)
    try:
        path.write_bytes(edited)
        check_load(folder)
    finally:
        path.write_bytes(original)


@pytest.mark.parametrize("game", [g.name for g in GAMES])
@settings(max_examples=RANDOM_FILES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_bytes_give_clear_errors(copies, game, data):
    if game not in copies:
        pytest.skip(f"{game} does not load as it stands")
    folder, files = copies[game]
    path = data.draw(st.sampled_from(files), label="file")
    original = path.read_bytes()
    try:
        path.write_bytes(data.draw(st.binary(max_size=2000), label="bytes"))
        check_load(folder)
    finally:
        path.write_bytes(original)
