"""Building E2Drive match lines for tests and fixtures: the sample catalog, sample registrations,
and a shorthand for payments (``pay("P1.S1", 1, "P1.M", 1)``)."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from adjudicator.games.e2drive.catalog import SAMPLE

DECK = (["F-Tool-1"] * 3 + ["F-Tool-3"] * 3 + ["F-Quick-1"] * 3 + ["F-Gear"] * 3 + ["F-Field-U"] * 3
        + ["F-Field-D"] * 3 + ["F-Gamma"] * 3 + ["F-Delta"] * 3 + ["F-Epsilon"] * 3 + ["F-Mu"] * 3)
SERVANTS_A = ["F-Alpha", "F-Kappa", "F-Sigma"]
SERVANTS_B = ["F-Beta", "F-Rho", "F-Lambda"]


def catalog(extra_servants: dict[str, dict] | None = None, extra_tools: dict[str, dict] | None = None) -> dict[str, Any]:
    data = msgspec.to_builtins(SAMPLE)
    for k, v in (extra_servants or {}).items():
        data["servants"][k] = {"name": k, **v}
    for k, v in (extra_tools or {}).items():
        data["tools"][k] = {"name": k, **v}
    return data


def started(servants_a=None, servants_b=None, *, options: dict | None = None, cat: dict | None = None,
            deck_a=None, deck_b=None, players=("P1", "P2")) -> dict[str, Any]:
    return {"type": "match_started", "by": "judge", "game": "e2drive", "players": list(players),
            "options": options or {}, "catalog": cat or catalog(),
            "registrations": {players[0]: {"deck": list(deck_a or DECK), "servants": list(servants_a or SERVANTS_A)},
                              players[1]: {"deck": list(deck_b or DECK), "servants": list(servants_b or SERVANTS_B)}}}


def pay(*pairs: Any) -> list[dict[str, Any]]:
    return [{"pool": pairs[i], "n": pairs[i + 1]} for i in range(0, len(pairs), 2)]


def ev(type_: str, by: str = "judge", **fields: Any) -> dict[str, Any]:
    return {"type": type_, "by": by, **fields}


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
