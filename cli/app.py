"""The ``adj`` group and what every command shares: the ``Env`` (where the store is, whether to
print JSON), the ``command`` decorator that gives each command ``--json`` and ``--store`` and turns
domain errors into exits 1/2/3, and the arguments several commands take.

Every command module registers on ``main`` here (``cli.main``: legal, act and state;
``cli.matches``: the table's other commands; ``cli.files``: files and verify; ``cli.desk``: the
judge's desk; ``cli.audit``: checkpoints, key pairs and registered keys; ``cli.rules``: the rules
references). The group imports a module only when one of its commands is
asked for, and nothing imports a command module back.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from typing import Any

import click

from cli.errors import dumps, translate
from cli.help import complete_match, epilog, version
from cli.io import check_arguments, closed_pipe

JSON_HELP = "Print one JSON object on stdout (also for a failure)."
STORE_HELP = ("Store: a SQLite file path (or sqlite:///PATH), a postgresql:// URL, or memory: (kept for this command "
              "only) (default: $ADJ_STORE, then a per-user file).")


class Env:
    """What a command needs: where the store is, and whether to print JSON."""

    def __init__(self, store_url: str | None):
        self.store_url = store_url
        self.as_json = False
        self._store = None
        self.judge_key: str | None = None  # --judge-key / ADJ_JUDGE_KEY: signs judges' decisions
        self.player_key: str | None = None  # --player-key / ADJ_PLAYER_KEY: a table terminal's player

    def store(self, write: bool = False):
        """The store, opened for reading only unless ``write``: reading never creates a store."""
        if self._store is None:
            from adjudicator.service import open_store

            self._store = open_store(self.store_url, write=write)
            click.get_current_context().call_on_close(self._store.close)
        return self._store

    def service(self, write: bool = False):
        from adjudicator.service import MatchService

        return MatchService(self.signed(self.store(write)))

    def signed(self, store: Any) -> Any:
        """``store`` as entries reach it: each signed with the key it needs (``--judge-key``,
        ``--player-key``), or refused when that key was not given."""
        from adjudicator.authority.judges import SignedStore

        return SignedStore(store, self.judge_signing_key, self.player_signing_key)

    def judge_signing_key(self):
        from cli.keys import signing_key_or_none

        return signing_key_or_none(self.judge_key)

    def player_signing_key(self):
        from cli.keys import signing_key_or_none

        return signing_key_or_none(self.player_key)

    def emit(self, data: Any, lines: Iterable[str]) -> None:
        if self.as_json:
            click.echo(dumps(data))
        else:
            for line in lines:
                click.echo(line)


#: Commands defined in other modules, and the module of each: a command loads only what it runs
#: (the modules register their commands on ``main`` when imported; help lists them all).
ELSEWHERE = {
    **dict.fromkeys(("legal", "act", "state"), "cli.main"),
    **dict.fromkeys(("games", "matches", "summary", "store", "new", "explain", "undo", "rewind", "correct", "log", "replay"),
                    "cli.matches"),
    **dict.fromkeys(("check", "import", "export", "verify", "deck"), "cli.files"),
    **dict.fromkeys(("note", "penalty", "diff"), "cli.desk"),
    **dict.fromkeys(("audit", "judges", "players", "keys"), "cli.audit"),
    **dict.fromkeys(("reconcile", "confirm"), "cli.disputes"),
    "rule": "cli.rules",
    "serve": "cli.serve",
}


class Adj(click.Group):
    """The ``adj`` group: a command defined elsewhere is imported when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(ELSEWHERE))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in ELSEWHERE:
            importlib.import_module(ELSEWHERE[name])
        return super().get_command(ctx, name)


@click.group(cls=Adj, context_settings={"help_option_names": ["-h", "--help"]}, epilog=epilog("adj"))
@click.option("--store", "store_url", metavar="URL", help=STORE_HELP)
@version()
@click.pass_context
def main(ctx: click.Context, store_url: str | None) -> None:
    """Adjudicate card-game matches: every table action is checked by the rules and kept in
    an append-only, hash-chained log.

    Exit codes: 0 done; 1 rejected by a rule (or another entry landed first); 2 bad usage or
    malformed input (nothing written); 3 integrity failure.
    """
    ctx.obj = Env(store_url)


def command(group: click.Group | None = None, name: str | None = None, *, uses_store: bool = True,
            signs: bool | None = None) -> Callable:
    """Declare a command: adds ``--json`` (and ``--store``; and ``--judge-key`` and
    ``--player-key`` when it ``signs``, by default when it uses the store), passes the ``Env``
    as first argument, and turns domain errors into exits 1/2/3."""

    def deco(f: Callable) -> click.Command:
        @functools.wraps(f)
        def run(as_json: bool, store_url: str | None = None, judge_key: str | None = None,
                player_key: str | None = None, **kwargs: Any) -> None:
            env = click.get_current_context().find_object(Env)
            env.as_json = as_json
            if store_url:
                env.store_url = store_url
            env.judge_key, env.player_key = judge_key, player_key
            try:
                check_arguments({"store": env.store_url, **kwargs})
                f(env, **kwargs)
            except BrokenPipeError:
                closed_pipe()
            except Exception as exc:
                err = translate(exc)
                if err is None:
                    raise
                err.as_json = as_json
                if err is exc:
                    raise
                raise err from exc

        if uses_store:
            run = click.option("--store", "store_url", metavar="URL", help=STORE_HELP)(run)
        if uses_store if signs is None else signs:
            run = click.option("--judge-key", "judge_key", metavar="FILE", envvar="ADJ_JUDGE_KEY",
                               help="A registered judge's private key: signs the judge's decisions.")(run)
            run = click.option("--player-key", "player_key", metavar="FILE", envvar="ADJ_PLAYER_KEY",
                               help="This terminal's player's private key: signs that player's actions.")(run)
        run = click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(run)
        parent = group or main
        full = " ".join(filter(None, (parent.name if parent is not main else None, name or f.__name__.rstrip("_"))))
        return parent.command(name, epilog=epilog(full))(run)

    return deco


def match_argument(f: Callable) -> Callable:
    return click.argument("match_id", metavar="MATCH", shell_complete=complete_match)(f)


def fields_argument(f: Callable) -> Callable:
    return click.argument("fields", nargs=-1, metavar="[FIELD=VALUE]...")(f)


def check_viewer(match: Any, player: str | None) -> str | None:
    """``--as``: a player of the match sees what that player may see, ``judge`` (or None)
    everything, and any other name what a spectator may see."""
    if player is None or player == "judge":
        return None
    if not player.strip():
        raise click.BadParameter("name a player, judge, or a spectator", param_hint="'--as'")
    return player


def viewer_label(match: Any, player: str) -> str:
    return player if player in match.players or player == "judge" else f"{player} (spectator)"
