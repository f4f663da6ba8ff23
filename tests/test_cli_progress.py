"""Long work shows progress on a terminal, and nothing extra when output is piped or --json."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from adjudicator.service import MatchService, MemoryStore
from cli import progress as progress_mod
from tests.test_cli import Adj, ok

BACDEF = Path(__file__).resolve().parent.parent / "fixtures/bacdef/demo-contradiction.jsonl"


def test_the_service_reports_every_line_and_every_event():
    seen: list[tuple[int, int]] = []
    svc = MatchService(MemoryStore())
    svc.import_lines(BACDEF.read_text().splitlines(), match_id="t", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(n, 112) for n in range(1, 113)]
    seen.clear()
    svc.verify("t", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(n, 112) for n in range(1, 113)]
    seen.clear()
    svc.check_lines(BACDEF.read_text().splitlines(), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (112, 112) and len(seen) == 112


def test_a_terminal_sees_a_progress_line_that_is_cleared(monkeypatch):
    monkeypatch.setattr(progress_mod, "DELAY", 0.0)
    monkeypatch.setattr(progress_mod, "EVERY", 0.0)
    out = io.StringIO()
    with progress_mod.Progress("importing f.jsonl", enabled=True, stream=out) as bar:
        bar(1, 4)
        bar(4, 4)
    assert out.getvalue() == ("\rimporting f.jsonl: 1/4  25%\rimporting f.jsonl: 4/4 100%"
                              "\r" + " " * 27 + "\r")


def test_nothing_shows_when_disabled_or_before_the_delay():
    out = io.StringIO()
    with progress_mod.Progress("x", enabled=False, stream=out) as bar:
        bar(1, 1)
    with progress_mod.Progress("x", enabled=True, stream=out) as bar:  # short work: under DELAY
        bar(1, 1)
    assert out.getvalue() == ""


@pytest.mark.parametrize("as_json", [False, True])
def test_piped_output_carries_no_progress(tmp_path, monkeypatch, as_json):
    monkeypatch.setattr(progress_mod, "DELAY", 0.0)
    adj = Adj(tmp_path / "s.sqlite3")
    extra = ["--json"] if as_json else []
    for args in (["import", str(BACDEF)], ["check", str(BACDEF)], ["verify"],
                 ["store", "copy", adj.path, str(tmp_path / "copy.sqlite3")]):
        result = ok(adj(*args, *extra))
        assert "\r" not in result.stdout and result.stderr == ""
