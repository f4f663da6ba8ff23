"""What the tests of adj serve's pages share: one headless Chromium per test module with a window
per person at the table (each window its own tab storage, so each holds its own token), bounded
waits on what a page shows, a seeded random player that picks an open action and its choices by
index (so that the same seed plays the same match), and tapping that choice on a seat's page.

In CI (``CI=true``) the browser tests run and never skip (``.ci/run`` installs Debian's
``chromium`` and ``chromium-driver``); elsewhere they skip when Chromium or its driver is missing.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from tests.gamekit import start_lines
from tests.test_page_browser import CHROMIUM, DRIVER, FLAGS, IN_CI, _missing
from tests.test_server_support import J, bearer

#: Seconds any one wait on a page may take before the test fails.
WAIT = 20.0


@contextmanager
def chromium(width: int = 1400, height: int = 900) -> Iterator[Any]:
    problem = _missing()
    if problem:
        if IN_CI:
            pytest.fail(f"CI must run the browser tests: {problem}")
        pytest.skip(problem)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="adj-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*[f for f in FLAGS if not f.startswith("--window-size")], f"--window-size={width},{height}",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(options=options, service=Service(DRIVER))
    d.set_script_timeout(WAIT)
    d.set_page_load_timeout(WAIT * 2)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Window:
    """One browser window of the shared driver (its own tab storage: its own token)."""

    def __init__(self, driver: Any, url: str, first: bool = False):
        self.driver = driver
        if not first:
            driver.switch_to.new_window("window")
        self.handle = driver.current_window_handle
        driver.get(url)
        self.until("document.body.dataset.ready === '1'", what=f"{url.split('#')[0]} to be drawn")

    def go(self) -> Any:
        from selenium.common.exceptions import NoSuchWindowException

        try:
            here = self.driver.current_window_handle
        except NoSuchWindowException:  # the window in front was closed
            here = None
        if here != self.handle:
            self.driver.switch_to.window(self.handle)
        return self.driver

    def close(self) -> None:
        self.go().close()

    def leave(self) -> None:
        """Go to a blank page: the page's streams end (before its server stops, say)."""
        self.go().get("about:blank")

    def js(self, script: str, *args: Any) -> Any:
        return self.go().execute_script(script, *args)

    def until(self, condition: str, *args: Any, seconds: float = WAIT, what: str = "") -> Any:
        """Poll the JavaScript expression ``condition`` until it is truthy (its value returned)."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.js(f"return ({condition});", *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds:.0f} s for {what or condition}")
            time.sleep(0.03)

    def seq(self) -> int:
        return int(self.js("return Number(document.body.dataset.seq || 0)"))

    def at_seq(self, seq: int) -> None:
        self.until("Number(document.body.dataset.seq) >= arguments[0]", seq, what=f"the page at seq {seq}")

    def received(self) -> list[str]:
        """Every text the page was handed (answers and stream messages), and the page itself."""
        return [*self.js("return window.adjLive.received"), self.go().page_source]

    def errors(self, *expected: int) -> list[dict]:
        """The console's errors since the last look, but a request answered with one of the
        ``expected`` statuses (a refusal the test made on purpose)."""
        return [e for e in self.go().get_log("browser") if e["level"] == "SEVERE"
                and not (e.get("source") == "network" and any(f"status of {s} " in e["message"] for s in expected))]


# -- matches through the API ----------------------------------------------------------------------------
def create(client: httpx.Client, game: str, match_id: str, options: dict | None = None,
           players: list[str] | None = None, opening: bool = True, lines: list[dict] | None = None) -> dict[str, Any]:
    """A match of ``game`` from its conformance opening, or ``lines`` (``options`` on top of the
    opening's), the opening's lines entered each with its own credential. ``{"seats": {player:
    seat}, "creds": {player or "judge": headers}, "players"}``."""
    if lines is None:
        lines = start_lines(game) if opening else [{"type": "match_started", "by": "judge", "game": game,
                                                    "players": players or ["alice", "bob"], "options": {}}]
    first = lines[0]
    setup = {k: v for k, v in first.items() if k not in ("type", "by", "game", "players", "options")}
    r = client.post("/matches", json={"game": game, "players": players or list(first["players"]), "id": match_id,
                                      "options": {**first.get("options", {}), **(options or {})}, "setup": setup},
                    headers=J)
    assert r.status_code == 201, r.text
    seats = r.json()["seats"]
    creds = {p: bearer(s["token"]) for p, s in seats.items()}
    creds["judge"] = J
    for line in lines[1:]:
        who = line["by"]
        body = {k: v for k, v in line.items() if k != "by"}
        if who not in seats:
            body["by"] = who
        e = client.post(f"/matches/{match_id}/events", json=body, headers=creds.get(who, J))
        assert e.status_code == 201, e.text
    return {"seats": seats, "creds": creds, "players": list(seats)}


def pick(rng: random.Random, fields: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """Values for an open action's fields, as indices into its choices: ``{field: (kind, i)}``
    (``one``: an index; ``some``: sorted indices; ``int``: the number; ``text``: the text). An
    optional field is left out now and then."""
    out: dict[str, tuple[str, Any]] = {}
    for name, c in fields.items():
        if c["optional"] and rng.random() < 0.3:
            continue
        values = c["values"]
        if c["kind"] == "one":
            out[name] = ("one", rng.randrange(len(values)))
        elif c["kind"] == "some":
            high = len(values) if c["max"] is None else min(c["max"], len(values))
            out[name] = ("some", sorted(rng.sample(range(len(values)), rng.randint(min(c["min"], high), high))))
        elif c["kind"] == "int":
            out[name] = ("int", rng.randint(c["min"], c["max"] if c["max"] is not None else c["min"] + 3))
        else:
            out[name] = ("text", "judged at the table")
    return out


def values(fields: dict[str, Any], picked: dict[str, tuple[str, Any]]) -> dict[str, Any]:
    out = {}
    for name, (kind, v) in picked.items():
        c = fields[name]
        out[name] = c["values"][v] if kind == "one" else [c["values"][i] for i in v] if kind == "some" else v
    return out


def choose(rng: random.Random, actions: list[dict]) -> dict | None:
    """One of the actions the table waits for (never one open at any moment: a concession, a
    rewind), or None when there is none."""
    table = [a for a in actions if not a["anytime"]]
    return rng.choice(table) if table else None


def tap(win: Window, k: int, action: dict, picked: dict[str, tuple[str, Any]]) -> dict:
    """Enter the ``k``-th open action of a seat's page with ``picked`` by tapping, and confirm.
    Returns what the form says after (``{"kind", "text", "rule"}``)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    d = win.go()
    n = int(win.js("return Number(document.getElementById('answer').dataset.n || 0)"))
    form = d.find_element(By.CSS_SELECTOR, f'#forms form.action[data-i="{k}"]')
    assert form.get_attribute("data-type") == action["type"]
    for name, (kind, v) in picked.items():
        c = action["fields"][name]
        box = form.find_element(By.CSS_SELECTOR, f'fieldset[data-field="{name}"]')
        if kind == "one":
            if len(c["values"]) == 1 and not c["optional"]:
                continue  # the only value, already chosen
            lists = box.find_elements(By.CSS_SELECTOR, "select")
            if lists:
                Select(lists[0]).select_by_value(str(v))
            else:
                box.find_element(By.CSS_SELECTOR, f'button.opt[data-i="{v}"]').click()
        elif kind == "some":
            for i in v:
                box.find_element(By.CSS_SELECTOR, f'button.opt[data-i="{i}"]').click()
        else:
            field = box.find_element(By.CSS_SELECTOR, "input")
            field.clear()
            field.send_keys(str(v))
    if not form.find_element(By.CSS_SELECTOR, ".confirm").is_displayed():
        form.find_element(By.CSS_SELECTOR, "button.enter").click()
    form.find_element(By.CSS_SELECTOR, "button.confirm-yes").click()
    return win.until(
        "(() => { const r = document.getElementById('answer');"
        " return Number(r.dataset.n || 0) > arguments[0] ? {kind: r.className.split(' ')[1], text: r.textContent,"
        " rule: r.dataset.rule || null, seq: r.dataset.seq ? Number(r.dataset.seq) : null} : null; })()", n,
        what=f"the answer to {action['type']}")


def leaves(value: Any) -> set[str]:
    """The strings among the values of a JSON-like value (not its keys)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(leaves, value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*map(leaves, value)) if value else set()
    return set()


def secret_ids(match: Any, viewer: str, seen_strings: set[str]) -> set[str]:
    """What ``viewer`` may not know of ``match``: the card ids the judge's boards show at some
    moment, and the values of the events' private fields the game hides from ``viewer``; less
    whatever ``viewer``'s own boards show (ids and labels) and ``seen_strings`` (every string of
    the history as the viewer is given it), and the players' names."""
    game = match.game
    by_judge, by_viewer = set(), set()
    for st in match.fold.history.values():
        for z in game.board(st, None).zones:
            by_judge.update(c.id for c in z.cards if c.id)
        for z in game.board(st, viewer).zones:
            by_viewer.update(c.id for c in z.cards if c.id)
            by_viewer.update(c.label for c in z.cards if c.label)
    for ev in match.events:
        for name in game.private_fields.get(ev.type, ()):
            if name in ev.fields:
                shown = game.redact(ev.type, ev.by, ev.fields, viewer, match.players)
                if shown.get(name) != ev.fields[name]:
                    by_judge |= leaves(ev.fields[name])
    return {i for i in by_judge - by_viewer - seen_strings - set(match.players) if len(i) >= 2}


def found_in(text: str, ids: set[str]) -> set[str]:
    """The ids of ``ids`` that stand in ``text`` as a whole word (not inside a longer id)."""
    edge = r"[A-Za-z0-9_\-]"
    return {i for i in ids if re.search(rf"(?<!{edge}){re.escape(i)}(?!{edge})", text)}


def jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def handed_events(texts: list[str]) -> list[dict[str, Any]]:
    """Every event object (``seq``, ``type``, ``by``, ``fields``) within the JSON texts a page
    was handed."""
    out: list[dict[str, Any]] = []
    stack: list[Any] = []
    for t in texts:
        try:
            stack.append(json.loads(t))
        except ValueError:
            continue
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if {"seq", "type", "by", "fields"} <= v.keys() and isinstance(v["seq"], int):
                out.append(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out
