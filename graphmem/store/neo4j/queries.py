"""The Cypher the package runs, one statement a file, loaded by name.

Every query lives in the repository's top-level ``cypher/<name>.cypher`` and is read by
:func:`query`; every value travels as a parameter, never inside the query text. The Browser's own
files (its style and its documented example queries) live in ``cypher/browser``. A wheel ships the
folder as ``graphmem/cypher`` (``pyproject.toml`` maps it); a source checkout reads it in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import GraphmemError

if TYPE_CHECKING:  # a type only (importlib.resources.abc is new in Python 3.11)
    from importlib.resources.abc import Traversable

__all__ = ["Example", "browser_file", "browser_queries", "query", "query_names", "statements"]


_CHECKOUT = Path(__file__).resolve().parents[3] / "cypher"
"""The folder in a source checkout: beside ``graphmem/``, as the design card lays the repository out."""


@lru_cache(maxsize=1)
def _cypher_dir() -> Traversable:
    """The checkout's ``cypher/`` when this module runs from one, else the copy the wheel installed
    (``graphmem.cypher``): a checkout on ``PYTHONPATH`` never reads another installation's queries."""
    if (_CHECKOUT / "schema.cypher").is_file():
        return _CHECKOUT
    return resources.files("graphmem.cypher")


@lru_cache(maxsize=None)
def query(name: str) -> str:
    """The text of ``cypher/<name>.cypher`` (a single statement, without its final ``;``).

    ``"a+b"`` names one statement written in two files, ``a.cypher`` then ``b.cypher``: the
    search's first half (its statistics) is shared by its lexical and its fused second halves."""
    if "+" in name:
        return "\n".join(query(part) for part in name.split("+"))
    path = _cypher_dir() / f"{name}.cypher"
    if not path.is_file():
        raise GraphmemError(f"no Cypher query named {name!r} in {_cypher_dir()}")
    return path.read_text(encoding="utf-8").strip().rstrip(";").strip()


def statements(name: str) -> list[str]:
    """The statements of a multi-statement file (``schema``), split on ``;`` at line ends."""
    text = (_cypher_dir() / f"{name}.cypher").read_text(encoding="utf-8")
    out, current = [], []
    for line in text.splitlines():
        if line.strip().startswith("//") and not current:
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            out.append("\n".join(current).strip().rstrip(";"))
            current = []
    if "".join(current).strip():
        out.append("\n".join(current).strip())
    return out


def query_names() -> list[str]:
    """Every query file in ``cypher/`` (without the Browser's)."""
    return sorted(p.name[: -len(".cypher")] for p in _cypher_dir().iterdir() if p.name.endswith(".cypher"))


@dataclass(frozen=True)
class Example:
    """One documented Browser query: ``// name: description`` and the statement after it."""

    name: str
    description: str
    text: str


def browser_file(name: str) -> Traversable:
    """A file of ``cypher/browser`` (``style.grass``, ``queries.cypher``)."""
    return _cypher_dir() / "browser" / name


def browser_queries() -> tuple[str, list[Example]]:
    """The ``:params`` map and the example queries of ``cypher/browser/queries.cypher``."""
    params = ""
    examples: list[Example] = []
    head: tuple[str, str] | None = None
    body: list[str] = []
    for line in browser_file("queries.cypher").read_text(encoding="utf-8").splitlines():
        m = _HEADER.match(line)
        if line.startswith(":params "):
            params = line[len(":params "):].strip()
        elif m and not body:
            head = (m.group(1), m.group(2).strip())
        elif head and line.strip() and not line.startswith("//"):
            body.append(line)
            if line.rstrip().endswith(";"):
                examples.append(Example(head[0], head[1], "\n".join(body).strip().rstrip(";")))
                head, body = None, []
    return params, examples


_HEADER = re.compile(r"^// ([a-z][a-z0-9-]*): (.+)$")
