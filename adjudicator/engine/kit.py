"""The game kit: the one shape every game takes (design.md, "The reducer").

A game is one object of a ``Game`` subclass, registered by name (``adjudicator.engine.registry``). It
declares, once: its ``name``, ``title``, ``rules_versions``, the rule-ID ``prefix`` its rules
share, a typed ``Options`` Struct (each option's default on the field, its allowed values in the
field's type and constraints, its rule ID in ``option(...)``), the tagged union of its events
(``event_type``), how many players it takes, the reason codes of its outcomes (``Reason``) and
the private fields of its events.

It implements six things:

- ``initial(started, ctx) -> State`` for ``match_started``;
- ``step(state, event, ctx) -> State``: the one transition. It raises ``Violation`` when the
  event is illegal now and otherwise returns the new state, never mutating its input. The fold
  calls it once per event; a check is a ``step`` whose result is thrown away. For a ``rewind``
  or a ``correct`` it is the gate of the game's own limits (its result is not used: the state
  after a rewind is ``after_rewind``'s, the state after a correction is the corrected
  history's); the kit has refused one entered by anyone but the judge (``check_judge_only``);
- ``outcome(state) -> Outcome`` with a reason from ``Reason``;
- ``view(state, viewer) -> Mapping``: what that viewer may see (``None`` is the judge);
- ``legal(state) -> list[LegalAction]``: the actions open now with structured ``choices`` (the
  kit's ``legal_at`` adds the judge's rewind and correction, which need the match's history);
- ``players_of(state)``: the players in seat order.

Everything else has a default here, so no caller probes a game with ``getattr``.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from adjudicator.engine.protocol import (
    JUDGE,
    Action,
    Choice,
    Context,
    Correct,
    LegalAction,
    Malformed,
    MatchStarted,
    Outcome,
    Rewind,
    Violation,
)
from adjudicator.engine.words import json_text, outcome_text, outline, value_word  # noqa: F401 - json_text: for the games

#: What a private field shows to a viewer who may not know it.
HIDDEN = "(hidden)"


# -- options ---------------------------------------------------------------------------------------
def option(rule: str, values: str = "", **constraints: Any) -> msgspec.Meta:
    """The metadata of one option field: the rule ID that governs it, a plain description of its
    allowed values where the type alone does not say it (``"odd int >= 1"``), and msgspec
    constraints (``ge=1``) that the decoder enforces with the option's path.

    Use as ``starting_life: Annotated[int, option("DB-OVR-2", ge=1)] = 5``."""
    extra = {"rule": rule}
    if values:
        extra["values"] = values
    return msgspec.Meta(extra=extra, **constraints)


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One option as ``adj games`` lists it, derived from the game's ``Options`` Struct."""

    name: str
    default: Any
    values: str
    rule: str = ""


class NoOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options of a game that has none."""


def _values_text(tp: Any, meta: Sequence[msgspec.Meta]) -> str:
    """The allowed values of an option's type, in the words ``adj games`` prints."""
    for m in meta:
        if m.extra and m.extra.get("values"):
            return str(m.extra["values"])
    origin = typing.get_origin(tp)
    if origin is Literal:
        return " | ".join(str(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        parts = [_values_text(a, ()) for a in typing.get_args(tp)]
        return " | ".join("null" if p == "NoneType" else p for p in parts)
    if origin is Annotated:
        inner, *more = typing.get_args(tp)
        return _values_text(inner, [m for m in more if isinstance(m, msgspec.Meta)])
    if origin in (tuple, list):
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return "list of " + (_values_text(args[0], ()) if args else "values")
    if tp is bool:
        return "true | false"
    if tp is int:
        bounds = [f">= {m.ge}" for m in meta if m.ge is not None] + [f"<= {m.le}" for m in meta if m.le is not None]
        return "int" + (" " + " ".join(bounds) if bounds else "")
    return getattr(tp, "__name__", str(tp))


def _metas(tp: Any) -> list[msgspec.Meta]:
    """The ``msgspec.Meta`` of a field's type, also inside ``Annotated[int, ...] | None``."""
    if typing.get_origin(tp) is Annotated:
        return [m for m in typing.get_args(tp)[1:] if isinstance(m, msgspec.Meta)]
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(tp) for m in _metas(a)]
    return []


def event_type(event: Action) -> str:
    """An event's tag (its ``type``)."""
    return type(event).__struct_config__.tag  # type: ignore[attr-defined]


def tagged_classes(union: Any) -> dict[str, type]:
    """Tag -> Struct class of a tagged union of Structs."""
    return {c.__struct_config__.tag: c for c in typing.get_args(union)}


@functools.cache
def option_specs(options_type: type[msgspec.Struct]) -> tuple[OptionSpec, ...]:
    """Every option of an ``Options`` Struct: name, default, allowed values and rule ID (read
    once per type: the type hints behind it are slow to resolve)."""
    hints = typing.get_type_hints(options_type, include_extras=True)
    out = []
    for f in msgspec.structs.fields(options_type):
        tp = hints[f.name]
        meta = _metas(tp)
        if typing.get_origin(tp) is Annotated:
            tp = typing.get_args(tp)[0]
        rule = next((str(m.extra["rule"]) for m in meta if m.extra and "rule" in m.extra), "")
        default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()  # type: ignore[misc]
        if isinstance(default, tuple):
            default = list(default)
        out.append(OptionSpec(name=f.encode_name, default=default, values=_values_text(tp, meta), rule=rule))
    return tuple(out)


def decode_options(options_type: type[msgspec.Struct], raw: Mapping[str, Any], game: str = "") -> Any:
    """``match_started.options`` decoded into the game's ``Options``; an unknown name or a bad
    value is ``Malformed`` at ``$.options.NAME``, naming the allowed values."""
    if not isinstance(raw, Mapping):
        raise Malformed("options must be an object of NAME: VALUE", "$.options")
    names = options_type.__struct_encode_fields__  # not option_specs: its type hints cost ms to resolve
    for key in raw:
        if key not in names:
            known = ", ".join(names) or "none"
            raise Malformed(f"unknown {game + ' ' if game else ''}option {key!r}; options: {known}", f"$.options.{key}")
    try:
        return msgspec.convert(dict(raw), options_type)
    except msgspec.ValidationError as exc:
        text = str(exc)
        path = "$.options"
        if " - at `" in text:
            text, _, at = text.partition(" - at `")
            path = "$.options" + at.rstrip("`")[1:]
        name = path.removeprefix("$.options.").split(".")[0].split("[")[0]
        spec = next((s for s in option_specs(options_type) if s.name == name), None)
        if spec is not None:
            shown = raw.get(name)
            return_text = f"option {name} must be {spec.values}, not {msgspec.json.encode(shown).decode() if _jsonable(shown) else repr(shown)}"
            if not text.startswith(("Expected", "Invalid enum value")):
                return_text += f" ({text})"
            raise Malformed(return_text, path) from None
        raise Malformed(f"bad option: {text}", path) from None


def _jsonable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
    except (TypeError, msgspec.EncodeError):
        return False
    return True


# -- structured choices for legal actions (``Choice`` is in protocol) ----------------------------
def one(*values: Any, optional: bool = False) -> Choice:
    return Choice(kind="one", values=tuple(values), optional=optional)


def some(values: Sequence[Any], lo: int, hi: int | None = None, *, optional: bool = False) -> Choice:
    return Choice(kind="some", values=tuple(values), min=lo, max=lo if hi is None else hi, optional=optional)


def integer(lo: int, hi: int, *, optional: bool = False) -> Choice:
    return Choice(kind="int", min=lo, max=hi, optional=optional)


def text(*, optional: bool = False) -> Choice:
    return Choice(kind="text", optional=optional)


def choice_text(name: str, c: Choice) -> str:
    """One field of a legal action as ``adj legal`` prints it: every value as it is pasted back
    into ``adj act`` (``value_word``), ``<a|b>`` for one of several, ``[N of a|b]`` for N of them."""
    show = value_word
    if c.kind == "one":
        body = show(c.values[0]) if len(c.values) == 1 else "<" + "|".join(show(v) for v in c.values) + ">"
    elif c.kind == "some":
        n = str(c.min) if c.max == c.min else f"{c.min}-{c.max}"
        body = f"[{n} of {'|'.join(show(v) for v in c.values)}]"
    elif c.kind == "int":
        body = f"<{c.min}..{c.max}>"
    else:
        body = "<text>"
    return f"{name}={body}" + ("?" if c.optional else "")


def fields_text(choices: Mapping[str, Choice]) -> str:
    return " ".join(choice_text(k, c) for k, c in choices.items())


def insertion_points(ctx: Context, targets: Sequence[int]) -> list[int]:
    """The ``at_seq`` of a correction that lands right after one of ``targets`` (effective seqs,
    as ``rewind_targets`` gives them): the effective seq that follows each. By bisection of
    ``ctx.effective``, so a match's length does not count, only the targets'."""
    from bisect import bisect_left

    eff = ctx.effective
    out = []
    for t in targets:
        i = bisect_left(eff, t)
        if i + 1 < len(eff) and eff[i] == t:
            out.append(eff[i + 1])
    return out


def correct_action(at_seqs: Sequence[int], events: Sequence[Mapping[str, Any]], note: str = "",
                   **more: Choice) -> list[LegalAction]:
    """The judge's ``correct`` inserting one of ``events`` (each whole: ``{"type", "by", ...}``)
    before one of ``at_seqs``, with the game's own fields of its ``Correct`` as ``more``; none
    when either is empty."""
    if not at_seqs or not events:
        return []
    choices = {"at_seq": one(*at_seqs), "event": one(*events), "reason": text(), **more}
    return [LegalAction(who=JUDGE, type="correct", anytime=True, note=note, choices=choices)]


# -- the board: one picture of the table for every game (the judge's page draws it) ------------------
class BoardCard(msgspec.Struct, frozen=True, kw_only=True):
    """A card as the table shows it: ``id`` and ``label`` are None when its face is hidden from
    the viewer; ``counters`` are damage, power and the like."""

    id: str | None = None
    label: str | None = None
    face_up: bool = True
    turned: bool = False  # rested, tapped, knocked
    counters: dict[str, int] = {}
    tags: tuple[str, ...] = ()
    group: str | None = None  # cards of one unit (a pair, a stack) share a group and are drawn together


class Zone(msgspec.Struct, frozen=True, kw_only=True):
    """A zone of the table: its name, its owner (None: shared), its cards in order. A pile whose
    cards are not shown one by one (a deck) gives ``count`` and no cards."""

    name: str
    owner: str | None = None
    cards: tuple[BoardCard, ...] = ()
    count: int | None = None


class Board(msgspec.Struct, frozen=True, kw_only=True):
    """The table at one moment, as one viewer may see it: per-player counters (life, HP, D...),
    the zones, whose turn, the phase, and what the table waits for."""

    players: tuple[str, ...]
    counters: dict[str, dict[str, Any]] = {}
    zones: tuple[Zone, ...] = ()
    turn: str = ""
    phase: str = ""
    waiting: str = ""
    notes: tuple[str, ...] = ()  # what else the table shows: an attack under way, a chain, lasting effects


def hand_zone(owner: str, known: Sequence[str], count: int, shown: bool) -> Zone:
    """A hand as the table shows it: to a viewer it is ``shown`` to, the cards known by id and
    the rest face down; to another, its count alone."""
    if not shown:
        return Zone(name="hand", owner=owner, count=count)
    cards = tuple(BoardCard(id=c, label=c) for c in known)
    hidden = tuple(BoardCard(face_up=False) for _ in range(max(0, count - len(cards))))
    return Zone(name="hand", owner=owner, cards=cards + hidden, count=count)


class Drawings:
    """What a game's ``board`` drew last for a part of a state, with what it drew it from, so that
    the page of a long match (a board at every event, every state sharing with the one before it
    every part an event left alone) draws again only what changed. Looked up by identity: the
    parts drawn from are held here, so an id is never another object's; at most ``most`` entries
    (all let go when full). What it hands back is what ``board`` drew: the same value either way."""

    def __init__(self, most: int = 1024):
        self.most = most
        self._kept: dict[Any, tuple[Any, ...]] = {}

    def get(self, key: Any) -> tuple[Any, ...] | None:
        """What was kept under ``key`` (the caller compares its sources by identity), or None."""
        return self._kept.get(key)

    def keep(self, key: Any, value: tuple[Any, ...]) -> None:
        if len(self._kept) >= self.most:
            self._kept.clear()
        self._kept[key] = value

    def kept(self, key: Any, source: tuple[Any, ...], draw: Callable[[], Any]) -> Any:
        """What ``draw()`` gives, drawn again only when an object of ``source`` is not the one it
        was drawn from last under ``key``."""
        hit = self._kept.get(key)
        if hit is not None and len(hit[0]) == len(source) and all(a is b for a, b in zip(hit[0], source)):
            return hit[1]
        value = draw()
        self.keep(key, (source, value))
        return value

    def clear(self) -> None:
        self._kept.clear()


# -- the base of every game ---------------------------------------------------------------------------
class Game:
    """Base class of every game: declarations, the five required members, defaults for the rest."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_versions: ClassVar[tuple[str, ...]]  # the last one is current
    prefix: ClassVar[str]  # "BAC": every rule ID the game names starts with it
    event_type: ClassVar[Any]  # the tagged union of the game's events (its MatchStarted first)
    Options: ClassVar[type[msgspec.Struct]] = NoOptions
    #: the reason codes of its outcomes (``adj games --json`` lists them)
    Reason: ClassVar[type[enum.Enum]]
    #: fewest and most players; the fold refuses another count under ``player_count_rule``
    player_count: ClassVar[tuple[int, int]] = (2, 2)
    player_count_rule: ClassVar[tuple[str, str | None]] = ("ADJ-PLY-1", None)
    #: the rule and code under which an event entered by someone outside the match is refused
    author_rule: ClassVar[tuple[str, str | None]] = ("ADJ-ACT-1", None)
    #: event type -> fields only their owner and the judge may see (see ``owner_of``)
    private_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: (rule ID, code) under which a correction that breaks a later event is refused; None: the
    #: later event's own rule
    correction_conflict: ClassVar[tuple[str, str] | None] = None
    #: the rule and code under which the kit refuses a ``rewind`` entered by anyone but the judge,
    #: before the game's ``step`` sees it (``check_judge_only``); None: the game's ``step`` says who
    #: may rewind (players may, with confirmations, or the rule depends on the kind of rewind)
    rewind_rule: ClassVar[tuple[str, str | None] | None] = ("ADJ-REW-2", None)
    #: the same for a ``correct``
    correct_rule: ClassVar[tuple[str, str | None] | None] = ("ADJ-COR-2", None)

    # -- required ----------------------------------------------------------------------------------
    def initial(self, started: MatchStarted, ctx: Context) -> Any:
        raise NotImplementedError

    def step(self, state: Any, event: Action, ctx: Context) -> Any:
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome:
        raise NotImplementedError

    def view(self, state: Any, viewer: str | None = None) -> Mapping[str, Any]:
        raise NotImplementedError

    def legal(self, state: Any) -> list[LegalAction]:
        raise NotImplementedError

    # -- what is open now, given the match's history: the judge's rewind and correction -----------
    def legal_at(self, state: Any, ctx: Context) -> list[LegalAction]:
        """The actions open now: ``legal(state)``, then the judge's ``rewind_offer`` and
        ``correct_offer``. ``ctx`` is the context the next event would be checked in (``ctx.seq``
        its seq, ``ctx.effective`` the effective history so far); ``legal`` has no context, and
        rewind targets and insertion points are effective seqs. ``Fold.open_now`` builds ``ctx``
        from a match's fold: every caller asking what is open in a match goes through it."""
        return [*self.legal(state), *self.rewind_offer(state, ctx), *self.correct_offer(state, ctx)]

    def rewind_targets(self, state: Any, ctx: Context) -> Sequence[int]:
        """The seqs the judge's rewind may go back to now, in order: effective seqs the game's
        gate in ``step`` accepts. By default every effective event before the last (going back to
        the event one stands at changes nothing), as ``ADJ-REW-1`` allows. A game with limits
        (the current turn, not into a confirmed result) narrows them from the state and
        ``ctx.effective`` alone: that is there, 8 bytes a seq, in a match resumed from a
        snapshot, where ``ctx.log`` and ``ctx.state_at`` of an earlier event need the whole
        match folded; bisect ``ctx.effective`` (it is in increasing order) rather than scan it."""
        eff = ctx.effective
        return eff[: len(eff) - 1]

    def rewind_offer(self, state: Any, ctx: Context) -> list[LegalAction]:
        """The judge's ``rewind`` to ``rewind_targets``, with a reason; none without a target. A
        game whose rewind has required fields of its own, or that offers its rewinds in
        ``legal`` already, overrides this (returning ``[]`` in the second case)."""
        targets = self.rewind_targets(state, ctx)
        if not targets:
            return []
        return [LegalAction(who=JUDGE, type="rewind", anytime=True, note="back to the state after to_seq",
                            choices={"to_seq": one(*targets), "reason": text()})]

    def correct_offer(self, state: Any, ctx: Context) -> list[LegalAction]:
        """The judge's ``correct`` actions open now: none by default, since what a correction may
        insert is the game's. A game offers them with ``correct_action(insertion_points(ctx,
        self.rewind_targets(state, ctx)), events)``: every event of ``events`` must be accepted
        before every point offered (a judge's note-like event), or give one action per point."""
        return []

    # -- declared once, used by everyone ----------------------------------------------------------
    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return option_specs(self.Options)

    def decode_options(self, raw: Mapping[str, Any]) -> Any:
        return decode_options(self.Options, raw, self.title.split()[0])

    def reasons(self) -> list[str]:
        return [r.value for r in self.Reason]

    @property
    def event_classes(self) -> Mapping[str, type]:
        """Event type -> its Struct class, read once per game class from ``event_type``. The fold
        converts an event to its own class: msgspec keeps the type information of a Struct class,
        but builds a Union's anew on every call (about 45 us an event against 0.5 us)."""
        cls = type(self)
        known = cls.__dict__.get("_event_classes")
        if known is None:
            known = tagged_classes(cls.event_type)
            cls._event_classes = known  # type: ignore[attr-defined]
        return known

    # -- hooks with defaults -------------------------------------------------------------------------
    def describe(self, state: Any, viewer: str | None = None) -> str:
        """The state in a judge's words; by default the view, one key a line."""
        return "\n".join(outline(dict(self.view(state, viewer))))

    def after_rewind(self, current: Any, target: Any, event: Rewind, ctx: Context) -> Any:
        """The state after an accepted rewind: by default exactly the state at ``to_seq``."""
        return target

    def notes(self, state: Any) -> list[str]:
        """What the last event set off on its own, in the table's words."""
        return []

    def milestones(self, before: Any, after: Any) -> list[str]:
        """Results an event decided (a set, a game, the match), in the game's words."""
        out = self.outcome(after)
        if out.status != "in_progress" and self.outcome(before) != out:
            return [outcome_text(out)]
        return []

    def confirmation_point(self, before: Any, after: Any) -> str:
        """Whether the event from ``before`` to ``after`` ended something the players naturally
        confirm (``adj confirm``, offered by ``adj legal``, never required): the words of that
        moment, or "". By default a result the event decided (``milestones``: a set, a game, the
        match), else the end of a turn (the board's ``turn`` passed to another player)."""
        marks = self.milestones(before, after)
        if marks:
            return marks[0]
        turn_before, turn_after = self.board(before).turn, self.board(after).turn
        if turn_before and turn_after and turn_before != turn_after:
            return f"the end of {turn_before}'s turn"
        return ""

    def undo_fields(self, state: Any, requester: str, confirmer: str) -> Mapping[str, Any]:
        """The game's own fields of the ``rewind`` that carries out an undo a player asked for and
        ``confirmer`` (the judge or the opponent) confirmed (``adj undo``): say which of the game's
        kinds of rewind an undo is. None by default; the game's rules for rewinds then judge it."""
        return {}

    def explain(self, state: Any, query: Mapping[str, Any]) -> Mapping[str, Any]:
        """A structured answer to a judge's question; ``Malformed`` when there is none."""
        raise Malformed(f"{self.name} has nothing to explain; adj state shows the position", "$")

    def board(self, state: Any, viewer: str | None = None) -> Board:
        """The table as ``viewer`` may see it. Games override this; the default shows the
        players and the view's headline only."""
        return Board(players=tuple(self.players_of(state)))

    def boards(self, state: Any, viewers: Sequence[str | None]) -> list[Board]:
        """``board`` for each of ``viewers`` (the judge's page draws every viewer's table at every
        event). A game may override it to work out once what every viewer sees alike."""
        return [self.board(state, v) for v in viewers]

    def players_of(self, state: Any) -> Sequence[str]:
        """The players of the match the state belongs to, in seat order (required)."""
        raise NotImplementedError

    def read_deck(self, text: str) -> Any:
        """A deck file's entries (``adjudicator.engine.decklist``)."""
        from adjudicator.engine.decklist import entries

        return entries(text, "cards")

    def check_deck(self, deck: Any, options: Any = None) -> list[Violation]:
        """Every problem of a deck list, one ``Violation`` each; ``[]`` when it is legal.
        ``options`` is the decoded ``Options`` (None: the defaults)."""
        return []

    def deck_setup(self, decks: Mapping[str, Any]) -> dict[str, Any]:
        """The ``match_started`` fields the deck files of ``adj new --deck PLAYER=FILE`` give,
        ``decks`` mapping each player to what ``read_deck`` read from their file. By default the
        lists go to ``decks``; a game whose setup takes them in a field of its own maps them there."""
        return {"decks": dict(decks)}

    def check_author(self, event: Action, players: Sequence[str]) -> None:
        """Refuse an event entered by someone who is neither a player of the match nor the judge
        (under ``author_rule``). Which player may enter which event is the game's ``step``."""
        if event.by != JUDGE and event.by not in players:
            rule, code = self.author_rule
            raise Violation(rule, f"{event.by!r} is neither a player of this match ({', '.join(players)}) nor the judge", code)

    def check_judge_only(self, event: Action) -> None:
        """The kit's gate of a ``rewind`` or a ``correct``: refuse one entered by anyone but the
        judge, under ``rewind_rule`` or ``correct_rule`` in the words of ``judge_only_text``. The
        fold calls it after ``check_author`` and before the game's ``step``, which then checks only
        the game's own limits (how far back, a confirmed result). Any other event passes."""
        if event.by == JUDGE:
            return
        declared = self.rewind_rule if isinstance(event, Rewind) else self.correct_rule if isinstance(event, Correct) else None
        if declared is not None:
            rule, code = declared
            raise Violation(rule, self.judge_only_text(event), code)

    def judge_only_text(self, event: Action) -> str:
        """The words of ``check_judge_only``'s refusal (a game keeps its chapter's here)."""
        return f"only the judge may enter {event_type(event)}; {event.by} cannot"

    def owner_of(self, type_: str, by: str, fields: Mapping[str, Any], name: str, players: Sequence[str]) -> str | None:
        """Who may see private field ``name`` of an event: its ``player`` field, else its author."""
        player = fields.get("player")
        return player if isinstance(player, str) else by

    def revealed(self, seq: int, type_: str, by: str, fields: Mapping[str, Any], name: str, state: Any) -> bool:
        """Whether private field ``name`` of event ``seq`` is public by ``state`` (the match as it
        stands where its history is shown): a card turned up, a selection revealed to both at once.
        A history shown with a state (``adj log``, ``export --as``) shows what is revealed by then;
        a rewind behind the reveal hides it again. By default a private fact stays private."""
        return False

    def redact(self, type_: str, by: str, fields: Mapping[str, Any], viewer: str | None, players: Sequence[str],
               *, seq: int | None = None, state: Any = None) -> dict[str, Any]:
        """An event's fields as ``viewer`` may see them (None or ``judge``: everything). A private
        field that holds one entry per player (a mapping keyed by players' names, such as the
        decks of ``match_started``) shows each player their own entry and hides the others';
        any other private field is its owner's (``owner_of``). Given the event's ``seq`` and the
        ``state`` the history is shown at, a field ``revealed`` by then is shown to everyone."""
        if viewer in (None, JUDGE):
            return dict(fields)
        out = dict(fields)
        for name in self.private_fields.get(type_, ()):
            if name not in out:
                continue
            if seq is not None and state is not None and self.revealed(seq, type_, by, fields, name, state):
                continue
            value = out[name]
            if isinstance(value, Mapping) and value and set(value) <= set(players):
                out[name] = {k: (v if k == viewer else HIDDEN) for k, v in value.items()}
            elif self.owner_of(type_, by, fields, name, players) != viewer:
                out[name] = HIDDEN
        if type_ == "correct" and isinstance(out.get("event"), Mapping):  # the inserted event, by its own type
            inner = dict(out["event"])
            t, b = inner.pop("type", ""), inner.pop("by", "")
            out["event"] = {"type": t, "by": b, **self.redact(str(t), str(b), inner, viewer, players, seq=seq, state=state)}
        return out
