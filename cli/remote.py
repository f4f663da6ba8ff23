"""The command line as a client of ``adj serve``: ``adj act``, ``state``, ``legal``, ``log`` and
``matches`` with ``--server URL`` (or ``ADJ_SERVER``) send their request to that server with
``--token`` (or ``ADJ_TOKEN``) as the credential, and print what it answers: the same text (the
server renders it, ``Accept: text/plain``) or the same JSON, with the same exit codes as on a local
store. Who the caller is comes from the token: ``--as`` is the server's to decide, and a seat's
``adj act`` is answered without the reducer's notes, which only a judge is shown (docs/serve.md).

This module speaks HTTP only: it imports nothing of ``server``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from cli.errors import AdjError, BadInput, Conflict, IntegrityFailure, Rejected, dumps

SERVER_HELP = "Talk to this adj serve instead of a store (default: $ADJ_SERVER)."
TOKEN_HELP = "The credential for --server: a seat's or a judge's token (default: $ADJ_TOKEN; none: a spectator)."


def _keep(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        from cli.app import Env

        env = ctx.find_object(Env)
        if env is not None:
            setattr(env, name, value)

    return callback


def options(f: Callable) -> Callable:
    """``--server`` and ``--token`` for a command that can be a client (kept on the ``Env``)."""
    f = click.option("--token", metavar="TOKEN", envvar="ADJ_TOKEN", expose_value=False, callback=_keep("token"),
                     help=TOKEN_HELP)(f)
    return click.option("--server", metavar="URL", envvar="ADJ_SERVER", expose_value=False, callback=_keep("server"),
                        help=SERVER_HELP)(f)


def wanted(env: Any, player: str | None = None) -> bool:
    """Whether the command goes to a server; ``--as`` with one is bad usage (the token says who)."""
    if not getattr(env, "server", None):
        return False
    if player is not None:
        raise BadInput("with --server the token says who you are: leave out --as",
                       {"error": "usage", "message": "--as with --server"})
    return True


def call(env: Any, method: str, path: str, *, params: dict[str, Any] | None = None,
         body: dict[str, Any] | None = None) -> None:
    """Send the request, print the answer as ``adj`` prints its own, or raise the failure with the
    command line's exit code."""
    import httpx

    headers = {"Accept": "application/json" if env.as_json else "text/plain"}
    if getattr(env, "token", None):
        headers["Authorization"] = f"Bearer {env.token}"
    url = env.server.rstrip("/") + path
    try:
        r = httpx.request(method, url, params={k: v for k, v in (params or {}).items() if v is not None}, json=body,
                          headers=headers, timeout=60)
    except httpx.HTTPError as exc:
        text = f"cannot reach the server at {env.server}: {exc}"
        raise BadInput(text, {"error": "input", "message": text}) from None
    if r.status_code < 300:
        if env.as_json:
            click.echo(dumps(r.json()))
        else:
            click.echo(r.text, nl=False)
        return
    raise failure(r.status_code, _json(r))


def _json(r: Any) -> dict[str, Any]:
    try:
        data = r.json()
    except ValueError:
        data = None
    if not isinstance(data, dict) or "message" not in data:
        return {"error": "store", "message": f"the server answered {r.status_code}: {r.text[:200]}"}
    return data


def failure(status: int, data: dict[str, Any]) -> AdjError:
    """The command line's error for a server's failure: a refusal exits 1, another entry first 1,
    bad input, credentials and unknown matches 2, an integrity failure 3."""
    kind, message = data.get("error"), str(data.get("message", ""))
    if kind == "rejected":
        return Rejected(f"{data.get('rule')}: {message}", {k: v for k, v in data.items() if k != "error"})
    if kind == "conflict":
        return Conflict(message, data)
    if kind == "integrity":
        return IntegrityFailure(message, data)
    path = data.get("path")
    where = f" (at {path})" if path and path != "$" and path not in message else ""
    return BadInput(f"{message}{where}", data)
