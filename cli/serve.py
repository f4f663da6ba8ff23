"""``adj serve``: the adjudicator as a live service (docs/serve.md). The command reads its options
and the judges' keys, mints the judges' tokens and hands over to ``server.app.serve``; it is the one
module of ``cli`` that imports ``server``, inside the command, so that starting the server is all
the command line knows of it."""

from __future__ import annotations

import os
import stat
from typing import Any

import click

from cli.app import STORE_HELP, Env, command
from cli.errors import BadInput

JUDGES_HELP = ("The judges this server knows, one a line: NAME [KEYFILE [TOKENFILE]] (KEYFILE: the judge's registered "
               "private key, '-' for none; TOKENFILE: where the judge's token is kept). Default: one judge, signing "
               "with --judge-key.")


def _token_in(path: str) -> str:
    """The token kept in ``path``, or a new one written there (owner-only) when there is none."""
    from server.auth import new_token

    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            token = fh.read().strip()
        if not token or len(token) > 200 or any(c.isspace() for c in token):
            raise click.BadParameter(f"{path} holds no token (one word of 1 to 200 characters)", param_hint="token file")
        return token
    token = new_token()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, stat.S_IRUSR | stat.S_IWUSR)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    return token


def _judges(env: Env, judges_file: str | None, token_file: str | None) -> tuple[list[Any], list[str]]:
    """The judges (``server.auth.Judge``) and the lines that tell each one's token."""
    from cli.keys import signing_key_or_none
    from server.auth import Judge, new_token, token_hash  # cli.serve starts the server: the one import of it

    rows: list[tuple[str, str | None, str | None]] = []
    if judges_file is None:
        rows.append(("judge", env.judge_key, token_file))
    else:
        with open(judges_file, encoding="utf-8") as fh:
            for no, line in enumerate(fh, 1):
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                if len(words) > 3:
                    raise click.BadParameter(f"{judges_file} line {no}: NAME [KEYFILE [TOKENFILE]]", param_hint="'--judges'")
                name, key, tok = (words + [None, None])[:3]
                rows.append((name, None if key in (None, "-") else key, tok))
        if not rows:
            raise click.BadParameter(f"{judges_file} names no judge", param_hint="'--judges'")
    judges, lines = [], []
    for name, key_path, tok_path in rows:
        token = _token_in(tok_path) if tok_path else new_token()
        judges.append(Judge(name, token_hash(token), signing_key_or_none(key_path)))
        label = "judge" if judges_file is None else f"judge {name}"
        lines.append(f"{label} token: {token}" if not tok_path else f"{label} token: in {tok_path}")
    return judges, lines


@command(uses_store=False)
@click.option("--store", "store_url", metavar="URL", help=STORE_HELP)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535), help="0: any free port.")
@click.option("--judges", "judges_file", metavar="FILE", help=JUDGES_HELP)
@click.option("--judge-token-file", metavar="FILE",
              help="Keep the judge's token in FILE (made, owner-only, when missing) instead of printing a new one.")
@click.option("--judge-key", "judge_key", metavar="FILE", envvar="ADJ_JUDGE_KEY",
              help="The judge's registered private key: signs the judge's decisions entered through the server.")
@click.option("--public-url", metavar="URL", help="The address seats' links use (default: http://HOST:PORT).")
@click.option("--cache", "cache_size", default=256, show_default=True, type=click.IntRange(1),
              help="Matches kept folded in memory.")
def serve(env: Env, host: str, port: int, judges_file: str | None, judge_token_file: str | None,
          public_url: str | None, cache_size: int) -> None:
    """Serve the store over HTTP for a tournament floor: the API (/openapi.json), live streams, seats'
    tokens. Prints the floor page's address and the judge's token; stops on Ctrl-C or SIGTERM."""
    if judges_file and judge_token_file:
        raise BadInput("--judge-token-file is for the one default judge; give each judge's in --judges FILE",
                       {"error": "usage", "message": "--judges and --judge-token-file together"})
    from server.app import Settings
    from server.app import serve as run

    judges, lines = _judges(env, judges_file, judge_token_file)
    for warning in _unsigned(env, judges):
        click.echo(f"warning: {warning}", err=True)
    settings = Settings(store_url=env.store_url, host=host, port=port, public_url=public_url, cache_size=cache_size,
                        judges=judges)
    run(settings, announce=lambda text: click.echo(text), judge_lines=lines)


def _unsigned(env: Env, judges: list[Any]) -> list[str]:
    """What the server cannot sign: in a store with registered judges, a judge whose key is not one
    of theirs has every decision refused (docs/audit.md)."""
    from adjudicator.service import open_store

    with open_store(env.store_url, write=False) as store:
        keys = store.audit_keys() if hasattr(store, "audit_keys") else []
    registered = {k.public_key: k.name for k in keys if k.role == "judge"}
    if not registered:
        return []
    out = []
    for j in judges:
        if j.key is None or j.key.public_key not in registered:
            out.append(f"this store has registered judges ({', '.join(sorted(registered.values()))}), and judge "
                       f"{j.name!r} has {'no key' if j.key is None else 'a key that is not registered'}: that judge's "
                       "decisions will be refused (give the key with --judge-key, or in --judges FILE)")
    return out
