"""Every benchmark in one run, each figure beside its floor or peer measured in the same run (the
machines are noisy: ratios taken together are what can be compared), ending with one summary line:

    summary: replay xR eventsourcing | act xR imports | state-at xR head | verify-memory xR 10x-store | verify xR one-core | html xR export | import xR executemany

(``x?`` for a ratio that was not measured: the peer not installed, no ``taskset``, no long-match game.)

    python bench/run.py [--quick] [--games bacdef,demonbrave] [--events N] [--no-pg]

``make bench`` runs it (``make bench BENCH_ARGS=--quick`` for the short run). The PostgreSQL load
benchmark (bench/pg_load.py, with a few processes) joins the table when a server answers at
``$ADJ_TEST_PG`` (default the local test database).
"""

from __future__ import annotations

import argparse
import compileall
import functools
import hashlib
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import msgspec  # noqa: E402

from adjudicator.engine import registry  # noqa: E402
from adjudicator.service import MatchService, MemoryStore, fold_stored, open_store  # noqa: E402
from bench import gen  # noqa: E402
from events.chain import verify_chain  # noqa: E402
from events.envelope import Draft, canonical, to_line  # noqa: E402

ROWS: list[tuple[str, str, str]] = []  # (what, figure, beside it)


def row(what: str, figure: str, beside: str = "") -> None:
    ROWS.append((what, figure, beside))
    print(f"  {what:<46} {figure:>16}  {beside}", flush=True)


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def timed(f: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def best(f: Callable[[], Any], repeat: int) -> float:
    return min(timed(f) for _ in range(repeat))


# -- the corpus ----------------------------------------------------------------------------------------
#: Events of the store whose verify is timed on every core beside one core, at the least.
CORES_EVENTS = 40_000
#: Matches made by random play, at most: a larger corpus imports them again under other ids
#: (random play from legal() costs more than replay; the copies replay as the originals do).
DISTINCT = 20_000


def sealed(game: str, total: int) -> list[list[Any]]:
    """Stored (sealed) events of matches of ``game`` adding up to ``total`` lines."""
    made = [[msgspec.json.encode(x).decode() for x in lines] for lines in gen.matches(game, min(total, DISTINCT))]
    return stored_in_turn(made, total, game)


def copies(corpus: list[list[Any]], total: int) -> list[list[Any]]:
    """The matches of ``corpus`` stored again under other ids, in turn, until they add up to
    ``total`` events (cheaper than random play)."""
    texts = [[msgspec.json.encode({"type": e.type, "by": e.by, "recorded_at": e.recorded_at, **e.fields}).decode() for e in m]
             for m in corpus]
    return stored_in_turn(texts, total, "copy")


def stored_in_turn(texts: list[list[str]], total: int, prefix: str) -> list[list[Any]]:
    """Match files (lines) imported in turn, under ids ``prefix-N``, until they add up to ``total``
    events: their stored events."""
    svc = MatchService(MemoryStore(), cache_size=0)
    out, count = [], 0
    while count < total:
        text = texts[len(out) % len(texts)]
        out.append(svc.store.read(svc.import_lines(text, match_id=f"{prefix}-{len(out)}").match_id))
        count += len(text)
    return out


# -- the peer ----------------------------------------------------------------------------------------
@functools.cache
def _eventsourcing_classes() -> tuple[Any, Any]:
    """The library's Application, and an aggregate whose one event carries an action's type,
    author and fields (made once: the library registers each class under its name)."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        @event("Acted")
        def act(self, type: str, by: str, fields: dict) -> None:
            self.n = getattr(self, "n", 0) + 1

    return Application, Table


def _eventsourcing(workdir: str, name: str) -> tuple[Any, Any] | None:
    """An eventsourcing application on a SQLite file of its own, and the aggregate class; None
    when the library is not installed."""
    os.environ["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    os.environ["SQLITE_DBNAME"] = os.path.join(workdir, name)
    try:
        application, table = _eventsourcing_classes()
    except ImportError:
        return None
    return application(), table


def eventsourcing_peer(corpus: list[list[Any]], workdir: str, name: str) -> Callable[[], Any] | None:
    """The eventsourcing library's replay of the same events, of the same fields, from its SQLite
    recorder (one aggregate per match), ready to run; None when it is not installed."""
    peer = _eventsourcing(workdir, f"eventsourcing-{name}.sqlite")
    if peer is None:
        return None
    app, Table = peer
    ids = []
    for events in corpus:
        t = Table()
        for e in events:
            t.act(type=e.type, by=e.by, fields=e.fields)
        app.save(t)
        ids.append(t.id)
    return lambda: [app.repository.get(i) for i in ids]


def cpu(f: Callable[[], Any]) -> float:
    """CPU seconds of one call: on a shared machine, less swayed by other work than wall time."""
    t0 = time.process_time()
    f()
    return time.process_time() - t0


# -- the benchmarks ---------------------------------------------------------------------------------------
def bench_replay(game: str, corpus: list[list[Any]], workdir: str, repeat: int) -> float | None:
    """Replay of the game's stored events with every rule checked, from the SQLite store, beside
    the eventsourcing library's replay of the same events from its SQLite recorder: CPU time,
    taking turns. Returns ours over the peer's rate (None without the peer)."""
    n = sum(len(m) for m in corpus)
    path = os.path.join(workdir, f"replay-{game}.sqlite3")
    store = sqlite_store(path, corpus)
    svc = MatchService(store, cache_size=0)
    ids = [m[0].match_id for m in corpus]
    peer = eventsourcing_peer(corpus, workdir, game)
    lines = [to_line(e).encode() for m in corpus for e in m]
    ours, theirs, memory = [], [], []
    for _ in range(repeat):
        ours.append(cpu(lambda: [svc.load(i) for i in ids]))
        memory.append(cpu(lambda: [fold_stored(m) for m in corpus]))
        if peer is not None:
            theirs.append(cpu(peer))
    floor = rate(n, best(lambda: [msgspec.json.decode(x) for x in lines], 3))
    store.close()
    got = rate(n, statistics.median(ours))
    beside = f"from memory {rate(n, statistics.median(memory)):,.0f} ev/s; JSON decode alone {floor:,.0f} ev/s"
    ratio = None
    if theirs:
        peer_rate = rate(n, statistics.median(theirs))
        ratio = got / peer_rate
        beside += f"; x{ratio:.2f} eventsourcing {peer_rate:,.0f} ev/s [{rate(n, max(theirs)):,.0f}-{rate(n, min(theirs)):,.0f}]"
    row(f"replay from SQLite, rules checked, {game} ({n} ev)",
        f"{got:,.0f} ev/s [{rate(n, max(ours)):,.0f}-{rate(n, min(ours)):,.0f}]", beside)
    return ratio


def sqlite_store(path: str, corpus: list[list[Any]]):
    store = open_store(path)
    for m in corpus:
        store.append_stored(m, 0)
    return store


def bench_verify(corpus: list[list[Any]], workdir: str, label: str) -> float:
    path = os.path.join(workdir, f"verify-{label}.sqlite3")
    store = sqlite_store(path, corpus)
    svc = MatchService(store)
    ids = [m[0].match_id for m in corpus]
    n = sum(len(m) for m in corpus)
    verify = rate(n, best(lambda: [svc.verify(i) for i in ids], 2))
    chain = rate(n, best(lambda: [verify_chain(store.read(i), i) for i in ids], 2))

    def read_and_hash() -> None:
        con = sqlite3.connect(path)
        for r in con.execute("SELECT match_id, seq, type, by, recorded_at, payload, prev, hash FROM events"):
            hashlib.sha256("".join(map(str, r)).encode()).hexdigest()
        con.close()

    floor = rate(n, best(read_and_hash, 3))
    bodies = [canonical(e.flat(with_hash=False)) for m in corpus for e in m]
    sha = rate(n, best(lambda: [hashlib.sha256(b).hexdigest() for b in bodies], 3))
    row(f"adj verify: chain + re-adjudication ({label})", f"{verify:,.0f} ev/s", f"reading + hashing every row {floor:,.0f} ev/s")
    row(f"hash chain alone, from SQLite ({label})", f"{chain:,.0f} ev/s", f"bare SHA-256 {sha:,.0f} ev/s")
    store.close()
    return verify


def bench_verify_store(corpus: list[list[Any]], workdir: str, label: str) -> float:
    """A whole store verified with its matches spread over the cores (``verify_each``) beside the
    same matches one after the other in one process; and ``adj verify`` of the store, which also
    checks its audit tree, start-up included."""
    from adjudicator import service as service_module

    path = os.path.join(workdir, f"verify-store-{label}.sqlite3")
    sqlite_store(path, corpus).close()
    n = sum(len(m) for m in corpus)
    svc = MatchService(open_store(path, write=False))
    ids = [m[0].match_id for m in corpus]
    threshold = service_module.PARALLEL_EVENTS
    service_module.PARALLEL_EVENTS = 10**12
    one = rate(n, timed(lambda: svc.verify_each(ids)))
    service_module.PARALLEL_EVENTS = 0
    spread = rate(n, timed(lambda: svc.verify_each(ids)))
    service_module.PARALLEL_EVENTS = threshold
    svc.store.close()
    adj = os.path.join(os.path.dirname(sys.executable), "adj")
    cli = rate(n, timed(lambda: subprocess.run([adj, "verify", "--store", path, "--json"], check=True, capture_output=True)))
    row(f"verify a whole store over {os.cpu_count()} cores ({label}, {n:,} ev)", f"{spread:,.0f} ev/s",
        f"one process, match after match {one:,.0f} ev/s (x{spread / one:.2f}); adj verify with its audit tree {cli:,.0f} ev/s")
    return spread


def bench_import(corpus: list[list[Any]], workdir: str, label: str, repeat: int = 1) -> float:
    """Returns adj import's time over executemany's, of the same rows (CPU, taking turns)."""
    texts = [[to_line(e) for e in m] for m in corpus]
    n = sum(len(m) for m in corpus)
    k = [0]

    def run() -> None:
        k[0] += 1
        store = open_store(os.path.join(workdir, f"import-{label}-{k[0]}.sqlite3"))
        svc = MatchService(store)
        for t in texts:
            svc.import_lines(t)
        store.close()

    def floor() -> None:
        k[0] += 1
        con = sqlite3.connect(os.path.join(workdir, f"plain-{k[0]}.sqlite3"))
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("CREATE TABLE events (match_id TEXT, seq INTEGER, payload TEXT, UNIQUE(match_id, seq))")
        con.executemany("INSERT INTO events VALUES (?, ?, ?)", ((e.match_id, e.seq, to_line(e)) for m in corpus for e in m))
        con.commit()
        con.close()

    ours, plain, rules = [], [], []
    for _ in range(repeat):
        ours.append(cpu(run))
        plain.append(cpu(floor))
        rules.append(cpu(lambda: [fold_stored(m) for m in corpus]))
    ratio = statistics.median(ours) / statistics.median(plain)
    row(f"bulk import, adj import ({label}, {n:,} ev)", f"{rate(n, statistics.median(ours)):,.0f} ev/s",
        f"executemany + one COMMIT {rate(n, statistics.median(plain)):,.0f} ev/s (x{ratio:.2f}; CPU {spread(ours)} against {spread(plain)})")
    # what no import can go under: its rows written, and every rule checked on its events
    bound = (statistics.median(rules) + statistics.median(plain)) / statistics.median(plain)
    row(f"  of which the rules alone ({label})", f"{rate(n, statistics.median(rules)):,.0f} ev/s",
        f"a fold of the same events in memory: executemany + that fold is x{bound:.2f} executemany")
    return ratio


def bench_append(workdir: str, count: int) -> float:
    store = open_store(os.path.join(workdir, "append.sqlite3"))
    draft = Draft(type="take", by="alice", recorded_at="2026-01-01T00:00:00Z", fields={"player": "alice", "count": 1})

    def ours() -> None:
        for i in range(count):
            store.append("m", [draft], i)

    durable = rate(count, timed(ours))
    store.close()
    peer = eventsourcing_append(workdir, count)
    con = sqlite3.connect(os.path.join(workdir, "append-plain.sqlite3"), isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE events (match_id TEXT, seq INTEGER, payload TEXT, UNIQUE(match_id, seq))")

    def plain() -> None:
        for i in range(count):
            con.execute("BEGIN IMMEDIATE")
            con.execute("INSERT INTO events VALUES (?, ?, ?)", ("m", i + 1, "x" * 120))
            con.execute("COMMIT")

    floor = rate(count, timed(plain))
    con.close()
    row(f"durable append, one action at a time ({count})", f"{durable:,.0f} ev/s",
        f"plain INSERT+COMMIT, same pragmas {floor:,.0f} ev/s (x{floor / durable:.2f})"
        + (f"; eventsourcing {peer:,.0f} ev/s" if peer else ""))
    return durable


def eventsourcing_append(workdir: str, count: int) -> float | None:
    """Events/s of the eventsourcing library saving one event at a time (one ``save`` an event,
    as a table enters one action at a time) to its SQLite recorder; None when not installed."""
    peer = _eventsourcing(workdir, "eventsourcing-append.sqlite")
    if peer is None:
        return None
    app, Table = peer
    t = Table()
    app.save(t)

    def run() -> None:
        for _ in range(count):
            t.act(type="take", by="alice", fields={"player": "alice", "count": 1})
            app.save(t)

    return rate(count, timed(run))


def bench_pg(quick: bool) -> None:
    """bench/pg_load.py's load on a PostgreSQL server, when one answers: many processes against
    one process alone, in the same run."""
    url = os.environ.get("ADJ_TEST_PG") or "postgresql://postgres@127.0.0.1:5432/test"
    try:
        import psycopg

        psycopg.connect(url, connect_timeout=2).close()
    except Exception as exc:  # no driver, no server: say so, not a failure
        row("PostgreSQL load", "skipped", f"no server at {url.split('?')[0]} ({type(exc).__name__})")
        return
    from bench import pg_load
    from tests.test_store_support import drop_schema, fresh_schema

    procs, events = (4, 300) if quick else (8, 800)
    got = {}
    for n in (1, procs):
        schema, schema_url = fresh_schema(url)
        try:
            got[n] = pg_load.run_load(schema_url, n, None, events=events if n > 1 else events // procs)
        finally:
            drop_schema(url, schema)
    many, one = got[procs], got[1]
    row(f"PostgreSQL load, {procs} processes ({many.events} actions)", f"{many.throughput:,.0f} ev/s",
        f"one process alone {one.throughput:,.0f} ev/s (x{many.throughput / one.throughput:.2f}); p50 {many.percentile(0.5) * 1000:.0f} ms")


def act_fields(line: dict[str, Any]) -> list[str]:
    """A recorded line's fields as ``adj act`` takes them: a string as a word, the rest as JSON."""
    return [f"{k}={v if isinstance(v, str) else msgspec.json.encode(v).decode()}" for k, v in line.items() if k not in ("type", "by")]


def bench_act(workdir: str, game: str, repeat: int) -> tuple[float, float]:
    """p50 of `adj act` entering the last actions of a recorded match, one process each."""
    match = max(gen.recorded_matches(game), key=len)
    lines = [msgspec.json.encode(x).decode() for x in match]
    keep = max(2, len(lines) - repeat)
    store = os.path.join(workdir, "act.sqlite3")
    head = os.path.join(workdir, "head.jsonl")
    with open(head, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines[:keep]) + "\n")
    adj = os.path.join(os.path.dirname(sys.executable), "adj")
    env = dict(os.environ, ADJ_STORE=store)
    subprocess.run([adj, "import", head, "--id", "a"], env=env, check=True, capture_output=True)
    times = []
    for x in match[keep:]:
        argv = [adj, "act", "a", x["type"], *act_fields(x), "--by", x["by"]]
        times.append(timed(lambda: subprocess.run(argv, env=env, capture_output=True, check=True)))
    p50 = statistics.median(times) * 1000
    base = statistics.median(timed(lambda: subprocess.run([sys.executable, "-c", "pass"])) for _ in range(max(5, len(times)))) * 1000
    row(f"adj act p50, {game} ({keep}-event match)", f"{p50:,.0f} ms", f"python -c pass {base:,.0f} ms (x{p50 / base:.1f})")
    return p50, base


#: house rules that make one long match of a game (many games to a match)
LONG = {"demonbrave": {"match_games": 999}, "e2drive": {"games_per_match": 999}}


#: Runs one command and prints its wall time, exit code and peak memory. A fresh interpreter: a
#: child forked from this process (which holds the corpora) would count its pages in its peak.
RUNNER = (
    "import os, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "print(time.perf_counter() - t, os.waitstatus_to_exitcode(status), usage.ru_maxrss, usage.ru_utime + usage.ru_stime)\n"
)


def run_child(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak memory (MB) of one command, from its own resource usage."""
    seconds, _, peak = usage(argv, env)
    return seconds, peak


def usage(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, its children included) and peak memory (MB) of
    one command, from its own resource usage."""
    out = subprocess.run([sys.executable, "-c", RUNNER, *argv], env=env, capture_output=True, text=True, check=True).stdout
    seconds, code, peak_kb, cpu = out.split()
    if code != "0":
        raise RuntimeError(f"{' '.join(argv)} exited {code}")
    return float(seconds), float(cpu), int(peak_kb) // 1024


def spread(values: list[float]) -> str:
    """Median and spread (lowest to highest) of repeated figures, in ms."""
    return f"{statistics.median(values) * 1000:,.0f} ms [{min(values) * 1000:,.0f}-{max(values) * 1000:,.0f}]"


def interleaved(commands: dict[str, list[str]], env: dict[str, str] | None, repeat: int, what: int = 1) -> dict[str, list[float]]:
    """Each command run ``repeat`` times, taking turns (so that the machine's load falls on all
    alike): the CPU seconds (``what`` 1), wall seconds (0) or peak MB (2) of every run."""
    got: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(repeat):
        for k, argv in commands.items():
            got[k].append(usage(argv, env)[what])
    return got


def bench_length(workdir: str, game: str, length: int, repeat: int, summary: dict[str, float | None]) -> float:
    """What a command costs on a long match beside a 200-event one of the same game: adj state,
    adj legal and adj act (p50 of ``repeat``, one process each), and each one's peak memory; adj
    import of the match's file and adj verify of the match, which read every event (their memory,
    not their time, should not grow with the match). Returns the largest ratio of the three
    bounded ones. On the long match, also: the CPU of state, legal and act beside that of
    ``python -c 'import msgspec, click'`` (``summary["act"]``), and ``adj state --at`` and ``adj
    diff`` in the middle of it beside ``adj state`` at its head (``summary["state-at"]``), each
    run taking turns with its peer."""
    match = gen.random_match(game, 7, length + repeat + 1, LONG[game])
    if match is None or len(match) < length + repeat:
        raise RuntimeError(f"random play did not make a {length}-event {game} match")
    adj = os.path.join(os.path.dirname(sys.executable), "adj")
    imports = [sys.executable, "-c", "import msgspec, click"]
    worst = 0.0
    figures: dict[int, dict[str, tuple[float, int]]] = {}
    cpu: dict[str, list[float]] = {"state": [], "legal": [], "act": [], "imports": []}
    for size in (200, length):
        store = os.path.join(workdir, f"length-{size}.sqlite3")
        head = os.path.join(workdir, f"length-{size}.jsonl")
        with open(head, "w", encoding="utf-8") as fh:
            fh.write("\n".join(msgspec.json.encode(x).decode() for x in match[:size]) + "\n")
        env = dict(os.environ, ADJ_STORE=store)
        imported = run_child([adj, "import", head, "--id", "m"], env)
        got: dict[str, list[tuple[float, int]]] = {"state": [], "legal": [], "act": []}
        for x in match[size : size + repeat]:
            for what, argv in (("state", [adj, "state", "m"]), ("legal", [adj, "legal", "m"]),
                               ("act", [adj, "act", "m", x["type"], *act_fields(x), "--by", x["by"]])):
                wall, used, peak = usage(argv, env)
                got[what].append((wall, peak))
                if size == length:
                    cpu[what].append(used)
            if size == length:
                cpu["imports"].append(usage(imports)[1])
        figures[size] = {k: (statistics.median(t for t, _ in v), max(m for _, m in v)) for k, v in got.items()}
        figures[size]["verify"] = run_child([adj, "verify", "m"], env)  # reads every event: time not bounded, memory is
        figures[size]["import"] = imported
    for what in ("state", "legal", "act"):
        (short, short_mb), (long_, long_mb) = figures[200][what], figures[length][what]
        worst = max(worst, long_ / short)
        row(f"adj {what}, {game}: {length:,} events vs 200", f"{long_ * 1000:,.0f} ms {long_mb} MB",
            f"200 events {short * 1000:,.0f} ms {short_mb} MB (x{long_ / short:.2f})")
    base = statistics.median(cpu["imports"])
    ratios = {w: statistics.median(cpu[w]) / base for w in ("state", "legal", "act")}
    summary["act"] = max(ratios.values())
    row(f"CPU of adj state / legal / act, {length:,} events", " / ".join(spread(cpu[w]) for w in ("state", "legal", "act")),
        f"python -c 'import msgspec, click' {spread(cpu['imports'])} (x{ratios['state']:.2f} / x{ratios['legal']:.2f} / x{ratios['act']:.2f})")
    (short, short_mb), (long_, long_mb) = figures[200]["import"], figures[length]["import"]
    row(f"adj import, {game}: a {length:,}-event file", f"{long_ * 1000:,.0f} ms {long_mb} MB, {rate(length, long_):,.0f} ev/s",
        f"200 events {short * 1000:,.0f} ms {short_mb} MB (memory x{long_mb / short_mb:.2f})")
    (short, short_mb), (long_, long_mb) = figures[200]["verify"], figures[length]["verify"]
    row(f"adj verify, {game}: {length:,} events", f"{long_ * 1000:,.0f} ms {long_mb} MB, {rate(length, long_):,.0f} ev/s",
        f"200 events {short * 1000:,.0f} ms {short_mb} MB (memory x{long_mb / short_mb:.2f})")
    # a look at the past of the long match: early, in the middle, late, beside the present
    env = dict(os.environ, ADJ_STORE=os.path.join(workdir, f"length-{length}.sqlite3"))
    at = {f"at {s:,}": [adj, "state", "m", "--at", str(s)] for s in (10, length // 2, length - 10)}
    looks = interleaved({"head": [adj, "state", "m"], **at, "diff": [adj, "diff", "m", str(length // 2 - 5), str(length // 2)]},
                        env, repeat)
    head_cpu = statistics.median(looks.pop("head"))
    summary["state-at"] = max(statistics.median(v) for v in looks.values()) / head_cpu
    row(f"CPU of adj state --at SEQ / adj diff, {length:,} events",
        "; ".join(f"{k} {spread(v)}" for k, v in looks.items()),
        f"adj state at the head {head_cpu * 1000:,.0f} ms (worst x{summary['state-at']:.2f})")
    return worst


def bench_html(workdir: str, game: str, length: int, repeat: int, summary: dict[str, float | None]) -> None:
    """``adj replay --html`` of a ``length``-event match beside ``adj export`` of it (CPU, taking turns)."""
    match = gen.random_match(game, 11, length, LONG[game])
    if match is None or len(match) < length:
        raise RuntimeError(f"random play did not make a {length}-event {game} match")
    adj = os.path.join(os.path.dirname(sys.executable), "adj")
    head = os.path.join(workdir, "html.jsonl")
    with open(head, "w", encoding="utf-8") as fh:
        fh.write("\n".join(msgspec.json.encode(x).decode() for x in match) + "\n")
    env = dict(os.environ, ADJ_STORE=os.path.join(workdir, "html.sqlite3"))
    run_child([adj, "import", head, "--id", "m"], env)
    got = interleaved({"html": [adj, "replay", "m", "--html", os.path.join(workdir, "m.html")],
                       "export": [adj, "export", "m"]}, env, repeat)
    html, export = statistics.median(got["html"]), statistics.median(got["export"])
    summary["html"] = html / export
    row(f"CPU of adj replay --html, {game} ({length:,} ev)", spread(got["html"]),
        f"adj export {spread(got['export'])} (x{summary['html']:.1f})")


def bench_verify_memory(corpus: list[list[Any]], workdir: str, label: str, repeat: int, summary: dict[str, float | None]) -> None:
    """``adj verify`` of a whole store: its peak memory on the store beside a store of a tenth of
    its matches (flat: about x1), and its time using every core beside the same command pinned
    to one (``taskset -c 0``), taking turns."""
    adj = os.path.join(os.path.dirname(sys.executable), "adj")
    big = os.path.join(workdir, f"vm-{label}-big.sqlite3")
    small = os.path.join(workdir, f"vm-{label}-small.sqlite3")
    sqlite_store(big, corpus).close()
    sqlite_store(small, corpus[: max(1, len(corpus) // 10)]).close()
    n = sum(map(len, corpus))
    mem = interleaved({"small": [adj, "verify", "--store", small, "--json"], "big": [adj, "verify", "--store", big, "--json"]},
                      None, 1, what=2)
    summary["verify-memory"] = mem["big"][0] / mem["small"][0]
    row(f"peak memory of adj verify, a store of {n:,} ev", f"{mem['big'][0]:,.0f} MB",
        f"a store of a tenth of its matches {mem['small'][0]:,.0f} MB (x{summary['verify-memory']:.2f})")
    taskset = shutil.which("taskset")
    if taskset is None:
        row("adj verify on every core", "skipped", "no taskset")
        return
    # the command's start (about 90 ms: the interpreter, click, the games), which both runs pay in
    # full, is a third of a 10,000-event store's verify: the ratio is also taken on a store where
    # the verification is most of the command, and that one is the summary's
    stores = {n: big}
    if n < CORES_EVENTS:
        larger = copies(corpus, CORES_EVENTS)
        stores[sum(map(len, larger))] = path = os.path.join(workdir, f"vm-{label}-cores.sqlite3")
        sqlite_store(path, larger).close()
        del larger
    for size, store in stores.items():
        argv = [adj, "verify", "--store", store, "--json"]
        got = interleaved({"all": argv, "one": [taskset, "-c", "0", *argv]}, None, repeat, what=0)
        summary["verify"] = statistics.median(got["one"]) / statistics.median(got["all"])
        row(f"adj verify of a store on {os.cpu_count()} cores ({size:,} ev)", spread(got["all"]),
            f"pinned to one core {spread(got['one'])} (x{summary['verify']:.2f})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes: the summary in under 2 minutes")
    ap.add_argument("--games", default="", help="comma-separated games (default: every registered game)")
    ap.add_argument("--events", type=int, default=0,
                    help="events per game for replay (default 10k quick, 100k full; 1000000 for the million)")
    ap.add_argument("--no-pg", action="store_true", help="leave out the PostgreSQL load (run when a server answers)")
    args = ap.parse_args(argv)
    games = [g for g in (args.games.split(",") if args.games else registry.names()) if g]
    total = args.events or (10_000 if args.quick else 100_000)
    # commands are timed as an installed copy runs them, with the project's bytecode compiled (pip
    # compiles on install); under PYTHONDONTWRITEBYTECODE each would compile every module it imports
    for package in ("adjudicator", "events", "cli"):
        compileall.compile_dir(os.path.join(ROOT, package), quiet=2)
    print(f"benchmarks on {os.cpu_count()} cores, python {sys.version.split()[0]}; {total:,} events per game"
          + (" (quick)" if args.quick else ""), flush=True)
    summary: dict[str, float | None] = dict.fromkeys(("replay", "act", "state-at", "verify-memory", "verify", "html", "import"))
    repeat = 3 if args.quick else 5
    with tempfile.TemporaryDirectory() as workdir:
        first = sealed(games[0], total)
        replays = {}
        for g in games:  # one corpus at a time: a million events of a game take a few GB
            corpus = first if g == games[0] else sealed(g, total)
            print(f"  {g}: {len(corpus)} matches, {sum(map(len, corpus)):,} events ({gen.source(g)})", flush=True)
            replays[g] = bench_replay(g, corpus, workdir, repeat)
            del corpus
        if all(r is not None for r in replays.values()):
            summary["replay"] = min(replays.values())  # type: ignore[type-var]
        small = first[: max(1, len(first) // 10)] if not args.quick else first
        bench_verify(small, workdir, games[0])
        bench_verify_store(first, workdir, games[0])
        bench_verify_memory(first, workdir, games[0], repeat, summary)
        summary["import"] = bench_import(small, workdir, games[0], repeat)
        bench_append(workdir, 200 if args.quick else 1000)
        bench_act(workdir, "bacdef" if "bacdef" in games else games[0], 8 if args.quick else 20)
        long_game = next((g for g in ("demonbrave", "e2drive") if g in games), None)
        # the long match: 100,000 events, or a million in the million run (import's memory, flat)
        long_events = 5_000 if args.quick else max(100_000, min(total, 1_000_000))
        if long_game:
            bench_length(workdir, long_game, long_events, repeat, summary)
            bench_html(workdir, long_game, 2_000 if args.quick else 10_000, repeat, summary)
        if not args.no_pg:
            bench_pg(args.quick)
    print(summary_line(summary))


def summary_line(summary: dict[str, float | None]) -> str:
    """The last line: one ratio each, from this run (``x?`` where it was not measured)."""
    def r(k: str) -> str:
        v = summary.get(k)
        return "x?" if v is None else f"x{v:.2f}"

    return (f"summary: replay {r('replay')} eventsourcing | act {r('act')} imports | state-at {r('state-at')} head"
            f" | verify-memory {r('verify-memory')} 10x-store | verify {r('verify')} one-core | html {r('html')} export"
            f" | import {r('import')} executemany")

if __name__ == "__main__":
    main()
