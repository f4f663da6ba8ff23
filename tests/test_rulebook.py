"""The rules a message cites can be read: ``adj rule ID`` prints the rule in the project's own words
with its section (docs/rules/<game>.md), every rule ID a game's code can name (and the
adjudicator's own) has an entry, each game's page links its reference, and a reference follows
its chapter's sections without copying the chapter's sentences."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from adjudicator.presentation.rulebook import all_rules, read, references
from cli.main import main
from tests.gamekit import ROOT, real_games
from tests.test_rule_coverage import named_rules

SPINE = {"ADJ-PLY-1", "ADJ-ACT-1", "ADJ-REW-1", "ADJ-REW-2", "ADJ-COR-1", "ADJ-COR-2", "ADJ-JDG-1", "ADJ-JDG-2", "ADJ-JDG-3", "ADJ-JDG-4",
         "ADJ-UNDO-1", "ADJ-UNDO-2", *(f"ADJ-CONF-{n}" for n in range(1, 7))}
CHAPTERS = ROOT.parent / "shared" / "rules"


def adj(*args: str):
    return CliRunner().invoke(main, list(args))


def test_adj_rule_prints_the_rule_and_its_section():
    result = adj("rule", "adj-rew-1")
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", (
        "ADJ-REW-1  Adjudicator, Rewinds and corrections\n"
        "  A rewind must point to an earlier event of the effective history: not a later seq, not itself, not an "
        "event a previous rewind abandoned.\n"))
    data = json.loads(adj("rule", "ADJ-JDG-3", "--json").stdout)
    assert data == {"rule": "ADJ-JDG-3", "game": "adj", "title": "Adjudicator", "section": "The judge's calls",
                    "text": "A penalty names a player of the match."}


def test_an_unknown_rule_names_the_nearest_and_a_word_is_no_rule():
    result = adj("rule", "ADJ-JDG-9")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "error: no rule ADJ-JDG-9 in the rules references; nearest: ADJ-JDG-4, ADJ-JDG-3, ADJ-JDG-2\n")
    result = adj("rule", "hello", "--json")
    assert (result.exit_code, json.loads(result.stdout)) == (2, {
        "error": "unknown_rule", "rule": "HELLO", "near": [], "message": "'hello' is not a rule ID (such as BAC-LIM-4)"})


def test_the_adjudicators_own_rules_are_all_written():
    named = set()
    for path in (ROOT / "adjudicator" / "engine").glob("*.py"):
        named |= set(re.findall(r'"(ADJ-[A-Z]+-\d+)"', path.read_text(encoding="utf-8")))
    assert named <= SPINE == set(read("adj", references()["adj"]))


@pytest.mark.parametrize("name", real_games())
def test_every_rule_a_game_can_cite_has_an_entry(name):
    assert name in references(), f"docs/rules/{name}.md is missing"
    written = read(name, references()[name])
    assert sorted(named_rules(name) - set(written)) == []
    assert all(rule.text and rule.section for rule in written.values())


@pytest.mark.parametrize("name", real_games())
def test_each_game_page_links_its_reference_not_the_shared_chapter(name):
    page = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    assert f"](../rules/{name}.md)" in page and "../shared/rules" not in page


@pytest.mark.parametrize("name", real_games())
def test_a_reference_follows_its_chapter_in_its_own_words(name):
    """Every rule the chapter defines, under the chapter's section, in the chapter's order; no
    gist repeats ten words running of the chapter's text of that rule."""
    if not (CHAPTERS / f"{name}.md").exists():
        pytest.skip("the rules chapters are not beside this clone")
    sys.path.insert(0, str(ROOT / "docs" / "rules"))
    try:
        from skeleton import rules
    finally:
        sys.path.pop(0)
    chapter = rules((CHAPTERS / f"{name}.md").read_text(encoding="utf-8"))
    written = read(name, references()[name])
    assert [(r, s) for r, s, _ in chapter] == [(r.rule, r.section) for r in written.values()]
    for rid, _, text in chapter:
        words = re.findall(r"\w+", text.lower())
        runs = {" ".join(words[i:i + 10]) for i in range(len(words) - 9)}
        mine = " ".join(re.findall(r"\w+", written[rid].text.lower()))
        assert not any(run in mine for run in runs), f"{rid} copies the chapter"


def test_an_installed_copy_carries_the_references():
    """pyproject.toml installs docs/rules/*.md as data, where the loader looks for them."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"share/adjudicator/rules" = ["docs/rules/*.md"]' in text
    code = ("import sys, sysconfig; from pathlib import Path; from adjudicator.presentation.rulebook import folders;"
            "print(Path(sysconfig.get_path('data')) / 'share' / 'adjudicator' / 'rules' in folders())")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "True\n"
    assert set(all_rules()) >= SPINE
