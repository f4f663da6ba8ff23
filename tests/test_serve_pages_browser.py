"""adj serve's pages in a real headless browser (one Chromium for the module, a window per person):
a seat's page holds no card its player may not see, for every game; a refused tap shows its rule
beside the form and on the floor; a seat cannot act for the other seat even by editing its page's
requests; names are text, never markup; a spectator's page is read-only and live; the judge's page
enters the judge's calls and issues seats' links with QR codes; the floor stays usable with 200
tables; and the screenshots of docs/serve.md, at a phone's width and a laptop's."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import httpx
import pytest

from adjudicator.presentation.render import history, redacted
from adjudicator.service import MatchService, open_store
from tests.gamekit import real_games, start_lines, strings
from tests.test_page_browser import png_size
from tests.test_serve_pages_support import (
    Window,
    choose,
    chromium,
    create,
    found_in,
    handed_events,
    jsonable,
    pick,
    secret_ids,
    tap,
    values,
)
from tests.test_server_support import J, bearer, live_server

DOCS = Path(__file__).resolve().parents[1] / "docs"
JUDGE_FRAGMENT = "#token=" + J["Authorization"].split()[1]
#: names that are markup: they must read as text (no "/": a seat's routes take its name in the path)
ANN, BOB = "<img src=x onerror=alert(1)>ann", "bob & <i>co"


def _bob_draws_in_private() -> list[dict]:
    """Build Divide's opening, with the five cards bob drew for his opening hand recorded (a
    private field: his and the judges' only)."""
    lines = start_lines("builddivide")
    for line in lines:
        if line["type"] == "draw_opening" and line["player"] == "bob":
            line["private"] = {"cards": ["BST", "BST2", "PLN", "U1k", "U7k"]}
    return lines


#: Games whose cards are known by name only, both decks of these openings holding the same names: an
#: opponent's card has no id of its own to look for, and what hides it is the private fields (a deck
#: list, a draw), checked event by event.
BY_NAME = {"builddivide", "demonbrave", "e2drive"}
#: Openings other than the conformance one, where that one records nothing hidden.
OPENINGS = {"builddivide": _bob_draws_in_private()}


@pytest.fixture(scope="module")
def driver():
    with chromium() as d:
        yield d


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    store = str(tmp_path_factory.mktemp("serve-pages") / "store.sqlite3")
    with live_server(store) as url, httpx.Client(base_url=url, timeout=30) as client:
        yield url, client, store


def play(client: httpx.Client, match_id: str, rng: random.Random, steps: int) -> int:
    """``steps`` random entries through the API (each by whoever it is for, the judge's token
    standing in); the head after."""
    head = 0
    for _ in range(steps):
        legal = client.get(f"/matches/{match_id}/legal", headers=J).json()
        action = choose(rng, legal["actions"]) if legal["outcome"]["status"] == "in_progress" else None
        if action is None:
            break
        r = client.post(f"/matches/{match_id}/events", headers=J,
                        json={"type": action["type"], "by": action["who"], **values(action["fields"], pick(rng, action["fields"]))})
        assert r.status_code == 201, r.text
        head = r.json()["seq"]
    return head


def only(driver, window: Window) -> None:
    """Close every window but ``window``."""
    for h in list(driver.window_handles):
        if h != window.handle:
            driver.switch_to.window(h)
            driver.close()
    window.go()


# -- what a seat's page is handed ------------------------------------------------------------------------
@pytest.mark.parametrize("game", real_games())
def test_a_seat_page_is_never_handed_a_card_its_player_may_not_see(game, driver, served):
    """One seat's page open while the match is played through the API: neither the page nor any
    answer or stream message it was handed holds an id of a card that player never saw."""
    url, client, store = served
    match_id = f"secret-{game}"
    m = create(client, game, match_id, lines=OPENINGS.get(game))
    me = m["players"][0]
    driver.switch_to.window(driver.window_handles[0])
    win = Window(driver, m["seats"][me]["url"], first=True)
    head = play(client, match_id, random.Random(f"{game}-secret"), 30)
    win.at_seq(head)
    got = win.received()
    with open_store(store, write=False) as s:
        service = MatchService(s)
        match = service.load(match_id)
        rows = redacted(history(match.events, match.fold.branches, s.rejections(match_id)), match.game, match.players, me,
                        match.state)
    told = strings([r.fields for r in rows])  # what the game lets this player read in the history
    secret = secret_ids(match, me, told)
    if game not in BY_NAME:
        assert secret, f"{game}: the match kept no card from {me}"
    assert found_in("\n".join(got), secret) == set()
    # every event the page was handed (answers, stream messages) is as the game shows it to this seat
    stored = {ev.seq: ev for ev in match.events}
    handed = handed_events(got)
    assert handed, f"{game}: the page was handed no event"
    hidden = 0
    for obj in handed:
        ev = stored[obj["seq"]]
        shown = jsonable(match.game.redact(ev.type, ev.by, ev.fields, me, match.players))
        assert obj["fields"] == shown, f"{game}: seq {ev.seq} ({ev.type}) was handed as {obj['fields']}"
        hidden += shown != jsonable(ev.fields)
    assert hidden, f"{game}: no event with a field hidden from {me} reached the page"
    assert win.errors() == []


# -- a seat's page, a spectator's, the floor: refusals, forbidden requests, names -------------------------
def test_a_refused_tap_shows_its_rule_and_the_floor_the_dispute(driver, served):
    url, client, _ = served
    m = create(client, "nim", "n-refused", players=[ANN, BOB], opening=False)
    driver.switch_to.window(driver.window_handles[0])
    ann = Window(driver, m["seats"][ANN]["url"], first=True)
    floor = Window(driver, f"{url}/floor{JUDGE_FRAGMENT}")
    try:
        ann.go()
        # the names are text: nothing of them became markup
        assert ann.js("return document.getElementById('players').textContent") == f"{ANN} v {BOB}"
        assert ann.js("return document.querySelectorAll('img, i').length") == 0
        assert ann.js("return document.getElementById('turnbar').textContent").startswith("Your move")
        # 4 stones: the page hints 1-3, the rules refuse
        action = client.get("/matches/n-refused/legal", headers=m["creds"][ANN]).json()["actions"][0]
        answer = tap(ann, 0, action, {"count": ("int", 4)})
        assert answer["kind"] == "refused" and answer["rule"] == "NIM-TAKE-1"
        assert "may take 1 to 3 stones, not 4" in answer["text"]
        beside = ann.js("const r = document.querySelector('#forms form.action[data-i=\"0\"] .result');"
                        "return [r.dataset.rule, r.textContent]")
        assert beside[0] == "NIM-TAKE-1" and "not 4" in beside[1]
        # the floor, open all along, shows the dispute on that table's card
        card = floor.until("(() => { const c = document.querySelector('.tcard[data-match=\"n-refused\"]');"
                           " return c && c.classList.contains('disputed') ? c.textContent : null; })()",
                           what="the dispute on the floor")
        assert "NIM-TAKE-1" in card and ANN in card
        floor.js("document.querySelector('.filter[data-filter=\"disputed\"]').click()")
        assert floor.js("return [...document.querySelectorAll('.tcard:not(.hide)')].map((c) => c.dataset.match)") == ["n-refused"]
        # the refusal stays beside the form until the table moves; then a good tap is entered
        answer = tap(ann, 0, action, {"count": ("int", 2)})
        assert answer["kind"] == "ok" and answer["seq"] == 2
        assert ann.js("return document.getElementById('turnbar').textContent").startswith("Not your move")
        floor.until("!document.querySelector('.tcard[data-match=\"n-refused\"]').classList.contains('disputed')",
                    what="the dispute to end when the table moved on")
        assert ann.errors(422) == [] and floor.errors() == []
    finally:
        only(driver, ann)


def test_a_seat_cannot_act_for_the_other_even_by_editing_its_requests(driver, served):
    url, client, _ = served
    m = create(client, "nim", "n-forbidden", opening=False)
    driver.switch_to.window(driver.window_handles[0])
    alice = Window(driver, m["seats"]["alice"]["url"], first=True)
    before = client.get("/matches/n-forbidden/log", headers=J).json()
    # bob's action, sent by alice's page with alice's token, as an edited request would be
    r = alice.go().execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "adjTable.send({type: 'take', who: 'bob'}, {player: 'bob', count: 1}, 'edited-1').then(done);")
    assert r["status"] == 403 and r["data"]["error"] == "forbidden" and "bob" in r["data"]["message"]
    r = alice.go().execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "adjTable.send({type: 'note', who: 'judge'}, {at_seq: 1, text: 'mine'}, 'edited-2').then(done);")
    assert r["status"] == 403
    after = client.get("/matches/n-forbidden/log", headers=J).json()
    assert after == before  # nothing written, no attempt recorded
    assert alice.js("return document.querySelectorAll('#forms form.action[data-who=\"bob\"]').length") == 0
    assert alice.errors(403) == []


def test_a_spectator_page_is_read_only_and_live(driver, served):
    url, client, _ = served
    m = create(client, "nim", "n-watched", opening=False)
    driver.switch_to.window(driver.window_handles[0])
    watcher = Window(driver, f"{url}/tables/n-watched", first=True)
    assert watcher.js("return document.body.dataset.viewer") == ""
    assert watcher.js("return document.getElementById('actions').hidden") is True
    assert watcher.js("return document.querySelectorAll('form.action').length") == 0
    assert "spectating" in watcher.js("return document.getElementById('who').textContent")
    r = client.post("/matches/n-watched/events", json={"type": "take", "player": "alice", "count": 3},
                    headers=m["creds"]["alice"])
    assert r.status_code == 201
    watcher.at_seq(2)
    assert "alice take" in watcher.js("return document.getElementById('events').textContent")
    assert watcher.js("return document.getElementById('conn').textContent") == "live"
    assert watcher.errors() == []


def test_the_judge_page_enters_calls_and_hands_out_seat_links(driver, served):
    from selenium.webdriver.common.by import By

    url, client, _ = served
    m = create(client, "nim", "n-judged", players=[ANN, BOB], opening=False)
    for who, count in ((ANN, 1), (BOB, 2)):
        assert client.post("/matches/n-judged/events", json={"type": "take", "player": who, "count": count},
                           headers=m["creds"][who]).status_code == 201
    driver.switch_to.window(driver.window_handles[0])
    judge = Window(driver, f"{url}/tables/n-judged/judge{JUDGE_FRAGMENT}", first=True)
    d = judge.go()
    assert judge.js("return document.getElementById('players').textContent") == f"{ANN} v {BOB}"
    assert judge.js("return adjDesk.data.items.length") == 3
    judge.js("adjDesk.jumpTo(2)")
    # a note about the selected event: its seq from the timeline, its text typed
    note = d.find_element(By.CSS_SELECTOR, '#calls form.action[data-type="note"]')
    note.find_element(By.CSS_SELECTOR, 'fieldset[data-field="at_seq"] button.pickseq').click()
    assert note.find_element(By.CSS_SELECTOR, 'fieldset[data-field="at_seq"] input').get_attribute("value") == "2"
    note.find_element(By.CSS_SELECTOR, 'fieldset[data-field="text"] input').send_keys("<script>x</script> asked")
    note.find_element(By.CSS_SELECTOR, "button.enter").click()
    note.find_element(By.CSS_SELECTOR, "button.confirm-yes").click()
    judge.until("adjDesk.data.items.length === 4", what="the note on the desk")
    assert judge.js("return document.querySelector('#log .row.note .t').textContent") == \
        'judge note at_seq=2 text="<script>x</script> asked"'
    assert judge.js("return [...document.scripts].every((s) => s.src.startsWith(location.origin + '/static/'))")
    # a call refused by the rules shows its rule: a note about an event that is not in the log
    note = d.find_element(By.CSS_SELECTOR, '#calls form.action[data-type="note"]')
    note.find_element(By.CSS_SELECTOR, 'fieldset[data-field="at_seq"] input').send_keys("99")
    note.find_element(By.CSS_SELECTOR, 'fieldset[data-field="text"] input').send_keys("too far")
    note.find_element(By.CSS_SELECTOR, "button.enter").click()
    note.find_element(By.CSS_SELECTOR, "button.confirm-yes").click()
    judge.until("document.querySelector('#calls form.action[data-type=\"note\"] .result.refused')", what="a refusal")
    assert judge.js("return document.querySelector('#calls form.action[data-type=\"note\"] .result').dataset.rule") == "ADJ-JDG-2"
    # a new link for a seat: a QR code and the address, the old link revoked
    box = d.find_element(By.CSS_SELECTOR, f'.seat-link[data-player="{ANN}"]')
    box.find_element(By.CSS_SELECTOR, "button.issue").click()
    box.find_element(By.CSS_SELECTOR, "button.issue").click()
    judge.until("document.querySelector('.seat-link img.qr') && document.querySelector('.seat-link img.qr').complete"
                " && document.querySelector('.seat-link img.qr').naturalWidth > 0", what="the QR code")
    link = judge.js("return document.querySelector('.seat-link input.url').value")
    assert link.startswith(f"{url}/tables/n-judged#token=")
    old = client.get("/tables/n-judged/now", headers=m["creds"][ANN])
    assert old.status_code == 401
    assert client.get("/tables/n-judged/now", headers=bearer(link.split("#token=")[1])).json()["viewer"] == ANN
    assert judge.errors(422) == []


# -- the floor with 200 tables ------------------------------------------------------------------------------
def test_the_floor_stays_usable_with_200_tables(driver, tmp_path):
    with live_server(str(tmp_path / "floor.sqlite3"), cache_size=512) as url, httpx.Client(base_url=url, timeout=30) as c:
        seats = {}
        for i in range(200):
            r = c.post("/matches", json={"game": "nim", "players": [f"p{i}a", f"p{i}b"], "id": f"t{i:03d}",
                                         "options": {"pile": 3 if i % 10 == 0 else 30}}, headers=J)
            assert r.status_code == 201, r.text
            seats[i] = {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}
        for i in range(0, 200, 10):  # every tenth table finished
            assert c.post(f"/matches/t{i:03d}/events", json={"type": "take", "player": f"p{i}a", "count": 3},
                          headers=seats[i][f"p{i}a"]).status_code == 201
        driver.switch_to.window(driver.window_handles[0])
        began = time.monotonic()
        floor = Window(driver, f"{url}/floor{JUDGE_FRAGMENT}", first=True)
        opened = time.monotonic() - began
        assert floor.js("return document.querySelectorAll('.tcard').length") == 200
        assert opened < 10, f"the floor of 200 tables took {opened:.1f} s to open"
        floor.js("document.querySelector('.filter[data-filter=\"finished\"]').click()")
        assert floor.js("return document.querySelectorAll('.tcard:not(.hide)').length") == 20
        floor.js("document.querySelector('.filter[data-filter=\"finished\"]').click()")
        floor.js("const f = document.getElementById('find'); f.value = 'p123'; f.dispatchEvent(new Event('input'))")
        assert floor.js("return [...document.querySelectorAll('.tcard:not(.hide)')].map((c) => c.dataset.match)") == ["t123"]
        floor.js("const f = document.getElementById('find'); f.value = ''; f.dispatchEvent(new Event('input'))")
        # a table that moves is redrawn, live, within a moment; the others stay as they were
        began = time.monotonic()
        assert c.post("/matches/t151/events", json={"type": "take", "player": "p151a", "count": 2},
                      headers=seats[151]["p151a"]).status_code == 201
        floor.until("document.querySelector('.tcard[data-match=\"t151\"]').textContent.includes('event 2')",
                    seconds=10, what="t151's move on the floor")
        assert time.monotonic() - began < 5
        # a card is a link to its table's judge page, reached with the keyboard
        href = floor.js("return document.querySelector('.tcard[data-match=\"t151\"]').getAttribute('href')")
        assert href == "/tables/t151/judge"
        assert floor.js("const c = document.querySelector('.tcard[data-match=\"t007\"]'); c.focus();"
                        " return document.activeElement === c")
        assert floor.errors() == []
        floor.leave()


# -- the screenshots of docs/serve.md ---------------------------------------------------------------------
def _phone(driver, on: bool) -> None:
    if on:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_screenshots_at_a_phones_width_and_a_laptops(driver, tmp_path):
    with live_server(str(tmp_path / "shots.sqlite3")) as url, httpx.Client(base_url=url, timeout=30) as c:
        tables = {}
        for k, game in enumerate(["bacdef", "demonbrave", "e2drive", "pbwcg", "builddivide", "bacdef", "demonbrave"]):
            match_id = f"table-{k + 1}"
            tables[match_id] = create(c, game, match_id)
            play(c, match_id, random.Random(f"shots-{k}"), [22, 14, 10, 12, 9, 60, 3][k])
        # a dispute on the floor (bob's knock refused by the rules), and a table finished
        assert c.post("/matches/table-1/events", json={"type": "declare_knock", "player": "bob"},
                      headers=tables["table-1"]["creds"]["bob"]).status_code == 422
        create(c, "demonbrave", "table-8", {"starting_life": 1, "opening_hand": 3, "refill_target": 3,
                                            "rule_cards_per_player": 0})
        play(c, "table-8", random.Random("demonbrave-16"), 40)
        m = tables["table-1"]
        driver.switch_to.window(driver.window_handles[0])
        seat = Window(driver, m["seats"]["alice"]["url"], first=True)
        seat.js("window.scrollTo(0, 0)")
        shots = {}
        _phone(driver, True)
        try:
            seat.until("document.body.dataset.ready === '1'")
            time.sleep(0.3)
            assert seat.js("return window.innerWidth") == 390
            assert seat.js("return document.documentElement.scrollWidth") <= 390, "the seat's page scrolls sideways on a phone"
            shots["serve-seat-phone.png"] = seat.go().get_screenshot_as_png()
        finally:
            _phone(driver, False)
        seat.js("window.scrollTo(0, 0)")
        time.sleep(0.3)
        shots["serve-seat-laptop.png"] = seat.go().get_screenshot_as_png()
        judge = Window(driver, f"{url}/tables/table-1/judge{JUDGE_FRAGMENT}")
        time.sleep(0.3)
        shots["serve-judge.png"] = judge.go().get_screenshot_as_png()
        floor = Window(driver, f"{url}/floor{JUDGE_FRAGMENT}")
        time.sleep(1.2)  # the timers tick
        shots["serve-floor.png"] = floor.go().get_screenshot_as_png()
        for w in (seat, judge, floor):
            assert w.errors() == []
        only(driver, seat)
        seat.leave()
    # docs/serve.md's pictures are drawn again only when asked (ADJ_DOC_SHOTS=1): a test run leaves
    # the tree as it found it
    out = DOCS if os.environ.get("ADJ_DOC_SHOTS") == "1" else tmp_path
    for name, png in shots.items():
        (out / name).write_bytes(png)
        w, h = png_size(str(out / name))
        assert (w, h) == ((780, 1688) if "phone" in name else (1400, h))


@pytest.mark.parametrize("page", ["/floor", "/tables/n-login/judge"])
def test_a_judges_page_without_a_token_asks_for_one_and_takes_it(page, driver, served):
    """Opened without a token, a judge's page shows its token form; a wrong token is refused with
    the server's reason on the problem line and the form again; the judge's token opens the page."""
    url, client, _ = served
    if page.startswith("/tables/") and client.get("/matches/n-login/state", headers=J).status_code == 404:
        create(client, "nim", "n-login", opening=False)
    driver.switch_to.new_window("window")  # a tab of its own: no token kept from another page
    win = Window.__new__(Window)
    win.driver, win.handle = driver, driver.current_window_handle
    driver.get(url + page)
    win.until("!document.getElementById('login').hidden", what="the token form")
    assert win.js("return document.activeElement.id") == "login-token"

    def enter(token: str) -> None:
        win.js("document.getElementById('login-token').value = arguments[0];"
               "document.getElementById('login').requestSubmit()", token)

    enter("not-a-token")
    win.until("!document.getElementById('problem').hidden && !document.getElementById('login').hidden",
              what="the refusal and the form again")
    assert win.js("return document.getElementById('problem').textContent").startswith("A judge's token is needed: ")
    enter(J["Authorization"].split()[1])
    win.until("document.body.dataset.ready === '1' && document.getElementById('login').hidden", what="the page open")
    assert win.js("return document.getElementById('problem').hidden") is True
    assert win.errors(401, 403) == []
    win.close()
    driver.switch_to.window(driver.window_handles[0])
