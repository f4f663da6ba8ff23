"""``adj import`` reads, adjudicates and writes a file as it comes, a batch at a time in one
transaction (``MatchService.import_lines``, ``Store.appending``), and its fold lets go of the past
after each batch (``FileFold.compact``). It must store and fold exactly what importing the file
whole does, write nothing at all when any line is refused or bad, and hold no more of a long
plain match than a batch.

Every golden match of every game (its accepted lines) is imported with a batch of 2 events and
with one batch for the whole file: the stored logs must be the same byte for byte, and the
states, outcomes and heads equal. A rewind or a correction after the first batch makes the
import fold the events before it again, from what it has written so far.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from adjudicator import service as service_module
from adjudicator.records.matchfile import FileFold
from adjudicator.engine.protocol import Malformed, Violation
from adjudicator.service import IntegrityError, MatchService, MemoryStore
from cli.errors import BadInput
from cli.io import LineFile
from events.envelope import to_line
from events.sqlite import SQLiteStore
from tests.gamekit import FIXTURES, real_games

CLOCK = "2026-01-01T00:00:00Z"
GOLDEN = sorted(p for g in real_games() for p in (FIXTURES / g / "golden").glob("*.jsonl"))
NEEDS_THE_PAST = ('"rewind"', '"correct"')


def accepted_lines(path: Path) -> list[str]:
    """The lines of a golden match that are accepted, without their seqs (a refused line changes
    nothing, so they make the same match on their own)."""
    text = path.read_text(encoding="utf-8").splitlines()
    report = MatchService(MemoryStore(), clock=lambda: CLOCK).check_lines(text)
    by_line = {v.line: v for v in report.verdicts}
    out = []
    for no, line in enumerate(text, 1):
        if no in by_line and by_line[no].accepted:
            obj = json.loads(line)
            obj.pop("seq", None)
            out.append(json.dumps(obj))
    return out


def imported(store, lines: list[str], batch: int, monkeypatch) -> tuple[MatchService, object]:
    monkeypatch.setattr(service_module, "IMPORT_BATCH", batch)
    svc = MatchService(store, clock=lambda: CLOCK)
    return svc, svc.import_lines(lines, match_id="m")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_an_import_in_batches_stores_and_folds_what_the_whole_file_does(path, tmp_path, monkeypatch):
    lines = accepted_lines(path)
    whole_svc, whole = imported(MemoryStore(), lines, 10**9, monkeypatch)
    svc, match = imported(SQLiteStore(str(tmp_path / "s.sqlite3")), lines, 2, monkeypatch)
    assert [to_line(e) for e in svc.store.read("m")] == [to_line(e) for e in whole_svc.store.read("m")]
    assert match.head == whole.head == len(lines)
    assert match.state == whole.state and match.outcome() == whole.outcome()
    assert svc.load("m").state == whole.state
    assert svc.current("m").state == whole.state
    text = "\n".join(lines)
    plain = not any(t in text for t in NEEDS_THE_PAST)
    if plain and match.head > 4:
        assert match.fold.resumed_at > 0 and len(match.events) <= 2  # the last batch, no more
    if not plain and match.fold.resumed_at == 0:
        assert match.events == svc.store.read("m")  # folded whole again: every event is there


@pytest.mark.parametrize("path", GOLDEN[:: max(1, len(GOLDEN) // 6)], ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_sealed_line_spelled_otherwise_is_stored_as_its_canonical_line(path, monkeypatch):
    """A canonical sealed line is checked in one pass (``FileFold._verified``); another spelling of
    it (keys in another order, spaces, escapes) the long way: both are stored the same."""
    svc, _ = imported(MemoryStore(), accepted_lines(path), 10**9, monkeypatch)
    lines = svc.export_lines("m")
    spelled = [json.dumps(dict(reversed(json.loads(line).items()))) if no % 2 else line for no, line in enumerate(lines)]
    again = MatchService(MemoryStore(), clock=lambda: CLOCK)
    again.import_lines(spelled)
    assert [to_line(e) for e in again.store.read("m")] == lines


def test_a_rewind_after_a_batch_folds_the_events_before_it_again(monkeypatch):
    path = next(p for p in GOLDEN if '"rewind"' in p.read_text() and p.parent.parent.name == "bacdef")
    lines = accepted_lines(path)
    first_rewind = next(i for i, line in enumerate(lines, 1) if json.loads(line)["type"] == "rewind")
    assert first_rewind > 4
    asked = []
    real = FileFold._advance

    def advance(self, event, seq):
        if self.history is not None and not getattr(self.history, "counted", False):
            history = self.history

            def counting():
                got = history()
                asked.append(len(got) + 1)  # the seq of the event that needed them
                return got

            counting.counted = True
            self.history = counting
        return real(self, event, seq)

    monkeypatch.setattr(FileFold, "_advance", advance)
    svc, match = imported(MemoryStore(), lines, 2, monkeypatch)
    assert asked == [first_rewind]  # once: from there on the file is folded whole
    assert match.fold.resumed_at == 0 and [e.seq for e in match.events] == list(range(1, len(lines) + 1))
    assert match.state == svc.load("m").state


def nim(*moves: tuple[str, int], pile: int = 40) -> list[str]:
    out = [json.dumps({"type": "match_started", "by": "judge", "game": "nim", "players": ["alice", "bob"],
                       "options": {"pile": pile}})]
    return out + [json.dumps({"type": "take", "by": p, "player": p, "count": c}) for p, c in moves]


def alternating(n: int) -> list[tuple[str, int]]:
    return [("alice" if i % 2 == 0 else "bob", 1) for i in range(n)]


def test_a_line_refused_after_several_batches_leaves_nothing_written(tmp_path, monkeypatch):
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    lines = nim(*alternating(30), ("bob", 1))  # the last take is out of turn
    with pytest.raises(Violation) as err:
        imported(store, lines, 4, monkeypatch)
    assert err.value.rule_id == "NIM-TURN-1" and err.value.message.startswith("line 32 (take): it is alice's turn")
    assert store.head("m") == 0 and store.matches() == []
    assert imported(store, lines[:-1], 4, monkeypatch)[1].head == 31  # and nothing stands in the way after


def test_bad_input_after_a_refused_line_is_named_first(tmp_path, monkeypatch):
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    lines = nim(*alternating(10), ("bob", 1), *alternating(10)) + ['{"type": "take", "by": "alice", "count": }']
    with pytest.raises(Malformed) as err:
        imported(store, lines, 4, monkeypatch)
    assert err.value.path.startswith("line 23")
    assert store.matches() == []


def test_an_altered_sealed_file_is_named_before_the_match_that_exists(tmp_path, monkeypatch):
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    svc, _ = imported(store, nim(*alternating(12)), 4, monkeypatch)
    sealed = [json.loads(to_line(e)) for e in store.read("m")]
    sealed[9]["count"] = 2
    with pytest.raises(IntegrityError, match="at seq 10"):
        svc.import_lines([json.dumps(x) for x in sealed])
    assert store.head("m") == 13


def test_a_long_plain_match_is_held_a_batch_at_a_time(tmp_path, monkeypatch):
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    svc, match = imported(store, nim(*alternating(39)), 5, monkeypatch)
    assert match.head == 40 and match.fold.resumed_at == 40 and match.events == []
    assert match.state == svc.load("m").state and match.state.pile == 1
    assert store.snapshot("m") is None  # under snapshot.EVERY events: none kept


def test_an_import_keeps_a_snapshot_at_its_head(tmp_path, monkeypatch):
    from adjudicator.engine import snapshot

    monkeypatch.setattr(snapshot, "EVERY", 10)
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    svc, match = imported(store, nim(*alternating(39)), 5, monkeypatch)  # it ends on a batch: no event held
    assert match.events == [] and store.snapshot("m")[0] == 40
    assert MatchService(store).current("m").fold.resumed_at == 40


def test_a_file_read_from_stdin_reports_lines_read_with_no_total():
    seen = []
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK)
    svc.import_lines(iter(nim(("alice", 1), ("bob", 2))), match_id="m", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 0), (2, 0), (3, 0)]


# -- the file, a line at a time ----------------------------------------------------------------------
def test_a_line_file_counts_and_gives_its_lines(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n\n{"b": "x\xe2\x80\xa8y"}')  # a BOM, CRLF, a blank line, no last newline
    lines = LineFile(str(path))
    assert len(lines) == 3
    assert [line.strip() for line in lines] == ['{"a": 1}', "", '{"b": "x\u2028y"}']  # U+2028 is text, not a break


def test_a_line_that_is_not_utf8_is_named_with_its_column(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": "\xff"}\n')
    with pytest.raises(BadInput) as err:
        list(LineFile(str(path)))
    assert err.value.message == f"{path} line 2 is not valid UTF-8 (byte 0xff at column 8)"
    assert err.value.payload == {"error": "malformed", "message": "line 2 is not valid UTF-8", "path": "line 2"}


def test_a_progress_line_with_no_total_shows_the_count(monkeypatch):
    from cli import progress as progress_mod

    monkeypatch.setattr(progress_mod, "DELAY", 0.0)
    monkeypatch.setattr(progress_mod, "EVERY", 10.0)
    out = io.StringIO()
    bar = progress_mod.Progress("importing -", enabled=True, stream=out)
    bar(1, 0)
    bar(2, 0)  # within EVERY of the last: not shown
    assert out.getvalue() == "\rimporting -: 1"
