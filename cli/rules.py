"""``adj rule ID``: a rule a message cites, in the project's own words, with its section
(adjudicator/presentation/rulebook.py reads docs/rules/<game>.md)."""

from __future__ import annotations

import click

from cli.app import Env, command
from cli.errors import BadInput


@command(uses_store=False)
@click.argument("rule_id", metavar="ID")
def rule(env: Env, rule_id: str) -> None:
    """What the rule ID (BAC-LIM-4, DB-RWD-6...) says, and the section of the game's rules it
    belongs to: the gist written for this project, from docs/rules/GAME.md."""
    from adjudicator.presentation.rulebook import UnknownRule, lookup

    try:
        found = lookup(rule_id)
    except UnknownRule as exc:
        hint = f"; nearest: {', '.join(exc.near)}" if exc.near else ""
        what = f"{rule_id!r} is not a rule ID (such as BAC-LIM-4)" if exc.malformed else f"no rule {exc.rule} in the rules references"
        raise BadInput(what + hint, {"error": "unknown_rule", "rule": exc.rule, "near": exc.near,
                                     "message": what + hint}) from None
    env.emit({"rule": found.rule, "game": found.reference, "title": found.title, "section": found.section,
              "text": found.text},
             [f"{found.rule}  {found.title}, {found.section}", f"  {found.text}"])
