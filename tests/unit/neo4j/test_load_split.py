"""graphmem load split in two: the command's side (the file, the conversations chosen, the bar, what is
printed) in ``graphmem/cli/load.py``, the writing in the Neo4j store (its ``load`` method and
``graphmem/store/neo4j/load.py``). The store side imports neither click nor the LoCoMo reader, and a
load removes turns only by forgetting them (no Cypher of its own that deletes turns)."""

from __future__ import annotations

import re

from tests.conftest import REPO, imports_of

from graphmem.store.neo4j import queries

STORE = REPO / "graphmem" / "store"



def test_the_store_imports_neither_click_nor_the_locomo_reader():
    found = {str(p.relative_to(REPO)): sorted(n for n in imports_of(p) if n == "click" or n.startswith("click.")
                                             or n == "graphmem.data.locomo")
             for p in STORE.rglob("*.py")}
    assert {p: n for p, n in found.items() if n} == {}


def test_the_command_chooses_and_draws_and_the_store_loads():
    from graphmem.cli import load as command
    from graphmem.store.neo4j.store import Neo4jStore

    assert callable(command.select) and callable(command.bar)
    assert "conversations" in Neo4jStore.load.__code__.co_varnames[:Neo4jStore.load.__code__.co_argcount]
    assert "graphmem.store.neo4j.checks" not in imports_of(REPO / "graphmem" / "cli" / "load.py")


def test_one_way_to_remove_turns():
    """Only forgetting removes turns: every statement that deletes nodes is forgetting's, or deletes
    what no turn is (a Term left at zero, a turn's assertions read again)."""
    deleting = {name for name in queries.query_names() if re.search(r"\bDELETE\b", queries.query(name))}
    assert deleting == {"forget_turns", "forget_in_place", "term_owners", "write_claims"}, deleting
    for name in ("term_owners", "write_claims"):
        assert not re.search(r"DELETE \w*\b(t|n|turn)\b", queries.query(name)), name
