"""Long legal logs for the benchmarks, made by seeded random play driven by each game's
``legal()`` choices (the same way tests/test_games_contract.py plays), so every implemented game
gets them without code of its own. A game whose ``legal()`` does not give choices for every
field falls back to copies of its recorded matches that adjudicate cleanly."""

from __future__ import annotations

import glob
import json
import os
import random
from collections.abc import Iterator
from typing import Any

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.protocol import Choice, LegalAction, Violation
from adjudicator.service import MatchService, MemoryStore

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _value(rng: random.Random, c: Choice) -> Any:
    if c.kind == "one":
        return rng.choice(c.values)
    if c.kind == "some":
        high = c.max if c.max is not None else len(c.values)
        return rng.sample(list(c.values), rng.randint(c.min, high))
    if c.kind == "int":
        return rng.randint(c.min, c.max if c.max is not None else c.min)
    return "noted at the table"


def _playable(action: LegalAction) -> bool:
    return bool(action.choices) or not action.fields


def start_lines(game: str) -> list[dict[str, Any]]:
    path = os.path.join(ROOT, "fixtures", game, "conformance.jsonl")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def random_match(game: str, seed: int, max_events: int, options: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
    """One match of at most ``max_events`` lines, or None when the game cannot be played from
    ``legal()`` (no conformance opening, or an offered action without choices). ``options`` are
    house rules laid over the opening's (a long match: more games or sets to play)."""
    try:
        lines = start_lines(game)
    except FileNotFoundError:
        return None
    if options:
        lines[0] = {**lines[0], "options": {**lines[0].get("options", {}), **options}}
    g = registry.get(game)
    rng = random.Random(seed)
    fold = Fold(g, "gen")
    for i, line in enumerate(lines, 1):
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        fold.advance(decode_event(g, line["type"], line["by"], fields), i)
    out = [dict(x) for x in lines]
    while len(out) < max_events and g.outcome(fold.state).status == "in_progress":
        offered = [a for a in g.legal(fold.state) if not a.anytime and a.type not in ("rewind", "correct")]
        if not offered:
            break
        if not all(_playable(a) for a in offered):
            return None
        action = rng.choice(offered)
        fields = {k: _value(rng, c) for k, c in action.choices.items() if not (c.optional and rng.random() < 0.5)}
        event = decode_event(g, action.type, action.who, fields)
        try:
            fold.advance(event, fold.head + 1)
        except Violation:
            return None  # an offered action refused: the conformance suite reports it
        out.append({"type": action.type, "by": action.who, **event_fields(event)})
    return out


def recorded_matches(game: str) -> list[list[dict[str, Any]]]:
    """The game's recorded matches that adjudicate with no rejection."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", game, "**", "*.jsonl"), recursive=True)):
        if path.endswith("conformance.jsonl"):
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read().splitlines()
        report = MatchService(MemoryStore()).check_lines(text)
        if not report.rejections and report.accepted > 1:
            found.append([json.loads(line) for line in text if line.strip()])
    return found


def matches(game: str, total: int, seed: int = 1, longest: int = 400) -> Iterator[list[dict[str, Any]]]:
    """Matches of ``game`` adding up to at least ``total`` lines: random ones where the game can
    be played from ``legal()``, else copies of its recorded matches."""
    made, k = 0, 0
    pool = None
    while made < total:
        m = random_match(game, seed + k, min(longest, total - made + 10))
        if m is None:
            pool = pool if pool is not None else recorded_matches(game)
            if not pool:
                raise RuntimeError(f"no way to make {game} matches: no conformance opening and no clean recording")
            m = pool[k % len(pool)]
        made += len(m)
        k += 1
        yield m


def source(game: str) -> str:
    """How ``matches`` makes this game's logs: "random play" or "recorded matches"."""
    return "random play" if random_match(game, 0, 30) is not None else "recorded matches"
