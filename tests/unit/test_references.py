"""Docstrings and Cypher comments name only modules, classes and functions that exist.

Why a test: a module moved or renamed leaves every sentence that named it behind, and a reader who
follows ``:class:`graphmem.index.query.Ranker``` finds nothing (five such names outlived their
modules once). Each Sphinx cross reference to ``graphmem.…`` in the package's source, and each
``graphmem.…`` name in a Cypher file's comments, is resolved here: the longest prefix that is a
module file is imported, and the rest looked up on it. A module whose optional dependency is not
installed is left unchecked (``.ci/run`` installs every extra, so CI checks them all).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj):`~?(graphmem(?:\.\w+)+)(?:\(\))?`")
CYPHER_NAME = re.compile(r"graphmem(?:\.\w+)+")


def _is_module(parts: list[str]) -> bool:
    path = REPO.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _missing(name: str) -> str | None:
    """Why ``name`` names nothing, or None when it resolves (or cannot be checked here)."""
    parts = name.split(".")
    at = next((i for i in range(len(parts), 0, -1) if _is_module(parts[:i])), 0)
    if at == 0:
        return "no such module"
    try:
        obj: object = importlib.import_module(".".join(parts[:at]))
    except ImportError as e:
        if (e.name or "").startswith("graphmem"):
            raise
        return None  # an optional extra not installed: its names are checked where it is
    for i, attribute in enumerate(parts[at:], start=at):
        if not hasattr(obj, attribute):
            return f"{'.'.join(parts[:i])} has no {attribute!r}"
        obj = getattr(obj, attribute)
    return None


def _named() -> list[tuple[str, str]]:
    """Every (place, name) a docstring or a Cypher comment refers to."""
    found = []
    for path in sorted((REPO / "graphmem").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found += [(f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1))
                  for m in ROLE.finditer(text)]
    for path in sorted((REPO / "cypher").rglob("*.cypher")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("//"):
                found += [(f"{path.relative_to(REPO)}:{n}", m.group(0).rstrip(".")) for m in CYPHER_NAME.finditer(line)]
    return found


def test_the_references_are_found():
    assert len(_named()) > 100  # the patterns still match the way the source refers to things


@pytest.mark.parametrize("name", ["graphmem.index.query.Ranker", "graphmem.memory.postings", "graphmem.nowhere"])
def test_a_gone_name_is_told(name):
    assert _missing(name) is not None


def test_every_name_in_a_docstring_or_a_cypher_comment_exists():
    wrong = [f"{place}: {name}: {why}" for place, name in _named() if (why := _missing(name)) is not None]
    assert not wrong, "\n".join(wrong)
