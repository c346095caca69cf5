"""Progress on long work (a load, a large ingest, LongMemEval, a sweep): a tqdm bar on a terminal, nothing else.

Why one helper: every long command must behave alike. A bar is drawn on stderr only when stderr is a
terminal and the caller did not ask for ``--quiet``; piped or redirected, a command prints exactly
what it printed before (its stdout is what scripts and docs read, and a log file gains no carriage
returns). tqdm draws it: a maintained library, not a bar of our own.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from tqdm import tqdm

__all__ = ["bar", "shown"]


def shown(quiet: bool = False, stream: IO[str] | None = None) -> bool:
    """Whether a bar is drawn: not ``quiet``, and ``stream`` (default stderr) is a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet:
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or stand-in stream is no terminal
        return False


def bar(total: int | None, label: str, *, quiet: bool = False, unit: str = "it",
        stream: IO[str] | None = None, **options: Any) -> tqdm:
    """A tqdm bar of ``total`` steps named ``label`` on ``stream`` (default stderr), disabled unless
    :func:`shown`; use it as a context manager and call ``update(n)``, or wrap an iterable with
    ``bar(...)`` and iterate ``.__iter__`` through tqdm's own ``iterable=`` option."""
    stream = sys.stderr if stream is None else stream
    return tqdm(total=total, desc=label, unit=unit, file=stream, disable=not shown(quiet, stream),
                dynamic_ncols=True, leave=False, **options)
