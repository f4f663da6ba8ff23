"""Load on one PostgreSQL database: many adjudicator processes playing whole matches at once.

Each worker is an OS process with its own connection, as a terminal at its own table would be.
It plays complete recorded matches action by action through ``MatchService.submit`` (each
action: load and verify the match, check the action, append it), not by bulk insert. The
matches are the clean BACDEF fixtures (``fixtures/bacdef/**/*.jsonl`` that check with no
rejection); where there are none, generated nim matches (the toy game of the tests).

Afterwards every match is read back and checked: each accepted action stored exactly once, in
order, the chain verifies, and the outcome and final views equal those of the same match
adjudicated alone on a memory store.

    python bench/pg_load.py [--url postgresql://...] [--procs 50] [--events 2500 | --matches N]
                            [--no-keys] [--keep]

The URL defaults to ``$ADJ_TEST_PG``, then ``$ADJ_STORE``, then the local test database. The
run uses a schema of its own, dropped at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing as mp
import os
import queue as queue_mod
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import msgspec  # noqa: E402

from adjudicator.engine import registry  # noqa: E402
from adjudicator.service import MatchService, parse_lines  # noqa: E402
from events.envelope import split_flat  # noqa: E402
from events.memory import MemoryStore  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def register_nim() -> None:
    registry.register("nim", "tests.toygame:GAME")


# -- the matches -----------------------------------------------------------------------------


def clean_bacdef_fixtures(root: str = ROOT) -> list[tuple[str, list[str]]]:
    """The BACDEF fixtures that adjudicate with no rejection (others are left out)."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "fixtures", "bacdef", "**", "*.jsonl"), recursive=True)):
        try:
            with open(path, encoding="utf-8") as fh:
                lines = [line for line in fh if line.strip()]
            report = MatchService(MemoryStore()).check_lines(lines)
        except Exception:  # a fixture mid-edit, or a reducer that refuses it: not for this run
            continue
        if report.match is not None and not report.rejections and report.accepted == len(lines):
            out.append((os.path.relpath(path, root), lines))
    return out


def nim_match(rng: random.Random) -> list[str]:
    """A complete nim match, sometimes with a judge's rewind to the start."""
    pile = rng.randint(10, 24)
    players = ["alice", "bob"]
    lines = [{"type": "match_started", "by": "judge", "game": "nim", "players": players, "options": {"pile": pile}}]
    left, turn, rewound = pile, 0, False
    while left:
        if not rewound and left < pile - 4 and rng.random() < 0.15:
            lines.append({"type": "rewind", "by": "judge", "to_seq": 1, "reason": "the pile was miscounted"})
            left, turn, rewound = pile, 0, True
            continue
        take = rng.randint(1, min(3, left))
        who = players[turn]
        lines.append({"type": "take", "by": who, "player": who, "count": take})
        left -= take
        turn = 1 - turn
    return [msgspec.json.encode(obj).decode() for obj in lines]


def workload(
    procs: int,
    matches_per_proc: int | None,
    prefix: str,
    *,
    events: int = 2500,
    games: str = "auto",
    seed: int = 7,
) -> tuple[str, list[list[tuple[str, list[str]]]]]:
    """(where the matches come from, one list of (match id, lines) per process).

    ``games``: "auto" (the clean BACDEF fixtures, else nim), "bacdef" or "nim".
    ``matches_per_proc`` None: as many as make about ``events`` actions in all (at least one).
    """
    source = clean_bacdef_fixtures() if games in ("auto", "bacdef") else []
    if games == "bacdef" and not source:
        raise RuntimeError("no BACDEF fixture under fixtures/bacdef/ checks with no rejection")
    kind = f"{len(source)} clean BACDEF fixtures"
    if not source:
        rng = random.Random(seed)
        source = [(f"nim-{k}", nim_match(rng)) for k in range(200)]
        kind = "generated nim matches"
    if matches_per_proc is None:
        mean = sum(len(lines) for _, lines in source) / len(source)
        matches_per_proc = max(1, round(events / (procs * mean)))
    plan: list[list[tuple[str, list[str]]]] = [[] for _ in range(procs)]
    for k in range(procs * matches_per_proc):
        plan[k % procs].append((f"{prefix}-{k:05d}", source[k % len(source)][1]))
    return kind, plan


def result_of(match) -> dict[str, Any]:
    """What must not depend on where or how a match was adjudicated."""
    game, state = match.game, match.state
    return {
        "outcome": msgspec.to_builtins(match.outcome()),
        "view": msgspec.to_builtins(game.view(state, None)),
        "views": {p: msgspec.to_builtins(game.view(state, p)) for p in match.players},
        "actions": [(e.type, e.by, e.fields) for e in match.events],
    }


def alone(lines: list[str]) -> dict[str, Any]:
    report = MatchService(MemoryStore()).check_lines(lines)
    assert not report.rejections, report.rejections[0]
    return result_of(report.match)


# -- the workers -----------------------------------------------------------------------------


def worker(out, url: str, items: list[tuple[str, list[str]]], barrier, keys: bool, cache_size: int = 64) -> None:
    register_nim()
    from events.postgres import PostgresStore

    store = PostgresStore(url)
    service = MatchService(store, cache_size=cache_size)
    latencies: list[float] = []
    rejected = 0
    barrier.wait(timeout=300)
    start = time.monotonic()
    for mid, lines in items:
        for n, (_, obj) in enumerate(parse_lines(lines), 1):
            env, fields = split_flat(obj)
            t = time.monotonic()
            verdict = service.submit(
                mid, env["type"], env["by"], fields, idempotency_key=f"{mid}/{n}" if keys else None
            )
            latencies.append(time.monotonic() - t)
            rejected += not verdict.accepted
    end = time.monotonic()
    store.close()
    out.put({"pid": os.getpid(), "start": start, "end": end, "latencies": latencies, "rejected": rejected})


@dataclass
class LoadReport:
    source: str
    procs: int
    matches: int
    events: int
    seconds: float  # from the common start to the last worker done
    latencies: list[float] = field(default_factory=list)
    rejected: int = 0
    startup: float = 0.0
    checked: float = 0.0

    @property
    def throughput(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0

    def summary(self) -> str:
        return (
            f"PostgreSQL load: {self.procs} processes, {self.matches} matches ({self.source}), "
            f"{self.events} events in {self.seconds:.2f} s = {self.throughput:.0f} events/s; "
            f"submit latency p50 {self.percentile(0.5) * 1000:.1f} ms, p99 {self.percentile(0.99) * 1000:.1f} ms; "
            f"start-up {self.startup:.1f} s, check {self.checked:.1f} s"
        )


def run_load(
    url: str,
    procs: int = 50,
    matches_per_proc: int | None = None,
    *,
    events: int = 2500,
    prefix: str | None = None,
    keys: bool = True,
    games: str = "auto",
    cache_size: int = 64,
) -> LoadReport:
    """Play the workload with ``procs`` processes into the store at ``url``, check it, report.

    Raises ``AssertionError`` naming the first match stored wrong, ``RuntimeError`` if a
    worker fails."""
    register_nim()
    prefix = prefix or "load-" + uuid.uuid4().hex[:8]
    source, plan = workload(procs, matches_per_proc, prefix, events=events, games=games)
    expected = {mid: alone(lines) for items in plan for mid, lines in items}

    from events.postgres import PostgresStore

    PostgresStore(url).close()  # create the schema once, before the crowd arrives
    # Each worker is a fresh OS process with its own connection. A fork server that has already
    # imported the libraries starts them in a fraction of the time 50 interpreters would take.
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(
        ["adjudicator.service", "adjudicator.games.bacdef", "tests.toygame", "events.postgres", "psycopg"]
    )
    out = ctx.Queue()
    barrier = ctx.Barrier(procs + 1)
    t0 = time.monotonic()
    workers = [ctx.Process(target=worker, args=(out, url, items, barrier, keys, cache_size), daemon=True) for items in plan]
    for w in workers:
        w.start()
    reports = []
    try:
        barrier.wait(timeout=300)
        startup = time.monotonic() - t0
        while len(reports) < procs:
            try:
                reports.append(out.get(timeout=1))
            except queue_mod.Empty:
                dead = [w.exitcode for w in workers if w.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"a worker failed (exit codes {dead})") from None
    finally:
        for w in workers:
            w.join(30)
            if w.is_alive():
                w.kill()
    codes = [w.exitcode for w in workers]
    if codes != [0] * procs:
        raise RuntimeError(f"worker exit codes: {codes}")

    report = LoadReport(
        source=source,
        procs=procs,
        matches=len(expected),
        events=sum(len(r["latencies"]) for r in reports),
        seconds=max(r["end"] for r in reports) - min(r["start"] for r in reports),
        latencies=[x for r in reports for x in r["latencies"]],
        rejected=sum(r["rejected"] for r in reports),
        startup=startup,
    )
    t1 = time.monotonic()
    check_stored(url, prefix, expected)
    report.checked = time.monotonic() - t1
    return report


def check_stored(url: str, prefix: str, expected: dict[str, dict[str, Any]]) -> None:
    """Every match as stored: whole, once, verifying, and adjudicated as when played alone."""
    from events.postgres import PostgresStore

    with PostgresStore(url) as store:
        with store._using("counting") as cur:
            cur.execute(
                "SELECT count(*), count(DISTINCT (match_id, seq)) FROM events WHERE match_id LIKE %s", (prefix + "-%",)
            )
            rows, distinct = cur.fetchone()
        want = sum(len(w["actions"]) for w in expected.values())
        if not rows == distinct == want:
            raise AssertionError(f"{rows} rows ({distinct} distinct) stored for {want} accepted actions")
        service = MatchService(store)
        ids = {m.match_id: m.head_seq for m in store.matches() if m.match_id.startswith(prefix + "-")}
        if set(ids) != set(expected):
            raise AssertionError(f"{len(set(expected) - set(ids))} matches missing, {len(set(ids) - set(expected))} unexpected")
        for mid, want in expected.items():
            match = service.verify(mid)  # hash chain and full re-adjudication
            got = result_of(match)
            if ids[mid] != len(want["actions"]) or got != want:
                raise AssertionError(f"{mid}: stored result differs from the match adjudicated alone")
            if store.rejections(mid):
                raise AssertionError(f"{mid}: rejections recorded for a clean match")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=os.environ.get("ADJ_TEST_PG") or os.environ.get("ADJ_STORE") or DEFAULT_URL)
    ap.add_argument("--procs", type=int, default=50)
    ap.add_argument("--matches", type=int, default=None, help="matches per process (default: see --events)")
    ap.add_argument("--events", type=int, default=2500, help="about this many actions in all (default 2500)")
    ap.add_argument("--games", choices=["auto", "bacdef", "nim"], default="auto", help="auto: BACDEF fixtures, else nim")
    ap.add_argument("--no-keys", action="store_true", help="submit without idempotency keys")
    ap.add_argument("--keep", action="store_true", help="keep the run's schema")
    ap.add_argument(
        "--compare-cache",
        action="store_true",
        help="run the workload twice in this run, with the service's fold cache off then on, and print the ratio",
    )
    args = ap.parse_args(argv)
    if not args.url.startswith(("postgresql://", "postgres://")):
        ap.error(f"--url must be a postgresql:// URL, not {args.url!r}")

    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from tests.test_store_support import drop_schema, fresh_schema

    schema, url = fresh_schema(args.url)
    print(f"schema {schema} on {args.url.split('?')[0]}")
    try:
        runs = [("fold cache off", 0), ("fold cache on", 64)] if args.compare_cache else [("", 64)]
        reports = []
        for label, size in runs:
            report = run_load(
                url, args.procs, args.matches, events=args.events, keys=not args.no_keys, games=args.games, cache_size=size
            )
            reports.append(report)
            print((f"{label}: " if label else "") + report.summary())
    finally:
        if not args.keep:
            drop_schema(args.url, schema)
    if args.compare_cache:
        off, on = reports
        print(
            f"ratio (cache on / off, same run): throughput x{on.throughput / off.throughput:.2f}, "
            f"p50 latency x{on.percentile(0.5) / off.percentile(0.5):.2f}"
        )
    print("checked: every accepted action stored once, every chain verifies, results equal adjudication alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
