"""Where the shared data (LoCoMo, bench6, LongMemEval) is found when a command is given no path.

The data are CC BY-NC and never part of the repository; a team keeps one copy in a folder
``shared/data`` beside its checkouts, and the tests and CI find it there. The commands look in the
same places, in the same order, so ``graphmem bench`` run offline next to the tests finds what
the tests find instead of stopping at a failed download:

1. the dataset's own variable (``$GRAPHMEM_LOCOMO``, ``$GRAPHMEM_BENCH6``, ``$GRAPHMEM_LONGMEMEVAL``),
   which must then name something that exists;
2. ``$GRAPHMEM_SHARED/<name>``;
3. ``shared/data/<name>`` in the current directory or any directory above it, then in the
   checkout holding this package or any directory above it (``.ci/run`` looks the same way);
4. nothing: the caller decides (LoCoMo's cache and download, or an error saying where to get it).
"""

from __future__ import annotations

import os
from pathlib import Path

from graphmem.errors import DataError

__all__ = ["ENV_SHARED", "bases", "beside", "find"]

ENV_SHARED = "GRAPHMEM_SHARED"
"""The folder holding the shared data (``locomo10.json``, ``bench6/``, ``longmemeval/``)."""

_PACKAGE = Path(__file__).resolve().parents[1]


def bases() -> list[Path]:
    """The folders the shared data may be in, in the order they are looked in (those that
    exist or not): ``$GRAPHMEM_SHARED``, then ``shared/data`` in each directory from the current
    one up, then from the package's checkout up."""
    out = [Path(os.environ[ENV_SHARED]).expanduser()] if os.environ.get(ENV_SHARED) else []
    return out + [p for p in dict.fromkeys(beside()) if p not in out]


def beside() -> list[Path]:
    """``shared/data`` in each directory from the current one up, then from the package's
    checkout up: where a team keeps the one copy beside its checkouts."""
    starts = [_PACKAGE.parent]
    try:
        starts.insert(0, Path.cwd())
    except OSError:  # the current directory was deleted under us: look from the package only
        pass
    return [directory / "shared" / "data" for start in starts for directory in (start, *start.parents)]


def find(name: str, env: str | None = None, what: str = "file", hint: str = "") -> Path | None:
    """The shared ``name`` (a file or folder under ``shared/data``), or None when it is nowhere.

    ``env`` names the dataset's own variable: when set it wins, and a path that does not exist
    is a :class:`DataError` naming it (``what`` says ``file`` or ``directory``; ``hint``, when
    given, says where to get the data)."""
    if env and os.environ.get(env):
        path = Path(os.environ[env]).expanduser()
        if not path.exists():
            raise DataError(f"{path}: no such {what} (from ${env})" + (f"; {hint}" if hint else ""))
        return path
    for base in bases():
        if (base / name).exists():
            return base / name
    return None
