"""Players' confirmations (adjudicator/engine/confirming.py, adj confirm): a player's signature over
the head, in the chain, for every game; ADJ-CONF-1..6, each refused with nothing written; adj verify
checks every confirmation; adj legal offers one at a natural moment without requiring it."""

from __future__ import annotations

import json

import pytest

from adjudicator.authority.confirm import confirm, confirmation_fields
from adjudicator.engine import confirming
from adjudicator.engine.protocol import Malformed
from adjudicator.service import IntegrityError, MatchService, MemoryStore
from cli import schema
from events.signing import create_signing_key
from tests.test_audit_cli import adj  # noqa: F401  (fixture)
from tests.test_cli import fails, ok
from tests.test_page import enter


@pytest.fixture
def keys(tmp_path):
    return {name: create_signing_key(str(tmp_path / "keys" / f"{name}.pem")) for name in ("alice", "bob", "mallory")}


def nim(service: MatchService, match_id: str = "n") -> None:
    service.new("nim", ["alice", "bob"], options={"pile": 9}, match_id=match_id)
    service.submit(match_id, "take", "alice", {"player": "alice", "count": 2})
    service.submit(match_id, "take", "bob", {"player": "bob", "count": 1})


@pytest.fixture
def service():
    s = MatchService(MemoryStore())
    nim(s)
    return s


def head_hash(service: MatchService, seq: int, match_id: str = "n") -> str:
    return service.store.read(match_id, seq, seq)[0].hash


def refused(service: MatchService, verdict, rule: str, message: str, match_id: str = "n") -> None:
    """Refused under ``rule``, with nothing written: no event, no recorded attempt."""
    head, attempts = service.store.head(match_id), len(service.store.rejections(match_id))
    assert (verdict.accepted, verdict.violation.rule_id, verdict.violation.message) == (False, rule, message)
    assert (service.store.head(match_id), len(service.store.rejections(match_id))) == (head, attempts)


def test_both_players_sign_the_head_and_nothing_in_the_game_changes(service, keys):
    before = service.load("n")
    v = confirm(service, "n", "alice", keys["alice"])
    assert v.accepted and v.event.seq == 4 and v.event.fields["head_seq"] == 3
    assert v.event.fields["head"] == head_hash(service, 3) and v.event.prev == head_hash(service, 3)
    v = confirm(service, "n", "bob", keys["bob"])
    assert v.accepted and v.event.fields["head_seq"] == 3  # the head is the last event that is not a confirmation
    after = service.load("n")  # verified and folded again from the store
    assert after.state == before.state and after.outcome() == before.outcome()
    assert after.fold.effective_order()[-1] == 3  # outside the game's history
    assert after.fold.both_confirmed() == (3, head_hash(service, 3), [4, 5])
    assert service.verify("n").head == 5
    # play goes on; the next confirmation is of the new head
    assert service.submit("n", "take", "alice", {"player": "alice", "count": 1}).accepted
    assert confirm(service, "n", "alice", keys["alice"]).event.fields["head_seq"] == 6
    assert service.load("n").fold.both_confirmed()[0] == 3  # bob has not signed seq 6


@pytest.mark.parametrize("path", ["fixtures/bacdef/golden/ex-05-cap-and-fifth-point.jsonl",
                                  "fixtures/demonbrave/golden/ex03-single-vs-single.jsonl",
                                  "fixtures/pbwcg/golden/ex02-normal-attacks.jsonl",
                                  "fixtures/builddivide/golden/ex-06a-zero-life-win.jsonl",
                                  "fixtures/e2drive/golden/ex01-atk-with-def.jsonl"])
def test_every_game_has_confirmations_without_code_of_its_own(path, keys):
    service = MatchService(MemoryStore())
    enter(service, path, "g")
    players = service.load("g").players
    for player, key in zip(players, (keys["alice"], keys["bob"])):
        assert confirm(service, "g", player, key).accepted
    match = service.load("g")
    assert match.fold.both_confirmed()[0] == match.head - 2


def test_ADJ_CONF_1_only_a_player_confirms(service, keys):
    for who in ("judge", "mallory"):
        fields = confirmation_fields(who, 3, head_hash(service, 3), keys["mallory"])
        refused(service, service.submit("n", "confirm", who, fields), "ADJ-CONF-1",
                f"only a player of this match (alice, bob) confirms its head; {'the judge' if who == 'judge' else repr(who)} tried")


def test_ADJ_CONF_2_a_signature_over_another_head_is_refused(service, keys):
    old = confirmation_fields("alice", 2, head_hash(service, 2), keys["alice"])  # a valid signature, of seq 2
    refused(service, service.submit("n", "confirm", "alice", old), "ADJ-CONF-2",
            "a confirmation is of the head as it stands, seq 3, not seq 2")


def test_ADJ_CONF_3_the_head_hash_must_be_the_heads(service, keys):
    other = MatchService(MemoryStore())
    nim(other)  # another match with the same moves: its head has another hash
    fields = confirmation_fields("alice", 3, head_hash(other, 3), keys["alice"])
    v = service.submit("n", "confirm", "alice", fields)
    refused(service, v, "ADJ-CONF-3", f"the confirmation signs the hash {head_hash(other, 3)[:16]}..., not the hash of the "
                                      f"head at seq 3 ({head_hash(service, 3)[:16]}...)")


def test_ADJ_CONF_4_a_forged_signature_is_refused(service, keys):
    head = head_hash(service, 3)
    message = "the signature does not verify with the key given: it is not alice's signature over the head at seq 3"
    # signed by mallory, claiming alice's public key
    forged = {**confirmation_fields("alice", 3, head, keys["mallory"]), "public_key": keys["alice"].public_key}
    refused(service, service.submit("n", "confirm", "alice", forged), "ADJ-CONF-4", message)
    # a signature altered by one byte, and one that is not base64 at all
    good = confirmation_fields("alice", 3, head, keys["alice"])
    flipped = good["signature"][:10] + ("A" if good["signature"][10] != "A" else "B") + good["signature"][11:]
    refused(service, service.submit("n", "confirm", "alice", {**good, "signature": flipped}), "ADJ-CONF-4", message)
    refused(service, service.submit("n", "confirm", "alice", {**good, "signature": "not a signature"}), "ADJ-CONF-4", message)
    # bob's signature copied into a confirmation "by alice": it signs bob's name, not hers
    bobs = confirmation_fields("bob", 3, head, keys["bob"])
    refused(service, service.submit("n", "confirm", "alice", bobs), "ADJ-CONF-4", message)


def test_ADJ_CONF_5_a_replayed_confirmation_is_refused(service, keys):
    v = confirm(service, "n", "alice", keys["alice"])
    again = dict(v.event.fields)
    refused(service, service.submit("n", "confirm", "alice", again), "ADJ-CONF-5",
            "alice already confirmed the head at seq 3 (seq 4)")
    assert confirm(service, "n", "bob", keys["bob"]).accepted
    refused(service, service.submit("n", "confirm", "alice", again), "ADJ-CONF-5",
            "alice already confirmed the head at seq 3 (seq 4)")


def test_ADJ_CONF_6_a_player_confirms_with_one_key_of_their_own(service, keys):
    assert confirm(service, "n", "alice", keys["alice"]).accepted
    refused(service, confirm(service, "n", "bob", keys["alice"]), "ADJ-CONF-6",
            "this key is alice's (confirmation at seq 4), not bob's")
    service.submit("n", "take", "alice", {"player": "alice", "count": 1})
    refused(service, confirm(service, "n", "alice", keys["mallory"]), "ADJ-CONF-6",
            "alice confirmed with another key before (seq 4); a player confirms with one key")


def test_a_correction_cannot_insert_a_confirmation_and_a_rewind_keeps_it(service, keys):
    fields = confirmation_fields("alice", 3, head_hash(service, 3), keys["alice"])
    with pytest.raises(Malformed, match="a correction cannot insert a 'confirm' event"):
        service.submit("n", "correct", "judge", {"at_seq": 3, "reason": "r", "event": {"type": "confirm", "by": "alice", **fields}})
    assert confirm(service, "n", "alice", keys["alice"]).accepted
    assert service.submit("n", "rewind", "judge", {"to_seq": 2, "reason": "misdeal"}).accepted
    match = service.load("n")
    assert [(s, c.head_seq) for s, c in match.fold.confirmations] == [(4, 3)]
    assert confirm(service, "n", "alice", keys["alice"]).event.fields["head_seq"] == 5  # the rewind is the head now


# -- the command line ----------------------------------------------------------------------------
@pytest.fixture
def m(adj):  # noqa: F811
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    return "m"


def test_adj_confirm(adj, m, keys):  # noqa: F811
    out = ok(adj("confirm", "m", "--as", "alice", "--player-key", keys["alice"].path)).stdout.splitlines()
    assert out[0].startswith("m seq 3  alice  confirm  head=") and "head_seq=2" in out[0]
    assert out[1].startswith("alice confirmed the head at seq 2 (")
    data = json.loads(ok(adj("confirm", "m", "--as", "bob", "--player-key", keys["bob"].path, "--json")).stdout)
    assert (data["accepted"], data["event"]["type"], data["event"]["fields"]["head_seq"]) == (True, "confirm", 2)
    schema.matches("confirm", data)
    result = adj("confirm", "m", "--as", "bob", "--player-key", keys["bob"].path, "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["rule"] == "ADJ-CONF-5"
    schema.matches("confirm", json.loads(result.stdout), failed=True)
    assert adj.head("m") == 4 and adj.rejections("m") == []  # nothing written
    fails(adj("confirm", "m", "--as", "bob"), 2,
          "error: a confirmation is signed with the player's own key: give it with --player-key FILE or ADJ_PLAYER_KEY\n")
    ok(adj("verify", "m"))


def test_adj_verify_checks_every_confirmation(adj, m, keys, tmp_path):  # noqa: F811
    ok(adj("confirm", "m", "--as", "alice", "--player-key", keys["alice"].path))
    sealed = tmp_path / "m.jsonl"
    sealed.write_text(ok(adj("export", "m")).stdout)
    ok(adj("verify", str(sealed)))
    # a signature changed in the store (and the hash chain recomputed by hand) no longer adjudicates
    from events.envelope import split_flat, to_line

    lines = [json.loads(x) for x in sealed.read_text().splitlines()]
    forged = confirmation_fields("alice", 2, lines[1]["hash"], keys["mallory"])
    lines[2].update(public_key=keys["alice"].public_key, signature=forged["signature"])
    from events.envelope import Draft, seal

    env, fields = split_flat(lines[2])
    resealed = seal("m", 3, lines[1]["hash"], Draft(type="confirm", by="alice", recorded_at=env["recorded_at"], fields=fields))
    (tmp_path / "forged.jsonl").write_text("\n".join([json.dumps(lines[0]), json.dumps(lines[1]), to_line(resealed)]) + "\n")
    result = adj("verify", str(tmp_path / "forged.jsonl"))
    assert result.exit_code == 3 and "ADJ-CONF-4" in result.stderr + result.stdout


def test_registered_players_confirm_with_their_registered_key(adj, keys):  # noqa: F811
    ok(adj("players", "add", "alice", "--pubkey", keys["alice"].path + ".pub"))
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "r"))
    ok(adj("act", "r", "take", "player=alice", "count=3", "--by", "alice"))
    result = adj("confirm", "r", "--as", "alice", "--player-key", keys["mallory"].path)
    assert (result.exit_code, result.stderr) == (
        1, "ADJ-CONF-6: alice's registered key is not the key this confirmation is signed with; alice confirms with "
           "their own key (--player-key FILE)\n")
    assert adj.head("r") == 2
    ok(adj("confirm", "r", "--as", "alice", "--player-key", keys["alice"].path))
    ok(adj("confirm", "r", "--as", "bob", "--player-key", keys["bob"].path))  # bob has no registered key
    ok(adj("verify"))


def test_adj_legal_offers_a_confirmation_at_a_natural_moment(adj, keys):  # noqa: F811
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=3", "--id", "e"))
    ok(adj("act", "e", "take", "player=alice", "count=3", "--by", "alice"))  # the last stone: the match is decided
    lines = ok(adj("legal", "e")).stdout.splitlines()
    assert lines == ["nothing is open; outcome: won by alice",
                     "alice may sign the head (won by alice: adj confirm e --as alice --player-key FILE)",
                     "bob may sign the head (won by alice: adj confirm e --as bob --player-key FILE)"]
    data = json.loads(ok(adj("legal", "e", "--json")).stdout)
    assert [(a["who"], a["type"], a["anytime"]) for a in data["actions"]] == [("alice", "confirm", True), ("bob", "confirm", True)]
    ok(adj("confirm", "e", "--as", "alice", "--player-key", keys["alice"].path))
    assert ok(adj("legal", "e", "--as", "bob")).stdout.splitlines() == [
        "nothing is open for bob; outcome: won by alice",
        "bob may sign the head (won by alice: adj confirm e --as bob --player-key FILE)"]
    assert ok(adj("legal", "e", "--as", "alice")).stdout.splitlines() == ["nothing is open for alice; outcome: won by alice"]
    ok(adj("confirm", "e", "--as", "bob", "--player-key", keys["bob"].path))
    ok(adj("legal", "e"), "nothing is open; outcome: won by alice\n")


def test_the_confirmation_message_is_documented():
    assert confirming.message("alice", "ab" * 32) == b"adjudicator-confirm/1\nalice\n" + b"ab" * 32 + b"\n"


def test_every_confirmation_rule_is_documented_and_asserted():
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    source = (root / "adjudicator" / "engine" / "confirming.py").read_text(encoding="utf-8")
    named = {n.value for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Constant) and isinstance(n.value, str) and re.fullmatch(r"ADJ-CONF-\d+", n.value)}
    assert named == {f"ADJ-CONF-{i}" for i in range(1, 7)}
    tests = Path(__file__).read_text(encoding="utf-8")
    docs = (root / "docs" / "audit.md").read_text(encoding="utf-8")
    assert [r for r in sorted(named) if f'"{r}"' not in tests] == []
    assert [r for r in sorted(named) if f"| {r} |" not in docs] == []


def test_reconcile_shows_the_last_head_both_signed_and_whether_it_answers(adj, m, keys, tmp_path):  # noqa: F811
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))  # seq 3
    ok(adj("confirm", "m", "--as", "alice", "--player-key", keys["alice"].path))  # 4
    ok(adj("confirm", "m", "--as", "bob", "--player-key", keys["bob"].path))  # 5
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))  # 6
    start = {"type": "match_started", "by": "judge", "game": "nim", "players": ["alice", "bob"], "options": {"pile": 9}}
    bob = tmp_path / "bob.jsonl"
    bob.write_text("".join(json.dumps(x) + "\n" for x in (
        start, {"type": "take", "by": "alice", "player": "alice", "count": 3},
        {"type": "take", "by": "bob", "player": "bob", "count": 2}, {"type": "take", "by": "alice", "player": "alice", "count": 1})))
    result = adj("reconcile", "m", str(bob), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["divergence"]["kind"] == "changed" and data["divergence"]["a_line"] == 3
    head = adj("export", "m").stdout.splitlines()[2]
    assert data["signed"] == {
        "a": {"line": 3, "seq": 3, "hash": json.loads(head)["hash"], "by": ["alice", "bob"], "confirmation_lines": [4, 5]},
        "b": None, "answered_by": "a",
        "text": "in A, alice and bob signed the head at line 3: the records part at line 3 of A, at or before that head: "
                "the players' own signatures answer the dispute for A's version"}
    text = adj("reconcile", "m", str(bob)).stdout.splitlines()
    assert text[4] == "signed: " + data["signed"]["text"]
    # a dispute after the signed head is not answered by it
    later = tmp_path / "later.jsonl"
    later.write_text("".join(json.dumps(x) + "\n" for x in (
        start, {"type": "take", "by": "alice", "player": "alice", "count": 3},
        {"type": "take", "by": "bob", "player": "bob", "count": 1}, {"type": "take", "by": "alice", "player": "alice", "count": 2})))
    data = json.loads(adj("reconcile", "m", str(later), "--json").stdout)
    assert (data["divergence"]["a_line"], data["signed"]["answered_by"]) == (6, None)
    assert data["signed"]["text"].endswith("the records part after it: the signatures do not answer the dispute")


def test_confirmations_across_snapshots_and_batches(monkeypatch, keys):
    """A fold resumed from a snapshot does not know the confirmations: a confirmation there folds
    the whole log; verify and import, which let go of the past between batches, keep them."""
    import adjudicator.service as service_module
    from adjudicator.engine import snapshot

    monkeypatch.setattr(snapshot, "EVERY", 4)
    monkeypatch.setattr(service_module, "VERIFY_BATCH", 3)
    monkeypatch.setattr(service_module, "IMPORT_BATCH", 3)
    service = MatchService(MemoryStore())
    service.new("nim", ["alice", "bob"], options={"pile": 60}, match_id="long")
    for i in range(12):
        player = ("alice", "bob")[i % 2]
        assert service.submit("long", "take", player, {"player": player, "count": 1}).accepted
        if i % 4 == 3:
            for p in ("alice", "bob"):
                assert confirm(MatchService(service.store), "long", p, keys[p]).accepted  # a fresh service: from the snapshot
    assert service.store.snapshot("long") is not None
    refused(service, confirm(MatchService(service.store), "long", "alice", keys["alice"]), "ADJ-CONF-5",
            "alice already confirmed the head at seq 17 (seq 18)")
    match = service.verify("long")
    assert match.fold.both_confirmed()[0] == 17
    lines = service.export_lines("long")
    copy = MatchService(MemoryStore())
    assert copy.import_lines(lines).head == len(lines)
    assert copy.load("long").fold.both_confirmed() == service.load("long").fold.both_confirmed()


def test_the_audit_names_a_confirmation_not_signed_with_the_registered_key(keys):
    """What SignedStore refuses at entry, the audit reports when it is found in a store (a row
    written behind the adjudicator's back)."""
    import msgspec

    from adjudicator.authority.audit import StoreAudit
    from adjudicator.authority.judges import check_signatures
    from events.checkpoint import KeyRecord
    from events.envelope import StoredEvent

    alice = KeyRecord(ref=1, role="player", name="alice", public_key=keys["alice"].public_key, by="organiser",
                      recorded_at="2026-01-01T00:00:00Z")
    fields = confirmation_fields("alice", 2, "ab" * 32, keys["mallory"])
    ev = StoredEvent(match_id="m", seq=3, type="confirm", by="alice", recorded_at="2026-05-01T00:00:00Z", fields=fields,
                     prev="ab" * 32, hash="cd" * 32)
    report = StoreAudit()
    check_signatures({("m", 3): ev}, {}, [alice], report)
    assert report.problems == ["m seq 3 (confirm by alice): a confirmation signed with a key that is not alice's registered key"]
    report = StoreAudit()
    good = msgspec.structs.replace(ev, fields=confirmation_fields("alice", 2, "ab" * 32, keys["alice"]))
    check_signatures({("m", 3): good}, {}, [alice], report)
    assert report.problems == []


def test_a_natural_moment_is_found_from_a_snapshot_without_the_whole_log(monkeypatch):
    """``adj legal`` stays flat in the match's length: the confirmations of the head come after it,
    so a fold resumed at or before the head knows them all."""
    from adjudicator.engine import snapshot

    monkeypatch.setattr(snapshot, "EVERY", 2)
    service = MatchService(MemoryStore())
    service.new("nim", ["alice", "bob"], options={"pile": 5}, match_id="s")
    for player, count in (("alice", 1), ("bob", 1), ("alice", 1), ("bob", 2)):  # bob takes the last stone
        assert service.submit("s", "take", player, {"player": player, "count": count}).accepted
    match = MatchService(service.store).current("s")
    assert 1 < match.fold.resumed_at < match.head and not match.fold.confirmations_known
    assert confirming.offers(match.fold, match.game) == [("alice", "won by bob"), ("bob", "won by bob")]


def _won_at_a_snapshot(monkeypatch) -> MatchService:
    """A nim match whose last action, the one that wins it, is the event of a snapshot."""
    from adjudicator.engine import snapshot

    monkeypatch.setattr(snapshot, "EVERY", 2)
    service = MatchService(MemoryStore())
    service.new("nim", ["alice", "bob"], options={"pile": 4}, match_id="s")
    for player, count in (("alice", 1), ("bob", 1), ("alice", 2)):  # alice takes the last stone
        assert service.submit("s", "take", player, {"player": player, "count": count}).accepted
    return service


def _no_whole_log(monkeypatch, reader: MatchService) -> None:
    def whole(match_id: str, **_: object) -> None:
        raise AssertionError(f"the whole log of {match_id} was folded")

    monkeypatch.setattr(reader, "load", whole)


def test_a_snapshot_at_the_natural_moment_itself_carries_it(monkeypatch):
    """A snapshot kept at the head, where the head is a natural moment: the snapshot says what its
    event ended, so ``adj legal`` there reads nothing before it (flat, with no second fold)."""
    from adjudicator.engine import snapshot
    from cli.disputes import confirm_offers

    service = _won_at_a_snapshot(monkeypatch)
    seq, data = service.store.snapshot("s")
    assert seq == 4 and snapshot.decode(service.load("s").game, data)[0].point == "won by alice"
    reader = MatchService(service.store)
    match = reader.current("s")
    assert match.fold.resumed_at == match.head == 4 and match.fold.base_point == "won by alice"
    assert confirming.offers(match.fold, match.game) == [("alice", "won by alice"), ("bob", "won by alice")]
    _no_whole_log(monkeypatch, reader)
    monkeypatch.setattr(reader, "load_at", lambda *a, **k: pytest.fail("a snapshot before the head was read"))
    offered = confirm_offers(reader, match, "s")
    assert [(a.who, a.type, a.note.split(":")[0]) for a in offered] == [("alice", "confirm", "won by alice"), ("bob", "confirm", "won by alice")]


def test_a_snapshot_that_does_not_say_offers_from_the_snapshot_before_it(monkeypatch):
    """A snapshot whose fold could not tell its event's confirmation point (None): the state before
    the head comes from the snapshot kept before it, not from the whole log."""
    from adjudicator.engine import snapshot
    from cli.disputes import confirm_offers

    monkeypatch.setattr(snapshot, "point_of", lambda game, fold: None)
    service = _won_at_a_snapshot(monkeypatch)
    reader = MatchService(service.store)
    match = reader.current("s")
    assert match.fold.resumed_at == match.head == 4 and match.fold.base_point is None
    assert confirming.offers(match.fold, match.game) is None
    _no_whole_log(monkeypatch, reader)
    offered = confirm_offers(reader, match, "s")
    assert [(a.who, a.type, a.note.split(":")[0]) for a in offered] == [("alice", "confirm", "won by alice"), ("bob", "confirm", "won by alice")]


def test_verify_finds_a_snapshot_whose_confirmation_point_was_altered(monkeypatch):
    """The point a snapshot carries is derived data that ``adj verify`` checks like its state; one
    left out (None) claims nothing."""
    import msgspec

    service = _won_at_a_snapshot(monkeypatch)
    seq, data = service.store.snapshot("s")
    snap = msgspec.msgpack.decode(data)
    for point, holds in (("the end of bob's turn", False), ("", False), (None, True), ("won by alice", True)):
        snap["point"] = point
        service.store.save_snapshot("s", seq, msgspec.msgpack.encode(snap))
        if holds:
            assert service.verify("s").head == 4
            assert service.check_snapshot(service.load("s"))
        else:
            with pytest.raises(IntegrityError) as failed:
                service.verify("s")
            assert (failed.value.seq, failed.value.detail) == (4, "the snapshot kept for this seq does not match the state the log folds to")
            with pytest.raises(IntegrityError):
                service.check_snapshot(service.load("s"))
