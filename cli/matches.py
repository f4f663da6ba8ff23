"""The table's commands besides legal, act and state (``cli.main``): games, matches, summary, new,
explain, rewind, undo, correct, log, replay, store copy and policy (design.md, "The command line").

Each command parses its words, calls ``adjudicator``, and prints text (or JSON with ``--json``);
exit codes as ``cli.main`` says. The library is imported inside each command.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import click

from cli import remote
from cli.app import Env, check_viewer, command, fields_argument, main, match_argument
from cli.catalogs import CATALOG_HELP, catalog_for
from cli.errors import IntegrityFailure, Rejected, Unsupported
from cli.help import epilog
from cli.io import read_text
from cli.progress import progress
from cli.report import report
from cli.values import json_value, pairs

# -- the games and the store ---------------------------------------------------------------------
@command(uses_store=False)
def games(env: Env) -> None:
    """Supported games, rules versions and house-rule options."""
    from adjudicator.engine import registry
    from adjudicator.engine.words import format_value
    from adjudicator.presentation.render import plain

    rows = []
    for name in registry.names():
        try:
            g = registry.get(name)
        except Exception as exc:  # a game whose module is missing or broken is listed, not fatal
            rows.append({"name": name, "title": None, "available": False, "error": f"{type(exc).__name__}: {exc}",
                         "rules_version": None, "rules_versions": [], "players": [], "options": [], "reasons": []})
            continue
        rows.append({
            "name": name,
            "title": g.title,
            "available": True,
            "rules_version": g.rules_versions[-1],
            "rules_versions": list(g.rules_versions),
            "players": list(g.player_count),
            "options": plain(list(g.options)),
            "reasons": g.reasons(),
        })
    opts = {id(o): f"{o['name']}={format_value(o['default'])}" for r in rows for o in r["options"]}
    width = max(map(len, opts.values()), default=0)
    lines = []
    for r in rows:
        if not r["available"]:
            lines.append(f"{r['name']}  (unavailable: {r['error']})")
            continue
        older = r["rules_versions"][:-1]
        low, high = r["players"]
        count = f"{low}" if low == high else f"{low}-{high}"
        lines.append(f"{r['name']}  {r['title']}  rules {r['rules_version']}" + (f" (also {', '.join(older)})" if older else "")
                     + f"  {count} players")
        lines.extend(f"  --opt {opts[id(o)]:<{width}}  {o['values']}" + (f"  [{o['rule']}]" if o["rule"] else "")
                     for o in r["options"])
        lines.append(f"  ends by: {', '.join(r['reasons'])}")
    env.emit({"games": rows}, lines)


def _when(stamp: str) -> str:
    """A recorded time at a glance: ``2026-11-28 09:20`` (UTC, as recorded)."""
    return stamp[:16].replace("T", " ") if stamp else "-"


@command()
@remote.options
@click.option("--game", "game", metavar="GAME", help="Only matches of this game.")
@click.option("--player", "player", metavar="NAME", help="Only matches this person plays in.")
@click.option("--status", "status", type=click.Choice(["in_progress", "won", "drawn", "void"]),
              help="Only matches that stand so.")
@click.option("--waiting", "waiting", metavar="NAME",
              help="Only matches waiting for this person (a player, or judge) to act.")
def matches(env: Env, game: str | None, player: str | None, status: str | None, waiting: str | None) -> None:
    """The matches in the store: game, players, status, who the table waits for, when each
    started and last moved."""
    if remote.wanted(env):
        return remote.call(env, "GET", "/matches", params={"game": game, "player": player, "status": status,
                                                           "waiting": waiting})
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import plain, to_move
    from adjudicator.service import IntegrityError

    service = env.service()
    rows, lines, broken = [], [], 0
    from adjudicator.authority.judges import match_signing_modes

    filtered = any(x is not None for x in (game, player, status, waiting))
    signed = match_signing_modes(env.store())  # match id -> "players" or "judges", for signed matches
    for info in env.store().matches():
        row: dict[str, Any] = {"match_id": info.match_id, "head_seq": info.head_seq, "started_at": info.created_at,
                               "updated_at": info.updated_at, "signed": info.match_id in signed,
                               "signed_by": signed.get(info.match_id)}
        try:
            m = service.current(info.match_id)
        except (IntegrityError, ImportError, AttributeError) as exc:
            broken += isinstance(exc, IntegrityError)
            if filtered:  # it cannot be said to match: it is counted below, not listed
                continue
            row.update(game=None, players=[], outcome=None, waiting_for=[], error=str(exc))
            lines.append(f"{info.match_id}  {info.head_seq} events  UNREADABLE: {exc}")
        else:
            out = m.outcome()
            movers = to_move(m.fold.open_now()) if out.status == "in_progress" and m.fold.decided() is None else []
            if ((game is not None and m.game.name != game) or (player is not None and player not in m.players)
                    or (status is not None and out.status != status) or (waiting is not None and waiting not in movers)):
                continue
            row.update(game=m.game.name, players=list(m.players), outcome=plain(out), waiting_for=movers, error=None)
            stands = outcome_text(out) + (f", waiting for {', '.join(movers)}" if movers else "")
            lines.append(f"{info.match_id}  {m.game.name}  {' v '.join(m.players)}  {info.head_seq} events  {stands}"
                         f"  started {_when(info.created_at)}, last moved {_when(info.updated_at)}"
                         + (f"  signed by {row['signed_by']}" if row["signed"] else ""))
        rows.append(row)
    env.emit({"matches": rows}, lines or [f"no matches in the store{' that match' if filtered else ''}"])
    if broken:
        raise IntegrityFailure(f"{broken} match(es) do not verify: run adj verify")


@command()
@match_argument
def summary(env: Env, match_id: str) -> None:
    """A match in a few lines: its result and why, turns, rewinds, corrections, the judge's notes
    and penalties."""
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import plain

    service = env.service()
    match = service.load(match_id)
    fold, game = match.fold, match.game
    out = match.outcome()
    turns, last = 0, None  # a turn is counted each time the board's turn passes to a player
    for seq in sorted(fold.effective_seqs()):
        turn = game.board(fold.history[seq], None).turn
        if turn and turn != last:
            turns += 1
        last = turn or last
    gone = {seq for b in fold.branches for seq in b.abandoned}
    kinds: dict[str, list[dict[str, Any]]] = {"rewind": [], "correct": [], "note": [], "penalty": []}
    for ev in match.events:
        if ev.type in kinds:
            f = ev.fields
            entry = {"seq": ev.seq, "by": ev.by, "abandoned": ev.seq in gone}
            if ev.type == "rewind":
                entry.update(to_seq=f.get("to_seq"), reason=f.get("reason"))
            elif ev.type == "correct":
                entry.update(at_seq=f.get("at_seq"), inserted=(f.get("event") or {}).get("type"), reason=f.get("reason"))
            elif ev.type == "note":
                entry.update(at_seq=f.get("at_seq"), text=f.get("text"))
            else:
                entry.update(at_seq=f.get("at_seq"), player=f.get("player"), infraction=f.get("infraction"),
                             penalty=f.get("penalty"), reason=f.get("reason"))
            kinds[ev.type].append(entry)
    rejected = len(service.store.rejections(match_id))
    first, head = match.events[0], match.events[-1]
    lines = [f"{match_id}: {game.name}, {' v '.join(match.players)}, {match.head} events, "
             f"started {_when(first.recorded_at)}, last moved {_when(head.recorded_at)}",
             f"result: {outcome_text(out)}" + (f" [{out.reason}]" if out.reason else ""),
             f"turns: {turns if last is not None else f'not counted ({game.name} shows no turn)'}",
             f"rewinds: {len(kinds['rewind'])}",
             *(f"  seq {r['seq']}: back to {r['to_seq']} by {r['by']}: {r['reason']}" for r in kinds["rewind"]),
             f"corrections: {len(kinds['correct'])}",
             *(f"  seq {c['seq']}: {c['inserted']} put before {c['at_seq']} by {c['by']}: {c['reason']}"
               for c in kinds["correct"]),
             f"notes: {len(kinds['note'])}",
             *(f"  at seq {n['at_seq']}: {n['text']}" for n in kinds["note"]),
             f"penalties: {len(kinds['penalty'])}",
             *(f"  {p['player']}: {p['penalty']} for {p['infraction']} at seq {p['at_seq']}: {p['reason']}"
               for p in kinds["penalty"]),
             f"rejected attempts: {rejected}"]
    env.emit({"match_id": match_id, "game": game.name, "players": list(match.players), "events": match.head,
              "started_at": first.recorded_at, "updated_at": head.recorded_at, "outcome": plain(out), "turns": turns if last is not None else None,
              "rewinds": kinds["rewind"], "corrections": kinds["correct"], "notes": kinds["note"],
              "penalties": kinds["penalty"], "rejected": rejected}, lines)


@main.group("store", epilog=epilog("store"))
def store_group() -> None:
    """Move matches between stores; what a store requires of its entries."""


def _existing_store(url: str):
    from adjudicator.service import open_store, store_location

    kind, where = store_location(url)
    if kind == "sqlite" and not os.path.exists(where):
        raise click.BadParameter(f"no store at {url!r}", param_hint="FROM")
    return open_store(url, write=False)


def _same_store(source: str, target: str) -> bool:
    from adjudicator.service import store_location

    if source == target:
        return True
    (kind, a), (kind_b, b) = store_location(source), store_location(target)
    if kind != kind_b or kind == "memory":
        return False
    return a == b or (kind == "sqlite" and os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b))


@command(store_group, "copy", uses_store=False, signs=True)
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option("--match", "match_ids", multiple=True, metavar="MATCH", help="Copy only this match (repeatable).")
def store_copy(env: Env, source: str, target: str, match_ids: Sequence[str]) -> None:
    """Copy matches from one store to another, hashes intact (each chain verified first). Into a
    store with registered keys, a match is copied only as its entries could be entered there:
    its judges' decisions signed with --judge-key, or the match refused, nothing of it written."""
    from adjudicator.service import copy_matches
    from adjudicator.service import open_store

    if _same_store(source, target):
        raise click.BadParameter(f"{source!r} and {target!r} are the same store: nothing to copy", param_hint="TO")
    src = _existing_store(source)
    ctx = click.get_current_context()
    ctx.call_on_close(src.close)
    dst = env.signed(open_store(target))
    ctx.call_on_close(dst.close)
    ids = list(match_ids) or [m.match_id for m in src.matches()]
    copied: list[str] = []
    for mid in ids:
        if not src.head(mid):
            raise click.BadParameter(f"no match {mid!r} in {source!r}", param_hint="'--match'")
    with progress("copying matches", env.as_json) as bar:
        for mid in ids:
            try:
                copied += copy_matches(src, dst, [mid], admit=dst.admit)
            except Exception:
                bar.close()
                if copied and not env.as_json:
                    click.echo(f"copied before the failure: {', '.join(copied)}", err=True)
                raise
            bar(len(copied), len(ids))
    env.emit({"copied": copied, "from": source, "to": target}, [f"copied {len(copied)} match(es): {', '.join(copied)}"])


@command(store_group, "policy", signs=True)
@click.option("--require-keys", "require", is_flag=True,
              help="From now on, take a match only when every seat has a registered key (never lifted).")
@click.option("--key", "key_path", metavar="FILE",
              help="The checkpoint signing key (default: this user's): signs the checkpoint made once it is set.")
def store_policy(env: Env, require: bool, key_path: str | None) -> None:
    """What the store requires of the entries it takes. With --require-keys, from now on: a match
    enters it (adj new, import, store copy) only when every one of its players has a registered
    key, and each player's action must then be signed by that player; a judge's decision needs a
    registered judge's key. Set by the organiser while no judge is registered, then by a judge
    (--judge-key)."""
    from cli.audit import store_policy as policy

    policy(env, require, key_path)


# -- starting and playing ------------------------------------------------------------------------
def _setup_value(text: str) -> Any:
    from adjudicator.engine.inputs import read_json

    where = "the --setup value"
    if text.startswith("@"):
        where, text = text[1:], read_text(text[1:])
    return read_json(text, where)


@command()
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True, help="A player, in seat order (repeat).")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE", help="A house-rule option (repeat).")
@click.option("--deck", "decks", multiple=True, metavar="PLAYER=FILE", help="A player's deck list (repeat).")
@click.option("--setup", "setups", multiple=True, metavar="KEY=JSON",
              help="Another match_started field; KEY=@file.json reads the JSON from a file.")
@click.option("--id", "match_id", help="The match id (default: GAME-N).")
@click.option("--by", default="judge", show_default=True, help="Who starts the match.")
@click.option("--catalog", "catalog_file", metavar="FILE", help=CATALOG_HELP)
def new(env: Env, game: str, players: Sequence[str], opts: Sequence[str], decks: Sequence[str],
        setups: Sequence[str], match_id: str | None, by: str, catalog_file: str | None) -> None:
    """Start a match of GAME."""
    from adjudicator.engine import registry
    from adjudicator.presentation.render import plain

    g = registry.get(game)
    options = pairs(opts, json_value, "KEY=VALUE")
    known = [o.name for o in g.options]
    for key in options:
        if key not in known:
            raise click.BadParameter(f"{game} has no option {key!r}; options: {', '.join(known) or 'none'}",
                                     param_hint="'--opt'")
    setup = pairs(setups, _setup_value, "KEY=JSON", reserved=("game", "players", "options"))
    deck_lists: dict[str, Any] = {}
    for word in decks:
        player, eq, path = word.partition("=")
        if not eq or player not in players:
            raise click.BadParameter(f"{word!r}: expected PLAYER=FILE with one of {', '.join(players)}",
                                     param_hint="'--deck'")
        if player in deck_lists:
            raise click.BadParameter(f"{player}'s deck is given twice", param_hint="'--deck'")
        deck_lists[player] = plain(g.read_deck(read_text(path)))
    if deck_lists:
        fields = g.deck_setup(deck_lists)
        both = [k for k in fields if k in setup]
        if both:
            raise click.BadParameter(f"give the decks either with --deck or with --setup {both[0]}=, not both")
        setup.update(fields)
    if catalog_file and not setup.get("catalog"):
        setup["catalog"] = catalog_for(game, catalog_file, read_text(catalog_file))
    verdict = env.service(write=True).new(game, players, options=options, setup=setup, match_id=match_id, by=by)
    report(env, verdict, brief=True)  # just the id, for mid=$(adj new ...)


@command()
@match_argument
@click.argument("units", nargs=-1)
@click.option("--at", "at_seq", type=int, metavar="SEQ", help="Explain the position right after this event.")
def explain(env: Env, match_id: str, units: tuple[str, ...], at_seq: int | None) -> None:
    """Why the rules decide as they do: compare two units (A B), rank one (A), or, with none,
    explain what is in progress (for games that can explain themselves)."""
    from adjudicator.engine.kit import Game
    from adjudicator.engine.words import outline
    from adjudicator.presentation.render import plain

    service = env.service()
    if at_seq is None:
        match = service.current(match_id)
        st = match.state
    else:  # folded through at_seq only, as adj state --at: a look at the past does not cost the whole match
        found = service.load_at(match_id, at_seq)
        if found is None:
            raise click.BadParameter(f"{match_id} has events 1 to {service.store.head(match_id)}, not {at_seq}",
                                     param_hint="'--at'")
        match = found[0]
        st = match.fold.state_at(at_seq)
    if len(units) > 2:
        raise click.BadParameter("name at most two units to compare", param_hint="UNITS")
    query = {"a": units[0], "b": units[1]} if len(units) == 2 else {"unit": units[0]} if units else {}
    if type(match.game).explain is Game.explain:  # the kit's default: this game explains nothing
        raise Unsupported(f"{match.game.name} has nothing to explain; adj state shows the position")
    result = plain(match.game.explain(st, query))
    env.emit(result, outline(result))


@command()
@match_argument
@fields_argument
@click.option("--to", "to_seq", type=int, required=True, help="The seq to go back to.")
@click.option("--reason", required=True)
@click.option("--by", required=True)
def rewind(env: Env, match_id: str, fields: Sequence[str], to_seq: int, reason: str, by: str) -> None:
    """Rewind the effective history to event --to; later events stay in the log, abandoned.

    FIELD=VALUE pairs are the game's own fields of a rewind: BACDEF's cause=contradiction (a
    declared contradiction, counted against the set's replays) or cause=judge_error; DemonBrave's
    judge_override=true. `adj legal MATCH` shows the rewind open now, with its fields."""
    data = pairs(fields, reserved=("by", "type", "to_seq", "reason"))
    data.update(to_seq=to_seq, reason=reason)
    verdict = env.service(write=True).submit(match_id, "rewind", by, data, strict=False)
    extra: list[str] = []
    extra_json: dict[str, Any] = {}
    branches = verdict.match.fold.branches
    if verdict.accepted and branches and branches[-1].rewind_seq == verdict.event.seq:
        gone = list(branches[-1].abandoned)
        extra_json["abandoned"] = gone
        extra.append("abandoned: " + (", ".join(map(str, gone)) or "nothing"))
    report(env, verdict, extra, extra_json)


@command()
@match_argument
@click.option("--by", required=True, help="Who asks (the player whose last entry it was) or confirms (the judge or the opponent).")
def undo(env: Env, match_id: str, by: str) -> None:
    """Withdraw a mistyped last entry: its player asks, the judge or the opponent confirms.

    Asked (--by the player whose entry is the last one, nothing entered since), the request is
    recorded; confirmed (--by the judge or the opponent, with the request the last entry), it
    becomes a rewind to just before the entry, which the game's rules for rewinds judge."""
    from adjudicator.engine.judging import RULE_UNDO_CONFIRM as RULE

    service = env.service(write=True)
    head = service.store.head(match_id)
    if not head:
        from adjudicator.service import UnknownMatch

        raise UnknownMatch(match_id)
    last = service.store.read(match_id, head, head)[0]
    if last.type != "undo_request":  # ask
        verdict = service.submit(match_id, "undo_request", by, {"at_seq": head}, strict=False)
        extra = [f"waiting for the judge or the opponent to confirm: adj undo {match_id} --by NAME"] if verdict.accepted else []
        return report(env, verdict, extra)
    asked_by, entry = last.by, last.fields["at_seq"]
    if by == asked_by:
        text = (f"{asked_by} asked at seq {head} for seq {entry} to be withdrawn; the judge or the opponent confirms it "
                f"(adj undo {match_id} --by NAME)")
        raise Rejected(f"{RULE}: {text}", {"accepted": False, "match_id": match_id, "head_seq": head, "line": None,
                                           "type": "undo", "by": by, "rule": RULE, "code": None, "message": text})
    match = service.current(match_id)
    entered = service.store.read(match_id, entry, entry)[0]
    data = {"to_seq": entry - 1, **match.game.undo_fields(match.state, asked_by, by),
            "reason": f"undo: seq {entry} ({entered.type}) withdrawn at {asked_by}'s request (seq {head}), confirmed by {by}"}
    verdict = service.submit(match_id, "rewind", by, data, strict=False)
    extra: list[str] = []
    extra_json: dict[str, Any] = {}
    branches = verdict.match.fold.branches
    if verdict.accepted and branches and branches[-1].rewind_seq == verdict.event.seq:
        extra_json["abandoned"] = list(branches[-1].abandoned)
        extra.append("abandoned: " + ", ".join(map(str, branches[-1].abandoned)))
    report(env, verdict, extra, extra_json)


@command()
@match_argument
@click.argument("action")
@fields_argument
@click.option("--at", "at_seq", type=int, required=True, help="Insert the action before this seq.")
@click.option("--reason", required=True)
@click.option("--by", required=True, help="Who enters the correction (and the inserted action, unless by=NAME).")
@click.option("--with", "with_", multiple=True, metavar="KEY=VALUE", help="A field of the correction itself (repeat).")
def correct(env: Env, match_id: str, action: str, fields: Sequence[str], at_seq: int, reason: str, by: str,
            with_: Sequence[str]) -> None:
    """Insert a forgotten ACTION before event --at; every later event is re-checked."""
    from adjudicator.presentation.render import event_line

    inner = pairs(fields, reserved=("type",))
    inner_by = inner.pop("by", by)
    if not isinstance(inner_by, str):
        raise click.BadParameter("by= must name who the inserted action is by")
    data = pairs(with_, what="KEY=VALUE", reserved=("by", "type", "at_seq", "event", "reason"))
    data.update(at_seq=at_seq, event={"type": action, "by": inner_by, **inner}, reason=reason)
    verdict = env.service(write=True).submit(match_id, "correct", by, data, strict=False)
    extra: list[str] = []
    if verdict.accepted:  # the stored event holds the inserted action in its declared types
        event = dict(verdict.event.fields["event"])
        extra.append(f"inserted before seq {at_seq}: " + event_line("+", event.pop("by"), event.pop("type"), event))
    report(env, verdict, extra)


# -- looking back ---------------------------------------------------------------------------------
@command()
@remote.options
@match_argument
@click.option("--as", "player", metavar="PLAYER", help="The history as this player may see it (private fields hidden).")
def log(env: Env, match_id: str, player: str | None) -> None:
    """The whole history: abandoned branches (~) and rejected attempts (x) included. Where keys
    sign entries, each event says who signed it, or [unsigned] (its author is then only what was
    typed with --by); where none is signed, one line says so."""
    if remote.wanted(env, player):
        return remote.call(env, "GET", f"/matches/{match_id}/log")
    from adjudicator.presentation.render import history, log_text, plain, redacted

    service = env.service()
    match = service.load(match_id)
    viewer = check_viewer(match, player)
    rows = redacted(history(match.events, match.fold.branches, service.store.rejections(match_id),
                            service.store.audit_signatures(match_id)), match.game, match.players, viewer, match.state)
    out = match.outcome()
    lines = log_text(match_id, match, rows)
    env.emit({"match_id": match_id, "game": match.game.name, "players": list(match.players), "head_seq": match.head,
              "as": player, "history": [r.to_json() for r in rows],
              "branches": [{"rewind_seq": b.rewind_seq, "to_seq": b.to_seq, "abandoned": list(b.abandoned)}
                           for b in match.fold.branches],
              "outcome": plain(out)}, lines)


@command()
@match_argument
@click.option("--from", "lo", type=int, metavar="SEQ", help="First event (default 1).")
@click.option("--to", "hi", type=int, metavar="SEQ", help="Last event (default the head).")
@click.option("--as", "player", metavar="PLAYER", help="Show changes in what this player may see.")
@click.option("--html", "html", metavar="FILE", help="Write the match as one self-contained page (docs/desk.md).")
def replay(env: Env, match_id: str, lo: int | None, hi: int | None, player: str | None, html: str | None) -> None:
    """Step through the events, with what each one changed."""
    from adjudicator.presentation.changes import step_changes
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import change_line, diff, history, history_lines, plain, redacted

    if html:
        from cli import desk

        return desk.write_page(env, match_id, html, player)

    service = env.service()
    match = service.load(match_id)
    viewer = check_viewer(match, player)
    lo = 1 if lo is None else lo
    hi = match.head if hi is None else hi
    if not 1 <= lo <= hi <= match.head:
        raise click.BadParameter(f"{match_id} has events 1 to {match.head}; --from {lo} --to {hi} is not within them")
    rows = [r for r in redacted(history(match.events, match.fold.branches, service.store.rejections(match_id)),
                                match.game, match.players, viewer, match.state)
            if (lo <= r.seq <= hi if r.seq is not None else lo <= r.head_seq + 1 <= hi)]
    game, states = match.game, match.fold.history
    views = {0: {}}  # seq -> the view after it; each event's "after" is the next one's "before"

    def view_at(seq: int) -> Any:
        if seq not in views:
            views[seq] = plain(game.view(states[seq], viewer))
        return views[seq]

    steps, lines = [], []
    for row, line in zip(rows, history_lines(rows)):
        lines.append(line)
        step = row.to_json()
        if row.seq is not None:
            changes = diff(view_at(row.seq - 1), view_at(row.seq))
            step["changes"] = [c.to_json() for c in changes]
            words = step_changes(game, states, row.seq, viewer)  # the table's words; paths for a game without a board
            step["words"] = [w.to_json() for w in words]
            lines.extend(f"      {text}" for text in [f"  {w.text}" for w in words] or [change_line(c) for c in changes])
        steps.append(step)
    out = match.fold.outcome(hi)
    lines.append(f"outcome after seq {hi}: {outcome_text(out)}")
    env.emit({"match_id": match_id, "from": lo, "to": hi, "as": player, "history": steps,
              "outcome": plain(out)}, lines)

