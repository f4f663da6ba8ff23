"""Whole matches played in the browser: two windows, one per seat, each opened from its seat's
link, tap the actions a seeded random player picks among those the table waits for (the judge's
own steps go through the API with the judge's token), while a third window, the judges' floor,
follows every table. After each tap the other seat's page shows the new event. At the end the
pages show the result, the state is the one ``adj state`` folds from the store, and ``adj verify``
passes.

One test, parametrized by game: adding a game is adding a line to ``MATCHES`` (its options keep the
match short; its seed was picked for a match of a few dozen steps with those options)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any, NamedTuple

import httpx
import msgspec
import pytest

from adjudicator.engine.words import outcome_text
from adjudicator.presentation.table import board_json
from adjudicator.service import MatchService, open_store
from tests.test_serve_pages_support import Window, choose, chromium, create, pick, tap, values
from tests.test_server_support import J, LAUNCH, ROOT, live_server


class Short(NamedTuple):
    options: dict[str, Any]
    seed: int
    steps: int  # at most: the match must be over by then


MATCHES = {
    "demonbrave": Short({"starting_life": 1, "opening_hand": 3, "refill_target": 3, "rule_cards_per_player": 0}, 16, 40),
    "e2drive": Short({"turn_limit": 1}, 13, 60),
    "bacdef": Short({}, 41, 100),
    "builddivide": Short({}, 76, 80),
    "pbwcg": Short({"base_endurance": 1}, 52, 80),
}


@pytest.fixture(scope="module")
def driver():
    with chromium() as d:
        yield d


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    store = str(tmp_path_factory.mktemp("serve-pages") / "store.sqlite3")
    with live_server(store) as url, httpx.Client(base_url=url, timeout=30) as client:
        yield url, client, store


def adj(store: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LAUNCH, *args, "--store", store], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("game", list(MATCHES))
def test_a_whole_match_tapped_in_two_seats_pages(game, driver, served):
    url, client, store = served
    short = MATCHES[game]
    match_id = f"{game}-tapped"
    m = create(client, game, match_id, short.options)
    players = m["players"]
    driver.switch_to.window(driver.window_handles[0])
    pages = {players[0]: Window(driver, m["seats"][players[0]]["url"], first=True)}
    pages[players[1]] = Window(driver, m["seats"][players[1]]["url"])
    floor = Window(driver, f"{url}/floor#token={J['Authorization'].split()[1]}")
    floor.until("document.querySelector('.tcard[data-match=\"' + arguments[0] + '\"]')", match_id)
    for p, win in pages.items():  # the token left the address bar as soon as the page read it
        assert "#token" not in win.js("return location.href") and win.js("return document.body.dataset.viewer") == p

    rng = random.Random(f"{game}-{short.seed}")
    tapped = by_api = 0
    for _ in range(short.steps):
        legal = client.get(f"/matches/{match_id}/legal", headers=J).json()
        if legal["outcome"]["status"] != "in_progress":
            break
        action = choose(rng, legal["actions"])
        assert action is not None, f"{game}: the table waits for nobody"
        picked = pick(rng, action["fields"])
        head = client.get(f"/matches/{match_id}/state", headers=J).json()["head_seq"]
        who = action["who"]
        if who in pages:
            win = pages[who]
            win.at_seq(head)  # the page shows the table the action was picked on
            k = [a for a in legal["actions"] if a["who"] == who].index(action)
            answer = tap(win, k, action, picked)
            assert answer["kind"] == "ok", f"{game}: {who}'s {action['type']} was not entered: {answer}"
            seq = answer["seq"]
            other = pages[players[1] if who == players[0] else players[0]]
            other.at_seq(seq)  # the other seat's page shows the change
            tapped += 1
        else:  # a judge's step (first player, opening hands...): through the API
            r = client.post(f"/matches/{match_id}/events", headers=J,
                            json={"type": action["type"], "by": who, **values(action["fields"], picked)})
            assert r.status_code == 201, r.text
            by_api += 1
    final = client.get(f"/matches/{match_id}/state", headers=J).json()
    assert final["outcome"]["status"] != "in_progress", f"{game}: not over after {short.steps} steps"
    assert tapped >= 5, f"{game}: only {tapped} taps"

    # every page shows the end, and the state is what adj folds from the store
    head = final["head_seq"]
    cli = adj(store, "state", match_id, "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["state"] == final["state"] and json.loads(cli.stdout)["outcome"] == final["outcome"]
    verify = adj(store, "verify", match_id)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    with open_store(store, write=False) as s:
        match = MatchService(s).load(match_id)
    said = outcome_text(match.outcome())
    for p, win in pages.items():
        win.at_seq(head)
        shown = win.js("return {board: adjTable.now.board, bar: document.getElementById('turnbar').textContent,"
                       " forms: document.querySelectorAll('#forms form.action').length}")
        assert shown["board"] == msgspec.json.decode(msgspec.json.encode(board_json(match.game.board(match.state, p))))
        assert shown["bar"] == f"Finished: {said}"
        # what is still open is what the game offers after the end (PBWCG: each player confirms the result)
        assert shown["forms"] == len(client.get(f"/matches/{match_id}/legal", headers=m["creds"][p]).json()["actions"])
        cli_as = adj(store, "state", match_id, "--json", "--as", p)
        seat_state = client.get(f"/matches/{match_id}/state", headers=m["creds"][p]).json()
        assert json.loads(cli_as.stdout)["state"] == seat_state["state"]
        assert win.errors() == []
    # the floor, loaded before the first tap, followed the table to its end
    card = floor.until("(() => { const c = document.querySelector('.tcard[data-match=\"' + arguments[0] + '\"]');"
                       " return c && c.classList.contains('finished') && c.textContent.includes('event ' + arguments[1])"
                       " ? c.textContent : null; })()", match_id, head, what="the floor's card at the end")
    assert said in card
    assert int(floor.js("return Number(document.body.dataset.updates || 0)")) >= 1
    assert floor.errors() == []
    for win in (pages[players[1]], floor):  # the first window stays, for the next game
        win.close()
    driver.switch_to.window(pages[players[0]].handle)
