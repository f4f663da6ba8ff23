"""The rules references written for this project: ``docs/rules/<game>.md``, one entry per rule ID
under the section of the game's rules chapter it belongs to, each rule's gist in the project's
own words (the chapter, and its Japanese seed, stay the authority). ``adj rule ID`` reads them.

An entry is a list item ``- **ID** gist`` under a ``## section`` heading; the file's first line
is ``# TITLE: rules reference``. In a source tree the files are read from ``docs/rules``; an
installed copy carries them as data (``share/adjudicator/rules``, pyproject.toml).
"""

from __future__ import annotations

import difflib
import re
import sys
import sysconfig
from pathlib import Path
from typing import NamedTuple

_ENTRY = re.compile(r"^- \*\*([A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d+[a-z]?)\*\*\s*(.*)$")
_RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d+[a-z]?$")


class Rule(NamedTuple):
    rule: str
    reference: str  # the file's name: bacdef, pbwcg, ..., adj (the adjudicator's own rules)
    title: str  # the game's title as the reference gives it
    section: str  # the chapter's section, as "6. Resolution"
    text: str  # the gist


def folders() -> list[Path]:
    """Where the references are: the source tree's docs/rules, then an installed copy's data."""
    here = Path(__file__).resolve().parents[2] / "docs" / "rules"
    data = dict.fromkeys((Path(sysconfig.get_path("data")), Path(sys.prefix)))
    installed = [d / "share" / "adjudicator" / "rules" for d in data]
    return [here, *installed]


def references() -> dict[str, Path]:
    """Reference name -> its file (the first folder holding it wins)."""
    found: dict[str, Path] = {}
    for folder in folders():
        if folder.is_dir():
            for path in sorted(folder.glob("*.md")):
                found.setdefault(path.stem, path)
    return found


def read(name: str, path: Path) -> dict[str, Rule]:
    title, section, out = name, "", {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            title = line[2:].split(": rules reference")[0].strip()
        elif line.startswith("## "):
            section = line[3:].strip()
        else:
            m = _ENTRY.match(line)
            if m and m.group(1) not in out:
                out[m.group(1)] = Rule(m.group(1), name, title, section, m.group(2).strip())
    return out


def all_rules() -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for name, path in references().items():
        for rid, rule in read(name, path).items():
            out.setdefault(rid, rule)
    return out


class UnknownRule(LookupError):
    """No reference has this rule: ``near`` holds the closest IDs there are."""

    def __init__(self, rule: str, near: list[str], malformed: bool = False):
        self.rule, self.near, self.malformed = rule, near, malformed
        super().__init__(rule)


def lookup(rule_id: str) -> Rule:
    """The rule ``rule_id`` (any case), or ``UnknownRule`` with the nearest IDs."""
    rid = rule_id.strip().upper()
    known = all_rules()
    if rid in known:
        return known[rid]
    near = difflib.get_close_matches(rid, list(known), n=3, cutoff=0.75)
    raise UnknownRule(rid, near, malformed=not _RULE_ID.match(rid))
