"""The ``adj`` command (design.md, "The command line"): its entry point, and the three commands a
table runs at every action (legal, act, state), alone here so that running one of them defines no
other (issue 25: their start-up is most of their cost). The table's other commands (games,
matches, summary, new, explain, rewind, undo, correct, log, replay, store copy and policy) are in
``cli.matches``.

Each command parses its words, calls ``adjudicator``, and prints text (or JSON with ``--json``).
Exit codes: 0 done; 1 rejected by a rule, or another entry landed first; 2 bad usage or
malformed input, nothing written; 3 integrity failure. Only click is imported at start-up;
the library is imported inside each command. The group, ``Env`` and ``command`` are in
``cli.app``, where every command module registers.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Sequence

import click

from cli import remote
from cli.app import Env, check_viewer, command, fields_argument, main, match_argument, viewer_label
from cli.help import complete_action
from cli.report import report
from cli.values import pairs

__all__ = ["main", "run"]


def run() -> None:
    """The ``adj`` process (pyproject.toml's console script): the command, then an exit that does
    not walk every object of the loaded modules again. The garbage of the command's last moments
    (the collector's young generations) is collected, its finalizers run; then what is left is
    frozen (``gc.freeze``), so that the interpreter's teardown, which collects the whole heap,
    passes over it. ``adj state``, ``legal`` and ``act`` spent about a sixth of their CPU there.
    Every file a command writes is closed by then (``with``), and the store with the command's
    context."""
    atexit.register(_collected_then_frozen)  # registered first, so it runs after every other
    main()


def _collected_then_frozen() -> None:
    gc.collect(1)
    gc.freeze()


# -- what a table runs at every action ------------------------------------------------------------
@command()
@remote.options
@match_argument
@click.option("--as", "player", metavar="PLAYER", help="Only this person's own actions (default: all, as the judge sees them).")
def legal(env: Env, match_id: str, player: str | None) -> None:
    """Which actions are open now, and for whom."""
    if remote.wanted(env, player):
        return remote.call(env, "GET", f"/matches/{match_id}/legal")
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import action_json, legal_lines, plain
    from cli.disputes import confirm_offers

    match = env.service().current(match_id)
    check_viewer(match, player)
    actions = match.fold.open_now() if match.fold.decided() is None else []  # a penalty ended play
    offers = confirm_offers(env.service(), match, match_id)  # natural moments to sign the head, never required
    if player is not None:
        actions, offers = [a for a in actions if a.who == player], [a for a in offers if a.who == player]
    lines = legal_lines(actions) or [f"nothing is open{' for ' + player if player else ''}; outcome: {outcome_text(match.outcome())}"]
    lines += [f"{a.who} may sign the head ({a.note})" for a in offers]
    actions = [*actions, *offers]
    env.emit({"match_id": match_id, "as": player, "actions": [action_json(a) for a in actions],
              "outcome": plain(match.outcome())}, lines)


@command()
@remote.options
@match_argument
@click.argument("action", shell_complete=complete_action)
@fields_argument
@click.option("--by", required=True, help="Who enters the action (a player, or judge).")
@click.option("--key", "idem_key", metavar="KEY", help="Idempotency key: a retry with the same key writes nothing new.")
def act(env: Env, match_id: str, action: str, fields: Sequence[str], by: str, idem_key: str | None) -> None:
    """Enter one table action: ACTION with its FIELD=VALUE pairs.

    VALUE is a word (3, alice, true), a list [a,b,c], null, or JSON ({...} or [{...}])."""
    data = pairs(fields, reserved=("by", "type"))
    if remote.wanted(env):
        return remote.call(env, "POST", f"/matches/{match_id}/events", body={**data, "type": action, "by": by,
                                                                             **({"key": idem_key} if idem_key else {})})
    verdict = env.service(write=True).submit(match_id, action, by, data, strict=False, idempotency_key=idem_key)
    report(env, verdict)


@command()
@remote.options
@match_argument
@click.option("--at", "at_seq", type=int, metavar="SEQ", help="The state right after this event.")
@click.option("--as", "player", metavar="PLAYER", help="What this player may see (default: the judge's view).")
def state(env: Env, match_id: str, at_seq: int | None, player: str | None) -> None:
    """The state now, or right after any event (abandoned ones included)."""
    if remote.wanted(env, player):
        return remote.call(env, "GET", f"/matches/{match_id}/state", params={"at": at_seq})
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import plain, to_move

    service = env.service()
    if at_seq is None:  # the present: from the snapshot kept beside the log, where there is one
        match = service.current(match_id)
        at_seq, head_seq, gone = match.head, match.head, None
    else:  # folded through at_seq only: a look at the past does not cost the whole match
        found = service.load_at(match_id, at_seq)
        if found is None:
            raise click.BadParameter(f"{match_id} has events 1 to {service.store.head(match_id)}, not {at_seq}",
                                     param_hint="'--at'")
        match, head_seq, gone = found
    viewer = check_viewer(match, player)
    st = match.fold.state_at(at_seq)
    game = match.game
    out = match.fold.outcome(at_seq)
    # for a viewer: only whether they are to move (a past state has no context of its own: the
    # judge's rewind and correction it would add are open at any moment, and never make a mover)
    open_then = match.fold.open_now() if at_seq == match.head else game.legal(st)
    movers = to_move(open_then, viewer) if out.status == "in_progress" else []
    head = f"{match_id} after seq {at_seq}" + (" (head)" if at_seq == head_seq else f" of {head_seq}")
    if gone is not None:
        head += f", abandoned by rewind at {gone}"
    if player:
        head += f", as {viewer_label(match, player)}"
    lines = [head, game.describe(st, viewer), f"outcome: {outcome_text(out)}"]
    if movers:
        lines.append(f"to move: {', '.join(movers)}")
    elif viewer in match.players and out.status == "in_progress":
        lines.append(f"to move: not {viewer}")
    env.emit({"match_id": match_id, "seq": at_seq, "head_seq": head_seq, "as": player, "abandoned_by": gone,
              "state": plain(game.view(st, viewer)), "outcome": plain(out), "to_move": movers}, lines)


if __name__ == "__main__":  # pragma: no cover
    run()
