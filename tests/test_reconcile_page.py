"""The judge's page of a dispute (``adj reconcile A B --html FILE``): the two records side by side from
where they part, the table after each side's version, the signed heads on the timeline; and the
signed heads on the match's own page (``adj replay --html``)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from adjudicator.authority.confirm import confirm
from adjudicator.presentation.page import page_data, render_page
from adjudicator.service import MatchService, MemoryStore
from events.signing import create_signing_key
from tests.test_cli import START, Adj, ok, take, write_jsonl
from tests.test_page import Tags

DEMONBRAVE = "fixtures/demonbrave/disputes/missed-attack"
EVIL = "<script>alert(1)</script>"


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_two_records_side_by_side_from_where_they_part(adj, tmp_path):
    page = tmp_path / "d.html"
    result = adj("reconcile", f"{DEMONBRAVE}.a.jsonl", f"{DEMONBRAVE}.b.jsonl", "--html", str(page))
    assert result.exit_code == 1  # the records differ: the page is written all the same
    assert result.stdout.splitlines()[-1] == f"wrote {page}: the two records side by side"
    html = page.read_text(encoding="utf-8")
    tags = Tags()
    tags.feed(html)
    assert "script" not in tags.tags  # a static page: no script at all, and its policy forbids any request
    assert "default-src 'none'" in html
    text = text_of(html)
    assert "They agree on the first 34 table actions, then part at A line 35 / B line 35: missing:" in text
    side_a = text_of(html[html.index('id="side-a"'):html.index('id="side-b"')])
    side_b = text_of(html[html.index('id="side-b"'):])
    assert side_a.startswith('id="side-a"> A from where they part: 4 of 5 accepted 35 bob declare_attack attacker=H7 target=D7 ')
    assert "35 bob resolve_battle [refused: DB-ACT-16: no attack is in progress]" in side_b
    # the table after each side's version: alice's field holds C10 alone in A, C10 and D7 in B
    assert "the table after A's version" in side_a and "field (1) C10 C10" in side_a
    assert "the table after B's version" in side_b and "field (2) C10 C10 D7 D7" in side_b
    assert "alice's field (cards) 1 2" in text_of(html[html.index('id="figures"'):])


def test_every_string_is_escaped(adj, tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [START, take("alice", 2)])
    b = write_jsonl(tmp_path / "<b>&.jsonl", [START, take("alice", 2), {"type": "take", "by": "bob", "player": EVIL, "count": 1}])
    page = tmp_path / "p.html"
    adj("reconcile", a, b, "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert EVIL not in html and "<b>&" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;b&gt;&amp;.jsonl" in html


def test_the_signed_heads_on_the_timeline_and_on_the_match_page(adj, tmp_path):
    keys = {n: create_signing_key(str(tmp_path / "keys" / f"{n}.pem")) for n in ("alice", "bob")}
    ok(adj("import", write_jsonl(tmp_path / "t.jsonl", [START, take("alice", 2), take("bob", 1)]), "--id", "t3"))
    for n in ("alice", "bob"):
        ok(adj("confirm", "t3", "--as", n, "--player-key", keys[n].path))
    ok(adj("act", "t3", "take", "player=alice", "count=1", "--by", "alice"))
    bob = write_jsonl(tmp_path / "bob.jsonl", [START, take("alice", 2), take("bob", 2)])
    page = tmp_path / "d.html"
    adj("reconcile", "t3", bob, "--html", str(page))
    html = page.read_text(encoding="utf-8")
    signed = text_of(html[html.index('id="signed"'):html.index("</p>", html.index('id="signed"'))])
    assert signed.endswith("in A, alice and bob signed the head at line 3: the records part at line 3 of A, at or before "
                           "that head: the players' own signatures answer the dispute for A's version")
    assert "A: 4 table actions · signed head at action 3" in text_of(html)
    assert html.count('class="tick"') == 1
    assert "[signed head]" in text_of(html[html.index('id="side-a"'):html.index('id="side-b"')])
    # the match's own page: each confirmation and the head both signed are marked on the timeline
    service = MatchService(MemoryStore())
    service.new("nim", ["alice", "bob"], options={"pile": 5}, match_id="n")
    service.submit("n", "take", "alice", {"player": "alice", "count": 2})
    for n in ("alice", "bob"):
        assert confirm(service, "n", n, keys[n]).accepted
    match = service.load("n")
    data = page_data(match, [])
    marks = {item["seq"]: m for item, m in zip(data["items"], data["per"]["judge"]["m"])}
    assert marks[2] == [["signed", "every player signed this head (confirmations at seq 3, 4)"]]
    assert marks[3] == [["signed", "alice signed the head at seq 2"]] and marks[4] == [["signed", "bob signed the head at seq 2"]]
    assert data["signed"]["text"] == ("every player signed the head at seq 2 (confirmations at seq 3, 4): a dispute about "
                                      "an event up to it is answered by their signatures")
    assert data["signed"]["text"] in render_page(match, [])


def test_the_page_to_stdout_is_the_page_alone(adj, tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [START, take("alice", 2)])
    result = adj("reconcile", a, a, "--html", "-")
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>")
    assert "The records agree: 2 table actions" in text_of(result.stdout)
    assert json.loads(ok(adj("reconcile", a, a, "--json")).stdout)["agree"] is True
