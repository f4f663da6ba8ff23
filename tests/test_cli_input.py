"""Input that must never be stored, never crash, and always say where it is wrong: envelope
types in match files, nesting and size limits, duplicate keys, undecodable bytes."""

from __future__ import annotations

import hashlib
import json

import pytest
from click.testing import CliRunner

from cli.main import main
from events.envelope import canonical
from tests.test_cli import START, Adj, export, fails, ok, take, write_jsonl
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def reseal(events: list[dict]) -> list[dict]:
    """Recompute every prev and hash, as someone altering an export carefully would."""
    prev = ""
    for ev in events:
        ev["prev"] = prev
        body = {k: v for k, v in ev.items() if k != "hash"}
        ev["hash"] = hashlib.sha256(prev.encode() + canonical(body)).hexdigest()
        prev = ev["hash"]
    return events


@pytest.fixture
def sealed(adj):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    return export(adj, "m")


# -- 3a: envelope types, in files without hashes (malformed, exit 2) --------------------------------
@pytest.mark.parametrize(
    "extra, message",
    [
        ({"recorded_at": 5}, "line 2: $.recorded_at: Expected `str`, got `int`"),
        ({"recorded_at": 1.5}, "line 2: $.recorded_at: Expected `str`, got `float`"),
        ({"recorded_at": True}, "line 2: $.recorded_at: Expected `str`, got `bool`"),
        ({"seq": 2.0}, "line 2: $.seq: Expected `int`, got `float`"),
        ({"seq": "2"}, "line 2: $.seq: Expected `int`, got `str`"),
        ({"seq": 3}, "line 2 says seq 3, but it comes as seq 2 of the match"),
        ({"prev": "ab"}, "line 2 has a prev but no hash"),
        ({"match_id": "../x"}, "line 2: match id '../x' must be 1-64 letters"),
    ],
)
def test_a_wrong_envelope_in_a_file_without_hashes_is_malformed_and_nothing_is_stored(adj, tmp_path, extra, message):
    path = write_jsonl(tmp_path / "f.jsonl", [START, {**take("alice", 1), **extra}])
    for command in ("check", "import"):
        result = adj(command, path)
        assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert adj.match_ids() == []
    ok(adj("matches"), "no matches in the store\n")


def test_a_file_without_hashes_may_carry_its_seq_match_id_and_time(adj, tmp_path):
    path = write_jsonl(tmp_path / "f.jsonl", [{**START, "match_id": "t1", "seq": 1, "recorded_at": "2026-05-01T21:04:11Z"},
                                             {**take("alice", 1), "match_id": "t1", "seq": 2}])
    ok(adj("import", path), "imported t1: 2 events; outcome: in progress\n")
    assert export(adj, "t1")[0]["recorded_at"] == "2026-05-01T21:04:11Z"
    ok(adj("verify", "t1"))


@pytest.mark.parametrize("value, problem", [
    ("", "'' is not an RFC 3339 time in UTC, such as 2026-05-01T21:04:11.123456Z"),
    ("then", "'then' is not an RFC 3339 time in UTC, such as 2026-05-01T21:04:11.123456Z"),
    ("2026-05-01T21:04:11+02:00", "'2026-05-01T21:04:11+02:00' is not an RFC 3339 time in UTC, such as "
                                  "2026-05-01T21:04:11.123456Z"),
    ("2026-02-30T21:04:11Z", "'2026-02-30T21:04:11Z' is not a time that exists"),
])
def test_a_recorded_time_is_an_rfc_3339_time_in_utc_or_the_line_is_malformed(adj, tmp_path, value, problem):
    path = write_jsonl(tmp_path / "f.jsonl", [START, {**take("alice", 1), "recorded_at": value}])
    for command in ("check", "import"):
        fails(adj(command, path), 2, f"error: line 2: $.recorded_at: {problem}\n")
    assert adj.match_ids() == []


@pytest.mark.parametrize("value", ["", "then", None])
def test_a_sealed_line_whose_recorded_time_was_emptied_and_resealed_exits_3(adj, sealed, tmp_path, value):
    """The store never writes such a time: an altered export, however carefully its hashes were
    recomputed (with "" a decision could pass for one taken before the judges were registered)."""
    if value is None:
        del sealed[1]["recorded_at"]
    else:
        sealed[1]["recorded_at"] = value
    path = write_jsonl(tmp_path / "t.jsonl", reseal(sealed))
    problem = "it is missing" if value is None else \
        f"{value!r} is not an RFC 3339 time in UTC, such as 2026-05-01T21:04:11.123456Z"
    for command in ("check", "import"):
        fails(adj(command, path, "--json"), 3,
              f"integrity failure in m: line 2: $.recorded_at: {problem}: the sealed file was altered\n",
              json.dumps({"error": "integrity", "match_id": "m", "seq": None,
                          "message": f"line 2: $.recorded_at: {problem}: the sealed file was altered"},
                         separators=(",", ":")) + "\n")
    assert adj.match_ids() == ["m"]  # the original only


# -- 3a and 10b: a sealed file or a stored row that does not decode is an integrity failure ---------
@pytest.mark.parametrize(
    "key, value",
    [("seq", 2.0), ("seq", "2"), ("seq", True), ("recorded_at", 5), ("recorded_at", 1.5), ("count", "three")],
)
def test_a_resealed_field_of_the_wrong_type_exits_3_everywhere(adj, sealed, tmp_path, key, value):
    sealed[1][key] = value
    path = write_jsonl(tmp_path / "t.jsonl", reseal(sealed))
    for command in ("check", "import"):
        result = adj(command, path)
        assert result.exit_code == 3, (command, result.stderr)
    assert adj.match_ids() == ["m"]  # the original only
    if value is True:
        return  # a stored seq of true is 1, a seq taken: the store cannot hold that row at all
    # the same row altered in the store: verify says 3 as well
    row = sealed[1]
    adj.sql("UPDATE events SET seq = ?, recorded_at = ?, payload = ?, prev = ?, hash = ? WHERE match_id = 'm' AND seq = 2",
            row["seq"], row["recorded_at"], canonical({"count": row["count"], "player": row["player"]}).decode(),
            row["prev"], row["hash"])
    assert adj("verify", "m").exit_code == 3


def test_seq_of_the_wrong_type_is_named_as_such(adj, sealed, tmp_path):
    sealed[1]["seq"] = "2"
    result = adj("check", write_jsonl(tmp_path / "t.jsonl", reseal(sealed)))
    assert result.exit_code == 3
    assert "$.seq: Expected `int`, got `str`" in result.stderr and "found 2" not in result.stderr


@pytest.mark.postgres
def test_postgresql_never_stores_a_wrong_typed_recorded_at(pg_schema, tmp_path):  # noqa: F811
    run = lambda *a: CliRunner().invoke(main, ["--store", pg_schema, *a])  # noqa: E731
    path = write_jsonl(tmp_path / "f.jsonl", [START, {**take("alice", 1), "recorded_at": 5}])
    assert run("import", path).exit_code == 2
    assert run("matches").stdout == "no matches in the store\n"
    good = write_jsonl(tmp_path / "g.jsonl", [START, take("alice", 1)])
    assert run("import", good).exit_code == 0


# -- 3: nesting; 3c: sizes ---------------------------------------------------------------------------
DEEP = "[" * 1000 + "]" * 1000


def test_deep_json_is_malformed_everywhere_it_enters(adj, tmp_path):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"))
    deep_line = json.dumps(START)[:-1] + ', "x": ' + DEEP + "}"
    (tmp_path / "deep.jsonl").write_text(deep_line + "\n")
    (tmp_path / "deep.json").write_text(DEEP)
    for args in (["check", str(tmp_path / "deep.jsonl")], ["import", str(tmp_path / "deep.jsonl")],
                 ["act", "m", "take", "player=alice", f"count={DEEP}", "--by", "alice"],
                 ["act", "m", "take", "player=alice", "count={\"a\": " + DEEP + "}", "--by", "alice"],
                 ["new", "nim", "--player", "a", "--player", "b", "--setup", f"catalog=@{tmp_path / 'deep.json'}"],
                 ["new", "nim", "--player", "a", "--player", "b", "--deck", f"a={tmp_path / 'deep.json'}"]):
        result = adj(*args)
        assert result.exit_code == 2 and "nested more than 32 levels deep" in result.stderr, (args, result.stderr)
    assert adj.match_ids() == ["m"] and adj.head("m") == 1 and adj.rejections("m") == []


@pytest.mark.parametrize(
    "fields, message",
    [
        (["player=alice", "count=1", "note=" + "x" * 1001], "a text of 1,001 characters at $.note; at most 1,000"),
        (["player=alice", "count=1", *[f"f{i}=1" for i in range(64)]], "the event has 66 fields; at most 64"),
    ],
)
def test_an_action_beyond_the_limits_is_malformed(adj, fields, message):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"))
    result = adj("act", "m", "take", *fields, "--by", "alice")
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert adj.head("m") == 1 and adj.rejections("m") == []


def test_a_reason_beyond_the_limit_is_malformed(adj):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"))
    result = adj("rewind", "m", "--to", "1", "--reason", "r" * 1001, "--by", "judge")
    assert result.exit_code == 2 and "at $.reason; at most 1,000" in result.stderr


def test_a_line_beyond_the_limit_is_malformed(adj, tmp_path):
    (tmp_path / "long.jsonl").write_text(json.dumps({**START, "x": "y" * 1_000_001}) + "\n")
    result = adj("check", str(tmp_path / "long.jsonl"))
    assert (result.exit_code, result.stderr) == (2, "error: line 1 is 1,000,118 characters long; at most 1,000,000 are read\n")


# -- 4: duplicate keys -------------------------------------------------------------------------------
def test_a_key_given_twice_is_malformed_naming_the_key_and_the_line(adj, tmp_path):
    text = json.dumps(START) + "\n" + '{"type": "take", "by": "alice", "player": "alice", "count": 1, "count": 2}\n'
    (tmp_path / "dup.jsonl").write_text(text)
    for command in ("check", "import"):
        fails(adj(command, str(tmp_path / "dup.jsonl")), 2, "error: line 2: key 'count' is given twice in one object\n")
    (tmp_path / "p.jsonl").write_text('{"type": "match_started", "by": "judge", "game": "nim", '
                                      '"players": ["a", "b"], "players": ["x", "y"]}\n')
    fails(adj("import", str(tmp_path / "p.jsonl")), 2, "error: line 1: key 'players' is given twice in one object\n")
    assert adj.match_ids() == []


# -- 7: bytes that are not UTF-8 ---------------------------------------------------------------------
def test_bytes_that_are_not_utf8_name_the_file_line_and_column(adj, tmp_path):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(json.dumps(START).encode() + b'\n{"type": "take", "by": "al\xffice"}\n')
    fails(adj("check", str(path)), 2, f"error: {path} line 2 is not valid UTF-8 (byte 0xff at column 27)\n")
    fails(adj("import", str(path)), 2, f"error: {path} line 2 is not valid UTF-8 (byte 0xff at column 27)\n")
    assert adj.match_ids() == []


# -- 3b: arguments that are not UTF-8, and a fuzz run over check, import and act -------------------
BAD = "al\udcffice"  # how Python keeps the byte 0xff of an argument that is not UTF-8


@pytest.mark.parametrize(
    "args",
    [
        ["act", "m", "take", f"player={BAD}", "count=1", "--by", "alice"],
        ["act", "m", "take", "player=alice", "count=1", "--by", BAD],
        ["act", "m", BAD, "--by", "alice"],
        ["act", BAD, "take", "--by", "alice"],
        ["act", "m", "take", "player=alice", "count=1", "--by", "alice", "--key", BAD],
        ["export", BAD],
        ["verify", BAD],
        ["new", "nim", "--player", "a", "--player", "b", "--setup", 'catalog={"A":{"title":"\\ud800"}}'],
        ["act", "m", "take", "player=alice", 'count={"a": "\\udcff"}', "--by", "alice"],
    ],
)
def test_text_that_is_not_unicode_is_bad_usage_never_a_traceback(adj, args):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"))
    result = adj(*args)
    assert result.exit_code == 2 and "not valid" in result.stderr and "Traceback" not in result.output, result.output
    assert adj.match_ids() == ["m"] and adj.head("m") == 1 and adj.rejections("m") == []


def _outcome(adj, args) -> tuple[int, str]:
    result = adj.runner.invoke(main, ["--store", adj.path, *args])  # exceptions caught: a traceback is a failure
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stderr


def _mutate(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for pos, byte in edits:
        if out:
            out[pos % len(out)] = byte
    return bytes(out)


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

LINES = [{**START, "options": {"pile": 9}}, take("alice", 2), take("bob", 1),
         {"type": "rewind", "by": "judge", "to_seq": 1, "reason": "x"}]
ODD_TEXT = st.sampled_from(["", "\udcff", "\ud800", "../x", "x" * 1001, "2"])
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5), ODD_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=6,
) | st.integers(30, 1200).map(lambda n: f"@DEEP{n}@")  # spliced in as n nested lists by ``dumps``


def dumps(value) -> str:
    """JSON text, with every "@DEEPn@" string replaced by n nested lists (json.dumps itself would
    stop at Python's recursion limit)."""
    import re

    return re.sub(r'"@DEEP(\d+)@"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), json.dumps(value))
KEYS = st.sampled_from(["seq", "recorded_at", "prev", "match_id"]) | st.sampled_from(
    ["type", "by", "hash", "count", "player", "players", "options"])


@st.composite
def mutated_files(draw) -> bytes:
    """A match file with some values replaced (envelope keys included), sealed or not, and then
    perhaps some bytes overwritten."""
    lines = [dict(line) for line in LINES]
    for _ in range(draw(st.integers(1, 2))):
        line = lines[draw(st.integers(1, len(lines) - 1) | st.just(0))]
        line[draw(KEYS)] = draw(st.sampled_from([5, 1.5, True, 2.0, "2", None, "../x", [], {}]) | VALUES)
    if draw(st.booleans()):
        try:
            lines = reseal([{"match_id": "f", "seq": i, "recorded_at": "2026-05-01T10:00:00Z", **ln} for i, ln in enumerate(lines, 1)])
        except (TypeError, ValueError, UnicodeEncodeError):
            pass
    text = "".join(dumps(ln) + "\n" for ln in lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 4)):
        return text
    return _mutate(text, draw(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=2)))


@given(data=mutated_files())
def test_fuzz_check_and_import_of_mutated_files(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("fuzz")
    adj = Adj(tmp / "s.sqlite3")
    path = tmp / "f.jsonl"
    path.write_bytes(data)
    code, _ = _outcome(adj, ["check", str(path)])
    assert code in (0, 1, 2, 3)
    code, _ = _outcome(adj, ["import", str(path)])
    assert code in (0, 1, 2, 3)
    if code != 0:
        assert adj.match_ids() == []
    else:
        (mid,) = adj.match_ids()
        assert _outcome(adj, ["verify", mid])[0] == 0  # what was stored reads back


WORDS = st.one_of(
    st.text(max_size=8),
    ODD_TEXT,
    st.sampled_from(["player=alice", "player=bob", "count=1", "count=2", "count=[[[]]]", "=", "{", "[", "reason=r", "to_seq=1"]),
    st.binary(max_size=6).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.builds(lambda k, v: f"{k}={dumps(v)}", st.sampled_from(["count", "player", "x"]), VALUES),
)


@given(action=st.one_of(st.sampled_from(["take", "rewind", "correct"]), WORDS), fields=st.lists(WORDS, max_size=4),
       by=st.one_of(st.sampled_from(["alice", "bob", "judge"]), WORDS), key=st.none() | WORDS,
       mid=st.sampled_from(["m", "m", "m", "\udcff", "zz"]))
def test_fuzz_act_arguments(tmp_path_factory, action, fields, by, key, mid):
    tmp = tmp_path_factory.mktemp("fuzz")
    adj = Adj(tmp / "s.sqlite3")
    adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m")
    code, _ = _outcome(adj, ["act", mid, action, *fields, "--by", by, *(["--key", key] if key is not None else [])])
    assert code in (0, 1, 2)
    if code == 2:
        assert adj.head("m") == 1 and adj.rejections("m") == []
    if code == 1:
        assert adj.head("m") == 1 and len(adj.rejections("m")) == 1
    if code == 0:
        assert adj.head("m") == 2 and _outcome(adj, ["verify", "m"])[0] == 0
