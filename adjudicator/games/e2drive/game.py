"""The E2Drive game object, registered as ``e2drive`` (rules/e2drive.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.games.e2drive import board as B
from adjudicator.games.e2drive import deck as D
from adjudicator.games.e2drive import rules as R
from adjudicator.games.e2drive import view as V
from adjudicator.games.e2drive.catalog import SAMPLE
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.events import PRIVATE_FIELDS, E2dMatchStarted, E2dRewind, Event, Registration
from adjudicator.games.e2drive.reasons import Reason
from adjudicator.games.e2drive.state import SEATS, State
from adjudicator.engine.kit import HIDDEN, Board, Game
from adjudicator.engine.protocol import JUDGE, Action, Context, LegalAction, Malformed, Outcome, Violation

RULES_VERSION = "0.40"


class E2Drive(Game):
    name = "e2drive"
    title = "E2Drive (E2D)"
    rules_versions = (RULES_VERSION,)
    prefix = "E2D"
    event_type = Event
    Options = Options
    Reason = Reason
    player_count = (2, 2)
    player_count_rule = ("E2D-OVR-1", "PLAYERS")
    author_rule = ("E2D-ACT-1", "NOT_ACTOR")
    private_fields = PRIVATE_FIELDS
    correction_conflict = ("E2D-RWD-4", "CORRECTION_CONFLICT")
    rewind_rule = correct_rule = ("E2D-RWD-2", "NOT_ACTOR")  # only the judge rewinds or corrects

    def initial(self, started: E2dMatchStarted, ctx: Context) -> State:
        names = tuple(started.players)
        for i, n in enumerate(names):
            if n in SEATS and n != SEATS[i] or n == JUDGE:
                raise Malformed(f"player name {n!r} cannot sit in seat {SEATS[i]}", f"$.players[{i}]")
        options = self.decode_options(started.options)
        problems = D.catalog_problems(started.catalog)
        regs: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        keys = {k: (SEATS[names.index(k)] if k in names else k) for k in started.registrations}
        if sorted(keys.values()) != list(SEATS):
            raise Malformed(f"registrations name both players ({', '.join(names)} or P1, P2), not {sorted(started.registrations)}",
                            "$.registrations")
        for key, reg in started.registrations.items():
            seat = keys[key]
            problems += D.registration_problems(reg, started.catalog, options, seat)
            regs[seat] = (tuple(reg.deck), tuple(reg.servants))
        if problems:
            first = problems[0]
            more = f" (and {len(problems) - 1} more: " + "; ".join(p.rule_id for p in problems[1:]) + ")" if len(problems) > 1 else ""
            raise Violation(first.rule_id, first.message + more, first.code)
        return State(names=(names[0], names[1]), options=options, catalog=started.catalog, registrations=regs)

    #: the transition itself, not a method that calls it: ``game.step(state, event, ctx)`` runs
    #: once for every event folded, and the extra frame was a share of it
    step = staticmethod(R.step)

    def judge_only_text(self, event: Action) -> str:
        return f"only the judge enters {'a rewind' if isinstance(event, E2dRewind) else 'a correction'}, not {event.by}"

    def rewind_offer(self, state: State, ctx: Context) -> list[LegalAction]:
        """None: a target's game and turn (E2D-RWD-11, ``max_rewind_turns``) are read from the state at
        it, which a match resumed from a snapshot does not have without folding the whole match."""
        return []

    def after_rewind(self, current: State, target: State, event: E2dRewind, ctx: Context) -> State:  # type: ignore[override]
        """The state at ``to_seq``, remembering the abandoned coins and tie-breaks (E2D-RWD-7). Its
        notes say where the rewind went: those of event ``to_seq`` were said when it was entered."""
        from adjudicator.games.e2drive.voided import remember

        state = remember(current, target, event.to_seq, ctx)
        said = f"rewind to seq {event.to_seq}: {event.reason}"
        return msgspec.structs.replace(state, game=msgspec.structs.replace(state.game, notes=(said,)))

    def outcome(self, state: State) -> Outcome:
        return V.outcome(state)

    def view(self, state: State, viewer: str | None = None) -> Mapping[str, Any]:
        return V.view(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> str:
        return V.describe(state, viewer)

    def legal(self, state: State) -> list[LegalAction]:
        return V.legal(state)

    def board(self, state: State, viewer: str | None = None) -> Board:
        return B.board(state, viewer)

    def boards(self, state: State, viewers: Sequence[str | None]) -> list[Board]:
        return B.boards(state, viewers)

    def explain(self, state: State, query: Mapping[str, Any]) -> Mapping[str, Any]:
        return V.explain(state, query)

    def notes(self, state: State) -> list[str]:
        return list(state.game.notes)

    def players_of(self, state: State) -> Sequence[str]:
        return list(state.names)

    # -- decks ------------------------------------------------------------------------------------
    def read_deck(self, text: str) -> dict[str, Any]:
        """A deck file: a JSON object ``{"deck": [...30 ids], "servants": [3 ids], "catalog"?: {...}}``,
        or a plain list of the 30 deck cards (then the starting servants are missing)."""
        stripped = text.strip()
        if stripped.startswith("{"):
            try:
                f = msgspec.json.decode(stripped, type=D.DeckFile)
            except msgspec.ValidationError as exc:
                raise Malformed(f"deck file: {exc}", "$") from None
            except msgspec.DecodeError as exc:
                raise Malformed(f"the deck file does not decode as JSON ({exc})", "$") from None
            return msgspec.to_builtins(f)
        from adjudicator.engine.decklist import entries

        return {"deck": entries(text, "card ids"), "servants": []}

    def deck_setup(self, decks: Mapping[str, Any]) -> dict[str, Any]:
        """Deck files (``read_deck``) as ``match_started.registrations`` (E2D-ACT-10, §15): each
        player's 30 deck cards and 3 starting servants. A file's inline catalog is for ``adj deck
        check``; the match's catalog comes from ``--catalog``."""
        return {"registrations": {who: {"deck": list(f.get("deck", ())), "servants": list(f.get("servants", ()))}
                                  for who, f in decks.items()}}

    def check_deck(self, deck: Any, options: Options | None = None) -> list[Violation]:
        if isinstance(deck, (list, tuple)):
            deck = {"deck": list(deck), "servants": []}
        f = msgspec.convert(deck, D.DeckFile)
        catalog = f.catalog or SAMPLE
        reg = Registration(deck=f.deck, servants=f.servants)
        return D.catalog_problems(catalog) + D.registration_problems(reg, catalog, options or Options())

    # -- privacy ----------------------------------------------------------------------------------
    def redact(self, type_: str, by: str, fields: Mapping[str, Any], viewer: str | None, players: Sequence[str],
               *, seq: int | None = None, state: Any = None) -> dict[str, Any]:
        """Registrations and drawn identities are per player: each sees only their own (E2D-HID-5)."""
        if viewer in (None, JUDGE) or type_ not in PRIVATE_FIELDS:
            return super().redact(type_, by, fields, viewer, players, seq=seq, state=state)
        out = dict(fields)
        mine = {viewer, SEATS[list(players).index(viewer)]} if viewer in players else set()
        for name in PRIVATE_FIELDS[type_]:
            value = out.get(name)
            if isinstance(value, Mapping):
                out[name] = {k: (v if k in mine else HIDDEN) for k, v in value.items()}
        return out


GAME = E2Drive()
