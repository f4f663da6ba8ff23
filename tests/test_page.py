"""The judge's page without a browser: one self-contained file, the timeline's data (rejected
attempts, forks, corrections, results), a player's page holding nothing that player could not
know, and every user-entered string escaped. tests/test_page_browser.py drives it in Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.presentation.page import page_data, render_page, script_json
from adjudicator.engine.words import outcome_text
from adjudicator.service import MatchService, MemoryStore, parse_lines
from cli.main import main

BACDEF_FORKS = "fixtures/bacdef/golden/ex-13-judge-error-rewind.jsonl"
DEMONBRAVE_CORRECTION = "fixtures/demonbrave/golden/ex14-d-correction.jsonl"
EVIL = "<script>alert(1)</script>"


def enter(service: MatchService, path: str, match_id: str, edit: Callable[[int, dict], dict] | None = None) -> Any:
    """Enter a fixture line by line as a table would: rejected lines are recorded as attempts."""
    with open(path, encoding="utf-8") as fh:
        for no, obj in parse_lines(fh.read().splitlines()):
            obj = edit(no, dict(obj)) if edit else obj
            type_, by = obj.pop("type"), obj.pop("by")
            service.submit(match_id, type_, by, obj, strict=False)
    return service.load(match_id)


def evil_catalog(no: int, obj: dict) -> dict:
    """Line 1 with a card title and a rewind reason that try to break out of the page."""
    if obj["type"] == "match_started":
        obj.setdefault("catalog", {}).setdefault("A", {})["title"] = EVIL
    if obj["type"] == "rewind":
        obj["reason"] = "</script><script>alert(2)</script> & <!-- \u2028"
    return obj


@pytest.fixture
def bacdef():
    service = MatchService(MemoryStore())
    return service, enter(service, BACDEF_FORKS, "b", evil_catalog)


@pytest.fixture
def demonbrave():
    service = MatchService(MemoryStore())
    return service, enter(service, DEMONBRAVE_CORRECTION, "d")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.data: dict[str, str] = {}
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in = dict(attrs).get("id") if tag == "script" else None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.data[self._in] = self.data.get(self._in, "") + data


def parsed(html: str) -> Tags:
    t = Tags()
    t.feed(html)
    return t


def strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def test_script_json_cannot_close_its_element():
    text = script_json({"a": "</script><!-- & \u2028 \u2029"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028 \u2029"}


def test_page_is_one_self_contained_file(bacdef):
    service, match = bacdef
    html = render_page(match, service.store.rejections("b"))
    tags = parsed(html)
    assert [t for t, _ in tags.tags].count("script") == 2  # the data and the page's own script
    assert not [a for _, a in tags.tags if "src" in a or "href" in a]  # nothing loaded from elsewhere
    assert "http://" not in html and "https://" not in html and "@import" not in html
    assert "default-src 'none'" in html  # and the page may not reach the network at all
    data = json.loads(tags.data["adj-data"])
    assert data["match"] == "b" and data["viewers"] == ["judge", "alice", "bob"]


def test_every_user_string_is_escaped(bacdef):
    service, match = bacdef
    html = render_page(match, service.store.rejections("b"))
    assert "<script>alert" not in html and "alert(2)</script>" not in html
    assert html.count("</script>") == 2
    data = json.loads(parsed(html).data["adj-data"])
    texts = set(strings(data))
    assert any(EVIL in t for t in texts), "the card title reaches the page as text"
    assert any("</script><script>alert(2)</script> & <!-- \u2028" in t for t in texts), "so does the rewind's reason"


def test_timeline_items_rejections_forks_and_results(bacdef):
    service, match = bacdef
    data = page_data(match, service.store.rejections("b"))
    items = data["items"]
    assert [i["seq"] for i in items if i["seq"] is not None] == list(range(1, match.head + 1))
    rejected = [i for i in items if i["kind"] == "rejected"]
    assert len(rejected) == 2 and all(i["rule"].startswith("BAC-") for i in rejected)
    judge = data["per"]["judge"]
    for i in rejected:
        k = items.index(i)
        assert judge["m"][k][0] == ["rejected", f"{i['rule']}: " + judge["m"][k][0][1].split(": ", 1)[1]]
        assert judge["b"][k] == judge["b"][items.index(next(x for x in items if x["seq"] == i["head"]))]
    assert [(f["rewind"], f["to"], f["abandoned"]) for f in data["forks"]] == [
        (b.rewind_seq, b.to_seq, list(b.abandoned)) for b in match.fold.branches]
    for k, f in enumerate(data["forks"]):
        assert sorted(i["seq"] for i in items if i.get("fork") == k) == f["abandoned"]
        rewind = items.index(next(i for i in items if i["seq"] == f["rewind"]))
        assert judge["m"][rewind][0][0] == "rewind"
    assert len(data["boards"]) < len(items) * 3  # equal boards are stored once


def test_correction_marked_where_it_inserts(demonbrave):
    service, match = demonbrave
    data = page_data(match, service.store.rejections("d"))
    correct = next(e for e in match.events if e.type == "correct")
    at = correct.fields["at_seq"]
    items, marks = data["items"], data["per"]["judge"]["m"]
    k = items.index(next(i for i in items if i["seq"] == at))
    assert marks[k][0][0] == "correction" and marks[k][0][1].startswith(f"seq {correct.seq} inserted before this event: ")
    k = items.index(next(i for i in items if i["seq"] == correct.seq))
    assert ["correction", f"inserts an event before seq {at}"] in marks[k]


def hidden_ids(match: Any, viewer: str, pattern: str) -> set[str]:
    """Card ids the judge's boards show at some moment that ``viewer``'s boards never show."""
    game = match.game
    seen_by_judge, seen_by_viewer = set(), set()
    for st in match.fold.history.values():
        for z in game.board(st, None).zones:
            seen_by_judge.update(c.id for c in z.cards if c.id)
        for z in game.board(st, viewer).zones:
            seen_by_viewer.update(c.id for c in z.cards if c.id)
    return {i for i in seen_by_judge - seen_by_viewer if re.fullmatch(pattern, i)}


@pytest.mark.parametrize("viewer", ["alice", "bob"])
def test_a_players_page_holds_no_card_id_they_never_saw(bacdef, viewer):
    service, match = bacdef
    hidden = hidden_ids(match, viewer, r"(alice|bob)-\d")
    assert hidden, "the example keeps some face-down card unseen"
    html = render_page(match, service.store.rejections("b"), viewer)
    found = {i for i in hidden if re.search(re.escape(i) + r"(?!\d)", html)}
    assert found == set()
    data = json.loads(parsed(html).data["adj-data"])
    assert data["viewers"] == [viewer] and list(data["per"]) == [viewer]
    judge_html = render_page(match, service.store.rejections("b"))
    assert all(i in judge_html for i in hidden)


def test_demonbrave_player_page_holds_no_hand_card_of_the_opponent(demonbrave):
    """The table and the log hold none of alice's unseen cards (what changed is worked out in the
    page from the boards: tests/test_page_changes.py). (Event fields are the game's
    ``redact``: this example's judge_adjust names two of her cards in public fields.)"""
    service, match = demonbrave
    hidden = hidden_ids(match, "bob", r"[SHDC](10|[2-9AJQK])|JK\d?")
    assert hidden == {"DJ", "H9"}
    html = render_page(match, service.store.rejections("d"), "bob")
    data = json.loads(parsed(html).data["adj-data"])
    shown = set(strings([data["zones"], data["boards"], data["counters"], data["notes"], data["note_lists"]]))
    draws = [t for t in data["per"]["bob"]["t"] if t.startswith("alice draw")]
    assert draws and all('cards="(hidden)"' in t for t in draws)
    assert not any(re.search(r"(?<![A-Z0-9])" + re.escape(i) + r"(?![0-9])", s) for i in hidden for s in shown)


def test_cli_replay_html_writes_the_page(tmp_path):
    store = str(tmp_path / "s.sqlite3")
    runner = CliRunner()
    assert runner.invoke(main, ["--store", store, "import", "fixtures/bacdef/golden/ex-13b-undo.jsonl", "--id", "m"]).exit_code == 0
    out = tmp_path / "m.html"
    result = runner.invoke(main, ["--store", store, "replay", "m", "--html", str(out), "--as", "alice", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["html"] == str(out) and report["as"] == "alice" and report["bytes"] == len(out.read_bytes())
    assert json.loads(parsed(out.read_text(encoding="utf-8")).data["adj-data"])["viewer"] == "alice"
    result = runner.invoke(main, ["--store", store, "replay", "m", "--html", "-"])  # the page on stdout, alone
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>") and result.stdout.rstrip().endswith("</html>")
    result = runner.invoke(main, ["--store", store, "replay", "m", "--html", str(out), "--as", "carol", "--json"])
    assert result.exit_code == 0, result.output  # a spectator: what anyone at the table may see
    data = json.loads(parsed(out.read_text(encoding="utf-8")).data["adj-data"])
    assert data["viewers"] == ["carol"]
    assert not [c for z in data["zones"] for c in z["cards"] if c.get("down") and "id" in c]  # no face-down card known
    assert not [z for z in data["zones"] if z["name"] == "hand" and z["cards"]]  # and no hand


@given(st.text(min_size=1, max_size=40).filter(str.strip))
def test_any_note_text_reaches_the_page_as_text_property(text):
    """Whatever a judge types: the page keeps its two script elements and carries the text exactly."""
    service = MatchService(MemoryStore())
    service.new("nim", ["alice", "bob"], options={"pile": 5}, match_id="n")
    service.submit("n", "note", "judge", {"at_seq": 1, "text": text})
    html = render_page(service.load("n"), [])
    tags = parsed(html)
    assert [t for t, _ in tags.tags].count("script") == 2
    data = json.loads(tags.data["adj-data"])
    assert data["per"]["judge"]["m"][1] == [["note", f"judge's note at seq 1: {text}"]]


def test_each_item_carries_the_outcome_after_it(bacdef):
    service, match = bacdef
    data = page_data(match, service.store.rejections("b"))
    for item in data["items"]:
        at = item["head"]
        assert data["outcomes"][item["o"]] == outcome_text(match.fold.outcome(at)), item


@pytest.mark.parametrize("path", [BACDEF_FORKS, DEMONBRAVE_CORRECTION])
def test_states_kept_while_folding_are_the_historys_and_give_the_same_page(path):
    """``adj replay --html`` keeps every state as the match is folded (``fold_stored``'s
    ``states``) instead of computing again those the fold gave up: the same states, the same page,
    with rewinds and corrections."""
    service = MatchService(MemoryStore())
    match = enter(service, path, "m")
    states: dict[int, Any] = {}
    kept = service.load("m", states=states)
    assert sorted(states) == list(range(1, match.head + 1))
    assert all(states[s] == match.fold.history[s] for s in states)
    rejections = service.store.rejections("m")
    assert page_data(kept, rejections, None, states) == page_data(match, rejections)
