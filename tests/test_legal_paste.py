"""What ``adj legal`` prints can be pasted back into ``adj act``: every value on its lines is in the
command line's own words or JSON, quoted for the shell where the shell would change it, and reads
back (through the words ``adj act`` parses) as the value the game offered. Checked over every
registered game, at positions reached by random legal play from its conformance opening."""

from __future__ import annotations

import random
import re
import shlex

import pytest
from click.testing import CliRunner

from adjudicator.engine.fold import decode_event
from adjudicator.engine.protocol import Choice, LegalAction
from adjudicator.presentation.render import legal_lines
from cli.main import main
from cli.values import pairs
from tests.gamekit import conformance_games
from tests.test_games_contract import started_fold

#: what a shell leaves alone outside quotes (``[a,b]`` lists included)
SHELL_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+/@%=,[]")
#: the marks of a Python repr, which no reader of JSON or of the command line's words accepts
PYTHON_REPR = re.compile(r"\{'|\['|', '|': |\bTrue\b|\bFalse\b|\bNone\b")


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` where it stands outside single quotes and brackets."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch in "<[":
            depth += 1
        elif not quoted and ch in ">]":
            depth -= 1
        elif not quoted and depth == 0 and ch == sep:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def alternatives(body: str, choice: Choice) -> list[str]:
    """The words a person may put after ``FIELD=``, read from the printed template."""
    if choice.kind == "int":
        assert body == f"<{choice.min}..{choice.max}>"
        return [str(choice.min)]
    if choice.kind == "text":
        assert body == "<text>"
        return ["'a reason'"]
    if choice.kind == "some":
        n = str(choice.min) if choice.max == choice.min else f"{choice.min}-{choice.max}"
        assert body.startswith(f"[{n} of ") and body.endswith("]"), body
        items = split_top(body[len(f"[{n} of "):-1], "|") if choice.values else []
        assert all(set(i) <= SHELL_SAFE - set("[],") for i in items), items  # list items are plain words
        return ["[" + ",".join(items[: choice.min]) + "]"]
    if len(choice.values) == 1:
        return [body]
    assert body.startswith("<") and body.endswith(">"), body
    return split_top(body[1:-1], "|")


def unquoted(word: str) -> str:
    return "".join(part for i, part in enumerate(word.split("'")) if i % 2 == 0)


def check_line(game, action: LegalAction, line: str) -> None:
    assert not PYTHON_REPR.search(line), line
    if action.fields:  # the game's own words for its fields: checked above for reprs only
        return
    head = f"{action.who}: {action.type}"
    assert line.startswith(head), line
    rest = line[len(head):]
    if action.note:
        assert rest.endswith(f"  ({action.note})")
        rest = rest[: -len(action.note) - 4]
    words = split_top(rest.strip(), " ") if rest.strip() else []
    assert [w.split("=", 1)[0] for w in words] == list(action.choices), line
    chosen: dict[str, list[str]] = {}
    for word, (name, choice) in zip(words, action.choices.items()):
        body = word.split("=", 1)[1]
        if choice.optional:
            assert body.endswith("?")
            body = body[:-1]
        alts = alternatives(body, choice)
        if choice.kind == "one":
            assert len(alts) == len(choice.values), (word, choice.values)
        chosen[name] = alts
    # each alternative, pasted with the first of every other field, is the action offered
    for name, alts in chosen.items():
        for i, alt in enumerate(alts[:8]):
            pasted = [f"{k}={alt if k == name else a[0]}" for k, a in chosen.items()]
            for w in pasted:
                assert set(unquoted(w)) <= SHELL_SAFE, f"{w} would be changed by the shell"
            argv = shlex.split(" ".join(pasted))
            assert len(argv) == len(pasted), pasted
            typed = decode_event(game, action.type, action.who, pairs(argv), strict=False)
            offered = {k: offered_value(c, i if k == name else 0) for k, c in action.choices.items()}
            assert typed == decode_event(game, action.type, action.who, offered, strict=False), (line, pasted)


def offered_value(choice: Choice, i: int):
    if choice.kind == "one":
        return choice.values[i]
    if choice.kind == "some":
        return list(choice.values[: choice.min])
    if choice.kind == "int":
        return choice.min
    return "a reason"


def random_value(choice: Choice, rng: random.Random):
    if choice.kind == "one":
        return rng.choice(choice.values)
    if choice.kind == "some":
        high = min(choice.max if choice.max is not None else len(choice.values), len(choice.values))
        return rng.sample(list(choice.values), rng.randint(choice.min, high))
    if choice.kind == "int":
        return rng.randint(choice.min, choice.max if choice.max is not None else choice.min + 3)
    return "a reason"


@pytest.mark.parametrize("name", conformance_games())
def test_every_line_adj_legal_prints_pastes_back_into_adj_act(name):
    for seed in range(4):
        rng = random.Random(seed)
        fold = started_fold(name)
        game = fold.game
        for _ in range(40):
            offered = game.legal(fold.state)
            if not offered or game.outcome(fold.state).status != "in_progress":
                break
            grouped = [a for who in dict.fromkeys(a.who for a in offered) for a in offered if a.who == who]
            for action, line in zip(grouped, legal_lines(offered)):
                check_line(game, action, line)
            pool = [a for a in offered if not a.anytime] or offered
            action = rng.choice(pool)
            fields = {k: random_value(c, rng) for k, c in action.choices.items() if not (c.optional and rng.random() < 0.5)}
            fold.advance(decode_event(game, action.type, action.who, fields), fold.head + 1)


def test_nested_values_print_as_json_quoted_for_the_shell():
    """A mapping, or a list of lists, is compact JSON in single quotes: never a Python repr."""
    from adjudicator.engine.kit import one

    actions = [LegalAction(who="bob", type="b", choices={"x": one({"name": "Mind Blast", "n": 2})}),
               LegalAction(who="al", type="a", choices={"y": one([["A2", "B1"]], [["A1", "B2"]])})]
    assert legal_lines(actions) == ["bob: b x='{\"name\":\"Mind Blast\",\"n\":2}'",
                                    "al: a y=<'[[\"A2\",\"B1\"]]'|'[[\"A1\",\"B2\"]]'>"]


@pytest.mark.parametrize("name, action", [("e2drive", "attack"), ("builddivide", "play_card")])
def test_a_line_of_adj_legal_pasted_into_adj_act_is_accepted(tmp_path, name, action):
    """End to end: a line whose payment is JSON (E2Drive's attack, Build Divide's play_card),
    printed by ``adj legal``, pasted (its first alternatives) into a shell running ``adj act``."""
    import json

    from adjudicator.engine.fold import event_fields, event_type

    def reach(seed: int):
        rng, fold = random.Random(seed), started_fold(name)
        for _ in range(300):
            offered = fold.game.legal(fold.state)
            if any(a.type == action and not a.fields and any(c.kind == "one" and isinstance(c.values[0], list)
                                                             and c.values[0] and isinstance(c.values[0][0], dict)
                                                             for c in a.choices.values()) for a in offered):
                return fold
            if not offered or fold.game.outcome(fold.state).status != "in_progress":
                return None
            pick = rng.choice([a for a in offered if not a.anytime] or offered)
            fields = {k: random_value(c, rng) for k, c in pick.choices.items() if not c.optional}
            fold.advance(decode_event(fold.game, pick.type, pick.who, fields), fold.head + 1)
        return None

    fold = next((f for f in map(reach, range(30)) if f is not None), None)
    assert fold is not None, f"random play never offered {action} with a JSON value"
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({"type": event_type(ev), "by": ev.by, **event_fields(ev)}) + "\n"
                            for _, ev in fold.log))
    store = ["--store", str(tmp_path / "s.db")]
    runner = CliRunner()
    assert runner.invoke(main, [*store, "import", str(path), "--id", "p"]).exit_code == 0
    legal = runner.invoke(main, [*store, "legal", "p"])
    line = next(x for x in legal.stdout.splitlines() if f" {action} " in x and "'[{" in x)
    who, _, rest = line.partition(": ")
    words = [w.split("=", 1)[0] + "=" + (split_top(w.split("=", 1)[1][1:-1], "|")[0]
                                          if w.split("=", 1)[1].startswith("<") else w.split("=", 1)[1])
             for w in split_top(rest.split("  (")[0], " ")[1:]]
    result = runner.invoke(main, [*store, "act", "p", action, *shlex.split(" ".join(words)), "--by", who])
    assert (result.exit_code, result.stderr) == (0, ""), (line, result.output)
    assert result.stdout.startswith(f"p seq {fold.head + 1}  {who}  {action}  ")
