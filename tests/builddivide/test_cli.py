"""``adj`` with Build Divide: the generic ``--catalog`` flag on new, check and import, malformed
catalogs (exit 2, nothing written) and ``adj deck check`` (every violation, exit 1)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import main
from tests.gamekit import FIXTURES

BD = FIXTURES / "builddivide"
CATALOG = BD / "catalog.sample.json"


def adj(tmp_path, *args: str):
    return CliRunner().invoke(main, ["--store", str(tmp_path / "s.db"), *args], catch_exceptions=False)


def conformance_without_catalog(tmp_path):
    lines = (BD / "conformance.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    del first["catalog"]
    path = tmp_path / "nocat.jsonl"
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    return path


def bad_catalog(tmp_path, index: int, **change):
    entries = json.loads(CATALOG.read_text(encoding="utf-8"))
    entries[index].update(change)
    path = tmp_path / "bad.jsonl"  # JSONL: one entry a line
    path.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    return path


def test_check_fills_the_catalog_of_the_first_line(tmp_path):
    path = conformance_without_catalog(tmp_path)
    r = adj(tmp_path, "check", str(path), "--catalog", str(CATALOG), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["accepted"] == 14 and data["state"]["status"] == "IN_PROGRESS" and data["state"]["turn_player"] == "alice"


def test_without_the_catalog_the_decks_name_unknown_cards(tmp_path):
    r = adj(tmp_path, "check", str(conformance_without_catalog(tmp_path)))
    assert r.exit_code == 2  # match_started refused (BD-DECK-20), the rest cannot start


def test_new_and_import_take_the_catalog(tmp_path):
    r = adj(tmp_path, "new", "builddivide", "--player", "alice", "--player", "bob",
            "--deck", f"alice={BD / 'decks' / 'legal-40.json'}", "--deck", f"bob={BD / 'decks' / 'legal-50.json'}",
            "--catalog", str(CATALOG), "--id", "m1")
    assert r.exit_code == 0, r.output
    r = adj(tmp_path, "state", "m1", "--json")
    assert json.loads(r.output)["state"]["players"]["bob"]["deck"] == 50
    r = adj(tmp_path, "import", str(conformance_without_catalog(tmp_path)), "--catalog", str(CATALOG), "--id", "m2")
    assert r.exit_code == 0, r.output


def test_a_malformed_catalog_entry_names_the_entry_and_field_and_writes_nothing(tmp_path):
    cases = [(3, {"colours": ["GREEN"]}, "catalog entry 3 ('U4k'): colours: unknown colour 'GREEN'"),
             (5, {"icons": ["BOMB"]}, "catalog entry 5 ('U6k'): icons: unknown icon 'BOMB'"),
             (0, {"power": "big"}, "catalog entry 0 ('U1k'): power: must be an int, not 'big'")]
    for index, change, message in cases:
        path = bad_catalog(tmp_path, index, **change)
        r = adj(tmp_path, "new", "builddivide", "--player", "alice", "--player", "bob", "--catalog", str(path), "--id", "bad")
        assert r.exit_code == 2 and message in r.output, r.output
    entries = json.loads(CATALOG.read_text(encoding="utf-8"))
    del entries[7]["hit"]
    path = tmp_path / "missing.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    r = adj(tmp_path, "check", str(conformance_without_catalog(tmp_path)), "--catalog", str(path))
    assert r.exit_code == 2 and "catalog entry 7 ('ACE1'): hit: missing" in r.output
    assert adj(tmp_path, "matches", "--json").output.count('"bad"') == 0


def test_catalog_for_a_game_without_one_is_bad_usage(tmp_path):
    r = adj(tmp_path, "new", "nim", "--player", "alice", "--player", "bob", "--catalog", str(CATALOG))
    assert r.exit_code == 2 and "carry no catalog" in r.output


def test_deck_check_reports_every_violation(tmp_path):
    r = adj(tmp_path, "deck", "check", "builddivide", str(BD / "decks" / "illegal.json"), "--json")
    assert r.exit_code == 1
    rules = [v["rule"] for v in json.loads(r.output.splitlines()[0])["violations"]]
    assert rules == ["BD-DECK-12", "BD-DECK-13", "BD-DECK-15"]
    for legal in ("legal-40.json", "legal-50.json"):
        assert adj(tmp_path, "deck", "check", "builddivide", str(BD / "decks" / legal)).exit_code == 0


def test_section_15_state_legal_and_act_speak_in_instance_references(tmp_path):
    """The golden match with four U3k on alice's field, its refused lines left out, imported."""
    lines = (BD / "golden" / "four-copies.jsonl").read_text(encoding="utf-8").splitlines()
    refused = json.loads((BD / "golden" / "four-copies.expect.json").read_text(encoding="utf-8"))["rejected"]
    path = tmp_path / "four.jsonl"
    path.write_text("".join(line + "\n" for no, line in enumerate(lines, 1) if str(no) not in refused), encoding="utf-8")
    assert adj(tmp_path, "import", str(path), "--id", "m").exit_code == 0
    state = json.loads(adj(tmp_path, "state", "m", "--json").output)["state"]["players"]["alice"]
    assert [(u["ref"], u["instance"], u["standing"]) for u in state["field"]] == [
        ("U3k#1", "alice:U3k#1", True), ("U3k#2", "alice:U3k#2", True), ("U3k#4", "alice:U3k#4", True), ("U3k#5", "alice:U3k#5", False)]
    assert [e["ref"] for e in state["energy"]] == ["U1k#1", "U1k#2", "U1k#3", "U1k#4"]
    legal = json.loads(adj(tmp_path, "legal", "m", "--json").output)["actions"]
    attack = next(a for a in legal if a["type"] == "declare_attack")
    assert attack["fields"]["attacker"]["values"] == ["U3k#1", "U3k#2", "U3k#4"]
    r = adj(tmp_path, "act", "m", "declare_attack", "attacker=U3k", "target=bob", "--by", "alice")
    assert r.exit_code == 2
    assert "'U3k' is ambiguous: the field holds 4 cards it could mean (U3k#1, U3k#2, U3k#4, U3k#5); name one of them (at $.attacker)" in r.output
    assert json.loads(adj(tmp_path, "state", "m", "--json").output)["seq"] == 64  # nothing written
    r = adj(tmp_path, "act", "m", "declare_attack", "attacker=U3k#4", "target=bob", "--by", "alice", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(adj(tmp_path, "state", "m", "--json").output)["state"]["attack"]["attacker"] == "U3k#4"
