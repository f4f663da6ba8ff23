"""Progress of long work on a terminal: one line on stderr, rewritten in place, shown only when
stderr is a terminal, the output is not ``--json``, and the work has taken a moment already."""

from __future__ import annotations

import sys
import time
from typing import TextIO

import click

#: Seconds of work before a progress line appears (short work shows nothing), and between updates.
DELAY = 0.5
EVERY = 0.1


class Progress:
    """Call it with ``(done, total)`` as work goes on (``total`` 0 when it is not known, as for a
    file read from stdin); ``close`` clears the line."""

    def __init__(self, label: str, enabled: bool, stream: TextIO | None = None):
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < DELAY or (now - self.last < EVERY and (done < total or not total)):
            return
        self.last = now
        self.shown = True
        text = f"{self.label}: {done}/{total} {100 * done // total:3d}%" if total else f"{self.label}: {done}"
        self.width = len(text)
        click.echo(f"\r{text}", file=self.stream, nl=False)

    def close(self) -> None:
        if self.shown:
            click.echo("\r" + " " * self.width + "\r", file=self.stream, nl=False)
            self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress(label: str, as_json: bool) -> Progress:
    """A ``Progress`` that shows itself only on a terminal and never with ``--json``."""
    return Progress(label, enabled=not as_json and sys.stderr.isatty())
