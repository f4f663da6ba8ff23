"""Disputes about what happened at the table: ``adj reconcile A B`` compares two records of one
match, and the judge settles it on the record (``--take A|B --into MATCH``).

Registered on ``adj`` (``cli.app.main``) when one of its commands is asked for; the library is
imported inside each command.
"""

from __future__ import annotations

import os
from typing import Any

import click

from cli.app import Env, command, main, match_argument
from cli.errors import AdjError, BadInput, IntegrityFailure, dumps


class Differ(AdjError):
    """The two records differ (exit 1): the answer is printed, and one line on stderr."""

    exit_code = 1


def load_record(env: Env, side: str, source: str) -> Any:
    """Record ``side`` (A or B): a match file when ``source`` is a file (``-``: stdin), else a
    stored match. What is wrong with it is named with the side."""
    from adjudicator.engine.protocol import Malformed
    from adjudicator.records.reconcile import Record
    from adjudicator.service import IntegrityError, UnknownMatch, utc_now
    from cli.io import LineFile

    try:
        if source == "-" or os.path.isfile(source):
            return Record.from_lines(LineFile(source), source, utc_now)
        if os.path.sep in source or source.endswith((".jsonl", ".json")):
            raise BadInput(f"{side}: no file {source!r}", {"error": "input", "message": f"{side}: no file {source!r}",
                                                           "path": side})
        return Record.from_match(env.service().load(source), source)
    except Malformed as exc:
        where = exc.path if exc.path.startswith("line ") or exc.path == "$" else exc.path
        text = f"{side} ({source}): {exc.message}"
        raise BadInput(text + (f" (at {where})" if where not in ("$", "") and where not in exc.message else ""),
                       {"error": "malformed", "message": text, "path": f"{side}: {where}"}) from None
    except UnknownMatch as exc:
        text = f"{side}: {source!r} is neither a file nor a match in the store"
        raise BadInput(text, {"error": "unknown_match", "match_id": exc.match_id, "message": text, "path": side}) from None
    except IntegrityError as exc:
        text = f"{side} ({source}) does not verify: {exc}"
        raise IntegrityFailure(text, {"error": "integrity", "match_id": exc.match_id, "seq": exc.seq,
                                      "message": f"{side} ({source}) does not verify: {exc.detail}", "path": side}) from None


@command(main, "reconcile")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--same-match", is_flag=True, help="Compare them as one match although they name different matches.")
@click.option("--take", type=click.Choice(["A", "B"], case_sensitive=False),
              help="The judge settles the dispute for this record, in the stored match --into.")
@click.option("--into", "into", metavar="MATCH", help="The stored match settled (A or B).")
@click.option("--reason", help="The judge's reason, recorded with the settlement.")
@click.option("--by", default="judge", show_default=True, help="Who settles it: only the judge may.")
@click.option("--with", "with_", multiple=True, metavar="KEY=VALUE",
              help="A game field of the rewind or correction that settles it (repeat), e.g. cause=judge_error.")
@click.option("--html", "html", metavar="FILE", help="Also write the judge's page of the dispute (- for stdout).")
def reconcile(env: Env, a: str, b: str, same_match: bool, take: str | None, into: str | None, reason: str | None,
              by: str, with_: tuple[str, ...], html: str | None) -> None:
    """Compare two records of one match, A and B (each a match file, sealed or not, or a stored
    match): where they part, each side's verdict there, what each side's version changes on the
    table, where they agree again, and the figures that differ at the end.

    With --take A|B --into MATCH --reason TEXT the judge settles it on the record: the stored match
    goes on with the account taken, through a rewind (the other account stays, abandoned) or a
    correction, or a judge's note when it already holds that account (docs/disputes.md).

    Exit 0 when they agree (or the dispute was settled), 1 when they differ, 2 on bad input, 3 when
    either record does not verify."""
    from adjudicator.presentation.disputes import reconcile_json, reconcile_lines
    from adjudicator.records.reconcile import reconcile as compare
    from cli.values import pairs

    if take is None and (into or reason or with_):
        raise click.UsageError("--into, --reason and --with settle a dispute: give them with --take A|B")
    if take is not None and (not into or not reason):
        raise click.UsageError("--take settles the dispute in a stored match: give --into MATCH and --reason TEXT")
    if take is not None and by != "judge":
        raise click.UsageError(f"only the judge settles a dispute on the record, not {by!r}")
    fields = pairs(with_, what="KEY=VALUE", reserved=("by", "type", "to_seq", "at_seq", "event", "reason"))
    if take is not None:
        env.store(write=True)  # the store the records are read from is the one settled
    ra = load_record(env, "A", a)
    rb = load_record(env, "B", b)
    result = compare(ra, rb, same_match=same_match)
    data = reconcile_json(result)
    lines = reconcile_lines(result)
    if html:
        from adjudicator.presentation.disputes import render_reconcile_page

        page = render_reconcile_page(result)
        with click.open_file(html, "w", encoding="utf-8") as fh:
            fh.write(page)
        if html == "-":  # the page went to stdout: nothing else may
            if not result.agree and take is None:
                raise Differ(differ_text(result))
            return
        lines.append(f"wrote {html}: the two records side by side")
    if take is not None:
        from adjudicator.authority.settle import settle
        from adjudicator.presentation.render import event_json

        done = settle(env.service(write=True), result, take.lower(), into, reason, fields)
        data["settled"] = {"take": take.upper(), "into": done.into, "method": done.method,
                           "events": [event_json(e) for e in done.events], "abandoned": done.abandoned}
        lines.append(settled_line(done))
        return env.emit(data, lines)
    if result.agree:
        return env.emit(data, lines)
    if env.as_json:
        click.echo(dumps(data))
    else:
        for line in lines:
            click.echo(line)
    raise Differ(differ_text(result))


def differ_text(result: Any) -> str:
    d = result.divergence
    return f"the records differ: {d.kind} at A line {d.a.no if d.a else '(end)'}, B line {d.b.no if d.b else '(end)'}"


def settled_line(done: Any) -> str:
    seqs = [e.seq for e in done.events]
    span = f"seq {seqs[0]}" if len(seqs) == 1 else f"seqs {seqs[0]}-{seqs[-1]}"
    what = {"note": "a judge's note (the match already holds that account)", "append": "its further actions appended",
            "correct": "a correction inserting its action", "rewind": "a rewind, then its account"}[done.method]
    text = f"settled for {done.take.upper()} in {done.into}: {what}, {span}"
    if done.abandoned:
        text += f"; abandoned: {', '.join(map(str, done.abandoned))}"
    return text


# -- both players sign the head ----------------------------------------------------------------------
def confirm_offers(service: Any, match: Any, match_id: str) -> list[Any]:
    """The confirmations natural now (``adjudicator.engine.confirming.offers``), as open actions
    that are never required (``anytime``): for ``adj legal``."""
    from adjudicator.engine.confirming import offers
    from adjudicator.engine.protocol import LegalAction

    found = offers(match.fold, match.game)
    if found is None:  # resumed from a snapshot at such a moment: fold from the one kept before it
        head = match.fold.confirmable_head()
        looked = service.load_at(match_id, match.head, since=max(1, head - 1))
        found = offers(looked[0].fold, match.game) if looked is not None else None
        if found is None:  # no snapshot before it that serves: the whole log
            found = offers(service.load(match_id).fold, match.game) or []
    return [LegalAction(who=p, type="confirm", note=f"{why}: adj confirm {match_id} --as {p} --player-key FILE",
                        anytime=True) for p, why in found]


@command(main, "confirm")
@match_argument
@click.option("--as", "player", required=True, metavar="PLAYER", help="The player who confirms the head.")
def confirm(env: Env, match_id: str, player: str) -> None:
    """Sign the match's head as PLAYER, with PLAYER's private key (--player-key FILE or
    ADJ_PLAYER_KEY): an event in the chain that says this player agrees the match stands so.
    A dispute about an event before the last head both players signed is answered by their
    signatures (adj reconcile, the judge's page)."""
    from adjudicator.authority.confirm import confirm as enter
    from cli.report import report

    key = env.player_signing_key()
    if key is None:
        text = "a confirmation is signed with the player's own key: give it with --player-key FILE or ADJ_PLAYER_KEY"
        raise BadInput(text, {"error": "usage", "message": text})
    verdict = enter(env.service(write=True), match_id, player, key)
    extra = []
    if verdict.accepted:
        fields = verdict.event.fields
        extra.append(f"{player} confirmed the head at seq {fields['head_seq']} ({fields['head'][:16]}...)")
        both = verdict.match.fold.both_confirmed()
        if both is not None and both[0] == fields["head_seq"]:
            extra.append(f"every player has signed the head at seq {both[0]}")
    report(env, verdict, extra)
