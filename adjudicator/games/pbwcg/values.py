"""Computed figures (PBW-STATE-1, §6): HP cap, attack and defence values, speed, weight, the
endurance damage table and attribute superiority. Derived from the state, never stored."""

from __future__ import annotations

from adjudicator.games.pbwcg.state import Character, State

ATTRS = ("BODY", "TECH", "MIND")
#: PBW-LIM-17: items per part (ONE_HAND is shared by weapons and armour, PBW-RUL-18)
PART_LIMIT = {"ONE_HAND": 2, "TWO_HAND": 1, "HEAD": 1, "FOOT": 1, "OUTER": 1, "NORMAL": 1, "UNDER": 1}


def trunc_div(a: int, b: int) -> int:
    """PBW-OVR-10, PBW-RUL-52: fractions dropped towards zero."""
    return int(a / b)


def hp_cap(s: State, player: str) -> int:
    """PBW-LIM-9: the printed HP of the PCs on the player's field + 10."""
    return sum(s.cards[c.card].hp or 0 for c in s.field(player, "PC")) + 10


# (most characters have no status and no item: the sums over them are not begun then)
def base_stat(s: State, c: Character, attr: str) -> int:
    card = s.cards[c.card]
    stat = (card.stats or {}).get(attr, 0)
    return stat + sum(st.mods.stat.get(attr, 0) for st in c.statuses) if c.statuses else stat


def weapon_mod(s: State, c: Character, attr: str) -> int:
    return _item_mod(s, c, attr, "WEAPON")


def armor_mod(s: State, c: Character, attr: str) -> int:
    return _item_mod(s, c, attr, "ARMOR")


def _item_mod(s: State, c: Character, attr: str, kind: str) -> int:
    if not c.equipment:
        return 0
    return sum((s.cards[e].mods or {}).get(attr, 0) for e in c.equipment if s.cards[e].kind == kind)


def av(s: State, c: Character, attr: str) -> int:
    """PBW-RES-1: stat + weapon mods + status attack mods."""
    value = base_stat(s, c, attr) + weapon_mod(s, c, attr)
    return value + sum(st.mods.attack.get(attr, 0) for st in c.statuses) if c.statuses else value


def dv(s: State, c: Character, attr: str) -> int:
    """PBW-RES-1: trunc((stat + armour mods) / 2) + status defence mods."""
    half = trunc_div(base_stat(s, c, attr) + armor_mod(s, c, attr), 2)
    return half + sum(st.mods.defense.get(attr, 0) for st in c.statuses) if c.statuses else half


def main_attr(s: State, c: Character) -> str:
    return s.cards[c.card].main_attribute or "NONE"


def normal_attack_value(s: State, c: Character) -> tuple[int, str | None]:
    """PBW-RES-4, PBW-RUL-27: the AV of the main attribute; a NONE attacker uses its highest AV
    and the attack has no attribute."""
    attr = main_attr(s, c)
    if attr == "NONE":
        return max(av(s, c, a) for a in ATTRS), None
    return av(s, c, attr), attr


def ability_value(s: State, c: Character, attribute: str, modifier: int) -> tuple[int, str | None]:
    if attribute == "NONE":
        return max(av(s, c, a) for a in ATTRS) + modifier, None
    return av(s, c, attribute) + modifier, attribute


def defence_value(s: State, c: Character) -> int:
    """PBW-RES-5 (2): the target's main attribute; NONE uses the highest DV (PBW-RUL-27)."""
    attr = main_attr(s, c)
    if attr == "NONE":
        return max(dv(s, c, a) for a in ATTRS)
    return dv(s, c, attr)


def weight(s: State, c: Character) -> int:
    w = 0
    for e in c.equipment:
        w += s.cards[e].weight or 0
    return w


def overweight(s: State, c: Character) -> int:
    """PBW-RES-3, PBW-RUL-17: the penalty of a PC whose equipment weight exceeds its SP."""
    w, sp = weight(s, c), s.cards[c.card].sp or 0
    if w <= sp:
        return 0
    return w - sp if s.options.overweight_basis == "excess" else w


def speed(s: State, c: Character) -> int:
    """PBW-RES-3: TECH + status speed mods - overweight (+ weapon TECH under PBW-RUL-16)."""
    card = s.cards[c.card]
    if not c.statuses and not c.equipment and (card.sp or 0) >= 0:  # most characters: the printed TECH
        return (card.stats or {}).get("TECH", 0)
    value = base_stat(s, c, "TECH") + sum(st.mods.speed for st in c.statuses) - overweight(s, c)
    if s.options.speed_includes_weapon_tech:
        value += weapon_mod(s, c, "TECH")
    return value


def evasion_bonus(c: Character) -> int:
    return sum(st.mods.evasion for st in c.statuses) if c.statuses else 0


def superior(s: State, a: str | None, b: str | None) -> bool:
    """PBW-RES-2: is attribute ``a`` superior to ``b``? NONE is neither."""
    if a in (None, "NONE") or b in (None, "NONE"):
        return False
    return (a, b) in s.options.superiority  # its pairs are (superior, inferior) tuples


def endurance_damage(s: State, d: int, attack_attr: str | None, target_attr: str) -> int:
    """PBW-RES-7: the band of D, +1 for a superior attack, -1 for a superior target, never < 0."""
    band = 1 if d <= 5 else 2 if d <= 10 else 3
    if superior(s, attack_attr, target_attr):
        band += 1
    elif superior(s, target_attr, attack_attr):
        band -= 1
    return max(0, band)


def support_endurance_max(s: State, card: str) -> int:
    """PBW-LIM-11: 5 + trunc(CP / 2) unless the card gives an override."""
    d = s.cards[card]
    return d.endurance_max if d.endurance_max is not None else 5 + trunc_div(d.cp or 0, 2)


def columns(s: State, player: str) -> int:
    return max(1, s.player(player).max_pc_count // 2)


def is_back(s: State, player: str, slot: int) -> bool:
    """PBW-SET-4, PBW-RUL-1: column-major puts the back of column c on slot 2c; row-major puts
    the back row on slots k+1..2k."""
    if s.options.slot_numbering == "column_major":
        return slot % 2 == 0
    return slot > columns(s, player)


def in_back_row(s: State, c: Character) -> bool:
    """A PC in a back position; a summon support has no slot and stands in front (PBW-RUL-30)."""
    return c.kind == "PC" and c.slot is not None and is_back(s, c.controller, c.slot)


def distance(s: State, attacker: Character, target: str) -> int | None:
    """PBW-RUL-30: 1 + (attacker in the back row) + (target in the back row); a player is at 1
    (PBW-RES-9). None for a target that is neither a player nor a character on a field."""
    if target in s.names():
        return 1
    t = s.char(target)
    return None if t is None else 1 + in_back_row(s, attacker) + in_back_row(s, t)


def front_of(s: State, player: str, slot: int) -> int:
    if s.options.slot_numbering == "column_major":
        return slot - 1
    return slot - columns(s, player)


def over_full_part(s: State, c: Character) -> str | None:
    """PBW-LIM-17: the first part over its limit (``HANDS`` under two_hand_blocks_one_hand)."""
    if len(c.equipment) < 2:  # one item holds at most both hands, and every limit is 1 or more
        return None
    parts = [s.cards[e].part for e in c.equipment]
    if s.options.two_hand_blocks_one_hand:
        hands = sum(1 if p == "ONE_HAND" else 2 if p == "TWO_HAND" else 0 for p in parts)
        if hands > 2:
            return "HANDS"
    for part, limit in PART_LIMIT.items():
        if parts.count(part) > limit:
            return part
    return None


def items_of_part(s: State, c: Character, part: str) -> tuple[str, ...]:
    if part == "HANDS":
        return tuple(e for e in c.equipment if s.cards[e].part in ("ONE_HAND", "TWO_HAND"))
    return tuple(e for e in c.equipment if s.cards[e].part == part)


def check_succeeds(declared: str | None, die: int | None, success: bool | None) -> bool:
    """PBW-HID-4: a check succeeds when the die's parity matches the declaration."""
    if declared is None or die is None:
        return bool(success)
    return (die % 2 == 1) == (declared == "odd")
