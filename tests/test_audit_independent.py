"""The proofs `adj` writes, checked by a second verifier written only from docs/audit.md
(tests/independent_verifier.py: hashlib, json, base64 and cryptography, nothing of the project)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests import independent_verifier as iv
from tests.test_audit_cli import adj  # noqa: F401  (fixture)
from tests.test_cli import ok


def _key_pair(tmp_path, name: str) -> tuple[str, str]:
    pem, pub = tmp_path / f"{name}.pem", tmp_path / f"{name}.pub"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(pem)], check=True, capture_output=True)
    subprocess.run(["openssl", "pkey", "-in", str(pem), "-pubout", "-out", str(pub)], check=True, capture_output=True)
    return str(pem), str(pub)


@pytest.fixture
def audited(adj, tmp_path):
    """A store with a registered judge, two matches (one with non-ASCII names, a refused take and a
    signed rewind), two checkpoints and every kind of proof file written by adj."""
    judge_pem, judge_pub = _key_pair(tmp_path, "judge")
    ok(adj("judges", "add", "ann", "--pubkey", judge_pub))
    ok(adj("new", "nim", "--player", "zoë", "--player", "ビル", "--opt", "pile=9", "--id", "m", "--judge-key", judge_pem))
    ok(adj("act", "m", "take", "player=zoë", "count=3", "--by", "zoë"))
    (tmp_path / "old.json").write_text(ok(adj("audit", "checkpoint", "--json")).stdout)
    assert adj("act", "m", "take", "player=ビル", "count=5", "--by", "ビル").exit_code == 1
    ok(adj("act", "m", "take", "player=ビル", "count=2", "--by", "ビル"))
    ok(adj("rewind", "m", "--to", "2", "--reason", "misdeal \"\\ \t", "--by", "judge", "--judge-key", judge_pem))
    ok(adj("new", "nim", "--player", "a", "--player", "b", "--id", "n", "--judge-key", judge_pem))
    (tmp_path / "new.json").write_text(ok(adj("audit", "checkpoint", "--json")).stdout)
    (tmp_path / "log.pub").write_text(ok(adj("audit", "pubkey")).stdout)
    ok(adj("audit", "consistency", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--out", str(tmp_path / "c.json")))
    ok(adj("audit", "prove", "m", "1", "--out", str(tmp_path / "first.json")))
    (tmp_path / "m.jsonl").write_text(ok(adj("export", "m", "--with-proof", str(tmp_path / "m.proof.json"))).stdout)
    return tmp_path


def _load(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _trusted(tmp_path) -> bytes:
    return iv.public_key_from_pem((tmp_path / "log.pub").read_bytes())


def test_the_independent_verifier_accepts_what_adj_proves(audited):
    trusted = _trusted(audited)
    leaf, _ = iv.inclusion_proof(_load(audited / "first.json"), trusted)
    assert (leaf["kind"], leaf["match_id"], leaf["seq"], leaf["signature"]["signer"]) == ("event", "m", 1, "ann")
    iv.consistency_proof(_load(audited / "c.json"), trusted)
    lines = [json.loads(line) for line in (audited / "m.jsonl").read_text(encoding="utf-8").splitlines()]
    signed = iv.match_file(lines, _load(audited / "m.proof.json"), trusted)
    assert signed == [(1, "judge", "ann"), (4, "judge", "ann")]
    assert [line["type"] for line in lines] == ["match_started", "take", "take", "rewind"]


def test_the_independent_verifier_refuses_what_was_altered(audited, tmp_path):
    trusted = _trusted(audited)
    lines = [json.loads(line) for line in (audited / "m.jsonl").read_text(encoding="utf-8").splitlines()]
    proof = _load(audited / "m.proof.json")
    with pytest.raises(iv.Invalid, match="does not end at the proven head"):
        iv.match_file(lines[:-1], proof, trusted)
    edited = [dict(line) for line in lines]
    edited[1]["count"] = 2
    with pytest.raises(iv.Invalid, match="line 2 does not verify"):
        iv.match_file(edited, proof, trusted)
    forged = json.loads(json.dumps(proof))
    forged["signatures"][0]["signer"] = "someone"
    with pytest.raises(iv.Invalid, match="unregistered key"):
        iv.match_file(lines, forged, trusted)
    _, other = _key_pair(tmp_path, "other")
    with pytest.raises(iv.Invalid, match="signed by another key"):
        iv.inclusion_proof(_load(audited / "first.json"), iv.public_key_from_pem(open(other, "rb").read()))
    shifted = _load(audited / "first.json")
    shifted["leaf_index"] += 1
    with pytest.raises(iv.Invalid, match="leaf not in the signed tree"):
        iv.inclusion_proof(shifted, trusted)
    c = _load(audited / "c.json")
    c["path"] = c["path"][1:]
    with pytest.raises(iv.Invalid, match="does not extend"):
        iv.consistency_proof(c, trusted)


def test_the_documented_canonical_json_is_the_stores(audited):
    """Every exported line's hash, recomputed from the documented canonical JSON alone."""
    for line in (audited / "m.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        assert iv.event_hash(obj) == obj["hash"]
        assert iv.canonical(obj).decode("utf-8") == line
