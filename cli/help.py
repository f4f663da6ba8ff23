"""Help for people at a terminal: an example under every command's ``--help``, and shell
completion of match ids and action names (click's completion; docs/cli.md says how to turn it on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # imported where a shell completes a word, not by every command
    from click.shell_completion import CompletionItem

#: Command name (``group command`` for a sub-command) -> example lines for its ``--help``.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "adj": ("adj new bacdef --player alice --player bob --deck alice=alice.txt --deck bob=bob.txt --id table-3",
            "adj act table-3 place_field_card player=alice card_id=alice-2 --by alice", "adj state table-3 --as bob",
            "adj verify"),
    "store": ("adj store copy club.sqlite3 postgresql://judge@db/club", "adj store policy --require-keys"),
    "deck": ("adj deck check bacdef alice.txt",),
    "games": ("adj games", "adj games --json"),
    "matches": ("adj matches", "adj matches --waiting bob --status in_progress", "adj matches --game bacdef --player alice",
                "adj --store club.sqlite3 matches --json"),
    "summary": ("adj summary table-3", "adj summary table-3 --json"),
    "store copy": ("adj store copy club.sqlite3 postgresql://judge@db/club",
                   "adj store copy club.sqlite3 backup.sqlite3 --match table-3"),
    "store policy": ("adj store policy", "adj store policy --require-keys", "adj store policy --json"),
    "new": ("adj new bacdef --player alice --player bob --deck alice=alice.txt --deck bob=bob.txt --id table-3",
            "adj new demonbrave --player alice --player bob --opt starting_life=7"),
    "legal": ("adj legal table-3", "adj legal table-3 --as alice"),
    "explain": ("adj explain g1", "adj explain g1 PAIR-21 PAIR-22 --at 40"),
    "act": ("adj act table-3 place_field_card player=alice card_id=alice-2 --by alice",
            "adj act table-3 assign_damage player=bob slots=[1,2] --by bob --key table-3/bob/9",
            "adj act table-3 resolve_effect instance_id=I1 'ops=[{\"op\":\"DAMAGE\",\"target\":\"bob\",\"amount\":2}]' --by judge"),
    "undo": ("adj undo table-3 --by alice", "adj undo table-3 --by judge"),
    "rewind": ("adj rewind table-3 --to 11 --reason \"bob's F was revealed\" --by judge cause=contradiction",
               "adj rewind g1 --to 40 --reason 'missed trigger' --by judge judge_override=true"),
    "correct": ("adj correct g1 --at 97 judge_adjust 'ops=[{\"op\":\"NOTE\",\"text\":\"bob showed H7\"}]' reason='bob showed H7' "
                "--reason 'left out' --by judge",),
    "state": ("adj state table-3", "adj state table-3 --at 23 --as alice", "adj state table-3 --json"),
    "log": ("adj log table-3",),
    "replay": ("adj replay table-3 --from 10 --to 20", "adj replay table-3 --as bob | less",
               "adj replay table-3 --html table-3.html"),
    "check": ("adj check table-3.jsonl", "adj check - --json < table-3.jsonl"),
    "import": ("adj import table-3.jsonl", "adj import table-3.jsonl --id table-3b"),
    "export": ("adj export table-3 > table-3.jsonl",),
    "verify": ("adj verify", "adj verify table-3 --json",
               "adj verify --pubkey organiser.pub --checkpoint round-3.json"),
    "note": ("adj note table-3 \"bob's F was seen by alice\" --at 23 --by judge",),
    "penalty": ("adj penalty table-3 --player bob --infraction slow_play --penalty warning --at 30 --reason 'third reminder' --by judge",),
    "diff": ("adj diff table-3 10 23", "adj diff table-3 10 23 --as alice --json"),
    "audit": ("adj audit checkpoint --json > round-3.json", "adj audit prove table-3",
              "adj audit check-proof proof.json --pubkey organiser.pub"),
    "audit checkpoint": ("adj audit checkpoint", "adj audit checkpoint --json > round-3.json", "adj audit checkpoint --list"),
    "audit pubkey": ("adj audit pubkey > organiser.pub",),
    "audit prove": ("adj audit prove table-3", "adj audit prove table-3 12 --out proof.json"),
    "audit consistency": ("adj audit consistency round-3.json round-4.json --out c.json",),
    "audit check-proof": ("adj audit check-proof c.json --pubkey organiser.pub",),
    "keys": ("adj keys new judge-ann", "adj keys new alice --dir keys --json"),
    "keys new": ("adj keys new judge-ann", "adj keys new alice --dir keys --json", "adj keys new organiser"),
    "judges": ("adj judges add ann --pubkey judge-ann.pub", "adj judges list"),
    "judges add": ("adj judges add ann --pubkey judge-ann.pub",
                   "adj judges add ben --pubkey judge-ben.pub --judge-key judge-ann.pem"),
    "judges list": ("adj judges list", "adj judges list --json"),
    "players": ("adj players add alice --pubkey alice.pub --judge-key judge-ann.pem", "adj players list"),
    "players add": ("adj players add alice --pubkey alice.pub --judge-key judge-ann.pem",),
    "players list": ("adj players list", "adj players list --json"),
    "rule": ("adj rule BAC-LIM-4", "adj rule bac-rew-3 --json"),
    "serve": ("adj serve --store tournament.sqlite3 --port 8080",
              "adj serve --store postgresql://adj@db.example/tournament --judges judges.txt --host 0.0.0.0"),
    "deck check": ("adj deck check bacdef alice.txt", "adj deck check demonbrave deck.txt --opt rule_cards_per_player=3"),
    "reconcile": ("adj reconcile table-3 bob-table-3.jsonl", "adj reconcile alice.jsonl bob.jsonl --json"),
    "confirm": ("adj confirm table-3 --as alice --player-key alice.pem", "ADJ_PLAYER_KEY=bob.pem adj confirm table-3 --as bob"),
}


def epilog(name: str) -> str | None:
    """The ``Examples`` paragraph of a command's help (``\\b``: click keeps its lines as written)."""
    lines = EXAMPLES.get(name)
    if not lines:
        return None
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def _store_url(ctx: click.Context) -> str | None:
    """The ``--store`` given so far, on the command or on ``adj`` itself."""
    while ctx is not None:
        url = ctx.params.get("store_url")
        if url:
            return url
        ctx = ctx.parent
    return None


def complete_match(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The match ids in the store (opened for reading only) that start with what was typed."""
    from click.shell_completion import CompletionItem

    from adjudicator.service import IntegrityError, StoreError, open_store

    try:
        with open_store(_store_url(ctx), write=False) as store:
            ids = [m.match_id for m in store.matches()]
    except (StoreError, IntegrityError, OSError):  # completion must never break the shell
        return []
    return [CompletionItem(i) for i in ids if i.startswith(incomplete)]


def complete_action(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The actions open now in the match named before (``adj legal``), with who may enter them."""
    from click.shell_completion import CompletionItem

    from adjudicator.service import IntegrityError, MatchService, StoreError, open_store

    match_id = ctx.params.get("match_id")
    if not match_id:
        return []
    try:
        with open_store(_store_url(ctx), write=False) as store:
            match = MatchService(store).load(match_id)
            open_now = match.fold.open_now()
    except (StoreError, IntegrityError, OSError, ImportError, ValueError):
        return []
    who: dict[str, list[str]] = {}
    for a in open_now:
        who.setdefault(a.type, []).append(a.who)
    return [CompletionItem(t, help=", ".join(dict.fromkeys(ws))) for t, ws in who.items() if t.startswith(incomplete)]


def version() -> Any:
    """``adj --version``: the installed version of the project."""
    return click.version_option(package_name="adjudicator", prog_name="adj", message="%(prog)s %(version)s")
