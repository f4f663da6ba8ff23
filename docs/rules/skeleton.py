"""The skeleton of a rules reference (docs/rules/GAME.md) from a rules chapter: every rule ID the
chapter defines, under the chapter's section, in the chapter's order, each with an empty gist for
a writer to fill in the project's own words.

    python docs/rules/skeleton.py ../shared/rules/bacdef.md > draft.md            # the skeleton
    python docs/rules/skeleton.py ../shared/rules/bacdef.md --worksheet           # ID, section, the chapter's text
    python docs/rules/skeleton.py ../shared/rules/bacdef.md --missing docs/rules/bacdef.md   # IDs not written yet

A rule is defined where a line or a list item starts with its ID in bold (``- **BAC-DMG-3** ...``)
or a table row starts with it; the first definition counts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

RULE = re.compile(r"\b([A-Z][A-Z0-9]{1,3}-[A-Z][A-Z0-9]*-\d+[a-z]?)\b")
DEFINED = re.compile(r"^\s*(?:(?:[-*]|\d+\.)\s+)?\*\*([A-Z][A-Z0-9]{1,3}-[A-Z][A-Z0-9]*-\d+[a-z]?)\b[^*]*\*\*|^\|\s*\*{0,2}`?([A-Z][A-Z0-9]{1,3}-[A-Z][A-Z0-9]*-\d+[a-z]?)\b")
INLINE = re.compile(r"\*\*([A-Z][A-Z0-9]{1,3}-[A-Z][A-Z0-9]*-\d+[a-z]?)\b")
HEADING = re.compile(r"^(#{2,3})\s+(.*)$")


def rules(chapter: str) -> list[tuple[str, str, str]]:
    """``(rule ID, section, the chapter's text of it)`` for each rule the chapter defines."""
    out: dict[str, tuple[str, str, list[str]]] = {}
    section, current, indent = "", None, 0
    for line in chapter.splitlines():
        head = HEADING.match(line)
        if head:
            section, current = head.group(2).strip(), None
            continue
        found = DEFINED.match(line)
        if found:
            current = None
            # a line may define more than one rule (``**BD-ACT-31 ...** ... **BD-ACT-32 ...**``)
            for rid in dict.fromkeys([found.group(1) or found.group(2), *INLINE.findall(line)]):
                if rid not in out and "-EX-" not in rid:  # worked examples are not rules
                    out[rid] = (section, line.strip(), [])
                    current, indent = rid, len(line) - len(line.lstrip())
            continue
        if current and line.strip() and len(line) - len(line.lstrip()) > indent:
            out[current][2].append(line.strip())
            for rid in INLINE.findall(line):  # a rule defined inside another's text (``... **PBW-EFF-17** ...``)
                if rid not in out and "-EX-" not in rid:
                    out[rid] = (section, line.strip(), [])
        elif line.strip():
            current = None
    return [(rid, sec, " ".join([first, *more])) for rid, (sec, first, more) in out.items()]


def skeleton(title: str, found: list[tuple[str, str, str]]) -> str:
    lines, section = [f"# {title}: rules reference", ""], None
    for rid, sec, _ in found:
        if sec != section:
            lines += ["", f"## {sec}", ""]
            section = sec
        lines.append(f"- **{rid}** ")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    chapter = Path(argv[1]).read_text(encoding="utf-8")
    found = rules(chapter)
    if "--worksheet" in argv:
        for rid, sec, text in found:
            print(f"{rid}\t{sec}\t{text}")
    elif "--missing" in argv:
        written = set(re.findall(r"^- \*\*([^*]+)\*\*", Path(argv[argv.index("--missing") + 1]).read_text(encoding="utf-8"), re.M))
        missing = [rid for rid, _, _ in found if rid not in written]
        print("\n".join(missing))
        return 1 if missing else 0
    else:
        title = chapter.splitlines()[0].lstrip("# ").split(" — ")[0]
        sys.stdout.write(skeleton(title, found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
