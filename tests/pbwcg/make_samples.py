"""Writes the sample catalog and the sample decks of fixtures/pbwcg (invented cards: the fixtures
of rules/pbwcg.md §13, filled up with plain set cards; P3's deck for local rule D, PBW-EX-25).
Run: python -m tests.pbwcg.make_samples"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "pbwcg"


def pc(id_, hp, b, t, m, main, wp, sp, world):
    return {"id": id_, "card_type": "PC", "name": f"PC {id_}", "world": world, "hp": hp,
            "stats": {"BODY": b, "TECH": t, "MIND": m}, "main_attribute": main, "wp": wp, "sp": sp}


def eq(id_, kind, part, b, t, m, w):
    return {"id": id_, "card_type": "EQUIPMENT", "name": f"Item {id_}", "kind": kind, "part": part,
            "mods": {"BODY": b, "TECH": t, "MIND": m}, "weight": w}


def setc(id_, category, text="(sample)"):
    return {"id": id_, "card_type": "SET", "name": f"Set {id_}", "category": category, "text": text}


def sup(id_, cp):
    return {"id": id_, "card_type": "SUPPORT", "name": f"Support {id_}", "world": "W1", "cp": cp,
            "stats": {"BODY": 3, "TECH": 3, "MIND": 3}, "main_attribute": "BODY"}


P1_CORE = [
    pc("A1", 12, 7, 5, 3, "BODY", 6, 5, "W1"), pc("A2", 9, 4, 6, 5, "TECH", 8, 4, "W1"),
    pc("A3", 7, 3, 4, 8, "MIND", 10, 3, "W1"), pc("A4", 6, 5, 6, 2, "BODY", 4, 4, "W1"),
    eq("E1", "WEAPON", "ONE_HAND", 3, 0, 0, 2), eq("E2", "WEAPON", "TWO_HAND", 5, 0, 0, 4),
    eq("E3", "ARMOR", "OUTER", 2, 0, 0, 3), eq("E4", "ARMOR", "ONE_HAND", 0, 2, 0, 2),
    eq("E5", "WEAPON", "ONE_HAND", 1, 0, 0, 1),
    setc("X", "RECOVERY"), setc("Y", "OTHER"), setc("Z", "OTHER"), setc("W", "OTHER"),
    setc("MG", "MAGIC", "a magic attack"), setc("SM", "SUMMON", "summons supports"), setc("FD", "FIELD", "an area"),
]
P2_CORE = [
    pc("B1", 10, 6, 6, 4, "BODY", 5, 6, "W2"),
    {**pc("B2", 8, 5, 3, 7, "MIND", 9, 3, "W2"),
     "abilities": [{"name": "Mind Blast", "attribute": "MIND", "modifier": 2, "wp_cost": 3, "text": "(sample)"}]},
    setc("FD2", "FIELD", "a field that hurts both players"), setc("MG2", "MAGIC", "a magic attack"),
]

#: a third player for local rule D (PBW-EX-25): C1 is slower than A1 and faster than B2
P3_CORE = [pc("C1", 8, 3, 4, 5, "MIND", 6, 3, "W3"), pc("C2", 6, 4, 2, 3, "BODY", 4, 2, "W3")]


def deck(core, prefix, size):
    return core + [setc(f"{prefix}{i:02d}", "OTHER") for i in range(1, size - len(core) + 1)]


def main() -> None:
    p1 = {"deck": deck(P1_CORE, "P1F", 38), "support_list": [sup("S1", 7), sup("S2", 5), sup("S3", 2)]}
    p2 = {"deck": deck(P2_CORE, "P2F", 40), "support_list": []}
    p3 = {"deck": deck(P3_CORE, "P3F", 30), "support_list": []}
    note = "SAMPLE data: invented cards (rules/pbwcg.md section 13 fixtures), not real PBWCG cards"
    (OUT / "deck-p1.sample.json").write_text(json.dumps({"_sample": note, **p1}, indent=1, ensure_ascii=False) + "\n")
    (OUT / "deck-p2.sample.json").write_text(json.dumps({"_sample": note, **p2}, indent=1, ensure_ascii=False) + "\n")
    (OUT / "deck-p3.sample.json").write_text(json.dumps({"_sample": note, **p3}, indent=1, ensure_ascii=False) + "\n")
    catalog = P1_CORE + P2_CORE + P3_CORE + p1["support_list"]
    (OUT / "catalog.sample.json").write_text(json.dumps(catalog, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
