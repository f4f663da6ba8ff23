"""A tap on a seat's page to the other seat's page showing it, with 64 live tables (figures as
ratios: this machine is noisy).

One pair of real pages (Chromium, a window per seat, opened from the seats' links) plays BACDEF by
tapping the actions a seeded random player picks, as tests/test_serve_pages_match.py does (its
helpers are used here). From the tap on Confirm to the other seat's page drawing the new event:
both times are taken in the browser, on one clock. Measured twice in the same run: with that
table alone on the server, then with 63 more tables played through the API at once (a DemonBrave
entry every 5 s each, about what a physical table enters; ``--rate`` changes it), from one client
a table, each of their two seats following its match's
stream and asking for the table again on every message, as a seat's page does, and the floor's
stream open. Beside it: an entry's HTTP round trip in the same run.

    .venv/bin/python bench/pages.py [--taps N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

import httpx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import gen  # noqa: E402
from bench.run import LONG  # noqa: E402
from bench.serve import Server, pct, pick, row  # noqa: E402
from tests.test_serve_pages_support import Window, choose, chromium, tap, values  # noqa: E402
from tests.test_serve_pages_support import pick as pick_indices  # noqa: E402

#: Kept in each page: when the page drew each seq, and when Confirm was tapped (Date.now(), ms).
WATCH = """
window.benchShown = window.benchShown || {};
if (!window.benchObserver) {
  window.benchObserver = new MutationObserver(() => {
    const s = document.body.dataset.seq;
    if (s && !(s in window.benchShown)) window.benchShown[s] = Date.now();
  });
  window.benchObserver.observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
  document.addEventListener("click", (e) => {
    if (e.target.classList && e.target.classList.contains("confirm-yes")) window.benchTapped = Date.now();
  }, true);
}
"""


def seat_table(srv: Server, client: httpx.Client, match_id: str) -> dict[str, Any]:
    opening = gen.start_lines("bacdef")
    first = opening[0]
    setup = {k: v for k, v in first.items() if k not in ("type", "by", "game", "players", "options")}
    r = client.post("/matches", headers=srv.judge, json={"game": "bacdef", "players": first["players"], "id": match_id,
                                                         "options": first.get("options", {}), "setup": setup})
    r.raise_for_status()
    seats = r.json()["seats"]
    for line in opening[1:]:
        body = {k: v for k, v in line.items() if k != "by"}
        creds = {"Authorization": f"Bearer {seats[line['by']]['token']}"} if line["by"] in seats else srv.judge
        if line["by"] not in seats:
            body["by"] = line["by"]
        client.post(f"/matches/{match_id}/events", headers=creds, json=body).raise_for_status()
    return seats


def taps(driver: Any, srv: Server, client: httpx.Client, n: int, tag: str) -> list[float]:
    """``n`` taps on a pair of seats' pages (new BACDEF matches as each ends): for each, ms from
    Confirm to the other page drawing the event."""
    out: list[float] = []
    k = 0
    while len(out) < n:
        match_id = f"{tag}-{k}"
        seats = seat_table(srv, client, match_id)
        players = list(seats)
        driver.switch_to.window(driver.window_handles[0])
        pages = {players[0]: Window(driver, seats[players[0]]["url"], first=True),
                 players[1]: Window(driver, seats[players[1]]["url"])}
        for w in pages.values():
            w.js(WATCH)
        rng = random.Random(f"bench-{tag}-{k}")
        for _ in range(400):
            legal = client.get(f"/matches/{match_id}/legal", headers=srv.judge).json()
            action = choose(rng, legal["actions"]) if legal["outcome"]["status"] == "in_progress" else None
            if action is None or len(out) >= n:
                break
            picked = pick_indices(rng, action["fields"])
            who = action["who"]
            if who not in pages:
                client.post(f"/matches/{match_id}/events", headers=srv.judge,
                            json={"type": action["type"], "by": who, **values(action["fields"], picked)}).raise_for_status()
                continue
            head = client.get(f"/matches/{match_id}/state", headers=srv.judge).json()["head_seq"]
            win, other = pages[who], pages[players[1] if who == players[0] else players[0]]
            win.at_seq(head)
            i = [a for a in legal["actions"] if a["who"] == who].index(action)
            answer = tap(win, i, action, picked)
            if answer["kind"] != "ok":
                raise RuntimeError(f"a tap was not entered: {answer}")
            tapped = win.js("return window.benchTapped")
            other.at_seq(answer["seq"])
            shown = other.js("return window.benchShown[arguments[0]]", str(answer["seq"]))
            out.append(float(shown - tapped))
        pages[players[1]].close()
        pages[players[0]].go()
        k += 1
    return out


class Tables:
    """``count`` DemonBrave tables played through the API at ``rate`` entries a second each, every
    seat following its stream and asking for its table on each message, and the floor's stream."""

    def __init__(self, srv: Server, count: int, rate: float):
        self.srv, self.count, self.rate = srv, count, rate
        self.stop = threading.Event()
        self.trips: list[float] = []
        self.fetches = 0
        self.reconnects = 0
        self.failures: list[str] = []
        self.threads: list[threading.Thread] = []
        opening = gen.start_lines("demonbrave")[0]
        setup = {k: v for k, v in opening.items() if k not in ("type", "by", "game", "players", "options")}
        self.seats: dict[str, dict[str, dict[str, str]]] = {}
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            for i in range(count):
                r = c.post("/matches", headers=srv.judge, json={"game": "demonbrave", "players": opening["players"],
                                                                "id": f"sim{i}", "setup": setup,
                                                                "options": {**opening.get("options", {}), **LONG["demonbrave"]}})
                r.raise_for_status()
                self.seats[f"sim{i}"] = {p: {"Authorization": f"Bearer {s['token']}"} for p, s in r.json()["seats"].items()}

    def start(self) -> None:
        for match_id in self.seats:
            self.threads.append(threading.Thread(target=self._play, args=(match_id,), daemon=True))
            for who in self.seats[match_id]:
                self.threads.append(threading.Thread(target=self._follow, args=(match_id, who), daemon=True))
        self.threads.append(threading.Thread(target=self._follow, args=(None, None), daemon=True))
        for t in self.threads:
            t.start()

    def _play(self, match_id: str) -> None:
        rng = random.Random(match_id)
        with httpx.Client(base_url=self.srv.url, timeout=60) as c:
            while not self.stop.wait(rng.uniform(0.5, 1.5) / self.rate):
                try:
                    offered = [a for a in c.get(f"/matches/{match_id}/legal", headers=self.srv.judge).json()["actions"]
                               if not a["anytime"] and a["type"] not in ("rewind", "correct")]
                    if not offered:
                        return
                    a = rng.choice(offered)
                    creds = self.seats[match_id].get(a["who"], self.srv.judge)
                    body = {"type": a["type"], **pick(rng, a["fields"])}
                    if a["who"] not in self.seats[match_id]:
                        body["by"] = a["who"]
                    t = time.perf_counter()
                    r = c.post(f"/matches/{match_id}/events", json=body, headers=creds)
                    self.trips.append((time.perf_counter() - t) * 1000)
                    if r.status_code not in (201, 422):
                        self.failures.append(f"{match_id}: {r.status_code} {r.text[:120]}")
                except httpx.HTTPError as exc:
                    if not self.stop.is_set():
                        self.failures.append(f"{match_id}: {exc!r}")

    def _follow(self, match_id: str | None, who: str | None) -> None:
        """As a page follows: the stream, and the table asked for again on each message; a dropped
        connection is opened again (a keep-alive connection closed by the server as it was reused
        is a retry, as a browser makes it), and counted."""
        creds = self.seats[match_id][who] if match_id else self.srv.judge
        path = f"/matches/{match_id}/stream" if match_id else "/floor/stream"
        with httpx.Client(base_url=self.srv.url, timeout=httpx.Timeout(60, read=30)) as c:
            while not self.stop.is_set():
                try:
                    with c.stream("GET", path, headers=creds) as r:
                        for line in r.iter_lines():
                            if self.stop.is_set():
                                return
                            if not line.startswith("data: "):
                                continue
                            data = json.loads(line[6:])
                            if match_id:
                                self._get(c, f"/tables/{match_id}/now", creds)
                            elif "match_id" in data:
                                self._get(c, f"/floor/tables?match={data['match_id']}", creds)
                except httpx.TransportError:
                    if not self.stop.is_set():
                        self.reconnects += 1
                        self.stop.wait(1.0)

    def _get(self, c: httpx.Client, path: str, creds: dict[str, str]) -> None:
        for attempt in (1, 2):
            try:
                c.get(path, headers=creds).raise_for_status()
                self.fetches += 1
                return
            except httpx.TransportError:
                if attempt == 2:
                    raise

    def close(self) -> None:
        self.stop.set()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taps", type=int, default=40, help="taps measured with one table, and again with 64")
    ap.add_argument("--rate", type=float, default=0.2, help="entries a second on each simulated table (0.2: one every 5 s)")
    args = ap.parse_args(argv)
    print(f"adj serve's pages on {os.cpu_count()} cores, python {sys.version.split()[0]}: a tap to the other "
          "seat's page showing it", flush=True)
    with tempfile.TemporaryDirectory(prefix="adj-bench-pages-") as workdir, chromium() as driver:
        srv = Server(os.path.join(workdir, "pages.sqlite3"), workdir)
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as client:
                alone = taps(driver, srv, client, args.taps, "alone")
                row("1 table: tap -> the other page, p50 / p99", f"{statistics.median(alone):.0f} / {pct(alone, 0.99):.0f} ms")
                sim = Tables(srv, 63, args.rate)
                sim.start()
                time.sleep(3)
                began, fetched = time.perf_counter(), sim.fetches
                try:
                    busy = taps(driver, srv, client, args.taps, "busy")
                finally:
                    seconds = time.perf_counter() - began
                    sim.close()
                entries = len(sim.trips)
                row("64 tables: tap -> the other page, p50 / p99", f"{statistics.median(busy):.0f} / {pct(busy, 0.99):.0f} ms",
                    f"63 tables through the API: {entries} entries, {(sim.fetches - fetched) / seconds:.0f} page "
                    f"fetches/s; entry round trip p50 {statistics.median(sim.trips):.0f} ms, p99 {pct(sim.trips, 0.99):.0f} ms")
                if sim.failures or sim.reconnects:
                    print(f"  failures: {len(sim.failures)} {sim.failures[:1]}; streams opened again: {sim.reconnects}")
        finally:
            srv.stop()
    a50, b50, b99 = statistics.median(alone), statistics.median(busy), pct(busy, 0.99)
    print(f"tap -> other page p50 {a50:.0f} ms alone, {b50:.0f} ms among 64 tables (x{b50 / a50:.2f}), p99 {b99:.0f} ms; "
          f"x{b50 / statistics.median(sim.trips):.1f} an API entry's round trip under the same load", flush=True)


if __name__ == "__main__":
    main()
