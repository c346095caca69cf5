"""The Neo4j store's statements keep one plan each on the server, whatever the question or the write.

Neo4j keys a cached plan by the statement, its parameters' types and, for a list or a string
parameter, the size bucket of the value (0, 1, up to 10, up to 100, ...). A read given a list of
stems or keys directly would be planned again whenever a question brings a list of another bucket:
the first such search of a process pays the planning. So every statement the memory reads with
takes its values in one map parameter; so does every statement it writes with (a forget of one turn
and one of a whole conversation, an ingest of one turn and a load's thousand, each share one plan).
These tests read the store's code and the Cypher it names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem.store.neo4j.queries import query

STORE = Path(__file__).resolve().parents[3] / "graphmem" / "store" / "neo4j"
MODULES = ("store", "write", "search", "rows", "forget", "load")
"""The store's own modules (the client, the plan and a load's count check beside them are not the memory's)."""
READ_CALL = re.compile(r"""\.query\(\s*"([\w+]+)"\s*(?:,\s*(\w+)=)?""")
WRITE_CALL = re.compile(r"""tx\.run\(\s*"(\w+)"\s*(?:,\s*(\w+)=)?""")


def _calls(pattern: re.Pattern) -> list[tuple[str, str | None, str]]:
    """(statement, the keyword of its first parameter, module) for each call of ``pattern`` the store's modules make."""
    found = []
    for path in sorted(STORE / f"{m}.py" for m in MODULES):
        for name, keyword in pattern.findall(path.read_text(encoding="utf-8")):
            found.append((name, keyword or None, path.name))
    return found


def test_the_store_reads_through_named_statements():
    names = {name for name, _, _ in _calls(READ_CALL)}
    assert {"reader_stats", "memory_facts", "memory_held"} <= names


def test_the_store_writes_through_named_statements():
    written = {name for name, _, _ in _calls(WRITE_CALL)}
    assert {"write_claims", "forget_turns", "forget_in_place", "memory_lock"} <= written


@pytest.mark.parametrize("name,keyword,module", _calls(READ_CALL) + _calls(WRITE_CALL))
def test_each_statement_takes_its_values_in_one_map(name, keyword, module):
    text = "\n".join(line for line in query(name).splitlines() if not line.lstrip().startswith("//"))
    params = set(re.findall(r"\$(\w+)", text))
    assert keyword is not None and len(params) == 1 and params == {keyword}, (
        f"{module} reads {name} with top-level parameters {sorted(params)}: put them in one map")
    assert not re.search(rf"\${keyword}\b(?!\.)", text), f"{name} uses ${keyword} itself, not its fields"
