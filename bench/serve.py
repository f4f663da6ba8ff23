"""adj serve against adj act, in one run (figures as ratios: this machine is noisy).

1. One accepted entry in a match of N events (N = 100 and 10,000; --long adds 100,000): the
   time the server spends on it (its ``Server-Timing``), the round trip of the HTTP request, and
   ``adj act`` entering the next action of the same match as a process of its own, alternately,
   on the same SQLite store. The matches are made by seeded random play from DemonBrave's
   ``legal()`` (bench/gen.py) and imported with ``adj import``.
2. 64 tables playing at once through the HTTP API (seeded random legal play, each table's entries
   from one client thread, with each seat's own token) on SQLite: entries a second, p50 and p99 of
   an entry's round trip, and whether any acknowledged entry was lost or stored twice.

    .venv/bin/python bench/serve.py [--quick] [--long]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx
import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import gen  # noqa: E402
from bench.run import LONG, act_fields  # noqa: E402

ADJ = os.path.join(os.path.dirname(sys.executable), "adj")
GAME = "demonbrave"


def row(what: str, figure: str, beside: str = "") -> None:
    print(f"  {what:<58} {figure:>14}  {beside}", flush=True)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


class Server:
    """``adj serve`` on a free port over ``store``; stopped by its PID."""

    def __init__(self, store: str, workdir: str):
        self.token_file = os.path.join(workdir, f"judge-{os.getpid()}-{time.monotonic_ns()}.token")
        self.path = os.path.join(workdir, f"serve-{os.path.basename(self.token_file)}.log")
        self.log = open(self.path, "w")  # the child's own: a reader's handle would share its offset
        self.proc = subprocess.Popen([ADJ, "serve", "--store", store, "--port", "0", "--judge-token-file", self.token_file],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        self.url = ""
        while not self.url:
            with open(self.path, encoding="utf-8") as fh:
                text = fh.read()
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"adj serve did not start: {text}")
            time.sleep(0.05)
            for line in text.splitlines():
                if line.startswith("adj serve: listening on "):
                    self.url = line.split()[4]
        with open(self.token_file, encoding="utf-8") as fh:
            self.judge = {"Authorization": f"Bearer {fh.read().strip()}"}

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


def entry_latency(workdir: str, length: int, repeat: int) -> tuple[float, float, float]:
    """p50 of the server's time on one entry, of its round trip and of adj act, in a match of
    ``length`` events; prints the row. Returns (server p50, round trip p50, adj act p50) in ms."""
    match = gen.random_match(GAME, 7, length + 2 * repeat + 1, LONG[GAME])
    if match is None or len(match) < length + 2 * repeat:
        raise RuntimeError(f"random play did not make a {length}-event {GAME} match")
    store = os.path.join(workdir, f"latency-{length}.sqlite3")
    head = os.path.join(workdir, f"latency-{length}.jsonl")
    with open(head, "w", encoding="utf-8") as fh:
        fh.write("\n".join(msgspec.json.encode(x).decode() for x in match[:length]) + "\n")
    env = dict(os.environ, ADJ_STORE=store)
    subprocess.run([ADJ, "import", head, "--id", "m"], env=env, check=True, capture_output=True)
    srv = Server(store, workdir)
    served, trips, acts = [], [], []
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as client:
            client.get("/matches/m/state", headers=srv.judge)  # the first look folds it: a server keeps it folded
            for i, x in enumerate(match[length:length + 2 * repeat]):
                if i % 2 == 0:
                    body = {k: v for k, v in x.items()}
                    t = time.perf_counter()
                    r = client.post("/matches/m/events", json=body, headers=srv.judge)
                    trips.append((time.perf_counter() - t) * 1000)
                    if r.status_code != 201:
                        raise RuntimeError(f"the server refused a generated entry: {r.text}")
                    served.append(float(r.headers["server-timing"].split("dur=")[1]))
                else:
                    argv = [ADJ, "act", "m", x["type"], *act_fields(x), "--by", x["by"]]
                    t = time.perf_counter()
                    subprocess.run(argv, env=env, check=True, capture_output=True)
                    acts.append((time.perf_counter() - t) * 1000)
    finally:
        srv.stop()
    s50, s99, r50, a50 = statistics.median(served), pct(served, 0.99), statistics.median(trips), statistics.median(acts)
    row(f"one entry in a {length:,}-event match: server p50 / p99", f"{s50:.1f} / {s99:.1f} ms",
        f"HTTP round trip p50 {r50:.1f} ms; adj act process p50 {a50:.0f} ms (x{a50 / s50:.0f} the server's, "
        f"x{a50 / r50:.0f} the round trip)")
    return s50, r50, a50


def pick(rng: random.Random, choices: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, c in choices.items():
        if c["optional"] and rng.random() < 0.5:
            continue
        values = c["values"]
        if c["kind"] == "one":
            out[name] = rng.choice(values)
        elif c["kind"] == "some":
            high = len(values) if c["max"] is None else c["max"]
            out[name] = rng.sample(values, rng.randint(c["min"], high))
        elif c["kind"] == "int":
            out[name] = rng.randint(c["min"], c["max"] if c["max"] is not None else c["min"])
        else:
            out[name] = "noted at the table"
    return out


def floor(workdir: str, tables: int, entries: int) -> tuple[float, float]:
    """``tables`` matches played at once through the API, ``entries`` tries each. Returns
    (entries a second, p99 ms); raises if an acknowledged entry was lost or stored twice."""
    store = os.path.join(workdir, "floor.sqlite3")
    srv = Server(store, workdir)
    opening = gen.start_lines(GAME)[0]
    setup = {k: v for k, v in opening.items() if k not in ("type", "by", "game", "players", "options")}
    trips: list[float] = []
    acked: dict[str, list[int]] = {}
    refused = [0]
    failures: list[str] = []
    lock = threading.Lock()
    try:
        seats: dict[str, dict[str, dict[str, str]]] = {}
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            for i in range(tables):
                r = c.post("/matches", headers=srv.judge, json={"game": GAME, "players": opening["players"], "id": f"t{i}",
                                                                "options": {**opening.get("options", {}), **LONG[GAME]},
                                                                "setup": setup})
                r.raise_for_status()
                seats[f"t{i}"] = {p: {"Authorization": f"Bearer {s['token']}"} for p, s in r.json()["seats"].items()}
                acked[f"t{i}"] = []

        def play(match_id: str) -> None:
            rng = random.Random(match_id)
            try:
                with httpx.Client(base_url=srv.url, timeout=60) as cl:
                    for _ in range(entries):
                        offered = [a for a in cl.get(f"/matches/{match_id}/legal", headers=srv.judge).json()["actions"]
                                   if not a["anytime"] and a["type"] not in ("rewind", "correct")]
                        if not offered:
                            return
                        a = rng.choice(offered)
                        creds = seats[match_id].get(a["who"], srv.judge)
                        body = {"type": a["type"], **pick(rng, a["fields"])}
                        if a["who"] not in seats[match_id]:
                            body["by"] = a["who"]
                        t = time.perf_counter()
                        r = cl.post(f"/matches/{match_id}/events", json=body, headers=creds)
                        took = (time.perf_counter() - t) * 1000
                        with lock:
                            trips.append(took)
                            if r.status_code == 201:
                                acked[match_id].append(r.json()["seq"])
                            elif r.status_code == 422:
                                refused[0] += 1
                            else:
                                failures.append(f"{match_id}: {r.status_code} {r.text[:200]}")
            except Exception as exc:  # noqa: BLE001 - reported below
                failures.append(f"{match_id}: {type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=play, args=(m,)) for m in seats]
        began = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        seconds = time.perf_counter() - began
    finally:
        srv.stop()
    if failures:
        raise RuntimeError(f"{len(failures)} entries failed, e.g. {failures[0]}")
    from adjudicator.service import MatchService, open_store

    lost = twice = 0
    with open_store(store, write=False) as s:
        service = MatchService(s)
        for match_id, seqs in acked.items():
            stored = [e.seq for e in s.read(match_id)]
            twice += len(seqs) - len(set(seqs))
            lost += len(set(seqs) - set(stored))
            if stored != list(range(1, 2 + len(seqs))):  # match_started and one event an acknowledgement
                lost += 1
            service.verify(match_id)
    n = sum(map(len, acked.values()))
    rate = n / seconds
    row(f"{tables} tables at once through the API ({n:,} entries)", f"{rate:,.0f} entries/s",
        f"p50 {statistics.median(trips):.0f} ms, p99 {pct(trips, 0.99):.0f} ms; {refused[0]} refused by a rule; "
        f"lost {lost}, stored twice {twice}")
    if lost or twice:
        raise RuntimeError("an acknowledged entry was lost or stored twice")
    return rate, pct(trips, 0.99)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer entries: about a minute")
    ap.add_argument("--long", action="store_true", help="also a 100,000-event match")
    args = ap.parse_args(argv)
    repeat = 10 if args.quick else 30
    print(f"adj serve on {os.cpu_count()} cores, python {sys.version.split()[0]}; {GAME}", flush=True)
    with tempfile.TemporaryDirectory(prefix="adj-bench-serve-") as workdir:
        sizes = [100, 10_000] + ([100_000] if args.long else [])
        figures = {n: entry_latency(workdir, n, repeat) for n in sizes}
        rate, p99 = floor(workdir, 64, 10 if args.quick else 25)
    s100, _, a100 = figures[100]
    s10k, _, a10k = figures[10_000]
    act_rate = 1000 / a100
    print(f"entry {s100:.1f} ms at 100 events, {s10k:.1f} ms at 10,000 (x{s10k / s100:.2f}) | adj act x{a100 / s100:.0f} "
          f"slower | 64 tables {rate:,.0f} entries/s (x{rate / act_rate:.0f} adj act one at a time), p99 {p99:.0f} ms",
          flush=True)


if __name__ == "__main__":
    main()
