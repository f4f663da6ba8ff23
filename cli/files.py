"""The commands on whole files and the whole store: adj check, import, export, verify and deck
check (registered on ``adj``, ``cli.app.main``, when one of them is asked for)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

import click

from cli.catalogs import CATALOG_HELP, fill_first_line
from cli.errors import IntegrityFailure, Rejected, dumps
from cli.help import epilog
from cli.io import LineFile, read_text
from cli.app import Env, check_viewer, command, main, match_argument
from cli.progress import progress
from cli.values import json_value, pairs


# -- whole files and audits -----------------------------------------------------------------------
def _verdict_json(v: Any) -> dict[str, Any]:
    from adjudicator.presentation.render import refusal_json

    return refusal_json(None, v.head_seq, v.type, v.by, v.rule, v.code, v.message, v.line)


class _Lines(LineFile):
    """A match file's lines as they are read, with ``--catalog`` put into its match_started when
    it has none."""

    def __init__(self, path: str, catalog_file: str | None):
        super().__init__(path)
        self.catalog = (catalog_file, read_text(catalog_file)) if catalog_file else None

    def __iter__(self) -> Iterator[str]:
        lines = super().__iter__()
        return fill_first_line(lines, *self.catalog) if self.catalog else lines


@command(uses_store=False)
@click.argument("file", metavar="FILE.jsonl", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--catalog", "catalog_file", metavar="FILE", help=CATALOG_HELP)
def check(env: Env, file: str, catalog_file: str | None) -> None:
    """Adjudicate a whole match file, storing nothing. A sealed (exported) file is verified too."""
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import plain
    from adjudicator.service import MatchService
    from adjudicator.service import MemoryStore

    with progress(f"checking {file}", env.as_json) as bar:
        report = MatchService(MemoryStore()).check_lines(_Lines(file, catalog_file), progress=bar)
    m = report.match
    rejected = report.rejections
    out = m.outcome() if m else None
    data = {
        "events": report.events,
        "accepted": report.accepted,
        "rejection": _verdict_json(rejected[0]) if rejected else None,
        "rejections": [_verdict_json(v) for v in rejected],
        "outcome": plain(out) if out else None,
        "state": plain(m.game.view(m.state)) if m else None,
    }
    if not env.as_json:
        for v in rejected:
            click.echo(f"line {v.line}: {v.type} by {v.by} rejected: {v.rule}: {v.message}")
        click.echo(f"{report.events} events read, {report.accepted} accepted, {len(rejected)} rejected")
        if out:
            click.echo(f"outcome: {outcome_text(out)}")
    if rejected:
        first = rejected[0]
        raise Rejected(f"{first.rule}: {first.message} (line {first.line})", data)
    env.emit(data, [])


@command(name="import")
@click.argument("file", metavar="FILE.jsonl", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--id", "match_id", help="The match id (default: the file's match_id, else the file name).")
@click.option("--catalog", "catalog_file", metavar="FILE", help=CATALOG_HELP)
def import_(env: Env, file: str, match_id: str | None, catalog_file: str | None) -> None:
    """Store a whole match file, all or nothing (every line must be accepted)."""
    from pathlib import Path

    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import plain

    stem = Path(file).stem if file != "-" else "imported"
    with progress(f"importing {file}", env.as_json) as bar:
        match = env.service(write=True).import_lines(_Lines(file, catalog_file), match_id=match_id, default_id=stem,
                                                     progress=bar)
    out = match.outcome()
    env.emit({"match_id": match.match_id, "events": match.head, "outcome": plain(out)},
             [f"imported {match.match_id}: {match.head} events; outcome: {outcome_text(out)}"])


@command()
@match_argument
@click.option("--as", "player", metavar="PLAYER",
              help="What this player may see: private fields hidden, no prev or hash (a view, not a sealed copy).")
@click.option("--with-proof", "proof_path", metavar="FILE",
              help="Also write the proof that the file is complete (latest checkpoint, head's inclusion, signatures).")
def export(env: Env, match_id: str, player: str | None, proof_path: str | None) -> None:
    """Print a match as sealed JSONL (seq, recorded_at, prev and hash on every line)."""
    service = env.service()
    viewer = check_viewer(service.load(match_id), player) if player else None
    if proof_path and player:
        raise click.BadParameter("a player's view has no hashes to prove: use --with-proof without --as")
    lines = service.export_lines(match_id, viewer=viewer)
    if proof_path:
        from cli.audit import write_match_proof

        write_match_proof(env, match_id, proof_path)
    if env.as_json:
        from adjudicator.presentation.render import event_json_from_line

        history = [event_json_from_line(line) for line in lines]
        click.echo(dumps({"match_id": match_id, "events": len(history), "history": history}))
    else:
        for line in lines:
            click.echo(line)


@command()
@click.argument("match_id", metavar="[MATCH | FILE]", required=False)
@click.option("--proof", "proof_path", metavar="FILE", help="FILE's proof (default: FILE.proof.json beside it, if any).")
@click.option("--pubkey", "pubkeys", multiple=True, metavar="FILE",
              help="A key trusted to sign checkpoints (repeatable): the store must hold a checkpoint signed by one.")
@click.option("--checkpoint", "checkpoint_path", metavar="FILE",
              help="The last checkpoint you trusted (adj audit checkpoint --json): the store must still reach it.")
def verify(env: Env, match_id: str | None, proof_path: str | None, pubkeys: Sequence[str],
           checkpoint_path: str | None) -> None:
    """Check hash chains and re-adjudicate every event and every rejected attempt (all matches by default);
    over the whole store, also the audit tree, its signed checkpoints and the judges' signatures; for
    one MATCH, which of its events are under the latest checkpoint.
    FILE: an exported match, with its proof if there is one."""
    if match_id and os.path.isfile(match_id):
        from cli.audit import verify_file

        if checkpoint_path:
            raise click.BadParameter("a file is checked against its proof (--proof); --checkpoint holds a store to "
                                     "the last checkpoint you trusted", param_hint="'--checkpoint'")
        return verify_file(env, match_id, proof_path, pubkeys)
    from cli.audit import trusted_checkpoint, verify_match_coverage

    trusted = trusted_checkpoint(checkpoint_path, pubkeys)
    service = env.service()
    heads = {match_id: 0} if match_id else {m.match_id: m.head_seq for m in env.store().matches()}
    ids = list(heads)
    rows, lines = [], []
    plan = None
    if not match_id:  # the audit of the whole store checks each match's events as they are read to verify it
        from cli.audit import audit_plan

        plan = audit_plan(env)
    with progress(f"verifying {ids[0]}" if len(ids) == 1 else f"verifying {len(ids)} matches", env.as_json) as bar:
        results = service.verify_each(ids, progress=bar, observe=plan, heads=heads)
    for r in results:
        if not r.ok:
            rows.append({"match_id": r.match_id, "ok": False, "events": r.events, "error": r.error})
            lines.append(f"{r.match_id}: FAILED: {r.error}")
            continue
        rows.append({"match_id": r.match_id, "ok": True, "events": r.events, "rejections_rechecked": r.rejections_rechecked})
        text = f"{r.match_id}: ok: {r.events} events, chain intact, re-adjudicated"
        if r.rejections_rechecked:
            text += f"; {r.rejections_rechecked} rejected attempt(s) refused again by the same rule"
        lines.append(text)
        if match_id and not verify_match_coverage(env, match_id, pubkeys, trusted, rows[-1], lines):
            rows[-1]["ok"] = False
    failed = [r["match_id"] for r in rows if not r["ok"]]
    data = {"ok": not failed, "matches": rows}
    if not match_id:
        from cli.audit import verify_store_ledger

        if not verify_store_ledger(env, pubkeys, data, lines, trusted, plan, [r.found for r in results]):
            failed.append("the audit ledger")
            data["ok"] = False
    if failed:
        if not env.as_json:
            for line in lines:
                click.echo(line)
        raise IntegrityFailure(f"integrity failure: {', '.join(failed)} do(es) not verify", data)
    env.emit(data, lines or ["no matches in the store"])


@main.group(epilog=epilog("deck"))
def deck() -> None:
    """Deck lists."""


@command(deck, "check", uses_store=False)
@click.argument("game")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE", help="A house-rule option that changes deck rules.")
def deck_check(env: Env, game: str, file: str, opts: Sequence[str]) -> None:
    """Validate a deck list for GAME: ok (exit 0), or every violated rule (exit 1)."""
    from adjudicator.engine import registry
    from adjudicator.presentation.render import plain

    g = registry.get(game)
    options = g.decode_options(pairs(opts, json_value, "KEY=VALUE"))
    deck_list = g.read_deck(read_text(file))
    errors = g.check_deck(deck_list, options)
    data = {"ok": not errors, "game": game, "deck": plain(deck_list),
            "violations": [{"rule": v.rule_id, "code": v.code, "message": v.message} for v in errors]}
    if errors:
        raise Rejected("\n".join(f"{v.rule_id}: {v.message}" for v in errors), data)
    env.emit(data, ["ok"])
