"""Build Divide test fixtures: the sample catalog with instance-named clones (§15: a name designates
one card instance), legal 40-card decks, and the setup lines of rules §3."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.games.builddivide.sample import SAMPLE
from adjudicator.service import MatchService, MemoryStore

A, B = "alice", "bob"


def clone(base: str, name: str, **changes: Any) -> dict[str, Any]:
    card = dict(next(c for c in SAMPLE if c["name"] == base))
    card.update(name=name, **changes)
    return card


def energy_card(name: str, colours: list[str]) -> dict[str, Any]:
    """An energy-only sample card of the given colours (a command nobody plays)."""
    return clone("PLN", name, type="COMMAND", colours=colours, colour_cost={}, total_cost=0, power=0, hit=0)


def catalog(*extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(c) for c in SAMPLE] + list(extra)


def deck(special: list[str] | None = None, size: int = 40, cat: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A legal main deck: the named specials, buster cards (BST, BST2, BST3) up to exactly 12
    buster icons, plain cards to fill; territory TER1."""
    special = list(special or [])
    icons = {c["name"]: c["icons"] for c in (cat or SAMPLE)}
    have = sum(1 for n in special if "BUSTER" in icons.get(n, ()))
    busters = (["BST"] * 4 + ["BST2"] * 4 + ["BST3"] * 4)[: max(0, 12 - have)]
    fillers = [n for n in ("PLN", "U1k", "U2k", "U3k", "U4k", "U5k", "U7k", "NCMD", "QCMD", "ACE1", "ACE2", "SHOT3") for _ in range(4)]
    main = special + busters
    counts: dict[str, int] = {}
    for n in main:
        counts[n] = counts.get(n, 0) + 1
    for f in fillers:
        if len(main) >= size:
            break
        if counts.get(f, 0) < 4:
            main.append(f)
            counts[f] = counts.get(f, 0) + 1
    return {"main": main, "d_deck": [], "territory": "TER1", "checklist": {}}


def started(decks: dict[str, Any] | None = None, options: dict[str, Any] | None = None, cat: list | None = None) -> dict[str, Any]:
    return {"type": "match_started", "by": "judge", "game": "builddivide", "players": [A, B],
            "options": options or {}, "decks": decks or {A: deck(), B: deck()}, "catalog_version": "sample-1",
            "catalog": cat if cat is not None else catalog()}


def setup(first: str = A, energy: dict[str, list[str]] | None = None, redraw: dict[str, bool] | None = None) -> list[dict[str, Any]]:
    """Setup steps 1-8 for both players (BD-SET-1)."""
    energy = energy or {A: ["PLN", "U1k"], B: ["PLN", "U1k"]}
    redraw = redraw or {}
    lines: list[dict[str, Any]] = []
    for t in ("shuffle", "place_territory"):
        lines += [{"type": t, "by": p, "player": p} for p in (A, B)]
    lines.append({"type": "decide_first_player", "by": "judge", "first_player": first, "method": "RPS"})
    lines += [{"type": "draw_opening", "by": p, "player": p} for p in (A, B)]
    lines += [{"type": "mulligan", "by": p, "player": p, "redraw": redraw.get(p, False)} for p in (A, B)]
    lines += [{"type": "place_life", "by": p, "player": p} for p in (A, B)]
    lines += [{"type": "place_initial_energy", "by": p, "player": p, "cards": energy[p]} for p in (A, B)]
    return lines


def ev(type_: str, by: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "by": by, **fields}


def run(lines: list[dict[str, Any]]):
    """Replay lines as a table session: (report, match)."""
    report = MatchService(MemoryStore()).check_lines([json.dumps(x) for x in lines])
    return report, report.match


def rejected(report) -> dict[int, tuple[str, str]]:
    return {v.line: (v.rule, v.code) for v in report.verdicts if not v.accepted}


def view(match, viewer=None) -> dict[str, Any]:
    import msgspec

    return msgspec.to_builtins(match.game.view(match.state, viewer))


def opening(options: dict[str, Any] | None = None, a: list[str] | None = None, b: list[str] | None = None,
            cat: list[dict[str, Any]] | None = None, energy: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """match_started and the setup: turn 1, alice's stand phase."""
    cat = cat if cat is not None else catalog()
    return [started({A: deck(a, cat=cat), B: deck(b, cat=cat)}, options, cat)] + setup(A, energy)


def to_main(options: dict[str, Any] | None = None, **kw: Any) -> list[dict[str, Any]]:
    return opening(options, **kw) + [ev("advance_phase", A), ev("advance_phase", A)]


def refused(lines: list[dict[str, Any]]):
    """The verdict of the last line, which must be refused (every line before it accepted)."""
    report, match = run(lines)
    bad = [v for v in report.verdicts if not v.accepted]
    assert [v.line for v in bad] == [len(lines)], [(v.line, v.rule, v.message) for v in bad]
    return bad[0]


def accepted(lines: list[dict[str, Any]]):
    """The match after ``lines``, every one accepted."""
    report, match = run(lines)
    bad = [(v.line, v.rule, v.message) for v in report.verdicts if not v.accepted]
    assert bad == []
    return match
