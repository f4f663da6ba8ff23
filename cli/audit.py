"""``adj audit`` (checkpoints and proofs), ``adj keys`` (new key pairs), ``adj judges`` and ``adj players``
(registered keys); docs/audit.md.

Registered on ``adj`` (``cli.app.main``) when one of its commands is asked for. Like every command, these import the
library inside the command; ``cryptography`` is imported only when a key is made, read or checked.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

import click

from cli.help import epilog
from cli.errors import BadInput, IntegrityFailure
from cli.app import Env, command, main
from cli.io import read_text
from cli.keys import key_file as _key

KEY_HELP = "The checkpoint signing key (PEM); default: this user's, created on first use."


def _pubkeys(paths: Sequence[str]) -> list[str]:
    from adjudicator.authority.audit import read_public_key

    try:
        return [read_public_key(p) for p in paths]
    except ValueError as exc:
        raise BadInput(str(exc), {"error": "key", "message": str(exc)}) from None


def _write_or_print(data: dict[str, Any], out: str | None, summary: str) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    click.echo(summary)


def _auditor(env: Env, write: bool = False) -> Any:
    from adjudicator.authority.audit import Auditor

    return Auditor(env.store(write))


@main.group("audit", epilog=epilog("audit"))
def audit_group() -> None:
    """Signed checkpoints of the store's Merkle tree, and proofs anyone can check."""


@command(audit_group, "checkpoint")
@click.option("--key", "key_path", metavar="FILE", help=KEY_HELP)
@click.option("--list", "list_", is_flag=True, help="List the checkpoints recorded so far instead.")
def audit_checkpoint(env: Env, key_path: str | None, list_: bool) -> None:
    """Bring everything recorded into the tree and sign its size and root (at a round's end)."""
    from adjudicator.authority.audit import fingerprint

    auditor = _auditor(env, write=not list_)
    if list_:
        cps = auditor.checkpoints()
        rows = [{**cp.to_json(), "key": fingerprint(cp.public_key)} for cp in cps]
        env.emit({"checkpoints": rows},
                 [f"size {c.tree_size}  root {c.root}  {c.created_at}  key {fingerprint(c.public_key)}" for c in cps]
                 or ["no checkpoints yet"])
        return
    cp = auditor.checkpoint(_key(key_path))
    data = {**cp.to_json(), "key": fingerprint(cp.public_key)}
    env.emit(data, [f"checkpoint: tree size {cp.tree_size}, root {cp.root}, signed by key {data['key']}"])


@command(audit_group, "pubkey", uses_store=False)
@click.option("--key", "key_path", metavar="FILE", help=KEY_HELP)
def audit_pubkey(env: Env, key_path: str | None) -> None:
    """Print the public half of the checkpoint key (PEM), to hand to auditors."""
    from adjudicator.authority.audit import fingerprint, public_pem

    key = _key(key_path)
    env.emit({"public_key": key.public_key, "key": fingerprint(key.public_key)}, [public_pem(key.public_key).rstrip()])


@command(audit_group, "prove")
@click.argument("match_id", metavar="MATCH")
@click.argument("seq", type=int, required=False)
@click.option("--out", metavar="FILE", help="Write the proof to FILE (default: print it).")
def audit_prove(env: Env, match_id: str, seq: int | None, out: str | None) -> None:
    """The inclusion proof of event SEQ of MATCH (default: its head) under the latest checkpoint."""
    proof = _auditor(env).prove(match_id, seq)
    _write_or_print(proof, out, f"wrote the proof of leaf {proof['leaf_index']} to {out}")


def _checkpoint_arg(auditor: Any, text: str) -> Any:
    """A checkpoint file, or the tree size of a checkpoint in the store."""
    from adjudicator.authority.audit import parse_checkpoint

    if text.isdigit():
        return auditor.stored_checkpoint(int(text))
    try:
        return parse_checkpoint(json.loads(read_text(text)))
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{text!r} is neither a tree size nor a checkpoint file ({exc})") from None


@command(audit_group, "consistency")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option("--out", metavar="FILE", help="Write the proof to FILE (default: print it).")
def audit_consistency(env: Env, old: str, new: str, out: str | None) -> None:
    """The proof that checkpoint NEW extends checkpoint OLD (each a checkpoint file or a tree size)."""
    auditor = _auditor(env)
    proof = auditor.consistency(_checkpoint_arg(auditor, old), _checkpoint_arg(auditor, new))
    _write_or_print(proof, out, f"wrote the consistency proof of sizes {proof['old']['tree_size']} "
                                f"and {proof['new']['tree_size']} to {out}")


@command(audit_group, "check-proof", uses_store=False)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--pubkey", "pubkeys", multiple=True, required=True, metavar="FILE",
              help="A public key trusted to sign checkpoints (repeatable).")
def audit_check_proof(env: Env, file: str, pubkeys: Sequence[str]) -> None:
    """Check a proof file with nothing but the proof and the public key (exit 3 if it fails)."""
    from adjudicator.authority.audit import ProofError, check_proof

    keys = _pubkeys(pubkeys)
    try:
        obj = json.loads(read_text(file))
    except ValueError as exc:
        raise BadInput(f"{file} is not JSON ({exc})", {"error": "malformed", "message": str(exc)}) from None
    try:
        report = check_proof(obj, keys)
    except ProofError as exc:
        raise IntegrityFailure(f"the proof does not verify: {exc}",
                               {"ok": False, "error": "integrity", "message": str(exc)}) from None
    lines = [f"ok: {report.kind} proof verifies"]
    lines += [f"  checkpoint: tree size {c['tree_size']}, root {c['root']}, key {c['key']}" for c in report.checkpoints]
    for leaf in report.leaves:
        if leaf.get("kind") == "event":
            lines.append(f"  includes {leaf['match_id']} seq {leaf['seq']} (hash {leaf['hash']})")
        else:
            lines.append(f"  includes a {leaf.get('kind')} leaf")
    lines += [f"  seq {s['seq']} signed by {s['role']} {s['signer']}" for s in report.signers]
    env.emit({"ok": True, "kind": report.kind, "checkpoints": report.checkpoints, "leaves": report.leaves,
              "signers": report.signers}, lines)


# -- key pairs ------------------------------------------------------------------------------------
@main.group("keys", epilog=epilog("keys"))
def keys_group() -> None:
    """Ed25519 key pairs: a judge's, a player's, or the one that signs the audit's checkpoints."""


KEY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", re.ASCII)


@command(keys_group, "new", uses_store=False)
@click.argument("name")
@click.option("--dir", "folder", metavar="DIR", default=".", show_default=True,
              help="The folder to write NAME.pem and NAME.pub in (made, owner-only, if it is new).")
def keys_new(env: Env, name: str, folder: str) -> None:
    """Write a new key pair: NAME.pem, the private key (readable by its owner only: it stays on
    this machine), and NAME.pub, the public key to register (adj judges add, adj players add) or,
    for a checkpoint key (adj audit checkpoint --key NAME.pem), to hand to auditors. An existing
    file is never written over."""
    from adjudicator.authority.audit import fingerprint, new_key_pair

    if not KEY_NAME.fullmatch(name):
        raise click.BadParameter(f"{name!r}: a key's name is 1 to 64 letters, digits, '.', '_' or '-', "
                                 "starting with a letter or digit", param_hint="NAME")
    private, public = (os.path.normpath(os.path.join(folder, name + ext)) for ext in (".pem", ".pub"))
    try:
        key = new_key_pair(private, public)
    except ValueError as exc:  # a file of that name exists
        raise BadInput(str(exc), {"error": "exists", "message": str(exc)}) from None
    env.emit({"name": name, "private_key": private, "public_key_file": public, "public_key": key.public_key,
              "key": fingerprint(key.public_key)},
             [f"wrote {private}: the private key, readable by you only; keep it on this machine",
              f"wrote {public}: the public key, to register (adj judges add {name} --pubkey {public}) "
              "or to hand to auditors",
              f"key {fingerprint(key.public_key)}"])


# -- judges ---------------------------------------------------------------------------------------
@main.group("judges", epilog=epilog("judges"))
def judges_group() -> None:
    """The judges' public keys registered in the store (their decisions must then be signed)."""


def _add_key(env: Env, role: str, name: str, pubkey: str, key_path: str | None) -> None:
    """Register NAME's key for ROLE: by the organiser while no judge is registered, then only with
    a registered judge's key; recorded and checkpointed at once."""
    from adjudicator.authority.audit import Auditor, fingerprint
    from adjudicator.authority.judges import register_key

    store = env.store(write=True)
    public_key = _pubkeys([pubkey])[0]
    by = _registrar(env, store, f"adding a {role}")
    auditor = Auditor(store)
    try:
        record = register_key(store, role, name, public_key, by, auditor.clock())
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    cp = auditor.checkpoint(_key(key_path))
    env.emit({"role": record.role, "name": record.name, "public_key": record.public_key, "by": record.by,
              "key": fingerprint(record.public_key), "checkpoint": cp.to_json()},
             [f"{role} {name} registered (key {fingerprint(public_key)}, by {by}); checkpoint: tree size {cp.tree_size}"])


def _registrar(env: Env, store: Any, what: str) -> str:
    """Who registers a key or sets the policy: the organiser while no judge is registered, then
    only a registered judge, by their key (``--judge-key``)."""
    judges = [k for k in store.audit_keys() if k.role == "judge"]
    if not judges:
        return "organiser"
    key = env.judge_signing_key()
    match = [k for k in judges if key is not None and k.public_key == key.public_key]
    if not match:
        raise BadInput(f"judges are registered already: {what} takes a registered judge's key "
                       "(--judge-key FILE or ADJ_JUDGE_KEY)", {"error": "signature_required"})
    return match[0].name


def store_policy(env: Env, require: bool, key_path: str | None) -> None:
    """``adj store policy [--require-keys]``: show what the store requires, or require keys for
    every seat from now on (recorded beside the keys, and checkpointed at once)."""
    from adjudicator.authority.audit import Auditor
    from adjudicator.authority.judges import keys_required, require_keys

    store = env.store(write=require)
    policy = keys_required(store.audit_keys())
    if require and policy is None:
        by = _registrar(env, store, "requiring keys")
        auditor = Auditor(store)
        policy = require_keys(store, by, auditor.clock())
        cp = auditor.checkpoint(_key(key_path))
        env.emit({"require_keys": True, "since": policy.recorded_at, "by": by, "checkpoint": cp.to_json()},
                 [f"keys are now required for every seat (set by {by}); checkpoint: tree size {cp.tree_size}"])
        return
    if policy is None:
        env.emit({"require_keys": False, "since": None, "by": None},
                 ["keys are not required: where no key is registered, --by is a claim "
                  "(adj store policy --require-keys requires them)"])
        return
    env.emit({"require_keys": True, "since": policy.recorded_at, "by": policy.by},
             [f"keys are required for every seat since {policy.recorded_at} (set by {policy.by})"])


def _list_keys(env: Env, role: str, empty: str) -> None:
    from adjudicator.authority.audit import fingerprint

    rows = [{"name": k.name, "public_key": k.public_key, "key": fingerprint(k.public_key), "by": k.by,
             "recorded_at": k.recorded_at} for k in env.store().audit_keys() if k.role == role]
    env.emit({f"{role}s": rows}, [f"{r['name']}  key {r['key']}  added by {r['by']} at {r['recorded_at']}" for r in rows]
             or [empty])


@command(judges_group, "add")
@click.argument("name")
@click.option("--pubkey", "pubkey", required=True, metavar="FILE", help="The judge's public key (PEM or base64).")
@click.option("--key", "key_path", metavar="FILE", help=KEY_HELP + " Signs the checkpoint made after the key is added.")
def judges_add(env: Env, name: str, pubkey: str, key_path: str | None) -> None:
    """Register judge NAME's public key. Once a judge is registered, adding another takes a
    registered judge's key (--judge-key); each addition is recorded and checkpointed at once."""
    _add_key(env, "judge", name, pubkey, key_path)


@command(judges_group, "list")
def judges_list(env: Env) -> None:
    """The registered judges."""
    _list_keys(env, "judge", "no judges registered: judges' decisions are accepted unsigned")


@main.group("players", epilog=epilog("players"))
def players_group() -> None:
    """Players' public keys: a match started when all its players had one is signed by its players."""


@command(players_group, "add")
@click.argument("name")
@click.option("--pubkey", "pubkey", required=True, metavar="FILE", help="The player's public key (PEM or base64).")
@click.option("--key", "key_path", metavar="FILE", help=KEY_HELP + " Signs the checkpoint made after the key is added.")
def players_add(env: Env, name: str, pubkey: str, key_path: str | None) -> None:
    """Register player NAME's public key. In every match started afterwards whose players all have
    keys, each player's actions must be signed with that player's key (--player-key at the table's
    terminal). Once judges are registered, adding a player takes a judge's key."""
    _add_key(env, "player", name, pubkey, key_path)


@command(players_group, "list")
def players_list(env: Env) -> None:
    """The registered players."""
    _list_keys(env, "player", "no players registered: players' actions are accepted unsigned")


# -- export and verify with proofs ------------------------------------------------------------------
def write_match_proof(env: Env, match_id: str, path: str) -> None:
    """``adj export MATCH --with-proof PATH``: the proof that the exported file is complete."""
    proof = _auditor(env).match_proof(match_id)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(proof, indent=1, ensure_ascii=False) + "\n")


def verify_file(env: Env, file: str, proof_path: str | None, pubkeys: Sequence[str]) -> None:
    """``adj verify FILE``: adjudicate the sealed file, and check its proof when there is one."""
    import os

    from adjudicator.authority.audit import ProofError, check_match_file
    from adjudicator.service import MatchService, MemoryStore

    if proof_path is None:
        stem = file[: -len(".jsonl")] if file.endswith(".jsonl") else file
        proof_path = stem + ".proof.json" if os.path.exists(stem + ".proof.json") else None
    lines = read_text(file).splitlines()
    report = MatchService(MemoryStore()).check_lines(lines)
    if report.rejections or report.match is None:
        first = report.rejections[0] if report.rejections else None
        text = f"line {first.line}: {first.rule}: {first.message}" if first else "no event"
        raise IntegrityFailure(f"{file} does not adjudicate: {text}", {"ok": False, "file": file, "message": text})
    data: dict[str, Any] = {"ok": True, "file": file, "events": report.accepted, "proof": None}
    out = [f"{file}: ok: {report.accepted} events, chain intact, re-adjudicated"]
    if proof_path is not None:
        try:
            proof = json.loads(read_text(proof_path))
            result = check_match_file(report.match.events, proof, _pubkeys(pubkeys))
        except (ValueError, ProofError) as exc:
            raise IntegrityFailure(f"{file}: the proof {proof_path} does not verify: {exc}",
                                   {"ok": False, "file": file, "proof": proof_path, "message": str(exc)}) from None
        data["proof"] = {"file": proof_path, **result}
        out.append(f"  complete: its head seq {result['head_seq']} is in the tree of size {result['tree_size']} "
                   f"signed by key {result['key']}" + ("" if pubkeys else " (not pinned: give --pubkey)"))
        out += [f"  seq {s['seq']} {s['type']} signed by {s['role']} {s['signer']}" for s in result["signers"]]
    else:
        out.append("  no proof file: the file cannot show that nothing was cut off its end")
    env.emit(data, out)


def trusted_checkpoint(path: str | None, pubkeys: Sequence[str]) -> Any:
    """``--checkpoint FILE``: the last checkpoint the auditor trusted (as ``adj audit checkpoint
    --json`` prints it), its signature checked; None when not given. A file that is not a
    checkpoint is bad input; one whose signature does not verify, an integrity failure."""
    if path is None:
        return None
    from adjudicator.authority.audit import ProofError, check_checkpoint, parse_checkpoint

    try:
        obj = json.loads(read_text(path))
        parse_checkpoint(obj)
    except ValueError as exc:
        text = f"{path} is not a checkpoint file ({exc})"
        raise BadInput(text, {"error": "malformed", "path": path, "message": text}) from None
    try:
        return check_checkpoint(obj, _pubkeys(pubkeys))
    except ProofError as exc:
        text = f"the trusted checkpoint {path} does not verify: {exc}"
        raise IntegrityFailure(text, {"ok": False, "error": "integrity", "message": text}) from None


NO_CHECKPOINT = ("no checkpoint: nothing here is under a signed checkpoint, so events cut off the end of a match, "
                 "or a match rewritten whole, would not show (adj audit checkpoint)")


def verify_match_coverage(env: Env, match_id: str, pubkeys: Sequence[str], trusted: Any, row: dict[str, Any],
                          lines: list[str]) -> bool:
    """``adj verify MATCH``: which of its events are under the latest checkpoint (``row["checkpoint"]``)."""
    from adjudicator.authority.audit import Auditor

    cov, problems = Auditor(env.store()).coverage(match_id, _pubkeys(pubkeys), trusted)
    row["checkpoint"] = cov
    n = row["events"]
    if cov is None:
        lines.append(f"  {NO_CHECKPOINT}")
    else:
        under = (f"under the latest checkpoint (tree size {cov['tree_size']}, made {cov['created_at']}, "
                 f"key {cov['key']})")
        k = cov["covered_to"]
        lines.append(f"  none of its events is {under}" if not k else f"  all {n} events are {under}" if k >= n else
                     f"  seq 1-{k} are {under}; seq {k + 1}-{n} are not yet")
    lines += [f"FAILED: {p}" for p in problems]
    if problems:
        row["error"] = "; ".join(problems)
    return not problems


def audit_plan(env: Env) -> Any:
    """What ``adj verify`` of the whole store holds each match's events to (``Auditor.plan``)."""
    from adjudicator.authority.audit import Auditor

    return Auditor(env.store()).plan()


def verify_store_ledger(env: Env, pubkeys: Sequence[str], data: dict[str, Any], lines: list[str],
                        trusted: Any = None, plan: Any = None, found: Sequence[Any] | None = None) -> bool:
    """``adj verify`` over the whole store: the audit tree, checkpoints and signatures (``found``:
    what ``plan`` found in every match as it was verified, in the store's order)."""
    from adjudicator.authority.audit import Auditor

    report = Auditor(env.store()).verify(_pubkeys(pubkeys), trusted, plan, found)
    data["audit"] = {"ok": report.ok, "leaves": report.leaves, "pending": report.pending,
                     "checkpoints": report.checkpoints, "problems": report.problems, "decisions": report.decisions}
    if report.checkpoints or report.leaves:
        lines.append(f"audit tree: {report.leaves} leaves, {len(report.checkpoints)} checkpoint(s)"
                     + (f", {report.pending} entries not yet under a checkpoint" if report.pending else ""))
    if not report.checkpoints and data["matches"]:
        lines.append(f"audit: {NO_CHECKPOINT}")
    lines += [f"  {d['match_id']} seq {d['seq']} {d['type']}: signed by judge {d['signer']}"
              for d in report.decisions if d["role"] == "judge"]
    by_players: dict[str, int] = {}
    for d in report.decisions:
        if d["role"] == "player":
            by_players[d["match_id"]] = by_players.get(d["match_id"], 0) + 1
    lines += [f"  {mid}: {n} action(s) signed by their players" for mid, n in sorted(by_players.items())]
    lines += [f"FAILED: {p}" for p in report.problems]
    return report.ok
