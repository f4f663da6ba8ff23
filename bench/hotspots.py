"""Replay one game's generated log and say where the time goes (profile before optimising).

    python bench/hotspots.py GAME [--events N] [--profile] [--top K]

Prints the replay rate with every rule checked (CPU time, best of three) (``fold_stored`` over seeded random play, the same
corpus bench/run.py replays) and, with ``--profile``, the functions that take the most time of
their own. The corpus is made once and kept in the temporary directory, keyed by game and size.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from adjudicator.service import fold_stored  # noqa: E402
from bench.run import sealed  # noqa: E402


def corpus(game: str, events: int) -> list:
    path = os.path.join(tempfile.gettempdir(), f"adj-bench-{game}-{events}.pickle")
    if os.path.exists(path):
        with open(path, "rb") as fh:
            return pickle.load(fh)
    made = sealed(game, events)
    with open(path, "wb") as fh:
        pickle.dump(made, fh)
    return made


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--events", type=int, default=5000)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    matches = corpus(args.game, args.events)
    n = sum(map(len, matches))
    best = min(_timed(matches) for _ in range(3))
    print(f"{args.game}: {n:,} events in {len(matches)} matches, replay {n / best:,.0f} ev/s ({best / n * 1e6:.1f} us/event)")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for m in matches:
            fold_stored(m)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)


def _timed(matches: list) -> float:
    """CPU seconds of one replay: on a shared machine, less swayed by other work than wall time."""
    t0 = time.process_time()
    for m in matches:
        fold_stored(m)
    return time.process_time() - t0


if __name__ == "__main__":
    main()
