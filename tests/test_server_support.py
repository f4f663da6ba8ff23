"""What the tests of adj serve share: a real server on a free port of 127.0.0.1 (in a thread of the
test, or as an ``adj serve`` process stopped by its own PID), and a reader of server-sent events
bounded in time and count."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from server.app import Settings, build_app
from server.auth import Judge, token_hash

ROOT = Path(__file__).resolve().parents[1]
JUDGE_TOKEN = "judge-token-for-tests"
J = {"Authorization": f"Bearer {JUDGE_TOKEN}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def live_server(store_url: str, **settings: Any) -> Iterator[str]:
    """uvicorn serving the app in a thread of this process; yields its base URL. Stopped at the
    end as a signal stops it (its streams ended first), within a bounded time."""
    import asyncio

    import uvicorn

    app = build_app(Settings(store_url=store_url, port=0, judges=[Judge("judge", token_hash(JUDGE_TOKEN))], **settings))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=2))
    loops: list[asyncio.AbstractEventLoop] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        loops.append(loop)
        loop.run_until_complete(server.serve())

    thread = threading.Thread(target=run, name="test-adj-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    app.state.adj.base_url = f"http://127.0.0.1:{port}"
    try:
        yield app.state.adj.base_url
    finally:
        loops[0].call_soon_threadsafe(lambda: asyncio.ensure_future(app.state.adj.hub.close()))
        server.should_exit = True
        thread.join(15)
        assert not thread.is_alive(), "the server did not stop"


#: ``adj`` with the spine's test game registered (tests/conftest.py does the same for pytest).
LAUNCH = ("from adjudicator.engine import registry; registry.register('nim', 'tests.toygame:GAME'); "
          "from cli.main import main; main(prog_name='adj')")


class Serve:
    """``adj serve`` as a process of its own, on a free port; stopped by its PID."""

    def __init__(self, store_url: str, tmp: Path, name: str = "serve", token_file: Path | None = None):
        self.token_file = token_file or tmp / "judge.token"
        self.path = tmp / f"{name}.out"
        self.out = open(self.path, "w")  # the child's own: a handle shared with a reader would share its offset
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "serve", "--store", store_url, "--port", "0",
             "--judge-token-file", str(self.token_file)],
            cwd=ROOT, stdout=self.out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 30
        self.url = ""
        while not self.url:
            assert self.proc.poll() is None, self.log()
            assert time.monotonic() < deadline, f"adj serve did not start: {self.log()}"
            time.sleep(0.05)
            for line in self.log().splitlines():
                if line.startswith("adj serve: listening on "):
                    self.url = line.split()[4]
        self.judge = bearer(self.token_file.read_text().strip())
        self.client = httpx.Client(base_url=self.url, timeout=10)

    def log(self) -> str:
        return self.path.read_text()

    def kill(self, sig: int = signal.SIGKILL) -> int:
        self.client.close()
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
        return self.proc.wait(20)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.kill(signal.SIGTERM)
        self.out.close()


def read_events(url: str, headers: dict[str, str], until: Any, *, seconds: float = 15, most: int = 5000,
                started: threading.Event | None = None) -> list[dict[str, Any]]:
    """The server-sent events of ``url`` as ``{"id", "event", "data"}``, until ``until(events)`` is
    true (then the connection is dropped), at most ``most`` of them and ``seconds`` long."""
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(seconds)) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        if started is not None:
            started.set()
        cur: dict[str, Any] = {}
        try:
            for line in r.iter_lines():
                if line == "":
                    if "event" in cur:
                        out.append(cur)
                    # asked again at a keep-alive too: what it waits for may have come before it knew
                    if until(out) or len(out) >= most:
                        return out
                    cur = {}
                elif line.startswith(":"):
                    pass
                else:
                    key, _, value = line.partition(": ")
                    cur[key] = json.loads(value) if key == "data" else value
                if time.monotonic() > deadline:
                    break
        except httpx.ReadTimeout:
            pass
    return out


def accepted_seqs(events: list[dict[str, Any]]) -> list[int]:
    return [e["data"]["seq"] for e in events if e["event"] == "accepted"]
