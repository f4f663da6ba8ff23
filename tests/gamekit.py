"""What the game-agnostic suites share: the registered games, their fixtures, and how an offered
legal action becomes a concrete event (``tests/test_games_contract.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from adjudicator.engine import registry
from adjudicator.engine.kit import HIDDEN
from adjudicator.engine.protocol import Choice, LegalAction

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
GAMES_DIR = ROOT / "adjudicator" / "games"

#: the opening of a nim match (the spine's test game has no fixtures folder)
NIM_START = [{"type": "match_started", "by": "judge", "game": "nim", "players": ["alice", "bob"], "options": {"pile": 9}}]


def real_games() -> list[str]:
    """The registered games that live in ``adjudicator/games`` (not the spine's test games)."""
    return [n for n in registry.names() if (GAMES_DIR / n).is_dir()]


def start_lines(opening: str) -> list[dict[str, Any]]:
    """The lines a random-play test starts from: ``fixtures/<game>/conformance.jsonl`` for the
    opening ``<game>``, ``fixtures/<game>/conformance-<name>.jsonl`` for ``<game>:<name>``."""
    if opening == "nim":
        return [dict(x) for x in NIM_START]
    game, _, name = opening.partition(":")
    path = FIXTURES / game / (f"conformance-{name}.jsonl" if name else "conformance.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def game_of(opening: str) -> str:
    return opening.partition(":")[0]


def conformance_games() -> list[str]:
    """Every opening random play starts from: one per game (``<game>``), and the game's further
    openings (``<game>:<name>``, e.g. a match of three players where the game takes them)."""
    out = ["nim"]
    for n in real_games():
        if (FIXTURES / n / "conformance.jsonl").exists():
            out.append(n)
        out += [f"{n}:{p.stem.removeprefix('conformance-')}" for p in sorted((FIXTURES / n).glob("conformance-*.jsonl"))]
    return out


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def choice_values(choice: Choice) -> st.SearchStrategy[Any]:
    """Every value a ``Choice`` allows, as a strategy."""
    if choice.kind == "one":
        return st.sampled_from(choice.values)
    if choice.kind == "some":
        high = choice.max if choice.max is not None else len(choice.values)
        return st.lists(st.sampled_from(choice.values), min_size=choice.min, max_size=high, unique_by=_key)
    if choice.kind == "int":
        return st.integers(choice.min, choice.max if choice.max is not None else choice.min + 10)
    return st.text(alphabet="abcdefgh ", min_size=1, max_size=12).map(lambda s: s.strip() or "a")


def action_fields(action: LegalAction) -> st.SearchStrategy[dict[str, Any]]:
    """The fields of one concrete event the action offers."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for name, choice in action.choices.items():
        values = choice_values(choice)
        parts[name] = st.one_of(st.just(_OMIT), values) if choice.optional else values
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not _OMIT})


_OMIT = object()


def strings(value: Any) -> set[str]:
    """Every string in a JSON-like value, keys included."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            out.update(k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


#: what a player's view may show in place of what it hides
MASKS = {HIDDEN, "?", "hidden", ""}


def check_drawings_kept(game: str, options: dict[str, Any], drawings: Any, events: int = 1500) -> None:
    """A game whose board keeps what it drew (the kit's ``Drawings``): at every event of a long
    random match, every viewer's boards are equal to those drawn with nothing kept, and parts
    were handed again (the keeping is in use)."""
    import msgspec

    from adjudicator.service import MatchService, MemoryStore
    from bench import gen

    lines = gen.random_match(game, 7, events, options)
    service = MatchService(MemoryStore())
    service.import_lines([msgspec.json.encode(x).decode() for x in lines], "r")
    match = service.load("r")
    rules, viewers = match.game, [None, *match.players]
    kept = 0
    for seq in range(1, match.head + 1):
        state = match.fold.history[seq]
        got = rules.boards(state, viewers)
        kept += sum(z is w for z, w in zip(got[0].zones, rules.boards(state, viewers)[0].zones))
        drawings.clear()
        assert got == rules.boards(state, viewers), seq
    assert kept > match.head  # parts were drawn once and handed again
