"""Every ``graphmem.x.y`` a docstring, a comment or a Cypher file names exists.

Why: the prose is how a reader finds the code (the Cypher cannot import what it implements, so
its comments name the module), and a module that moved leaves its old name behind in prose no
import checks: ``graphmem.index.query.Ranker`` and ``graphmem.memory.postings`` were named for
months after they had gone. A name is resolved as Python would: the longest importable module,
then its attributes."""

from __future__ import annotations

import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"(?<![\w.])graphmem(?:\.[A-Za-z_]\w*)+")

NOT_MODULES = {
    "graphmem.words": "a codec error handler's name (graphmem.text.scripts registers it)",
    "graphmem.cypher": "the package the wheel installs cypher/ as (pyproject.toml), no folder in a checkout",
}


def _prose(path: Path) -> str:
    """What a file says to its reader: a Python file's comments and strings, a Cypher file whole."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    kept = [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type in (tokenize.COMMENT, tokenize.STRING)]
    return "\n".join(kept)


def _named() -> dict[str, list[str]]:
    files = [*sorted((ROOT / "graphmem").rglob("*.py")), *sorted((ROOT / "cypher").rglob("*.cypher")),
             *sorted((ROOT / "bench").glob("*.py"))]
    named: dict[str, list[str]] = {}
    for path in files:
        for name in NAME.findall(_prose(path)):
            named.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return named


def _exists(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_the_prose_names_modules():
    named = _named()
    assert "graphmem.index.bm25f" in named and len(named) > 100  # the scan reads what it should


def test_every_name_in_the_prose_exists():
    missing = {name: sorted(set(where)) for name, where in _named().items()
               if name not in NOT_MODULES and not _exists(name)}
    assert not missing, f"names of nothing: {missing}"


@pytest.mark.parametrize("name", ["graphmem.index.query.Ranker", "graphmem.memory.postings", "graphmem.index.nowhere"])
def test_a_name_of_nothing_is_found(name):
    assert not _exists(name)
