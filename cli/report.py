"""How a command that enters an event prints its verdict: the accepted event, what the reducer did
on its own, what changed on the table and who the table waits for; or the refusal (exit 1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cli.app import Env
from cli.errors import Rejected


def report(env: Env, verdict: Any, extra: Sequence[str] = (), extra_json: dict[str, Any] | None = None,
            brief: bool = False) -> None:
    """Print an accepted action, or raise the rejection (exit 1)."""
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import effect, event_json, event_line, plain, refusal_json, to_move

    match = verdict.match
    if not verdict.accepted:
        v = verdict.violation
        raise Rejected(f"{v.rule_id}: {v.message}",
                       refusal_json(match.match_id, match.head, verdict.type, verdict.by, v.rule_id, v.code, v.message))
    ev = verdict.event
    out = match.outcome()
    movers = to_move(match.fold.open_now()) if out.status == "in_progress" else []
    notes = list(match.game.notes(match.state))
    did = effect(match.game, match.fold.history, ev.seq)  # in the table's words: public facts only
    data = {"accepted": True, "match_id": match.match_id, "seq": ev.seq, "event": event_json(ev),
            "outcome": plain(out), "to_move": movers, "notes": notes, **did.to_json(), **(extra_json or {})}
    if brief:
        return env.emit(data, [match.match_id])
    lines = [f"{match.match_id} seq {event_line(ev.seq, ev.by, ev.type, ev.fields)}", *extra]
    lines.extend(f"  {n}" for n in notes)
    lines.extend(did.lines())
    if out.status != "in_progress" and not did.milestones:  # a result just decided is among the milestones
        lines.append(f"outcome: {outcome_text(out)}")
    if movers:
        lines.append(f"to move: {', '.join(movers)}")
    env.emit(data, lines)
