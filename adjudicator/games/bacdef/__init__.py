"""BACDEF (バックデフ): the game object registered as ``bacdef`` (rules/bacdef.md)."""

from __future__ import annotations

from typing import Any


from adjudicator.games.bacdef import events as E
from adjudicator.games.bacdef import rules as R
from adjudicator.games.bacdef import view as V
from adjudicator.games.bacdef.state import LETTERS, State, clone
from adjudicator.protocol import JUDGE, Context, LegalAction, Malformed, OptionSpec, Outcome, Violation

RULES_VERSION = "bacdef-2026.1"

_OPTION_TEXT = {
    "knock_card_fate": "return_to_hand | drop",
    "require_each_special": "bool",
    "rebuild_deck_each_set": "bool",
    "first_player_rule": "decide_each_set | loser_chooses",
    "special_once_scope": "per_player | global",
    "heal_can_restore_destroyed": "bool",
    "both_hands_empty_rule": "defender_wins | void_set",
    "drop_phase_f_order": "defender_first | attacker_first",
    "contradiction_replays": "int >= 0",
    "replay_must_repeat": "bool",
    "judge_may_void_early": "bool",
    "void_set_consumes_slot": "bool",
    "void_set_limit": "int >= 1 | null",
    "allow_judge_rewind": "bool",
    "allow_concession": "bool",
}


def _options(raw: dict[str, Any]) -> dict[str, Any]:
    """Options with defaults filled in; a wrong name or value is malformed input."""
    out = dict(R.OPTION_DEFAULTS)
    for key, value in raw.items():
        path = f"$.options.{key}"
        if key not in R.OPTION_DEFAULTS:
            raise Malformed(f"unknown BACDEF option {key!r}; options: {', '.join(R.OPTION_DEFAULTS)}", path)
        default = R.OPTION_DEFAULTS[key]
        if key in R.OPTION_VALUES:
            if value not in R.OPTION_VALUES[key]:
                raise Malformed(f"{key} must be one of {', '.join(R.OPTION_VALUES[key])}, not {value!r}", path)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise Malformed(f"{key} must be true or false, not {value!r}", path)
        elif key == "contradiction_replays":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise Malformed(f"{key} must be a whole number >= 0, not {value!r}", path)
        elif key == "void_set_limit":
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise Malformed(f"{key} must be a whole number >= 1 or null, not {value!r}", path)
        out[key] = value
    return out


def _catalog(raw: dict[str, E.CatalogEntry]) -> dict[str, dict[str, Any]]:
    """BAC-EFF-0: one entry per letter, defaults filled in, fixed fields checked."""
    out: dict[str, dict[str, Any]] = {}
    for key in raw:
        if key not in LETTERS:
            R.reject("BAC-EFF-0", "E_BAD_OP", f"the catalog has an entry {key!r}; entries are the letters A-F")
    for letter in LETTERS:
        entry = raw.get(letter) or E.CatalogEntry()
        cls = "special" if letter in "DEF" else "normal"
        fall = letter == "F"
        if entry.class_ is not None and entry.class_ != cls:
            R.reject("BAC-EFF-0", "E_BAD_OP", f"catalog {letter}: class is fixed to {cls}, not {entry.class_}")
        if entry.fall_skill is not None and entry.fall_skill != fall:
            R.reject("BAC-EFF-0", "E_BAD_OP", f"catalog {letter}: fall_skill is fixed to {str(fall).lower()} (only F falls)")
        if entry.extra_deploys < 0:
            R.reject("BAC-EFF-0", "E_BAD_OP", f"catalog {letter}: extra_deploys cannot be negative")
        out[letter] = {
            "class": cls,
            "title": entry.title,
            "text": entry.text,
            "action_allowed": entry.action_allowed,
            "counter_allowed": entry.counter_allowed,
            "battle_effect": (letter != "F") if entry.battle_effect is None else entry.battle_effect,
            "knock_skill": entry.knock_skill,
            "fall_skill": fall,
            "extra_deploys": entry.extra_deploys,
        }
    return out


class Bacdef:
    name = "bacdef"
    title = "BACDEF (バックデフ)"
    rules_versions = (RULES_VERSION,)
    options = tuple(
        OptionSpec(name=k, default=v, values=_OPTION_TEXT[k], rule=R.OPTION_RULES[k]) for k, v in R.OPTION_DEFAULTS.items()
    )
    event_type = E.Event

    # -- protocol ------------------------------------------------------------------------------
    def initial(self, started: E.BacMatchStarted, ctx: Context) -> State:
        if started.rules_version not in (None, *self.rules_versions):
            raise Malformed(
                f"unknown BACDEF rules version {started.rules_version!r}; this program knows {', '.join(self.rules_versions)}",
                "$.rules_version",
            )
        if started.by != JUDGE:  # BAC-ACT-1: seq 1 is entered by the judge
            raise Violation("BAC-ACT-1", f"only the judge starts a match; {started.by} tried", "E_NOT_ACTOR")
        players = list(started.players)
        if len(players) != 2 or players[0] == players[1]:
            raise Violation("BAC-OVR-1", f"BACDEF is played by exactly two different players, not {players}", "E_CONFIG")
        for p in players:
            if p == JUDGE or not p or "-" in p:
                raise Malformed(f"player name {p!r} cannot be used (not 'judge', no '-': card ids are <player>-<n>)", "$.players")
        options = _options(started.options)
        s = State(players=players, options=options, catalog=_catalog(started.catalog), set_wins={p: 0 for p in players})
        if started.decks is not None:
            if set(started.decks) != set(players):
                raise Malformed(f"decks must name both players {players}, not {sorted(started.decks)}", "$.decks")
            for p in players:
                R.check_deck_letters(list(started.decks[p]), options, f"{p}'s deck")
            s.decks_set1 = {p: list(started.decks[p]) for p in players}
        R.new_set(s, ctx.seq)
        return s

    def check(self, state: State, event: Any, ctx: Context) -> None:
        R.step(state, event, ctx)

    def apply(self, state: State, event: Any, ctx: Context) -> State:
        return R.step(state, event, ctx)

    def transition(self, state: State, event: Any, ctx: Context) -> State:
        """Check and apply in one pass: checking a BACDEF event means carrying it out on a copy."""
        return R.step(state, event, ctx)

    def apply_rewind(self, current: State, target: State, event: E.BacRewind, ctx: Context) -> State:
        return R.apply_rewind(current, target, event, ctx)

    def outcome(self, state: State) -> Outcome:
        score = dict(state.set_wins)
        if state.status == "won":
            return Outcome(status="won", winner=state.match_winner, score=score, detail=V.score_line(state))
        if state.status == "drawn":
            return Outcome(status="drawn", score=score, detail=V.score_line(state))
        return Outcome(status="in_progress", score=score, detail=V.score_line(state))

    def view(self, state: State, player: str | None = None) -> dict[str, Any]:
        return V.view(state, player)

    def describe(self, state: State, player: str | None = None) -> str:
        return V.describe(state, player)

    def legal(self, state: State) -> list[LegalAction]:
        return V.legal(state)

    def milestones(self, before: State, after: State) -> list[str]:
        """Set results and the match result an event brought, for the history."""
        out = []
        for r in after.set_results[len(before.set_results):]:
            head = f"set {r.set_no}: won by {r.winner}" if r.outcome == "win" else f"set {r.set_no}: void"
            out.append(f"{head} — {r.reason}; match {V.score_line(after)}")
        if after.status != before.status and after.status != "in_progress":
            out.append(f"match {after.status}" + (f" by {after.match_winner}" if after.match_winner else "") + f" ({V.score_line(after)})")
        return out

    def notes(self, state: State) -> list[str]:
        """What the last event set off automatically (BAC-GEN-3)."""
        t = state.set.turn if state.set is not None else None
        if t is None:
            return []
        return list(t.notes) + V.waiting_line(state)

    # -- decks ------------------------------------------------------------------------------------
    def read_deck(self, text: str) -> list[str]:
        """A deck file: 7 letters, as a JSON list or separated by spaces, commas or lines."""
        from adjudicator.decklist import entries

        return [x.upper() for x in entries(text, "7 letters (A-F)")]

    def check_deck(self, deck: list[str], options: dict[str, Any] | None = None) -> list[str]:
        R.check_deck_letters(deck, _options(options or {}))
        return deck


GAME = Bacdef()

__all__ = ["GAME", "RULES_VERSION", "State", "clone"]
