"""The status line of a ``spark-substrait`` command: what it is waiting for, on stderr.

A driver JVM takes seconds to start (a minute on a loaded machine), and nothing else is
printed meanwhile, so each slow step before the first row says what it is and then how long
it took::

    spark-substrait: starting Spark (local[2])… done (7.9 s)

Only when stderr is a terminal and ``--quiet`` is not given: a pipe or a log file gets
nothing, so scripts see only the rows and the errors. Every line is finished before the
rows are printed, so it never lands inside them. The stream is a duplicate of stderr taken
before the JVM starts: while it starts, file descriptor 2 is a pipe (cli/session.py).
"""

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import IO, Optional


class Status:
    def __init__(self, quiet: bool, stream: Optional[IO[str]] = None):
        if stream is None and not quiet and _is_terminal(sys.stderr):
            sys.stderr.flush()
            stream = os.fdopen(os.dup(sys.stderr.fileno()), "w", encoding="utf-8", errors="replace")
        self._stream = None if quiet else stream
        self._quiet = quiet

    @property
    def enabled(self) -> bool:
        return self._stream is not None

    @contextlib.contextmanager
    def step(self, text: str) -> Iterator[None]:
        """``text…`` now, `` done (N s)`` when the block ends (or `` failed`` when it raises)."""
        if self._stream is None:
            yield
            return
        self._write(f"spark-substrait: {text}… ")
        started = time.monotonic()
        try:
            yield
        except BaseException:
            self._write("failed\n")
            raise
        self._write(f"done ({time.monotonic() - started:.1f} s)\n")

    def note(self, text: str) -> None:
        """A line of advice (not an error): on stderr unless --quiet, even when not a terminal."""
        if not self._quiet:
            print(f"spark-substrait: note: {text}", file=sys.stderr, flush=True)

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
