"""Judge's calls: notes and penalties, in every match's hash chain without any game's code.

``note`` (``at_seq``, ``text``) and ``penalty`` (``player``, ``infraction``, ``penalty``,
``at_seq``, ``reason``) are events of the spine, like ``rewind`` and ``correct`` but outside the
game: the fold decodes them before the game's event union, checks them here, and folds them
without calling the game, so the game state never changes. They stand outside the game's
effective history too: a later rewind or correction does not undo a judge's call.

A penalty of ``game_loss`` (in a match of one game), ``match_loss`` or ``disqualification``
decides the match: the outcome is the opponent's win whatever the game state says, and the
fold refuses every later game event. In a match of several games or sets the spine cannot move
play on to the next game (only the game knows how), so a game loss is recorded and shown in the
outcome's detail; the table enters the game's own concession for that game.

Spine rule IDs: ADJ-JDG-1 only the judge makes a call; ADJ-JDG-2 the call names an event of
the log; ADJ-JDG-3 a penalty names a player of the match; ADJ-JDG-4 a match decided by a
penalty takes no more play (nor a second deciding penalty).

A player's call stands beside them: ``undo_request``, a player asking for their own last entry
(a typo, nothing entered since) to be withdrawn. It changes nothing by itself; the judge or the
opponent confirms it by a ``rewind`` to just before that entry, which the game's own rules for
rewinds then judge (``adj undo``). ADJ-UNDO-1: only a player asks, only for the head of the log,
and only when that head is their own table action; ADJ-UNDO-2: who asked does not confirm.
"""

from collections.abc import Sequence
from typing import Literal, Union

import msgspec

from adjudicator.engine.confirming import Confirm
from adjudicator.engine.protocol import JUDGE, Action, Outcome, Violation

RULE_JUDGE_ONLY = "ADJ-JDG-1"
RULE_AT_SEQ = "ADJ-JDG-2"
RULE_PLAYER = "ADJ-JDG-3"
RULE_DECIDED = "ADJ-JDG-4"
RULE_UNDO = "ADJ-UNDO-1"
RULE_UNDO_CONFIRM = "ADJ-UNDO-2"  # the request is confirmed by someone else (cli: adj undo)

PenaltyName = Literal["caution", "warning", "game_loss", "match_loss", "disqualification"]
PENALTIES: tuple[str, ...] = PenaltyName.__args__  # type: ignore[attr-defined]
#: penalties that end the match (``game_loss`` only where the match is one game)
DECIDING = ("match_loss", "disqualification")

#: the reason code of an outcome a penalty decided
REASON = "penalty"


class Note(Action, tag="note"):
    """A judge's note on the record, about the event ``at_seq``."""

    at_seq: int
    text: str


class Penalty(Action, tag="penalty"):
    """A penalty given to ``player`` for ``infraction``, about the event ``at_seq``."""

    player: str
    infraction: str
    penalty: PenaltyName
    at_seq: int
    reason: str


class UndoRequest(Action, tag="undo_request"):
    """A player asks for their own entry ``at_seq`` (the head of the log) to be withdrawn."""

    at_seq: int


JudgeCall = Union[Note, Penalty, UndoRequest]
#: the spine's events outside the game's history: the judge's calls, a player's undo request, and the
#: players' confirmations (``adjudicator.engine.confirming``), which the fold checks apart
CALL_TYPES = frozenset(("note", "penalty", "confirm", "undo_request"))
CALL_CLASSES = {"note": Note, "penalty": Penalty, "confirm": Confirm, "undo_request": UndoRequest}
#: what an undo request cannot withdraw: the start, the table's corrections and the calls
NOT_WITHDRAWN = ("match_started", "rewind", "correct", *CALL_TYPES)


def check_undo(event: UndoRequest, players: Sequence[str], head: int, last: Action | None) -> None:
    """ADJ-UNDO-1: a player asks, for the head of the log, which is their own table action."""
    from adjudicator.engine.kit import event_type

    if event.by not in players:
        raise Violation(RULE_UNDO, f"an undo is asked by the player whose entry it was, not {event.by}; "
                                   "the judge goes back with a rewind")
    if event.at_seq != head or last is None:
        raise Violation(RULE_UNDO, f"only the last entry (seq {head}) can be withdrawn, with nothing entered since; "
                                   f"not seq {event.at_seq}")
    kind = event_type(last)
    if kind in NOT_WITHDRAWN:
        raise Violation(RULE_UNDO, f"seq {head} is a {kind}, not a table action: it is not withdrawn by an undo")
    if last.by != event.by:
        raise Violation(RULE_UNDO, f"seq {head} ({kind}) was entered by {last.by}, not {event.by}: "
                                   "a player withdraws only their own entry")


def decides(p: Penalty, one_game: bool) -> bool:
    return p.penalty in DECIDING or (p.penalty == "game_loss" and one_game)


def check(event: Action, players: Sequence[str], head: int, decided: tuple[int, Penalty] | None,
          last: Action | None = None) -> bool:
    """Check an event against the calls so far; True when ``event`` is itself a call (the fold
    then folds it without the game). Raises ``Violation`` under the ADJ-JDG and ADJ-UNDO rules;
    ``last`` is the event at the head of the log."""
    if isinstance(event, UndoRequest):
        check_undo(event, players, head, last)
        return True
    if not isinstance(event, (Note, Penalty)):
        if decided is not None:
            seq, p = decided
            raise Violation(RULE_DECIDED, f"the match was decided by the {p.penalty} of {p.player} at seq {seq}; "
                                          f"no more play is entered (a judge's note still may be)")
        return False
    kind = "a note" if isinstance(event, Note) else "a penalty"
    if event.by != JUDGE:
        raise Violation(RULE_JUDGE_ONLY, f"only the judge enters {kind}; {event.by} tried")
    if not 1 <= event.at_seq <= head:
        raise Violation(RULE_AT_SEQ, f"{kind} is about an event of the log (seq 1 to {head}), not seq {event.at_seq}")
    if isinstance(event, Penalty):
        if event.player not in players:
            raise Violation(RULE_PLAYER, f"{event.player!r} does not play in this match ({', '.join(players)})")
        if decided is not None and event.penalty in (*DECIDING, "game_loss"):
            seq, p = decided
            raise Violation(RULE_DECIDED, f"the match was already decided by the {p.penalty} of {p.player} at seq {seq}")
    return True


def deciding(penalties: Sequence[tuple[int, Penalty]], one_game: bool, players: Sequence[str]) -> tuple[int, Penalty] | None:
    """The penalty that decided the match, if any (with more than two players, none does: the
    others play on, and only the game can say who wins)."""
    if len(players) != 2:
        return None
    return next(((s, p) for s, p in penalties if decides(p, one_game)), None)


def outcome(game_outcome: Outcome, penalties: Sequence[tuple[int, Penalty]], players: Sequence[str]) -> Outcome:
    """The match's outcome: the game's, unless a penalty decided it."""
    one_game = game_outcome.score is None
    hit = deciding(penalties, one_game, players)
    if hit is None:
        losses = [f"game loss for {p.player} ({p.infraction}; penalty at seq {s}): the table enters the game's own concession"
                  for s, p in penalties if p.penalty == "game_loss"]
        if not losses:
            return game_outcome
        detail = "; ".join(filter(None, (game_outcome.detail, *losses)))
        return msgspec.structs.replace(game_outcome, detail=detail)
    seq, p = hit
    winner = next(q for q in players if q != p.player)
    words = f"{p.penalty.replace('_', ' ')} for {p.player} ({p.infraction}; penalty at seq {seq}, about seq {p.at_seq}): {p.reason}"
    return Outcome(status="won", winner=winner, score=game_outcome.score, reason=REASON, detail=words)
