"""Progress: a bar on a terminal, nothing or one plain line elsewhere."""

from __future__ import annotations

from builder import progress


def test_quiet_when_not_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setenv("BUILDER_PROGRESS", "off")
    with progress.game("europa"), progress.stage("counter images", 10) as advance:
        advance(10)
    assert capsys.readouterr().err == ""  # a quick stage leaves no trace


def test_a_long_stage_leaves_one_line(capsys, monkeypatch):
    monkeypatch.setenv("BUILDER_PROGRESS", "off")
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    with progress.game("europa"), progress.stage("counter images", 8000, cached=7990) as advance:
        advance(10)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\r" not in err
    assert err.startswith("europa: counter images: 8000 (7990 cached) in ")


def test_a_bar_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setenv("BUILDER_PROGRESS", "on")  # as if stderr were a TTY
    with progress.stage("map sheets", 20) as advance:
        for _ in range(20):
            advance(1)
    err = capsys.readouterr().err
    assert err.startswith("\rmap sheets:") and "/20" in err
    assert err.endswith("\r")  # the bar is cleared when the stage ends


def test_auto_follows_the_terminal(monkeypatch):
    monkeypatch.delenv("BUILDER_PROGRESS", raising=False)
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert progress.on_terminal() is False
