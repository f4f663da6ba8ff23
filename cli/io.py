"""Where the command line meets its input and output: files read as UTF-8 with the place of a
bad byte, arguments checked to be text, a reader that went away."""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from typing import Any

import click

from cli.errors import BadInput


def read_text(path: str) -> str:
    """A file's text (``-`` is stdin); text that is not UTF-8 is bad input naming the file,
    the line and the column."""
    with click.open_file(path, "rb") as fh:
        data = fh.read()
    try:
        return data.decode("utf-8-sig")  # a BOM some editors write is not data
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise not_utf8(path, line, data[exc.start], exc.start - data.rfind(b"\n", 0, exc.start)) from None


def not_utf8(path: str, line: int, byte: int, column: int) -> BadInput:
    """The bad input of a file (``-``: stdin) whose line is not UTF-8, at ``byte`` in ``column``."""
    name = "stdin" if path == "-" else path
    return BadInput(f"{name} line {line} is not valid UTF-8 (byte 0x{byte:02x} at column {column})",
                    {"error": "malformed", "message": f"line {line} is not valid UTF-8", "path": f"line {line}"})


class LineFile:
    """A file's lines, read one at a time as they are iterated (``-`` is stdin), for what takes a
    long file line by line; a line is what ends at a newline. ``len`` is how many lines there are
    (a quick pass over the file's bytes; 0, not known, for stdin). A line that is not UTF-8 is bad
    input naming the file, the line and the column."""

    def __init__(self, path: str):
        self.path = path

    def __len__(self) -> int:
        if self.path == "-" or not os.path.isfile(self.path):
            return 0
        count, last = 0, b"\n"
        with open(self.path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                count += chunk.count(b"\n")
                last = chunk[-1:]
        return count + (last != b"\n")

    def __iter__(self) -> Iterator[str]:
        with click.open_file(self.path, "rb") as fh:
            for no, raw in enumerate(fh, 1):
                if no == 1 and raw.startswith(codecs.BOM_UTF8):  # a BOM some editors write is not data
                    raw = raw[len(codecs.BOM_UTF8):]
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise not_utf8(self.path, no, raw[exc.start], exc.start + 1) from None


def check_arguments(values: dict[str, Any]) -> None:
    """Every argument must be text: a byte that is not UTF-8 (kept by Python as a lone
    surrogate) is bad usage, named, before anything is read or written."""
    for name, value in values.items():
        for text in value if isinstance(value, tuple) else (value,):
            if isinstance(text, str):
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError as exc:
                    shown = text.encode("utf-8", "backslashreplace").decode("utf-8")
                    raise BadInput(f"the {name.replace('_', ' ')} argument {shown!r} is not valid UTF-8 "
                                   f"(character {exc.start + 1})", {"error": "usage", "message": "argument is not valid UTF-8"}) from None


def closed_pipe() -> None:
    """The reader went away (``adj replay M | head``): end quietly, as a tool killed by SIGPIPE
    does (exit 141), without a word on stderr and without failing again when stdout is flushed."""
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise click.exceptions.Exit(141)
